#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# plot.sh RESULTS [OUTDIR]: rados bench's per-second report of a `make
# ceph-bench` run (the "# <config> <mode> | ..." lines guest.sh passes on)
# as one PNG per mode, MB/s against seconds with a line per configuration,
# so stalls (seconds at 0 MB/s) show where they happened, not only how
# many there were. Writes OUTDIR/ceph-<mode>.dat and .png; OUTDIR defaults
# to the results file's folder.
set -euo pipefail

res=${1:?usage: plot.sh RESULTS [OUTDIR]}
out=${2:-$(dirname "$res")}
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot missing" >&2; exit 1; }

for mode in write seq rand; do
	dat=$out/ceph-$mode.dat
	# One gnuplot data block per configuration (blocks split by two blank
	# lines), its name in the first line for the key. Report lines are
	# "sec cur-ops started finished avg-MB/s cur-MB/s ...".
	awk -v mode="$mode" '
		$1 == "#" && $3 == mode && $4 == "|" && $5 ~ /^[0-9]+$/ && NF >= 10 {
			if ($2 != cur) {
				if (cur != "")
					printf "\n\n"
				cur = $2
				printf "\"%s\"\n", cur
			}
			print $5, $10
		}' "$res" >"$dat"
	[ -s "$dat" ] || { rm -f "$dat"; continue; }
	blocks=$(grep -c '^"' "$dat")
	gnuplot <<EOF
set terminal png size 900,480
set output "$out/ceph-$mode.png"
set title "rados bench $mode, 16 x 4 MiB in flight, one OSD"
set xlabel "second"
set ylabel "MB/s (0 = a stall)"
set yrange [0:*]
set key outside right
plot for [i=0:$((blocks - 1))] "$dat" index i using 1:2 with linespoints title columnheader(1)
EOF
	echo "plot.sh: $out/ceph-$mode.png"
done
