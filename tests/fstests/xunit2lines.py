#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# xunit2lines.py RESULT.xml CHECK.OUT FS CONFIG TEST...: fstests' results of
# one `check` run as one line a test for tests/fstests/guest.sh:
#   @@ T <fs> <config> <test> pass|fail|notrun <seconds> [reason]
# From its xunit report (check -R xunit) when check finished; else (the
# run's time budget ended) from check's own output: the test it was in
# when it was stopped failed, those after it were not run.
import os
import re
import sys
import xml.etree.ElementTree as ET

xml, out, fs, cfg = sys.argv[1:5]
tests = sys.argv[5:]
got = {}
if os.path.exists(xml):
    for tc in ET.parse(xml).getroot().iter("testcase"):
        state, why = "pass", ""
        for child in tc:
            if child.tag in ("failure", "error"):
                state, why = "fail", child.get("message", "")
            elif child.tag == "skipped":
                state, why = "notrun", child.get("message", "")
        got[tc.get("name")] = (state, tc.get("time", "0"), why)
# check's own output: which test was running when the budget ended (a
# check stopped by SIGTERM still writes the xunit report of those done)
text = open(out, errors="replace").read() if os.path.exists(out) else ""
last = None
for line in text.splitlines():
    m = re.match(r"^(\w+/\d+)(\s|$)", line)
    if m and m.group(1) in tests:
        last = m.group(1)
if not got:
    last = None
    for line in text.splitlines():
        m = re.match(r"^(\w+/\d+)\s+(.*)$", line)
        if not m or m.group(1) not in tests:
            continue
        name, rest = m.groups()
        last = name
        t = re.search(r"(\d+)s\s*$", rest)
        if "[not run]" in rest:
            got[name] = ("notrun", "0", rest.split("]", 1)[1])
        elif t and "fail" not in rest and "mismatch" not in rest:
            got[name] = ("pass", t.group(1), "")
        elif rest.strip():
            got[name] = ("fail", "0", rest)
if last and last not in got:
    got[last] = ("cut", "0", "still running when the time budget ended")
for name in tests:
    state, secs, why = got.get(name, ("notrun", "0", "time budget ended before it"))
    why = " ".join(why.split())[:200]
    print(f"@@ T {fs} {cfg} {name} {state} {float(secs):.0f} {why}".rstrip())
