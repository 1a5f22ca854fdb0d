# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# The write-intent bitmap tables (issue 12), sourced by bench/report.sh:
# writes with and without the bitmap against md RAID6 with and without its
# internal bitmap, the region-size sweep, and the crash resync times, each
# with the ratios the issue sets bars for. Reads the .meta files, and fio's
# JSON through report.sh's fio_jq.

# key=value of one .meta file.
bm_meta() { # FILE KEY
	sed -n "s/^$2=//p" "$1" | head -n1
}

# The same, "-" when the key is missing or empty.
bm_meta_d() { # FILE KEY
	local v
	v=$(bm_meta "$1" "$2")
	echo "${v:--}"
}

# Rows "id job bs qd region n layer mibs" of every bitmap-layer write run.
bm_write_rows() { # DIR
	local m e id j iops mibs
	for m in "$1"/*/*.meta; do
		[ -f "$m" ] || continue
		case "$(bm_meta "$m" layer)" in fanraid-r6-* | md-raid6-bitmap | md-raid6-nobitmap) ;; *) continue ;; esac
		[ "$(bm_meta "$m" job)" = resync ] && continue
		id=$(bm_meta "$m" scenario)
		e=$1/$id/entry
		# MiB/s and IOPS at full precision from fio's JSON (the .meta
		# rounds MiB/s to 0.1, too coarse for small random writes).
		j=${m%.meta}.json
		read -r mibs iops <<<"$(fio_jq '.jobs | [map(.write.bw_bytes), map(.write.iops)] |
			map(add // 0) | @tsv' "$j" |
			awk '{ b = $1; i = $2 } END { printf "%.3f %.1f\n", b / 1048576, i }')"
		echo "$id $(bm_meta "$m" job) $(bm_meta "$m" bs) $(bm_meta "$m" qd)" \
			"$(entry_key "$e" bitmap 64M) $(bm_meta "$m" n) $(bm_meta "$m" layer)" \
			"$mibs $(bm_meta "$m" fio_rc) $iops"
	done
}

bitmap_write_table() { # DIR
	local rows
	rows=$(bm_write_rows "$1" | sort -k1,1 -k6,6n -s)
	[ -n "$rows" ] || return 0
	echo
	echo "== write-intent bitmap: writes, fanraid RAID6 with and without its bitmap, md RAID6 with and without"
	echo "   its internal bitmap, same members, same run (MiB/s; 4k rows in IOPS)"
	echo "$rows" | awk '
	{
		id = $1; job = $2; bs = $3; qd = $4; reg = $5; n = $6; l = $7
		w[id, n, l] = $8; rc[id, n, l] = $9; io[id, n, l] = $10
		key = job " " bs " " qd
		if (!((id, n) in seen)) { seen[id, n] = 1; order[++no] = id SUBSEP n }
		idkey[id] = key; idreg[id] = reg
		# The entry with every layer is the reference for its workload.
		if (l == "fanraid-r6-nobitmap") ref[key, n] = id
	}
	function f(v) { return v == "" ? "-" : sprintf("%.1f", v) }
	function r(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%.2f", a / b) }
	END {
		printf "     %-22s %-7s %3s %6s %3s %9s %9s %9s %9s %8s %8s %8s\n", "entry", "bs", "qd", "region", \
			"N", "fr-bm", "fr-nobm", "md-bm", "md-nobm", "bm/nobm", "bm/mdbm", "mdbm/md"
		for (i = 1; i <= no; i++) {
			split(order[i], k, SUBSEP); id = k[1]; n = k[2]
			key = idkey[id]; split(key, kk, " ")
			rf = ((key, n) in ref) ? ref[key, n] : id
			bm = w[id, n, "fanraid-r6-bitmap"]; nb = w[rf, n, "fanraid-r6-nobitmap"]
			mb = w[rf, n, "md-raid6-bitmap"]; mn = w[rf, n, "md-raid6-nobitmap"]
			if (kk[2] == "4k") {
				# Small random writes: IOPS, which is what the ratios divide.
				bm = io[id, n, "fanraid-r6-bitmap"]; nb = io[rf, n, "fanraid-r6-nobitmap"]
				mb = io[rf, n, "md-raid6-bitmap"]; mn = io[rf, n, "md-raid6-nobitmap"]
			}
			printf "     %-22s %-7s %3s %6s %3s %9s %9s %9s %9s %8s %8s %8s%s\n", id, kk[2], kk[3], \
				idreg[id], n, f(bm), f(nb), f(mb), f(mn), r(bm, nb), r(bm, mb), r(mb, mn), \
				kk[2] == "4k" ? "  IOPS" : "  MiB/s"
		}
	}'
	echo "   fr-bm: fanraid create --bitmap <region>; fr-nobm: --bitmap none; md-bm: mdadm --bitmap=internal"
	echo "   --bitmap-chunk=<region of the entry with every layer>; md-nobm: --bitmap=none. Rows with only"
	echo "   fr-bm (the region sweep) are divided by the no-bitmap and md runs of the same workload."
	echo "   Bars (issue 12): full-stripe bm/nobm >= 0.95; 4 KiB random bm/nobm >= 0.85 and bm/mdbm >= 1.00."
}

bitmap_resync_table() { # DIR
	local m rows=""
	for m in "$1"/*/*.meta; do
		[ -f "$m" ] || continue
		[ "$(bm_meta "$m" job)" = resync ] || continue
		rows="$rows$(bm_meta_d "$m" scenario) $(bm_meta_d "$m" n) $(bm_meta_d "$m" layer)"
		rows="$rows $(bm_meta_d "$m" bitmap_region) $(bm_meta_d "$m" regions_per_member)"
		rows="$rows $(bm_meta_d "$m" regions_written) $(bm_meta_d "$m" dirty_regions_on_media)"
		rows="$rows $(bm_meta_d "$m" sync_regions) $(bm_meta_d "$m" resync_seconds)"
		rows="$rows $(bm_meta_d "$m" state_before_cut) $(bm_meta_d "$m" assemble_seconds)"$'\n'
	done
	[ -n "$rows" ] || return 0
	echo
	echo "== write-intent bitmap: time to a consistent array after a power cut during 4 KiB random writes"
	echo "   (seconds from the assemble command to the end of the resync it started; same members, same run)"
	printf '     %-20s %3s %-20s %6s %8s %8s %9s %8s %9s %9s  %s\n' entry N layer region regions written \
		"set@cut" covered seconds "assemble" "state@cut"
	printf '%s' "$rows" | awk '{
		printf "     %-20s %3s %-20s %6s %8s %8s %9s %8s %9s %9s  %s\n", $1, $2, $3, $4, $5, $6, $7, \
			$8, $9, $11, $10
		if ($10 != "dirty" && $10 != "active") print "       ^ NOT WRITTEN AT THE CUT: the array was " $10 ", so this is no crash resync"
		t[$1, $2, $3] = $9; if (!(($1, $2) in seen)) { seen[$1, $2] = 1; o[++no] = $1 SUBSEP $2 }
	}
	function r(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%.4f", a / b) }
	END {
		for (i = 1; i <= no; i++) {
			split(o[i], k, SUBSEP)
			bm = t[k[1], k[2], "fanraid-r6-bitmap"]; nb = t[k[1], k[2], "fanraid-r6-nobitmap"]
			mb = t[k[1], k[2], "md-raid6-bitmap"]; mn = t[k[1], k[2], "md-raid6-nobitmap"]
			printf "     %s N=%s: fr-bm / fr-nobm = %s (bar <= 0.0200), fr-bm / md-bm = %s (bar < 1),", \
				k[1], k[2], r(bm, nb), r(bm, mb)
			printf " md-bm / md-nobm = %s, fr-nobm / md-nobm = %s\n", r(mb, mn), r(nb, mn)
		}
	}'
	echo "   seconds: assemble command to the end of the resync; assemble: of which the assemble command itself."
	echo "   regions: bitmap regions per member; written: regions fio wrote into before the cut;"
	echo "   set@cut: bits set on member 0's media after the cut (fanraid examine, mdadm -X; 'all' without"
	echo "   a bitmap); covered: regions fanraid's resync pass covered (status sync_regions); state@cut: the"
	echo "   array's own state just before the cut (fanraid sb_state, md array_state): must be dirty/active."
}

bitmap_report() { # DIR
	bitmap_write_table "$1"
	bitmap_resync_table "$1"
}
