#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Turns a results folder written by bench/run.sh into tables, a CSV and PNG
# plots. Reads only the raw results (fio JSON, .meta, fio logs), so it can be
# rerun on an old folder or on one copied from another machine.
#
# Usage: bench/report.sh RESULTS_DIR
#
# Writes into RESULTS_DIR:
#   report.txt         every table below, also printed
#   results.csv        one row per scenario x layer x N
#   <id>.png           MiB/s against N, one line per layer, the raw ceiling
#                      and the ideal N x one-device line
#   <id>.dat           the numbers behind the plot
#
# Per scenario: MiB/s per layer per N with the scaling efficiency
# T(N) / (N x T(1)) in brackets, the raw ceiling (every member driven on its
# own, no striping), the ideal N x raw(1), and fanraid / dm-stripe,
# fanraid / md RAID0 and fanraid RAID6 / md RAID6 ratios; entries run
# degraded (fail=K) say so under their title. Extra tables: operation
# latencies (mixed-tree jobs), one line per second and a stall report
# (large-writes), write amplification (entries with amp=1), CPU cost
# (IOPS, fio's sys CPU and sys CPU per operation, suite cpu), and RAID6
# healthy and degraded side by side with the fanraid / md ratio (when a
# degraded entry ran).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-}
[ -n "$dir" ] && [ -d "$dir" ] || { echo "usage: report.sh RESULTS_DIR" >&2; exit 2; }
# A jq FILTER over fio's JSON in FILE, raw output. Notes fio prints ahead of
# the JSON ("note: both iodepth >= 1 and synchronous I/O engine are
# selected...") are skipped; a missing or broken file yields nothing.
fio_jq() { # FILTER FILE
	sed -n '/^[[:blank:]]*{/,$p' "$2" 2>/dev/null | jq -r "$1" 2>/dev/null
}
# The write-intent bitmap tables (bitmap_report).
# shellcheck source=lib/bitmap-report.sh
. "$here/lib/bitmap-report.sh"

csv=$dir/results.csv
echo "scenario,job,fs,bs,qd,direct,member_mbps,layer,n,read_mibs,write_mibs,mibs,efficiency,raw_mibs,ideal_mibs,member_read_mib,member_write_mib,app_write_mib,write_amp" >"$csv"

# One scenario: rows "layer n read write member_read member_write app_write
# fio_rc cpu_busy app_read" from its .meta files, in the entry's layer order.
scenario_rows() { # DIR LAYERS
	local d=$1 l m n
	for l in ${2//,/ }; do
		for m in "$d/$l"-*.meta; do
			[ -f "$m" ] || continue
			n=${m##*-}
			n=${n%.meta}
			[ "$(sed -n 's/^layer=//p' "$m")" = "$l" ] || continue
			awk -F= -v l="$l" -v n="$n" '
				{ v[$1] = substr($0, length($1) + 2) }
				END { print l, n, v["read_mibs"] + 0, v["write_mibs"] + 0,
					v["member_read_bytes"] + 0, v["member_write_bytes"] + 0,
					v["app_write_bytes"] + 0, v["fio_rc"],
					(v["cpu_busy_pct"] != "") ? v["cpu_busy_pct"] : "-",
					v["app_read_bytes"] + 0 }' "$m"
		done
	done | sort -k2,2n -s
}

entry_key() { # ENTRYFILE KEY DEFAULT
	local v
	v=$(tr ' ' '\n' <"$1" | sed -n "s/^$2=//p" | head -n1)
	echo "${v:-$3}"
}

# The raw ceiling ("N MiB/s" lines) for an entry that has no raw layer of
# its own: from the entry that shares its build (share=), else from one of
# the same folder with members at the same cap, so the same run. Prints
# the id it came from first.
ext_raw() { # ENTRYFILE
	local e=$1 share member o od
	share=$(entry_key "$e" share -)
	member=$(entry_key "$e" member 76)
	for pass in share member; do
		for o in "$dir"/*/entry; do
			[ "$o" = "$e" ] && continue
			od=$(dirname "$o")
			ls "$od"/raw-*.meta >/dev/null 2>&1 || continue
			case $pass in
			share) [ "$share" != - ] && [ "$(entry_key "$o" share -)" = "$share" ] || continue ;;
			member) [ "$(entry_key "$o" member 76)" = "$member" ] || continue ;;
			esac
			echo "${od##*/}"
			scenario_rows "$od" raw | awk '{ print $2, $3 + $4 }'
			return 0
		done
	done
	return 0
}

# The main table, the CSV rows and the plot data for one scenario.
scenario_table() { # ID DIR
	local id=$1 d=$2 e=$2/entry layers job fs bs qd direct member runtime
	layers=$(entry_key "$e" layers "")
	job=$(entry_key "$e" job "")
	fs=$(entry_key "$e" fs none)
	bs=$(entry_key "$e" bs 1M)
	qd=$(entry_key "$e" qd 32)
	direct=$(entry_key "$e" direct 1)
	member=$(entry_key "$e" member 76)
	runtime=$(entry_key "$e" runtime 10)
	fail=$(entry_key "$e" fail 0)
	mode=$(sed -n 's/^mode=//p' "$d"/*.meta 2>/dev/null | head -n1)

	cache=$(sed -n 's/^cache=//p' "$d"/*.meta 2>/dev/null | sort -u)
	[ "$cache" = cold ] || cache="cold and warm runs (page-cache hits: see cache= in the .meta files)"
	what="a file on $fs"
	[ "$fs" = none ] && what="block device"
	[ "$job" = mixed-tree ] && what="file trees on $fs"
	echo
	echo "== $id: $job, bs $bs, qd $qd, $([ "$direct" = 1 ] && echo O_DIRECT || echo buffered)," \
		"$cache, $what, ${runtime}s per run"
	if [ "$mode" = vm ]; then
		echo "   members: null_blk mbps=$member (raw N=1 is the real per-member rate; see docs/benchmarking.md on the budget)"
	else
		echo "   members: $(sed -n 's/^members=//p' "$d"/*.meta | sort | tail -n1)"
	fi
	if [ "$fail" != 0 ]; then
		echo "   DEGRADED: fail=$fail, member$([ "$fail" = 1 ] && echo " 0" || echo "s 0..$((fail - 1))")" \
			"failed before every run (checked: fanraid health D, md /proc/mdstat)"
	fi
	local ext="" extid=""
	if ! ls "$d"/raw-*.meta >/dev/null 2>&1; then
		ext=$(ext_raw "$e")
		extid=$(echo "$ext" | head -n1)
		ext=$(echo "$ext" | sed 1d | tr '\n' ' ')
	fi
	scenario_rows "$d" "$layers" | awk -v id="$id" -v layers="$layers" \
		-v csv="$csv" -v dat="$dir/$id.dat" -v job="$job" -v fs="$fs" \
		-v bs="$bs" -v qd="$qd" -v direct="$direct" -v member="$member" \
		-v ext="$ext" -v extid="$extid" '
	{
		l = $1; n = $2; t = $3 + $4
		mibs[l, n] = t; rd[l, n] = $3; wr[l, n] = $4
		mr[l, n] = $5 / 1048576; mw[l, n] = $6 / 1048576; aw[l, n] = $7 / 1048576
		rc[l, n] = $8; cpu[l, n] = $9
		if ($9 != "-") hascpu = 1
		if (!(n in seen)) { seen[n] = 1; ns[++nn] = n }
	}
	END {
		nl = split(layers, L, ",")
		# N in ascending order.
		for (i = 1; i <= nn; i++)
			for (j = i + 1; j <= nn; j++)
				if (ns[j] + 0 < ns[i] + 0) { x = ns[i]; ns[i] = ns[j]; ns[j] = x }
		for (k = 1; k <= nl; k++) {
			base[L[k]] = ""
			for (i = 1; i <= nn; i++)
				if ((L[k], ns[i]) in mibs && ns[i] == 1)
					base[L[k]] = mibs[L[k], 1]
		}
		# The rate of one member: raw ceiling at the smallest N, divided by
		# N; without a raw layer, that of the entry ext_raw found.
		raw1 = (("raw", ns[1]) in mibs) ? mibs["raw", ns[1]] / ns[1] : ""
		ne = split(ext, E, " ")
		for (i = 1; i < ne; i += 2) {
			xraw[E[i]] = E[i + 1]
			if (xmin == "" || E[i] + 0 < xmin + 0) xmin = E[i]
		}
		if (raw1 == "" && xmin != "") raw1 = xraw[xmin] / xmin
		# No raw ceiling anywhere in the folder: the best layer at N=1,
		# so that every plot still has its ideal line.
		if (raw1 == "")
			for (k = 1; k <= nl; k++)
				if ((L[k], 1) in mibs && mibs[L[k], 1] > raw1 + 0) { raw1 = mibs[L[k], 1]; raw1best = 1 }
		w = hascpu ? 22 : 16
		hasfr = 0; hasds = 0; hasmd = 0; hasfr6 = 0; hasmd6 = 0
		for (k = 1; k <= nl; k++) {
			if (L[k] == "fanraid") hasfr = 1
			if (L[k] == "dm-stripe") hasds = 1
			if (L[k] == "md-raid0") hasmd = 1
			if (L[k] == "fanraid-raid6") hasfr6 = 1
			if (L[k] == "md-raid6") hasmd6 = 1
		}
		hdr = sprintf("%4s", "N")
		for (k = 1; k <= nl; k++)
			hdr = hdr sprintf(" | %-" w "s", L[k] == "raw" ? "raw ceiling" : L[k])
		if (raw1 != "") hdr = hdr sprintf(" | %-9s", "ideal")
		if (hasfr && hasds) hdr = hdr " | fr/dm-stripe"
		if (hasfr && hasmd) hdr = hdr " | fr/md"
		if (hasfr6 && hasmd6) hdr = hdr " | fr6/md6"
		print hdr
		gsub(/[^|]/, "-", hdr)
		print hdr
		printf "n" > dat
		for (k = 1; k <= nl; k++) printf " %s", L[k] > dat
		print " ideal" > dat
		for (i = 1; i <= nn; i++) {
			n = ns[i]
			line = sprintf("%4d", n)
			printf "%d", n > dat
			for (k = 1; k <= nl; k++) {
				l = L[k]
				if ((l, n) in mibs) {
					# Against N x one member where that is known,
					# else against N x the layer at N=1.
					if (raw1 != "" && raw1 > 0)
						eff = sprintf("%.2f", mibs[l, n] / (n * raw1))
					else
						eff = (base[l] != "" && base[l] > 0) ? sprintf("%.2f", mibs[l, n] / (n * base[l])) : ""
					cell = sprintf("%7.1f", mibs[l, n]) (eff != "" ? " (" eff ")" : "")
					if (cpu[l, n] != "-") cell = cell sprintf(" %3d%%", cpu[l, n])
					# CPU-limited: the guest was (nearly) all busy and
					# the figure is short of the ideal.
					if (cpu[l, n] != "-" && cpu[l, n] >= 90 && eff != "" && eff < 0.90) {
						cell = cell " CPU"
						cpul[n] = cpul[n] (cpul[n] != "" ? ", " : "") l
						if (cmin[n] == "" || cpu[l, n] < cmin[n]) cmin[n] = cpu[l, n]
						if (cmax[n] == "" || cpu[l, n] > cmax[n]) cmax[n] = cpu[l, n]
					}
					if (rc[l, n] != 0) cell = cell "!"
					printf " %.1f", mibs[l, n] > dat
					wa = (aw[l, n] > 0) ? sprintf("%.3f", mw[l, n] / aw[l, n]) : ""
					printf "%s,%s,%s,%s,%s,%s,%s,%s,%d,%.1f,%.1f,%.1f,%s,%s,%s,%.1f,%.1f,%.1f,%s\n", \
						id, job, fs, bs, qd, direct, member, l, n, rd[l, n], wr[l, n], \
						mibs[l, n], eff, ((("raw", n) in mibs) ? mibs["raw", n] : ""), \
						(raw1 != "" ? sprintf("%.1f", n * raw1) : ""), mr[l, n], mw[l, n], aw[l, n], wa >> csv
				} else {
					cell = "    skipped"
					printf " ?" > dat
				}
				line = line sprintf(" | %-" w "s", cell)
			}
			if (raw1 != "") {
				line = line sprintf(" | %9.1f", n * raw1)
				printf " %.1f\n", n * raw1 > dat
			} else {
				printf " ?\n" > dat
			}
			if (hasfr && hasds)
				line = line sprintf(" | %13s", (("fanraid", n) in mibs && ("dm-stripe", n) in mibs && mibs["dm-stripe", n] > 0) ? \
					sprintf("%.2f", mibs["fanraid", n] / mibs["dm-stripe", n]) : "-")
			if (hasfr && hasmd)
				line = line sprintf(" | %6s", (("fanraid", n) in mibs && ("md-raid0", n) in mibs && mibs["md-raid0", n] > 0) ? \
					sprintf("%.2f", mibs["fanraid", n] / mibs["md-raid0", n]) : "-")
			if (hasfr6 && hasmd6)
				line = line sprintf(" | %8s", (("fanraid-raid6", n) in mibs && ("md-raid6", n) in mibs && mibs["md-raid6", n] > 0) ? \
					sprintf("%.2f", mibs["fanraid-raid6", n] / mibs["md-raid6", n]) : "-")
			print line
		}
		# A raw ceiling under 0.90 of ideal with the guest CPUs not all
		# busy: the VM was starved from outside (other load on the host,
		# which the guest cannot see as busy), so no figure at that N
		# measures a layer.
		for (i = 1; i <= nn; i++) {
			n = ns[i]
			rn = (("raw", n) in mibs) ? mibs["raw", n] : ((n in xraw) ? xraw[n] : "")
			if (rn == "" || raw1 == "" || rn >= 0.90 * n * raw1) continue
			if (("raw", n) in mibs && cpu["raw", n] != "-" && cpu["raw", n] >= 90) continue
			printf "   HOST: N=%d: the members raw ceiling in this run is %.1f MiB/s, %.2f of ideal, with the guest CPUs not all busy: the host starved the VM, so figures at this N do not measure the layers\n", \
				n, rn, rn / (n * raw1)
		}
		# Next to every CPU-limited figure: the members raw ceiling of
		# the same run, so that a CPU limit is not read as the layers.
		for (i = 1; i <= nn; i++) {
			n = ns[i]
			if (cpul[n] == "") continue
			rawn = (("raw", n) in mibs) ? sprintf("%.1f", mibs["raw", n]) : ((n in xraw) ? sprintf("%.1f", xraw[n]) " (" extid ")" : "not measured")
			printf "   CPU: N=%d %s: the guest CPUs were %s%% busy and the figure is under 0.90 of ideal: the emulated CPU, not the layer, is the limit; raw ceiling of the members in this run: %s MiB/s\n", \
				n, cpul[n], (cmin[n] == cmax[n] ? cmin[n] : cmin[n] "-" cmax[n]), rawn
		}
		close(dat)
	}'
	local cpun=""
	grep -q '^cpu_busy_pct=[0-9]' "$d"/*.meta 2>/dev/null && cpun=", guest CPU busy %"
	if ls "$d"/raw-*.meta >/dev/null 2>&1; then
		echo "   MiB/s (efficiency T(N) / (N x one member)$cpun); ideal = N x one raw member (raw ceiling at the smallest N / N); ! = fio failed"
	elif [ -n "$extid" ]; then
		echo "   MiB/s (efficiency T(N) / (N x one member)$cpun); ideal = N x one raw member of $extid, same run; ! = fio failed"
	elif scenario_rows "$d" "$layers" | awk '$2 == 1 { f = 1 } END { exit !f }'; then
		echo "   MiB/s (efficiency T(N) / (N x the best layer at N=1: no raw ceiling in this folder)$cpun); ! = fio failed"
	else
		echo "   MiB/s (scaling efficiency T(N) / (N x T(1)) of that layer, when N=1 ran$cpun); ! = fio failed"
	fi
	if [ -s "$d/skipped" ]; then
		echo "   skipped:"
		sed 's/^\([^ ]*\) \([^ ]*\) /     \1 N=\2: /' "$d/skipped"
	fi
}

# PNG: MiB/s against N, log2 x axis, one line per layer, ideal dashed.
scenario_plot() { # ID
	local id=$1 dat=$dir/$1.dat ncol i cols=""
	# A line needs two points: entries with one N get only the table.
	[ -s "$dat" ] && [ "$(wc -l <"$dat")" -gt 2 ] || return 0
	ncol=$(head -n1 "$dat" | wc -w)
	nmax=$(awk 'NR > 1 && $1 > m { m = $1 } END { print m + 0 }' "$dat")
	for ((i = 2; i <= ncol; i++)); do
		name=$(head -n1 "$dat" | cut -d' ' -f"$i")
		case $name in
		ideal) style="with lines dt 2 lw 2 lc rgb 'gray40' title 'ideal: N x one device'" ;;
		raw) style="with linespoints dt 3 lw 2 pt 6 lc rgb 'black' title 'raw ceiling (no striping)'" ;;
		*) style="with linespoints lw 2 pt 7 title '$name'" ;;
		esac
		cols="$cols${cols:+, }'$dat' using 1:$i $style"
	done
	gnuplot <<EOF 2>"$dir/$id.gnuplot.err"
set terminal pngcairo size 900,600 noenhanced font ',11'
set output '$dir/$id.png'
set title '$id: MiB/s against member count'
set xlabel 'members (N)'
set ylabel 'MiB/s'
set logscale x 2
set xrange [0.8:$nmax * 1.25]
set xtics (1, 2, 4, 8, 16, 32, 64)
set key top left
set grid
set yrange [0:*]
set datafile missing '?'
plot $cols
EOF
	[ -s "$dir/$id.gnuplot.err" ] || rm -f "$dir/$id.gnuplot.err"
}

# Jobs reported one by one (mixed-tree, sync-beside-stream): each operation
# (fio job) with count, min, max, mean, stdev, percentiles, and for a job
# that syncs, its fdatasync's p99.
ops_table() { # ID DIR
	local f
	for f in "$2"/*.json; do
		[ -f "$f" ] || continue
		echo "   $(basename "$f" .json): operation latency (ms)"
		# Per job, its name and index, then the direction it did the
		# most operations in: count, clat min, max, mean, stdev, p50,
		# p99, p99.9, bytes/s, then the p99 of its syncs (0: none).
		# ($j, $d and $p are jq's variables, not the shell's.)
		# shellcheck disable=SC2016
		fio_jq '.jobs | to_entries[] | .key as $j | .value |
			(if (.write.total_ios // 0) > (.read.total_ios // 0) then .write else .read end) as $d |
			($d.clat_ns.percentile // {}) as $p |
			[.jobname, $j, $d.total_ios, $d.clat_ns.min, $d.clat_ns.max, $d.clat_ns.mean,
				$d.clat_ns.stddev, ($p["50.000000"] // 0), ($p["99.000000"] // 0),
				($p["99.900000"] // 0), $d.bw_bytes,
				(.sync.lat_ns.percentile["99.000000"] // 0)] | @tsv' "$f" | awk -F'\t' '
			BEGIN { printf "     %-13s %8s %9s %9s %9s %9s %9s %9s %9s %9s %10s\n", "op", "cnt", "min", "max", "mean", "stdev", "p50", "p99", "p99.9", "sync p99", "MiB/s" }
			{
				printf "     %-13s %8d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %10.2f\n", $1 "." $2,
					$3, $4 / 1e6, $5 / 1e6, $6 / 1e6, $7 / 1e6, $8 / 1e6, $9 / 1e6, $10 / 1e6, $12 / 1e6, $11 / 1048576
			}'
	done
}

# perf=1 entries: each run's top symbols (samples of every CPU, cpu-clock),
# the first 20 of the report bench.sh kept, then the threads they ran in.
perf_table() { # DIR
	local f
	for f in "$1"/*.perf.txt; do
		[ -f "$f" ] || continue
		echo "   $(basename "$f" .perf.txt): perf top symbols (% of samples, every CPU; all in $f)"
		sed '/^# by thread/q; /^# callers/q' "$f" | grep -v '^#' | head -n 20 | sed 's/^/     /'
		grep -q '^# by thread' "$f" || continue
		echo "     by thread:"
		sed -n '/^# by thread/,/^# callers/p' "$f" | grep -v '^#' | head -n 8 | sed 's/^/     /'
	done
}

# Large writes: one line per second from fio's 1 s averaged logs, and the
# stall report.
seconds_table() { # ID DIR
	local b base
	for b in "$2"/*_bw.log; do
		[ -f "$b" ] || continue
		base=${b%_bw.log}
		echo "   $(basename "$base"): per second"
		awk -F', *' -v runtime="$(entry_key "$2/entry" runtime 10)" \
			-v maxlat="$(fio_jq '.jobs[0].write.lat_ns.max // empty' "$base.json")" '
			# fio writes an averaged line about once a second, none for
			# a second with no completion, and sometimes two close
			# together: each line goes to the nearest second, lines
			# sharing a second are averaged, a second without one is 0.
			{ s = int(($1 + 500) / 1000) }
			FILENAME ~ /_bw\.log$/ { bws[s] += $2; bwn[s]++; bw[s] = bws[s] / bwn[s] }
			FILENAME ~ /_iops\.log$/ { ops_s[s] += $2; opn[s]++; ops[s] = ops_s[s] / opn[s] }
			FILENAME ~ /_lat\.log$/ { lats[s] += $2; latn[s]++; lat[s] = lats[s] / latn[s] }
			END {
				printf "     %4s %10s %10s %10s %12s %12s\n", "sec", "finished", "cur MiB/s", "avg MiB/s", "last lat ms", "avg lat ms"
				for (s = 1; s <= runtime; s++) {
					cur = bw[s] / 1024; tot += cur; avg = tot / s
					if (s in lat) { last = lat[s] / 1e6; lsum += last; lcnt++ }
					if (cur == 0) stalls++
					printf "     %4d %10d %10.1f %10.1f %12.1f %12.1f\n", s, ops[s], cur, avg,
						(s in lat) ? last : 0, lcnt ? lsum / lcnt : 0
				}
				printf "     stalls: %d s at 0 MiB/s of %d s; max latency %.1f ms\n", stalls, runtime, maxlat / 1e6
			}' "$b" "$base"_iops.log "$base"_lat.log
	done
}

# fanraid's own view of each run, from `dmsetup status` before and after:
# requests and average request size the members got, flushes, and the
# readahead counters (v1 status: per-member groups of 6, then mismatch_cnt,
# ra_hits, ra_misses, ra_prefetched, ra_wasted, flushes_elided, then from
# target 1.1.0 the RAID6 stripe cache's KiB in use and peak; absent on
# older modules). The peak is over the run: every run loads its own table.
fanraid_table() { # DIR
	local m
	ls "$1"/fanraid*.meta >/dev/null 2>&1 || return 0
	echo "   fanraid counters (difference over the run, summed over members)"
	printf '     %-14s %4s %-8s %9s %9s %8s %8s %8s %8s %10s %9s %11s\n' layer N health "reads" "avg KiB" writes "avg KiB" flushes "ra hits" "ra fetch MiB" "ra waste" "r6 cache MiB"
	for m in "$1"/fanraid*.meta; do
		awk -F= '
			$1 == "layer" { layer = $2 }
			$1 == "n" { n = $2 }
			$1 == "fanraid_status_before" { nb = split($2, b, " ") }
			$1 == "fanraid_status_after" { na = split($2, a, " ") }
			END {
				if (!na || !nb) exit
				devs = a[5]; first = 9
				for (i = 0; i < devs; i++) {
					o = first + 6 * i
					r += a[o] - b[o]; w += a[o + 1] - b[o + 1]
					rs += a[o + 2] - b[o + 2]; ws += a[o + 3] - b[o + 3]
					f += a[o + 4] - b[o + 4]
				}
				t = first + 6 * devs
				if (na >= t + 5) {
					hits = a[t + 1] - b[t + 1]; pf = (a[t + 3] - b[t + 3]) / 2048
					ws2 = (a[t + 4] - b[t + 4]) / 2048
					ra = sprintf("%8d %10.1f %9.1f", hits, pf, ws2)
				} else {
					ra = sprintf("%8s %10s %9s", "-", "-", "-")
				}
				# RAID6 stripe cache: peak use over the run
				cache = "-"
				if (na >= t + 7 && a[4] == "raid6")
					cache = sprintf("%.1f", a[t + 7] / 1024)
				# Health after the run, one A/a/D per member; counted
				# past 8 members (2D14A).
				h = a[6]
				if (length(h) > 8) {
					h = ""
					nd = gsub(/D/, "D", a[6]); nr = gsub(/a/, "a", a[6]); ok = gsub(/A/, "A", a[6])
					if (nd) h = h nd "D"
					if (nr) h = h nr "a"
					if (ok) h = h ok "A"
				}
				printf "     %-14s %4d %-8s %9d %9.1f %8d %8.1f %8d %s %11s\n", layer, n, h, r,
					r ? rs / r / 2 : 0, w, w ? ws / w / 2 : 0, f, ra, cache
			}' "$m"
	done | sort -k2,2n -k1,1
}

# Flush policies side by side: one row per mixed-tree run of the whole
# results folder (the flush_policy entries and the other layers under the
# same load), with the flushes the member disks executed (their stat files;
# absent from older .meta files) and, for fanraid, the flushes flush_policy
# dirty elided (from its status).
flush_table() { # ENTRYFILE...
	local e d m l
	for e in "$@"; do
		[ "$(entry_key "$e" job "")" = mixed-tree ] || continue
		d=$(dirname "$e")
		for l in $(entry_key "$e" layers "" | tr , ' '); do
		for m in "$d/$l"-*.meta; do
			[ -f "$m" ] || continue
			[ "$(sed -n 's/^layer=//p' "$m")" = "$l" ] || continue
			awk -F= '
				{ v[$1] = substr($0, length($1) + 2) }
				END {
					pol = "passthrough"
					if (v["features"] ~ /flush_policy:/) {
						pol = v["features"]; sub(/.*flush_policy:/, "", pol); sub(/:.*/, "", pol)
					}
					if (v["layer"] != "fanraid" && v["layer"] != "fanraid-raid6") pol = "(" v["layer"] ")"
					# fanraid: flushes sent to members, elided, and the
					# members one array flush reached on average.
					el = "-"; per = "-"
					nb = split(v["fanraid_status_before"], b, " ")
					na = split(v["fanraid_status_after"], a, " ")
					if (na && nb) {
						# flushes_elided: after mismatch_cnt and the four
						# readahead counters that follow the per-member groups
						t = 9 + 6 * a[5] + 5
						el = a[t] - b[t]; sent = 0
						for (i = 0; i < a[5]; i++)
							sent += a[9 + 6 * i + 4] - b[9 + 6 * i + 4]
						per = (sent + el) ? sprintf("%.2f", sent * a[5] / (sent + el)) : "0"
						if (v["features"] ~ /flush_policy:drop/) per = "0"
					}
					fl = ("member_flush_ios" in v) ? v["member_flush_ios"] : "-"
					rt = v["runtime"] + 0
					printf "     %-14s %-13s %3d %10.1f %11.1f %10s %10s %9s %9s   %s ms\n", v["layer"], pol, v["n"],
						v["read_mibs"], v["write_mibs"], fl,
						(fl != "-" && rt) ? sprintf("%.1f", fl / rt) : "-", el, per,
						(v["member_flush_ms"] != "") ? v["member_cache_mib"] " MiB, " v["member_flush_ms"] : "-, -"
				}' "$m"
		done
		done
	done | sort -k3,3n -s
}

# RAID6 healthy and degraded side by side: one row per N of every entry
# that ran fanraid-raid6 and md-raid6, with its fail=K and the ratio.
raid6_table() { # ENTRYFILE...
	local e d id job bs qd fail layers
	for e in "$@"; do
		layers=,$(entry_key "$e" layers ""),
		case $layers in *,fanraid-raid6,*) ;; *) continue ;; esac
		[ "$(entry_key "$e" job "")" = rebuild ] && continue
		case $layers in *,md-raid6,*) ;; *) continue ;; esac
		d=$(dirname "$e")
		id=${d##*/}
		job=$(entry_key "$e" job "")
		bs=$(entry_key "$e" bs 1M)
		qd=$(entry_key "$e" qd 32)
		fail=$(entry_key "$e" fail 0)
		scenario_rows "$d" fanraid-raid6,md-raid6 | awk -v id="$id" \
			-v job="$job" -v bs="$bs" -v qd="$qd" -v fail="$fail" '
			{ t[$1, $2] = $3 + $4; if (!($2 in seen)) { seen[$2] = 1; ns[++nn] = $2 } }
			END {
				for (i = 1; i <= nn; i++) {
					n = ns[i]
					fr = ((("fanraid-raid6", n) in t)) ? sprintf("%.1f", t["fanraid-raid6", n]) : "skipped"
					md = ((("md-raid6", n) in t)) ? sprintf("%.1f", t["md-raid6", n]) : "skipped"
					r = (fr != "skipped" && md != "skipped" && md > 0) ? sprintf("%.2f", fr / md) : "-"
					printf "     %-10s %-3s %3s %4s %4d %13s %9s %8s   %s\n", job, bs, qd,
						(fail == 0 ? "0" : fail), n, fr, md, r, id
				}
			}'
	done | sort -k1,1 -k4,4n -k5,5n -s
}

# Read amplification of a degraded entry: bytes the members read over
# bytes fio read (a lost block's row read once to rebuild it and again for
# the reader shows here). The member counters include fio's ramp.
read_amp_table() { # DIR LAYERS
	local rows
	rows=$(scenario_rows "$1" "$2" | awk '$10 > 0 {
		printf "     %-14s %4d %12.1f %12.1f %8.3f\n", $1, $2, $10 / 1048576, $5 / 1048576, $5 / $10 }')
	[ -n "$rows" ] || return 0
	echo "   read amplification (member bytes read / application bytes read)"
	printf '     %-14s %4s %12s %12s %8s\n' layer N "app MiB" "members MiB" RA
	echo "$rows"
}

# Rebuild entries (bench/lib/rebuild.sh): per layer and N, the rebuild's
# progress per member, against the member cap, the reader beside it, and
# fanraid-raid6 over md-raid6 at each N.
rebuild_table() { # ID DIR
	local m
	echo
	echo "== $1: rebuild of member 0 onto an empty member"
	printf '     %-14s %4s %5s %12s %9s %7s %14s %9s %5s %5s\n' layer N load "MiB/s/member" \
		"member w" "of it" "reader MiB/s" "(cap)" CPU% done
	for m in "$2"/*.meta; do
		[ -f "$m" ] || continue
		awk -F= '
			{ v[$1] = substr($0, length($1) + 2) }
			END {
				w = v["member_write_mibs"] + 0
				printf "     %-14s %4d %4d%% %12.1f %9.1f %7s %14.1f %9s %5s %5s\n", v["layer"], v["n"],
					v["load_pct"], v["rebuild_mibs"], w,
					(w > 0) ? sprintf("%.2f", v["rebuild_mibs"] / w) : "-",
					v["reader_mibs"], v["reader_cap_mibs"], v["cpu_busy_pct"],
					(v["rebuild_finished"] == 1) ? "yes" : "no"
			}' "$m"
	done | sort -k2,2n -k1,1 -s
	for m in "$2"/*.meta; do
		[ -f "$m" ] || continue
		awk -F= '{ v[$1] = substr($0, length($1) + 2) }
			END { print v["layer"], v["n"], v["rebuild_mibs"] }' "$m"
	done | awk '{ r[$1, $2] = $3; ns[$2] = 1 }
		END { for (n in ns) if ((("fanraid-raid6", n) in r) && r["md-raid6", n] > 0)
			printf "     N=%d: fanraid-raid6 / md-raid6 = %.2f\n", n, r["fanraid-raid6", n] / r["md-raid6", n] }' |
		sort -t= -k2,2n
	echo "   MiB/s/member: member sectors rebuilt per second (each layer's own progress"
	echo "   counter); member w: member 0 written alone just before (fio, 1 MiB, qd32);"
	echo "   reader: random 1 MiB reads beside the rebuild; CPU%: the guest's, over the rebuild."
}

# CPU cost (suite cpu): operations per second, MiB/s and fio's sys CPU per
# layer and N, and what one operation cost: fio's sys CPU over IOPS; the
# whole guest's busy CPU over IOPS (the layer's workers included, which
# fio's figure misses); and the guest's task switches per operation, over
# fio's whole run, ramp included, so an estimate.
cpu_table() { # DIR LAYERS
	local l m
	echo "   CPU cost (fio's sys CPU: percent of one CPU, summed over its jobs; guest: every CPU busy)"
	printf '     %-14s %4s %10s %9s %8s %12s %14s %11s\n' layer N IOPS "MiB/s" "sys %" "sys us/op" "guest us/op" "switches/op"
	for l in ${2//,/ }; do
		for m in "$1/$l"-*.meta; do
			[ -f "$m" ] || continue
			[ "$(sed -n 's/^layer=//p' "$m")" = "$l" ] || continue
			awk -F= '
				{ v[$1] = substr($0, length($1) + 2) }
				END {
					iops = v["iops"] + 0; sys = v["fio_sys_cpu_pct"] + 0
					busy = v["cpu_busy_pct"] + 0; cpus = v["cpus"] + 0
					secs = v["fio_seconds"] + 0
					printf "     %-14s %4d %10d %9.1f %8.1f %12s %14s %11s\n", v["layer"], v["n"],
						iops, v["read_mibs"] + v["write_mibs"], sys,
						iops ? sprintf("%.1f", sys / 100 * 1000000 / iops) : "-",
						iops && cpus ? sprintf("%.1f", busy / 100 * cpus * 1000000 / iops) : "-",
						iops && secs && v["task_switches"] != "" ? \
							sprintf("%.2f", v["task_switches"] / secs / iops) : "-"
				}' "$m"
		done
	done | sort -k2,2n -s
}

# Write amplification: bytes the members wrote over bytes fio wrote.
amp_table() { # DIR LAYERS
	echo "   write amplification (member bytes written / application bytes written)"
	printf '     %-14s %4s %12s %12s %8s\n' layer N "app MiB" "members MiB" WA
	scenario_rows "$1" "$2" | awk '$7 > 0 {
		printf "     %-14s %4d %12.1f %12.1f %8.3f\n", $1, $2, $7 / 1048576, $6 / 1048576, $6 / $7 }'
}

{
	echo "fanraid benchmark report: $dir"
	[ -f "$dir/args" ] && echo "run: bench/run.sh $(cat "$dir/args")"
	echo "Numbers from one run on a shared machine are noisy; compare layers side by side within a run."
	# In the order the scenarios ran (entry files are written as each starts).
	mapfile -t entries < <(ls -1tr "$dir"/*/entry 2>/dev/null)
	for e in "${entries[@]}"; do
		[ -f "$e" ] || continue
		d=$(dirname "$e")
		id=${d##*/}
		ls "$d"/*.meta >/dev/null 2>&1 || [ -s "$d/skipped" ] || continue
		# Crash resync entries time no fio run: bitmap_report has them.
		if [ "$(entry_key "$e" job "")" = resync ]; then
			[ -s "$d/skipped" ] && sed "s/^/   skipped $id: /" "$d/skipped"
			continue
		fi
		if [ "$(entry_key "$e" job "")" = rebuild ]; then
			rebuild_table "$id" "$d"
			[ -s "$d/skipped" ] && sed "s/^/   skipped $id: /" "$d/skipped"
			continue
		fi
		scenario_table "$id" "$d"
		case "$(entry_key "$e" job "")" in
		mixed-tree | sync-beside-stream) ops_table "$id" "$d" ;;
		large-writes) seconds_table "$id" "$d" ;;
		esac
		[ "$(entry_key "$e" amp 0)" = 1 ] && amp_table "$d" "$(entry_key "$e" layers "")"
		[ "$(entry_key "$e" fail 0)" != 0 ] && read_amp_table "$d" "$(entry_key "$e" layers "")"
		case ",$(entry_key "$e" suite "")," in
		*,cpu,*) cpu_table "$d" "$(entry_key "$e" layers "")" ;;
		esac
		fanraid_table "$d"
		perf_table "$d"
		scenario_plot "$id"
		[ -f "$dir/$id.png" ] && echo "   plot: $dir/$id.png"
	done
	rows=$(raid6_table "${entries[@]}")
	if [ -n "$rows" ] && echo "$rows" | awk '$4 != 0 { f = 1 } END { exit !f }'; then
		echo
		echo "== RAID6 healthy and degraded: fanraid-raid6 against md-raid6, same members, same run"
		printf '     %-10s %-3s %3s %4s %4s %13s %9s %8s   %s\n' job bs qd fail N \
			"fanraid-raid6" "md-raid6" "fr6/md6" entry
		echo "$rows"
		echo "   MiB/s; fail: members failed before the run (0 = healthy); fr6/md6 above 1.00:"
		echo "   fanraid is faster. Member speeds differ between read and write entries (see each table)."
	fi
	rows=$(flush_table "${entries[@]}")
	if [ -n "$rows" ]; then
		echo
		echo "== flush policies side by side: every mixed-tree run above, same load"
		printf '     %-14s %-13s %3s %10s %11s %10s %10s %9s %9s   %s\n' layer flush_policy N \
			"read MiB/s" "write MiB/s" flushes "flushes/s" elided "fan-out" "member cache, flush"
		echo "$rows"
		echo "   flushes: flush requests the member disks executed during the run (a queue merges"
		echo "   concurrent ones), per second of the run; elided: flushes fanraid did not send"
		echo "   (flush_policy dirty); fan-out: members one flush of the array reached, on average"
		echo "   (fanraid counters). The writers fsync every 64k file: their MiB/s carries the flush cost."
	fi
	bitmap_report "$dir"
	echo
	echo "csv: $csv"
} | tee "$dir/report.txt"
