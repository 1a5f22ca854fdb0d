#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# table.py RESULTS: the results port of a `make ceph-bench` run
# (bench/ceph/guest.sh) as docs/benchmarking.md's table, then the checks'
# closing count.
import sys

rows, health, oks, bads = {}, {}, 0, 0
for line in open(sys.argv[1], errors="replace"):
    f = line.split()
    if line.startswith("@@ B ") and len(f) >= 9:
        cfg, mode = f[2], f[3]
        rows.setdefault(cfg, {})[mode] = f[4:9]
    elif line.startswith("@@ H "):
        health[f[2]] = " ".join(f[3:])
    elif line.startswith("ok - "):
        oks += 1
    elif line.startswith("not ok - "):
        bads += 1

def c(r, i, fmt="{}"):
    return fmt.format(r[i]) if r else "—"

print("| OSD on | write MB/s | write stalls (longest) | write max lat s | seq MB/s | seq stalls | seq max lat s | rand MB/s | rand stalls | rand max lat s | ceph health after |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for cfg, r in rows.items():
    w, s, rd = r.get("write"), r.get("seq"), r.get("rand")
    print(f"| {cfg} | {c(w,0)} | {c(w,1)} ({c(w,2)} s) | {c(w,3)} | {c(s,0)} | {c(s,1)} | {c(s,3)} "
          f"| {c(rd,0)} | {c(rd,1)} | {c(rd,3)} | {health.get(cfg, '—')} |")
print()
print(f"ceph-bench: {oks} passed, {bads} failed")
sys.exit(1 if bads else 0)
