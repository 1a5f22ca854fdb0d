#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make demo`: the headline in about six minutes on a quiet 2-core machine.
# Boots the VM with null_blk members capped at 76 MiB/s each (simulated
# SSDs) and, for 1, 4, 8 and 16 members, makes xfs on fanraid RAID0,
# dm-stripe and md RAID0 (each with the stripe hints mkfs reads from the
# layer) and btrfs -d raid0 over the members, writes one large file and
# reads it three ways: O_DIRECT at queue depth 32, buffered by one reader
# per guest CPU, and buffered by one reader with the read_ahead_kb the
# tool sets; the members read on their own with no layer are the ceiling.
# Then one 128 KiB request at a time on the block devices (1 and 16
# members), where only fanraid's readahead queues keep every member busy.
# Ends with the advice (bench/run.sh --advise) measured against a fanraid
# array of 8 of those simulated SSDs. Prints the tables, the time, and
# writes the plots.
#
# The entries are demo-fs-* and demo-read-qd1 in bench/scenarios.
# Usage: bench/demo.sh [--out DIR]
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=$top/results/$(date -u +%Y%m%d-%H%M%S)-demo
[ "${1:-}" = --out ] && [ -n "${2:-}" ] && out=$2

cat <<EOF
fanraid demo: a filesystem on 1 to 16 simulated SSDs (null_blk, 76 MiB/s each)
  layers:   xfs on fanraid raid0 | xfs on dm-stripe | xfs on md raid0 |
            btrfs -d raid0 | raw members (ceiling)
  reads:    one large file: O_DIRECT 1 MiB x qd32; buffered, one reader per
            CPU; buffered, one reader with the tool's read_ahead_kb; then
            the block devices, 128 KiB x qd1 (dd, iozone); then the advice
  VM:       QEMU TCG, 2 vCPUs; expect about 6 minutes on a quiet machine
EOF
start=$(date +%s)
"$here/run.sh" --suite demo --advise --out "$out" --no-report || exit 1
"$here/report.sh" "$out" >/dev/null
echo
for id in demo-fs-direct demo-fs-readers demo-fs-ra demo-read-qd1; do
	awk -v id="$id" '$0 ~ "^== " id ":" { on = 1 }
		on && /^   (plot:|fanraid counters)/ { exit }
		on && /^== / && $0 !~ "^== " id ":" { exit }
		on' "$out/report.txt"
	[ -f "$out/$id.png" ] && echo "   plot: $out/$id.png"
	echo
done
[ -f "$out/advice.txt" ] && cat "$out/advice.txt"
echo
echo "demo: $(($(date +%s) - start))s (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg));" \
	"report $out/report.txt, csv $out/results.csv"
[ -f "$out/demo-fs-direct.png" ] || { echo "demo: no plot was written" >&2; exit 1; }
