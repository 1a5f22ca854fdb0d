#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# table.py RESULTS: the results port of a `make fstests` run
# (tests/fstests/guest.sh) as the Markdown table of docs/testing.md, then
# the failures fanraid has and its control has not, and a closing count.
import collections
import sys

COLS = ["fanraid-raid0", "fanraid-raid6", "fanraid-raid6-degraded", "dm-stripe", "md-raid6"]
HEAD = ["fanraid RAID0", "RAID6", "RAID6 degraded", "dm-stripe", "md RAID6"]
CONTROL = {"fanraid-raid0": "dm-stripe", "fanraid-raid6": "md-raid6",
           "fanraid-raid6-degraded": "md-raid6"}

res = collections.OrderedDict()
why = {}
for line in open(sys.argv[1], errors="replace"):
    f = line.split(None, 7)
    if len(f) < 7 or f[:2] != ["@@", "T"]:
        continue
    fs, cfg, test, state, secs = f[2:7]
    res.setdefault((fs, test), {})[cfg] = (state, float(secs))
    if state != "pass" and len(f) > 7:
        why[(fs, test, cfg)] = f[7].strip()

def cell(r):
    if r is None:
        return "—"
    state, secs = r
    return {"pass": "pass", "fail": "**FAIL**", "notrun": "not run", "cut": "cut"}[state] + f" {secs:.0f} s"

print("| fs | test | " + " | ".join(HEAD) + " |")
print("|---|---|" + "---|" * len(COLS))
for (fs, test), r in res.items():
    print(f"| {fs} | {test} | " + " | ".join(cell(r.get(c)) for c in COLS) + " |")

n = collections.Counter()
own = []
for (fs, test), r in res.items():
    for c, (state, _) in r.items():
        n[state] += 1
        ctl = CONTROL.get(c)
        if state == "fail" and ctl and r.get(ctl, ("?",))[0] == "pass":
            own.append(f"{fs} {test} on {c} (passes on {ctl}): {why.get((fs, test, c), '')}")
notrun = sorted({f"{fs} {t}: {w}" for (fs, t, c), w in why.items()
                 if res[(fs, t)][c][0] == "notrun"})
print()
for w in notrun:
    print(f"not run: {w}")
for o in own:
    print(f"fanraid only: {o}")
print(f"fstests: {n['pass']} passed, {n['fail']} failed, {n['notrun']} skipped")
sys.exit(1 if own else 0)
