#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make demo`: the read-scaling headline in about five minutes on a 2-core
# machine. Boots the VM with null_blk members capped at 75 MiB/s each,
# builds fanraid RAID0 arrays of 1, 2, 4, 8 and 16 members next to
# dm-stripe and md RAID0 on the same members, measures sequential O_DIRECT
# reads (1 MiB, queue depth 32) on each and on the raw members with no
# striping layer (the ceiling), then the same with one 128 KiB request at a
# time (1, 4, 16 members), where only fanraid's readahead queues keep every
# member busy; prints both tables and writes the plots.
#
# The entries are "demo-read-direct" and "demo-read-qd1" in bench/scenarios;
# bench/run.sh --suite full runs the long versions. Usage: bench/demo.sh [--out DIR]
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$top/results/$(date -u +%Y%m%d-%H%M%S)-demo
[ "${1:-}" = --out ] && [ -n "${2:-}" ] && out=$2

cat <<EOF
fanraid demo: read scaling, 1 to 16 simulated SSDs (null_blk, 75 MiB/s each)
  layers:   fanraid raid0 | dm-stripe | md raid0 | raw members (ceiling)
  workload: sequential read, O_DIRECT, 1 MiB x queue depth 32, 3 s per run;
            then 128 KiB x queue depth 1 (dd, iozone)
  VM:       QEMU TCG, 2 vCPUs; expect about 4-5 minutes
EOF
start=$(date +%s)
"$here/run.sh" --suite demo --out "$out" --no-report || exit 1
"$here/report.sh" "$out" >/dev/null
echo
for id in demo-read-direct demo-read-qd1; do
	awk -v id="$id" '$0 ~ "^== " id ":" { on = 1 } on && /^   plot:/ { print; exit } on' "$out/report.txt"
	echo
done
echo
echo "demo: $(($(date +%s) - start))s; report $out/report.txt, csv $out/results.csv"
[ -f "$out/demo-read-direct.png" ] || { echo "demo: no plot was written" >&2; exit 1; }
