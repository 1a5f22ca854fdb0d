#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Measures a few settings on one existing array and prints what to set,
# each with the gain it measured (bench/run.sh --advise). Reads only: every
# run reads the array device. What it changes for a run (read_ahead_kb,
# the fanraid window and cache by `dmsetup message` and a table reload of
# the same mapping) it puts back when done. With --yes-destroy-data it
# also writes: the flush policy under an fsync load and the mkfs hints
# (a filesystem made on the array), and the chunk size (the table
# reloaded with other chunks over the same members): all of these
# destroy what the array holds.
#
# Usage: advise.sh --array /dev/mapper/NAME [--yes-destroy-data] [--out DIR]
#                  [--runtime SECONDS]
# Prints the advice and writes it to DIR/advice.txt, every measurement to
# DIR/advice.log.
set -uo pipefail

array="" destroy=0 out=/tmp runtime=${ADVISE_RUNTIME:-2}
while [ $# -gt 0 ]; do
	case "$1" in
	--array) array=$2; shift ;;
	--yes-destroy-data) destroy=1 ;;
	--out) out=$2; shift ;;
	--runtime) runtime=$2; shift ;;
	*) echo "advise: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
[ -b "$array" ] || { echo "advise: --array needs a block device (got '$array')" >&2; exit 2; }
mkdir -p "$out"
log=$out/advice.log
: >"$log"
MNT=/mnt/advise

# The dm name and table of the array; fanraid's geometry from it:
# <start> <len> fanraid <level> <chunk> <#feat> <feat>... <#devs> <dev> <off>...
name=$(dmsetup info -c --noheadings -o name "$array" 2>/dev/null | tr -d ' ')
table=""
[ -n "$name" ] && table=$(dmsetup table "$name" 2>/dev/null | head -n1)
set -- $table
target=${3:-none} level="" chunk=0 nfeat=0 feats="" ndevs=1 devs=""
if [ "$target" = fanraid ]; then
	level=$4 chunk=$5 nfeat=$6
	shift 6
	feats="${*:1:$nfeat}"
	shift "$nfeat"
	ndevs=$1
	shift
	devs="$*"
fi
data=$ndevs
[ "$level" = raid6 ] && data=$((ndevs - 2))
io_min=$(blockdev --getiomin "$array")
io_opt=$(blockdev --getioopt "$array")
[ "$chunk" = 0 ] && chunk=$((io_min / 512))
[ "$io_opt" -gt 0 ] && [ "$target" != fanraid ] && data=$((io_opt / io_min))
ra_now=$(($(blockdev --getra "$array") / 2))
table_now=$table

# The feature list with KEY set to VALUE (added, or replaced).
feat_set() { # KEY VALUE [FEATURES...]
	local k=$1 v=$2 out="" found=0
	shift 2
	# the features are words: split them on purpose
	# shellcheck disable=SC2048,SC2086
	set -- $*
	while [ $# -gt 0 ]; do
		case $1 in
		flush_policy | max_sync_rate | rebuild | readahead | ra_window | ra_cache_mb | stripe_cache_mb | safe_mode_delay)
			if [ "$1" = "$k" ]; then out="$out $k $v"; found=1; else out="$out $1 $2"; fi
			shift 2 ;;
		*) out="$out $1"; shift ;;
		esac
	done
	[ "$found" = 1 ] || out="$out $k $v"
	echo "${out# }"
}

# Reloads the array's table with FEATURES (and CHUNK) over the same members.
reload() { # FEATURES [CHUNK]
	local f=$1 c=${2:-$chunk} w len
	set -- $table_now
	len=$2
	# whole stripes of the new chunk
	[ "$c" != "$chunk" ] && len=$((len / (c * data) * c * data))
	set -- $f
	w=$#
	dmsetup reload "$name" --table "0 $len fanraid $level $c $w $f $ndevs $devs" >>"$log" 2>&1 &&
		dmsetup resume "$name" >>"$log" 2>&1
}

restore() {
	[ -n "$name" ] && [ "$target" = fanraid ] && {
		dmsetup reload "$name" --table "$table_now" >>"$log" 2>&1
		dmsetup resume "$name" >>"$log" 2>&1
	}
	blockdev --setra $((ra_now * 2)) "$array" 2>/dev/null
	grep -q " $MNT " /proc/mounts && umount "$MNT"
	return 0
}
trap restore EXIT

# One fio run against the array (or a file on it): MiB/s read + written.
measure() { # WHAT fio-args...
	local what=$1 json bw
	shift
	sync
	echo 3 >/proc/sys/vm/drop_caches
	json=$(cd /tmp && fio --output-format=json --name=advise --ioengine=libaio \
		--time_based=1 --runtime="$runtime" --group_reporting=1 --invalidate=1 "$@" 2>>"$log")
	# Notes fio prints ahead of its JSON are skipped (bench.sh's run_one).
	bw=$(echo "$json" | sed -n '/^[[:blank:]]*{/,$p' |
		jq '.jobs[0] | [.read.bw_bytes, .write.bw_bytes] | add // 0' 2>/dev/null |
		awk '{ s = $1 } END { printf "%.1f", s / 1048576 }')
	echo "$what: $bw MiB/s ($*)" >>"$log"
	echo "$bw"
}

# The two workloads the read settings move: one buffered reader (the page
# cache's readahead window), and one O_DIRECT reader with one 128 KiB
# request at a time (dd, iozone; fanraid's readahead queues).
buffered() { measure "$1" --filename="$array" --rw=read --bs=1M --iodepth=1 --direct=0; }
qd1() { measure "$1" --filename="$array" --rw=read --bs=128k --iodepth=1 --direct=1; }

# "+12%" of NEW against OLD.
gain() { awk -v n="$1" -v o="$2" 'BEGIN { if (o > 0) printf "%+.0f%%", 100 * (n - o) / o; else print "-" }'; }
# The better of two by MiB/s: 1 if NEW beats OLD by more than 5% (the
# noise of one short run), else 0.
better() { awk -v n="$1" -v o="$2" 'BEGIN { exit !(n > o * 1.05) }'; }

adv=() # lines of the advice table
row() { # SETTING NOW ADVICE GAIN MEASURED HOW
	adv+=("$(printf '  %-14s %-12s %-18s %-9s %s' "$1" "$2" "$3" "$4" "$5")")
	[ -n "${6:-}" ] && adv+=("$(printf '  %-14s %-12s %s' "" "" "set: $6")")
	return 0
}

echo "advise: $array ($target${level:+ $level}, $ndevs members, chunk $((chunk / 2)) KiB, io_opt $((io_opt / 1024)) KiB); ${runtime}s per run"

# --- read_ahead_kb: the page cache's window for buffered readers. The
# tool's rule (fanraid set NAME read-ahead-kb auto) is two full stripes,
# chunk sectors x data members KiB; 128 KiB is the kernel's floor.
auto=$((chunk * data))
declare -A rb
for kb in $(printf '%s\n' 128 "$ra_now" "$auto" $((auto * 4)) | sort -nu); do
	[ "$kb" -le 65536 ] || [ "$kb" = "$ra_now" ] || continue
	blockdev --setra $((kb * 2)) "$array"
	rb[$kb]=$(buffered "read_ahead_kb $kb")
done
blockdev --setra $((ra_now * 2)) "$array"
# Another window only where it beats now's by more than the noise.
best=$ra_now
for kb in $(printf '%s\n' "${!rb[@]}" | sort -n); do
	better "${rb[$kb]}" "${rb[$ra_now]}" && better "${rb[$kb]}" "$(awk -v b="${rb[$best]}" 'BEGIN { print b / 1.05 }')" && best=$kb
done
m=""; for kb in $(printf '%s\n' "${!rb[@]}" | sort -n); do m="$m $kb: ${rb[$kb]}"; done
if [ "$best" = "$ra_now" ]; then
	row read_ahead_kb "$ra_now" "keep" "-" "one buffered reader, MiB/s at read_ahead_kb$m"
else
	how="blockdev --setra $((best * 2)) $array"
	[ "$target" = fanraid ] && how="fanraid set $name read-ahead-kb $best$([ "$best" = "$auto" ] && echo " (or auto)")"
	row read_ahead_kb "$ra_now" "$best" "$(gain "${rb[$best]}" "${rb[$ra_now]}")" \
		"one buffered reader, MiB/s at read_ahead_kb$m" "$how"
fi

# --- fanraid's readahead queues: window (stripes fetched ahead of a
# reader with little in flight) and the cache they fill, which caps the
# window at half of it; a table feature, so a window beyond it needs the
# table reloaded with a larger cache.
if [ "$target" = fanraid ]; then
	stripe_mb=$(((chunk * data / 2 + 1023) / 1024))
	win_now=4 cache_now="" ra_on=on
	set -- $feats
	while [ $# -gt 1 ]; do
		case $1 in
		ra_window) win_now=$2 ;;
		ra_cache_mb) cache_now=$2 ;;
		readahead) ra_on=$2 ;;
		esac
		shift
	done
	# the target's default: two windows, 16 to 256 MiB
	[ -n "$cache_now" ] || cache_now=$(awk -v c=$((2 * win_now * stripe_mb)) 'BEGIN { if (c < 16) c = 16; if (c > 256) c = 256; print c }')
	declare -A qb
	qb[now]=$(qd1 "readahead $ra_on window $win_now cache $cache_now")
	reload "$(feat_set readahead off $feats)" && qb[off]=$(qd1 "readahead off")
	best=now bestw=$win_now bestc=$cache_now
	for w in 1 16; do
		[ "$w" = "$win_now" ] && continue
		c=$((2 * w * stripe_mb))
		[ "$c" -lt "$cache_now" ] && c=$cache_now
		[ "$c" -le 4096 ] || continue
		f=$(feat_set readahead on "$(feat_set ra_cache_mb "$c" "$(feat_set ra_window "$w" $feats)")")
		reload "$f" || continue
		qb[$w]=$(qd1 "readahead on window $w cache $c")
		better "${qb[$w]}" "${qb[$best]}" && best=$w bestw=$w bestc=$c
	done
	restore
	m="now ${qb[now]}, off ${qb[off]:-?}"
	for w in 1 16; do [ -n "${qb[$w]:-}" ] && m="$m, window $w ${qb[$w]}"; done
	if [ "$best" = now ]; then
		row ra_window "$win_now" "keep" "-" "one O_DIRECT 128 KiB reader, MiB/s: $m"
		row ra_cache_mb "$cache_now" "keep" "-" "(the cache holds two windows)"
	else
		row ra_window "$win_now" "$bestw" "$(gain "${qb[$best]}" "${qb[now]}")" \
			"one O_DIRECT 128 KiB reader, MiB/s: $m" "fanraid set $name ra-window $bestw"
		if [ "$bestc" != "$cache_now" ]; then
			row ra_cache_mb "$cache_now" "$bestc" "(with it)" "window $bestw needs a cache of two windows" \
				"fanraid create --ra-cache-mb $bestc (a table feature: ra_cache_mb $bestc)"
		else
			row ra_cache_mb "$cache_now" "keep" "-" "holds window $bestw already"
		fi
	fi
fi

# --- flush policy, from the members' write cache: a write-through drive
# has no flush to send (the block layer completes flushes at once), so the
# policy changes nothing; a write-back one pays for each flush.
if [ "$target" = fanraid ]; then
	wb=0 wt=0
	set -- $devs
	while [ $# -ge 2 ]; do
		# the table names members by major:minor, each with its offset
		d=$1
		shift 2
		case "$(cat "/sys/dev/block/$d/queue/write_cache" 2>/dev/null)" in
		"write back") wb=$((wb + 1)) ;;
		*) wt=$((wt + 1)) ;;
		esac
	done
	pol_now=passthrough
	set -- $feats
	while [ $# -gt 1 ]; do [ "$1" = flush_policy ] && pol_now=$2; shift; done
	if [ "$wb" = 0 ]; then
		row flush_policy "$pol_now" "passthrough" "none" \
			"members write through ($wt): flushes never reach them, every policy measures the same"
	elif [ "$destroy" = 1 ]; then
		declare -A fb
		for p in passthrough dirty; do
			reload "$(feat_set flush_policy "$p" $feats)" || continue
			fb[$p]=$(measure "flush_policy $p" --filename="$array" --rw=randwrite \
				--bs=16k --iodepth=1 --direct=1 --fsync=4 --size=256M)
		done
		restore
		row flush_policy "$pol_now" "dirty" "$(gain "${fb[dirty]:-0}" "${fb[passthrough]:-0}")" \
			"members write back ($wb): 16 KiB writes, fsync every 4, MiB/s: passthrough ${fb[passthrough]:-?}, dirty ${fb[dirty]:-?}; drop only on power-loss-protected drives" \
			"fanraid create --flush dirty (table feature flush_policy dirty)"
	else
		row flush_policy "$pol_now" "dirty" "?" \
			"members write back ($wb): dirty sends a flush only to members written since their last; not measured (needs writes: --yes-destroy-data)"
	fi
fi

# --- mkfs hints: xfs and ext4 take io_min/io_opt from the array when
# they are made on it; spelled out for a filesystem made elsewhere (an
# image, an LV on top) or a tool that does not read them.
su=$((io_min / 1024)) sw=$data
hint="mkfs.xfs -d su=${su}k,sw=$sw; mkfs.ext4 -E stride=$((io_min / 4096)),stripe_width=$((io_min / 4096 * sw))"
if [ "$destroy" = 1 ] && command -v mkfs.xfs >/dev/null; then
	mkdir -p "$MNT"
	declare -A xb
	for how in aligned noalign; do
		opt=""
		[ "$how" = noalign ] && opt="-d noalign"
		# shellcheck disable=SC2086
		mkfs.xfs -f -q $opt "$array" >>"$log" 2>&1 && mount -o noatime "$array" "$MNT" || continue
		xb[$how]=$(measure "xfs $how" --filename="$MNT/advise.file" --rw=write --bs=1M \
			--iodepth=1 --direct=0 --size=$((64 * data))M --end_fsync=1)
		umount "$MNT"
	done
	wipefs -a -q "$array" 2>/dev/null
	m="xfs, one buffered 1 MiB writer, MiB/s: aligned ${xb[aligned]:-?}, -d noalign ${xb[noalign]:-?}"
	if better "${xb[aligned]:-0}" "${xb[noalign]:-0}"; then
		row "mkfs hints" "-" "su=${su}k sw=$sw" "$(gain "${xb[aligned]:-0}" "${xb[noalign]:-0}")" "$m" "$hint"
	else
		# not the 5% a short run can tell: say so rather than pick
		row "mkfs hints" "-" "either" "$(gain "${xb[aligned]:-0}" "${xb[noalign]:-0}")" \
			"$m; aligned did not measure faster here" "$hint (what mkfs reads from the array anyway)"
	fi
else
	row "mkfs hints" "-" "su=${su}k sw=$sw" "?" "io_min $su KiB, io_opt $((io_opt / 1024)) KiB; not measured (needs mkfs: --yes-destroy-data)" "$hint"
fi

# --- chunk size: fixed at create; measured by reloading the table with
# other chunks over the same members (what is on them is garbled).
if [ "$target" = fanraid ] && [ "$destroy" = 1 ]; then
	declare -A cb
	for c in 128 1024 4096; do
		reload "$feats" "$c" || continue
		blockdev --setra $((c * data * 2)) "$array"
		cb[$c]=$(buffered "chunk $((c / 2)) KiB")
	done
	restore
	best=$chunk
	for c in 128 1024 4096; do
		[ -n "${cb[$c]:-}" ] && better "${cb[$c]}" "${cb[$best]:-0}" && best=$c
	done
	m=""; for c in 128 1024 4096; do m="$m $((c / 2))K: ${cb[$c]:-?}"; done
	if [ "$best" = "$chunk" ]; then
		row chunk "$((chunk / 2))K" "keep" "-" "one buffered reader, read_ahead_kb two stripes, MiB/s at chunk$m"
	else
		row chunk "$((chunk / 2))K" "$((best / 2))K" "$(gain "${cb[$best]}" "${cb[$chunk]:-0}")" \
			"one buffered reader, read_ahead_kb two stripes, MiB/s at chunk$m" "fanraid create --chunk $((best / 2))K (recreates the array)"
	fi
elif [ "$target" = fanraid ]; then
	row chunk "$((chunk / 2))K" "keep" "?" "fixed at create; measured only with --yes-destroy-data"
fi

# The setting in use once more, last: two runs of one setting far apart
# mean the machine (a busy host, a VM starved by its neighbours), not the
# settings, made the differences above.
# The chunk run at the chunk in use is that setting too when its window
# (two stripes) is the one in use.
again=$(buffered "read_ahead_kb $ra_now again")
same="${rb[$ra_now]:-} $again"
[ "$ra_now" = "$auto" ] && [ -n "${cb[$chunk]:-}" ] && same="$same ${cb[$chunk]}"
noisy=""
if ! echo "$same" | awk '{ lo = hi = $1; for (i = 2; i <= NF; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
	exit !(lo > 0 && hi / lo < 1.15) }'; then
	noisy="NOISY: the setting in use read$(printf ' %s' $same) MiB/s in separate runs: this machine varies more than the gains above, so do not act on them; rerun when it is quiet"
fi

{
	echo "advice for $array ($target${level:+ $level}, $ndevs members, chunk $((chunk / 2)) KiB), measured on it, ${runtime}s per run:"
	printf '  %-14s %-12s %-18s %-9s %s\n' setting now advice gain measured
	printf '%s\n' "${adv[@]}"
	echo "  gain: the advice against the setting now, same run; a change under 5% is noise and kept."
	[ -n "$noisy" ] && echo "  $noisy"
} | tee "$out/advice.txt"
