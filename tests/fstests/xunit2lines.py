#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# xunit2lines.py RESULT.xml FS CONFIG: fstests' xunit report (check -R
# xunit) as one results line a test for tests/fstests/guest.sh:
#   @@ T <fs> <config> <test> pass|fail|notrun <seconds> [reason]
import sys
import xml.etree.ElementTree as ET

path, fs, cfg = sys.argv[1:4]
for tc in ET.parse(path).getroot().iter("testcase"):
    name = tc.get("name")
    secs = tc.get("time", "0")
    state, why = "pass", ""
    for child in tc:
        if child.tag in ("failure", "error"):
            state, why = "fail", child.get("message", "")
        elif child.tag == "skipped":
            state, why = "notrun", child.get("message", "")
    why = " ".join(why.split())[:200]
    print(f"@@ T {fs} {cfg} {name} {state} {secs} {why}".rstrip())
