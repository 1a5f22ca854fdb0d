#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fails when the files of dm-target/ call each other in a circle.

docs/design.md ("Layers") promises that every file calls only files below
it. This builds the call graph between the module's .c files from function
definitions and calls (comments stripped) and prints any cycle.
"""
import collections
import glob
import os
import re
import sys

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dm-target")
src = {}
for path in glob.glob(os.path.join(top, "*.c")):
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//.*", "", text)
    src[os.path.basename(path)] = text

defined = {}
for name, text in src.items():
    for m in re.finditer(r"^[a-z][^\n;]*?\b(fanraid_[a-z0-9_]+)\(", text, flags=re.M):
        defined.setdefault(m.group(1), name)

calls = collections.defaultdict(set)
for name, text in src.items():
    for fn in set(re.findall(r"\b(fanraid_[a-z0-9_]+)\(", text)):
        home = defined.get(fn)
        if home and home != name:
            calls[name].add(home)

cycles = set()


def walk(node, path):
    for nxt in calls[node]:
        if nxt in path:
            cyc = path[path.index(nxt):]
            k = min(range(len(cyc)), key=lambda i: cyc[i])
            cycles.add(tuple(cyc[k:] + cyc[:k]))
        else:
            walk(nxt, path + [nxt])


for name in sorted(src):
    walk(name, [name])
for cyc in sorted(cycles):
    print("dm-target call cycle: " + " -> ".join(cyc + (cyc[0],)))
if cycles:
    sys.exit(1)
print("dm-target: %d files, no call cycle" % len(src))
