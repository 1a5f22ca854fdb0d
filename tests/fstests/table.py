#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# table.py RESULTS: the results port of a `make fstests` run
# (tests/fstests/guest.sh) as the Markdown table of docs/testing.md, then
# the failures fanraid has and its control has not, and a closing count.
import collections
import re
import sys

COLS = ["fanraid-raid0", "fanraid-raid6", "fanraid-raid6-degraded", "dm-stripe", "md-raid6"]
HEAD = ["fanraid RAID0", "RAID6", "RAID6 degraded", "dm-stripe", "md RAID6"]
CONTROL = {"fanraid-raid0": "dm-stripe", "fanraid-raid6": "md-raid6",
           "fanraid-raid6-degraded": "md-raid6"}

res = collections.OrderedDict()
why = {}
seen = {}	# (fs, cfg, test) -> verdict in check's own streamed output
LINE = re.compile(r"^# (\S+) (\S+) \| (\w+/\d+)\s+(.*)$")
for line in open(sys.argv[1], errors="replace"):
    m = LINE.match(line)
    if m:
        fs, cfg, test, rest = m.groups()
        rest = rest.split("@@ T")[0]
        if "[not run]" in rest:
            seen[(fs, cfg, test)] = ("notrun", 0, rest.split("]", 1)[1].strip())
        elif "failed" in rest or "mismatch" in rest:
            seen[(fs, cfg, test)] = ("fail", 0, rest.strip())
        elif re.search(r"\d+s\s*$", rest):
            seen[(fs, cfg, test)] = ("pass", float(re.search(r"(\d+)s\s*$", rest).group(1)), "")
    # a results line may follow check's last, unfinished line
    i = line.find("@@ T ")
    if i < 0:
        continue
    f = line[i:].split(None, 7)
    if len(f) < 7:
        continue
    fs, cfg, test, state, secs = f[2:7]
    res.setdefault((fs, test), {})[cfg] = (state, float(secs))
    if state != "pass" and len(f) > 7:
        why[(fs, test, cfg)] = f[7].strip()
# A combination stopped by its budget may have a partial xunit report:
# check's own output has the verdicts it printed before it was stopped.
for (fs, test), r in res.items():
    for cfg, (state, secs) in list(r.items()):
        v = seen.get((fs, cfg, test))
        if v and state in ("cut", "notrun") and (state == "cut" or "budget" in why.get((fs, test, cfg), "")):
            r[cfg] = (v[0], v[1] or secs)
            why[(fs, test, cfg)] = v[2]

def cell(r, w=""):
    if r is None:
        return "—"
    state, secs = r
    if state == "notrun":
        return "not reached" if "budget" in w else "not run"
    return {"pass": "pass", "fail": "**FAIL**", "cut": "cut"}[state] + f" {secs:.0f} s"

print("| fs | test | " + " | ".join(HEAD) + " |")
print("|---|---|" + "---|" * len(COLS))
for (fs, test), r in res.items():
    print(f"| {fs} | {test} | " + " | ".join(cell(r.get(c), why.get((fs, test, c), "")) for c in COLS) + " |")

n = collections.Counter()
own = []
for (fs, test), r in res.items():
    for c, (state, _) in r.items():
        n[state] += 1
        ctl = CONTROL.get(c)
        if state == "fail" and ctl and r.get(ctl, ("?",))[0] == "pass":
            own.append(f"{fs} {test} on {c} (passes on {ctl}): {why.get((fs, test, c), '')}")
notrun = sorted({f"{fs} {t}: {w}" for (fs, t, c), w in why.items()
                 if res[(fs, t)][c][0] == "notrun" and "budget" not in w})
print()
for w in notrun:
    print(f"not run: {w}")
for o in own:
    print(f"fanraid only: {o}")
print(f"fstests: {n['pass']} passed, {n['fail']} failed, {n['notrun'] + n['cut']} skipped"
      f" ({n['cut']} cut and {sum(1 for w in why.values() if 'budget' in w)} not reached by the time budget)")
sys.exit(1 if own else 0)
