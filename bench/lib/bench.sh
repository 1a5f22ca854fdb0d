#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs benchmark scenarios from bench/scenarios on one set of members and
# writes, per scenario, layer and member count N:
#
#	<out>/<id>/<layer>-<N>.json   fio's JSON, the raw result
#	<out>/<id>/<layer>-<N>.meta   what was measured: key=value lines
#	<out>/<id>/<layer>-<N>_*.log  fio's per-second logs (logs=1 entries)
#	<out>/<id>/skipped            one line per layer or N skipped, and why
#
# Two homes, the same code:
#   in the VM  (bench/run.sh boots it): --vm. Members are null_blk devices
#              made per scenario with the entry's mbps cap; every file is
#              also printed on stdout between "@@FILE <path>" and
#              "@@EOF <path> <cksum>" lines for the host to collect.
#   on a host  (bench/run.sh --devices): --devices a,b,... The members are
#              the given drives, destroyed.
#
# Usage: bench.sh (--vm | --devices LIST) --out DIR [--suite S] [--only IDS]
# Progress: "@@P <done> <total> <eta-seconds> <id> <layer> <N>" lines.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
benchdir=$(cd "$here/.." && pwd)

# The harness library: null_blk, dm and capability helpers (tests/vm/lib.sh
# in the tree, /tests/lib.sh in the VM).
for l in /tests/lib.sh "$benchdir/../tests/vm/lib.sh"; do
	if [ -f "$l" ]; then
		# shellcheck source=/dev/null
		. "$l" --no-strict
		break
	fi
done
type nullb_create >/dev/null 2>&1 || { echo "bench: harness lib.sh not found" >&2; exit 2; }
# The write-intent bitmap layers and the crash resync (issue 12).
# shellcheck source=bitmap.sh
. "$here/bitmap.sh"
# The rebuild benchmark (issue 16).
# shellcheck source=rebuild.sh
. "$here/rebuild.sh"
export DM_DISABLE_UDEV=1

mode="" devlist="" out="" suite=full only="" advise=0
while [ $# -gt 0 ]; do
	case "$1" in
	--vm) mode=vm ;;
	--advise) advise=1 ;;
	--devices) mode=host devlist=$2; shift ;;
	--out) out=$2; shift ;;
	--suite) suite=$2; shift ;;
	--only) only=$2; shift ;;
	*) echo "bench: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$mode" ] && [ -n "$out" ] || { echo "usage: bench.sh (--vm | --devices LIST) --out DIR [--suite S] [--only IDS]" >&2; exit 2; }
mkdir -p "$out"

# VM members come from null_blk_fixed (tests/vm/nullb/build.sh) when the
# image has it: stock null_blk's mbps throttle can stop a member's queue
# for good (tests/vm/nullb-throttle-stall-is-below-fanraid.sh), which is
# what once hung write-direct-raid6-fail1 at N=16, and it rounds the rate
# down by request size, which penalised merged requests.
if [ "$mode" = vm ] && modinfo null_blk_fixed >/dev/null 2>&1; then
	nullb_destroy_all
	modprobe -r null_blk 2>/dev/null
	if modprobe null_blk_fixed nr_devices=0; then
		echo "bench: members from null_blk_fixed (the throttle never stops its queue; its budget carries across ticks)"
	else
		modprobe null_blk nr_devices=0
	fi
fi

DM_NAME=fr-bench
MD_DEV=/dev/md/frbench
MNT=/mnt/bench
mkdir -p "$MNT"

# Per-run overhead guess for the first ETA (setup, mkfs, fio start under
# TCG); replaced by the measured average as runs finish.
overhead=6

# A run that hangs (a mount stuck in D state) would otherwise hold the
# suite without a word until the VM's budget ends. After this long the
# watchdog prints the stacks of blocked tasks, so the hang can be read
# from the output; it does not kill the run, which may only be slow.
watchdog_secs=${BENCH_WATCHDOG:-900}

watchdog_start() { # WHAT
	(
		# Stopped, it takes its sleep along; the sleep holds no output
		# either way, so a reader never waits on it for EOF.
		sleep "$watchdog_secs" </dev/null >/dev/null 2>&1 &
		trap 'kill $! 2>/dev/null; exit 0' TERM
		wait $! || exit 0
		say "watchdog: $1 still running after ${watchdog_secs}s; blocked tasks:"
		echo w 2>/dev/null >/proc/sysrq-trigger
		sleep 2
		# From the last dump on: the log before it is the boot and the
		# runs that went well.
		dmesg 2>/dev/null | awk '/sysrq: Show Blocked State/ { n = 0 }
			{ l[n++] = $0 }
			END { for (i = 0; i < n; i++) print "bench: klog: " l[i] }'
		ps 2>/dev/null | grep -v ' \[' | sed 's/^/bench: ps: /'
		members_queue_state | sed 's/^/bench: member: /'
	) &
	WATCHDOG_PID=$!
}

# Each null_blk member's requests in flight (reads, writes), requests
# waiting on its dispatch lists and the state of its hardware queues. A
# member that stays STOPPED with requests waiting is stock null_blk's mbps
# throttle never starting its queue again, below every layer
# (tests/vm/nullb-throttle-stall-is-below-fanraid.sh): a request the
# throttle turned away waits on the dispatch list, not in flight. Requests
# still on a CPU's software queue (queued) or holding a tag (tagged) were
# never handed back either. Blocked kworkers of a layer over a member with
# none of these waiting say the layer lost an I/O.
members_queue_state() {
	local b
	grep -q ' /sys/kernel/debug ' /proc/mounts ||
		mount -t debugfs none /sys/kernel/debug 2>/dev/null
	for b in /sys/block/nullb*; do
		[ -e "$b" ] || continue
		b=${b##*/}
		echo "$b inflight $(cat "/sys/block/$b/inflight") waiting" \
			"$(cat /sys/kernel/debug/block/"$b"/hctx*/dispatch 2>/dev/null | wc -l) queued" \
			"$(cat /sys/kernel/debug/block/"$b"/hctx*/cpu*/*_rq_list 2>/dev/null | wc -l) tagged" \
			"$(cat /sys/kernel/debug/block/"$b"/hctx*/busy 2>/dev/null | wc -l) hctx" \
			"$(cat /sys/kernel/debug/block/"$b"/hctx*/state 2>/dev/null | tr '\n' ' ')"
	done
}

watchdog_stop() {
	kill "$WATCHDOG_PID" 2>/dev/null
	wait "$WATCHDOG_PID" 2>/dev/null
	return 0
}

say() { echo "bench: $*"; }

# Asked once: under TCG every fork and exec costs, and a run asked twice.
KERNEL_RELEASE=$(uname -r)
FIO_VERSION=$(fio --version 2>/dev/null)

# Seconds since boot to the hundredth (busybox date has no %N), and the
# seconds since such a reading.
uptime_now() {
	local up _
	read -r up _ </proc/uptime
	echo "$up"
}
uptime_since() { # UPTIME
	awk -v a="$1" -v b="$(uptime_now)" 'BEGIN { printf "%.2f", b - a }'
}

# Prints a file for the host between markers (VM mode only).
emit_file() { # RELPATH
	[ "$mode" = vm ] || return 0
	[ -f "$out/$1" ] || return 0
	echo "@@FILE $1"
	cat "$out/$1"
	# A file that does not end in a newline gets one on the wire; the
	# checksum is of the file as it arrives.
	[ -z "$(tail -c1 "$out/$1")" ] || { echo >>"$out/$1"; echo; }
	echo "@@EOF $1 $(cksum <"$out/$1" | awk '{ print $1, $2 }')"
}

# Entries of the scenario list, one line each: comments dropped and
# continuation lines joined.
scenario_lines() {
	awk '{ sub(/^[ \t]+/, "") }
		/^#/ { next }
		/\\$/ { sub(/\\$/, ""); buf = buf $0 " "; next }
		{ buf = buf $0; if (buf ~ /[^ \t]/) print buf; buf = "" }' \
		"$benchdir/scenarios"
}

# Loads one entry into the associative array S, defaults first.
declare -A S
load_entry() { # LINE
	local kv
	S=([id]="" [job]="" [suite]="" [n]=1 [layers]="" [fs]=none [bs]=1M
	   [qd]=32 [direct]=1 [runtime]=10 [ramp]=2 [size]=1G [member]=76
	   [chunk]=1024 [features]=- [requires]=- [logs]=0 [amp]=0 [ra_kb]=-
	   [mkfs]=- [fresh]=0 [cache]=0 [flush_ms]=0 [fail]=0 [jobs]=1 [once]=0
	   [layout]=0 [share]=- [bitmap]=64M [resync_pct]=1
	   [completion_ns]=2000000 [perf]=0 [load]=0 [engine]=libaio)
	for kv in $1; do
		S[${kv%%=*}]=${kv#*=}
	done
}

selected() {
	local s
	if [ -n "$only" ]; then
		case ",$only," in *",${S[id]},"*) return 0 ;; esac
		return 1
	fi
	for s in ${S[suite]//,/ }; do
		[ "$s" = "$suite" ] && return 0
	done
	return 1
}

to_mib() { # 1G | 256M | 64k -> MiB (at least 1)
	local v=$1 n=${1%[kKmMgG]}
	case $v in
	*[gG]) echo $((n * 1024)) ;;
	*[mM]) echo "$n" ;;
	*[kK]) echo $(((n + 1023) / 1024)) ;;
	*) echo $(((n + 1048575) / 1048576)) ;;
	esac
}

# --- members ---------------------------------------------------------------

MEMBERS=()
# dm-delay devices stacked over the null_blk members (flush_ms=), and the
# disks under MEMBERS, whose stat files count what reached the devices.
DELAY_DEVS=() MEMBER_DISKS=()

# VM: null_blk members that behave like a simple SSD (issue 7's measured
# settings), capped at the entry's mbps. Big enough for the entry's size
# twice over plus room for md and filesystem metadata; memory is only used
# where something is written. cache= gives each a volatile write cache of
# that many MiB (null_blk cache_size), so flushes reach the layers and the
# members; flush_ms= then makes every flush cost that long: a dm-delay
# device over each null_blk delays flushes only (reads and writes pass
# straight through), and the dm-delay devices are the members.
# null_blk's mbps cap refills a budget of mbps x 20971 bytes every 20 ms
# and never carries it over, so a request larger than one budget is requeued
# forever: at mbps=7 (6.25 MiB/s) a 512 KiB request hung the whole run.
# Requests are kept within one budget, whole 4 KiB blocks, at most 512 KiB.
member_max_sectors() { # MBPS
	local s=$(($1 * 20971 / 4096 * 8))
	[ "$1" = 0 ] || [ "$s" -gt 1024 ] && s=1024
	echo "$s"
}

members_up() { # COUNT
	local count=$1 size_mb i d extra=()
	if [ "$mode" = host ]; then
		IFS=, read -r -a MEMBERS <<<"$devlist"
		MEMBER_DISKS=("${MEMBERS[@]}")
		return 0
	fi
	size_mb=$(($(to_mib "${S[size]}") * 2 + 256))
	[ "${S[cache]}" != 0 ] && extra+=("cache_size=${S[cache]}")
	mapfile -t MEMBERS < <(nullb_create_many "$count" "$size_mb" \
		blocksize=4096 "max_sectors=$(member_max_sectors "${S[member]}")" \
		irqmode=2 "completion_nsec=${S[completion_ns]}" \
		hw_queue_depth=64 submit_queues=2 "mbps=${S[member]}" "${extra[@]}")
	MEMBER_DISKS=("${MEMBERS[@]}")
	[ "${#MEMBERS[@]}" = "$count" ] || return 1
	[ "${S[flush_ms]}" != 0 ] || return 0
	# delay <dev> <off> <rdelay> <wdev> <woff> <wdelay> <fdev> <foff> <fdelay>
	for i in "${!MEMBERS[@]}"; do
		d=${MEMBERS[i]}
		dmsetup create "bench-dly$i" --table \
			"0 $(blockdev --getsz "$d") delay $d 0 0 $d 0 0 $d 0 ${S[flush_ms]}" || return 1
		dmsetup mknodes "bench-dly$i"
		DELAY_DEVS+=("bench-dly$i")
		MEMBERS[i]=/dev/mapper/bench-dly$i
	done
}

members_down() {
	local d
	for d in "${DELAY_DEVS[@]}"; do
		dmsetup remove "$d"
	done
	DELAY_DEVS=()
	[ "$mode" = vm ] && nullb_destroy_all
	MEMBERS=() MEMBER_DISKS=()
}

# Sectors read and written, read and write requests and flushes, summed over
# the first N members so far. The stat paths are resolved once per entry:
# under TCG every fork costs.
MEMBER_STATS=()
member_stat_paths() {
	local d
	MEMBER_STATS=()
	for d in "${MEMBER_DISKS[@]}"; do
		d=$(readlink -f "$d")
		MEMBER_STATS+=("/sys/class/block/${d##*/}/stat")
	done
}

member_sectors() { # N
	local p r=0 w=0 ri=0 wi=0 fl=0 f
	for p in "${MEMBER_STATS[@]:0:$1}"; do
		read -r -a f <"$p"
		ri=$((ri + f[0]))
		r=$((r + f[2]))
		wi=$((wi + f[4]))
		w=$((w + f[6]))
		# Flush requests completed (5.5 and later have 17 fields). A
		# disk counts the flushes it executed; a dm device would count
		# empty flush bios as writes.
		fl=$((fl + ${f[15]:-0}))
	done
	echo "$r $w $ri $wi $fl"
}

# Leaves the first N members with no signature a layer could trip over.
# One exec per tool for all members.
members_wipe() { # N
	local devs=("${MEMBERS[@]:0:$1}")
	mdadm --zero-superblock --force "${devs[@]}" >/dev/null 2>&1
	wipefs -a -q "${devs[@]}" >/dev/null 2>&1
	btrfs device scan --forget >/dev/null 2>&1
	return 0
}

# --- layers ----------------------------------------------------------------

TARGET="" LAYER_DEV="" SKIP_REASON="" RA_KEPT=""
# What layer_degrade failed and how the layer reports it, for the .meta.
FAILED_MEMBERS="" DEGRADED_STATE=""
# Set when a layer wrote signatures (md superblock, a filesystem) that the
# next layer must not find; plain dm tables write nothing.
DIRTY=0

# Usable sectors per member, rounded down to whole chunks.
member_chunks_len() { # N CHUNK
	local d min="" s
	for d in "${MEMBERS[@]:0:$1}"; do
		s=$(blockdev --getsz "$d")
		[ -z "$min" ] || [ "$s" -lt "$min" ] && min=$s
	done
	echo $((min / $2 * $2))
}

dm_devs_args() { # N
	local d
	for d in "${MEMBERS[@]:0:$1}"; do
		printf ' %s 0' "$d"
	done
}

fanraid_features() { # [EXTRA: more feature words, ':' for spaces]
	local feat=${S[features]}
	if [ -n "${1:-}" ]; then
		[ "$feat" = - ] && feat=$1 || feat=$feat:$1
	fi
	if [ "$feat" = - ]; then
		echo 0
	else
		feat=${feat//:/ }
		# shellcheck disable=SC2086
		set -- $feat
		echo "$# $feat"
	fi
}

# Last kernel message, for skip reasons (ti->error goes to the log).
last_klog() {
	dmesg | tail -n 3 | grep -E 'device-mapper|md|fanraid' | tail -n1 |
		sed 's/^\[[^]]*\] *//'
}

# md RAID6 as its tuning guides set it for writes: a stripe cache of
# 4096 entries (16 MiB a member, 256 by default) and a worker thread per
# CPU beside raid5d (group_thread_cnt, 0 by default). The issue-16 bars
# compare fanraid with md both as shipped and as tuned.
md_raid6_tune() {
	local md=/sys/block/${LAYER_DEV##*/}/md
	if ! echo 4096 >"$md/stripe_cache_size" ||
		! nproc >"$md/group_thread_cnt"; then
		SKIP_REASON="md-raid6-tuned: $md refused stripe_cache_size or group_thread_cnt"
		return 1
	fi
}

# Builds LAYER over the first N members; sets TARGET (what fio opens) and
# LAYER_DEV. Returns 1 with SKIP_REASON when the layer cannot be built.
layer_up() { # LAYER N
	local layer=$1 n=$2 chunk=${S[chunk]} per len level devs err extra
	TARGET="" LAYER_DEV="" SKIP_REASON=""
	per=$(member_chunks_len "$n" "$chunk")
	devs=("${MEMBERS[@]:0:$n}")
	# fail=K is measured only where a degraded state exists; anything else
	# would be a healthy layer reported as a degraded one.
	RA_KEPT=""
	case "${S[fail]}:$layer" in
	0:* | *:fanraid-raid6 | *:md-raid6) ;;
	*)
		SKIP_REASON="fail=${S[fail]}: no degraded state is modelled for $layer, so it is not measured"
		return 1 ;;
	esac
	case $layer in
	raw)
		return 0 ;;
	fanraid-r6-* | md-raid6-bitmap | md-raid6-nobitmap)
		bitmap_layer_up "$layer" "$n" "${devs[@]}"
		return ;;
	md-* | btrfs-*) DIRTY=1 ;;
	esac
	[ "${S[fs]}" != none ] && DIRTY=1
	case $layer in
	fanraid | fanraid-ra-off | fanraid-raid6)
		level=raid0 len=$((per * n)) extra=""
		[ "$layer" = fanraid-ra-off ] && extra=readahead:off
		if [ "$layer" = fanraid-raid6 ]; then
			[ "$n" -ge 4 ] || { SKIP_REASON="raid6 needs 4 or more members"; return 1; }
			level=raid6 len=$((per * (n - 2)))
		fi
		have_target fanraid || { SKIP_REASON="target fanraid not loaded (make module)"; return 1; }
		if ! err=$(dmsetup create "$DM_NAME" --table \
			"0 $len fanraid $level $chunk $(fanraid_features "$extra") $n$(dm_devs_args "$n")" 2>&1); then
			SKIP_REASON="dm-fanraid refused $level: $(last_klog) ${err##*:}"
			return 1
		fi
		dmsetup mknodes "$DM_NAME"
		LAYER_DEV=/dev/mapper/$DM_NAME ;;
	dm-stripe)
		len=$((per * n))
		dmsetup create "$DM_NAME" --table \
			"0 $len striped $n $chunk$(dm_devs_args "$n")" || { SKIP_REASON="dm-stripe refused the table"; return 1; }
		dmsetup mknodes "$DM_NAME"
		LAYER_DEV=/dev/mapper/$DM_NAME ;;
	md-raid0 | md-raid6 | md-raid6-tuned)
		level=${layer#md-raid}
		level=${level%-tuned}
		[ "$level" = 6 ] && [ "$n" -lt 4 ] && { SKIP_REASON="md raid6 needs 4 or more members"; return 1; }
		modprobe "raid$level" 2>/dev/null
		[ "$level" = 6 ] && modprobe raid456 2>/dev/null
		if ! err=$(mdadm --create "$MD_DEV" --level="$level" --raid-devices="$n" \
			--chunk=$((chunk / 2))K --metadata=1.2 --assume-clean --force --run \
			"${devs[@]}" 2>&1); then
			SKIP_REASON="mdadm --create failed: $(echo "$err" | tail -n1)"
			return 1
		fi
		LAYER_DEV=$(readlink -f "$MD_DEV")
		if [ "$layer" = md-raid6-tuned ]; then
			md_raid6_tune || return 1
		fi ;;
	btrfs-raid0 | btrfs-raid6)
		level=${layer#btrfs-}
		[ "$n" = 1 ] && [ "$level" = raid0 ] && level=single
		[ "$level" = raid6 ] && [ "$n" -lt 4 ] && { SKIP_REASON="btrfs raid6 needs 4 or more members"; return 1; }
		if ! err=$(mkfs.btrfs -f -q -d "$level" -m "$([ "$n" = 1 ] && echo dup || echo raid1)" \
			"${devs[@]}" 2>&1); then
			SKIP_REASON="mkfs.btrfs -d $level failed: $(echo "$err" | tail -n1)"
			return 1
		fi
		# Every member named at mount: with no udev, a scan that missed
		# one leaves btrfs refusing the mount for a missing devid.
		local opts=noatime d
		for d in "${devs[@]}"; do opts=$opts,device=$d; done
		if ! err=$(mount -o "$opts" "${devs[0]}" "$MNT" 2>&1); then
			SKIP_REASON="mount btrfs failed: $(echo "$err" | tail -n1)"
			return 1
		fi
		LAYER_DEV=btrfs ;;
	*)
		SKIP_REASON="unknown layer $layer"
		return 1 ;;
	esac

	# A filesystem on the layer, unless the layer is one. mkfs= adds
	# options (':' for spaces); xfs and ext4 take their stripe hints from
	# the layer's io_min/io_opt unless told otherwise.
	local mo=""
	[ "${S[mkfs]}" != - ] && mo=${S[mkfs]//:/ }
	# $mo is split into words on purpose.
	# shellcheck disable=SC2086
	case "${S[fs]}:$layer" in
	none:* | *:btrfs-*) ;;
	xfs:*) mkfs.xfs -f -q $mo "$LAYER_DEV" || { SKIP_REASON="mkfs.xfs $mo failed"; return 1; } ;;
	ext4:*) mkfs.ext4 -F -q -E lazy_itable_init=0,lazy_journal_init=0,nodiscard \
		$mo "$LAYER_DEV" || { SKIP_REASON="mkfs.ext4 $mo failed"; return 1; } ;;
	btrfs:*) mkfs.btrfs -f -q $mo "$LAYER_DEV" >/dev/null || { SKIP_REASON="mkfs.btrfs $mo failed"; return 1; } ;;
	*) SKIP_REASON="unknown fs ${S[fs]}"; return 1 ;;
	esac
	if [ "${S[fs]}" != none ] && [ "$LAYER_DEV" != btrfs ]; then
		mount -o noatime "$LAYER_DEV" "$MNT" || { SKIP_REASON="mount ${S[fs]} failed"; return 1; }
	fi
	if [ "${S[fs]}" != none ] || [ "$LAYER_DEV" = btrfs ]; then
		if grep -q '^directory=' "$benchdir/jobs/${S[job]}.fio"; then
			mkdir -p "$MNT/tree"
			TARGET=$MNT/tree
		else
			TARGET=$MNT/fio.file
		fi
	else
		TARGET=$LAYER_DEV
	fi
	RA_KEPT=$(ra_get)
	if [ "${S[layout]}" = 1 ] && [ "$TARGET" = "$MNT/fio.file" ]; then
		layout_file "$n" || { SKIP_REASON="writing the ${S[size]} x $n file failed"; return 1; }
	fi
	return 0
}

# The readahead window (read_ahead_kb) that buffered reads of TARGET get:
# the layer's block device, or for btrfs the bdi of the filesystem (btrfs
# reads through its own, not through any member's).
ra_file() {
	local uuid
	if [ "$LAYER_DEV" = btrfs ] || [ "${S[fs]}" = btrfs ]; then
		uuid=$(blkid -s UUID -o value "$([ "$LAYER_DEV" = btrfs ] && echo "${MEMBERS[0]}" || echo "$LAYER_DEV")" 2>/dev/null)
		echo "/sys/fs/btrfs/$uuid/bdi/read_ahead_kb"
	fi
}

# read_ahead_kb of the layer: blockdev for a block device (a node that
# dmsetup mknodes made has no sysfs name to follow), sysfs for btrfs.
ra_get() {
	local f
	f=$(ra_file)
	if [ -n "$f" ]; then
		[ -r "$f" ] && cat "$f"
	elif [ -b "$LAYER_DEV" ]; then
		echo $(($(blockdev --getra "$LAYER_DEV") / 2))
	fi
}

# The window an entry asks for: ra_kb=- keeps what the layer came up with
# (entries sharing a build each start from it again), auto is what
# `fanraid set NAME read-ahead-kb auto` writes (fr_set_auto_kb in
# userspace/cmd_set.c): two full stripes, chunk sectors x data members KiB,
# given to every layer alike so that the layers, not the windows, differ.
ra_apply() { # N
	local f kb=${S[ra_kb]}
	case $kb in
	-) kb=$RA_KEPT ;;
	auto) kb=$((S[chunk] * $1)) ;;
	esac
	[ -n "$kb" ] || return 0
	f=$(ra_file)
	if [ -n "$f" ]; then
		[ -w "$f" ] && echo "$kb" >"$f"
	elif [ -b "$LAYER_DEV" ]; then
		blockdev --setra $((kb * 2)) "$LAYER_DEV"
	fi
	return 0
}

# layout=1: the file the readers read, written once per build with
# O_DIRECT at queue depth 32, so every byte read later comes from the
# members (a preallocated, never written extent would read as zeroes
# without touching them) and no fio run lays it out on its own clock.
layout_file() { # N
	local mib=$(($(to_mib "${S[size]}") * $1))
	(cd /tmp && fio --name=layout --filename="$MNT/fio.file" --rw=write \
		--bs=1M --iodepth=32 --ioengine=libaio --direct=1 --size="${mib}M" \
		--end_fsync=1 >/tmp/bench-layout.log 2>&1) || { cat /tmp/bench-layout.log; return 1; }
}

# Jiffies the guest's CPUs were busy (not idle, not waiting for I/O) and
# in all, from the first line of /proc/stat.
cpu_ticks() {
	local _cpu u ni sy id io irq si st
	read -r _cpu u ni sy id io irq si st _ </proc/stat
	echo "$((u + ni + sy + irq + si + st)) $((u + ni + sy + id + io + irq + si + st))"
}

# Task switches so far on every CPU: a layer that hands each I/O from
# thread to thread pays a wakeup and a switch per hand-off, which fio's
# own CPU figures do not show.
task_switches() {
	awk '$1 == "ctxt" { print $2 }' /proc/stat
}

# fail=K: takes members 0 .. K-1 of a RAID6 layer out of service after it
# is built and before the run, the same indexes on fanraid and md (which
# member of a row holds data, P or Q rotates, so fixed indexes are fair to
# both), then checks that the layer says so: a run recorded as degraded
# must have been. Sets FAILED_MEMBERS and DEGRADED_STATE; returns 1 with
# SKIP_REASON when a failure is refused or does not show.
layer_degrade() { # LAYER N
	local layer=$1 n=$2 k=${S[fail]} i want="" got err
	FAILED_MEMBERS="" DEGRADED_STATE=""
	[ "$k" = 0 ] && return 0
	for ((i = 0; i < k; i++)); do
		FAILED_MEMBERS="$FAILED_MEMBERS${FAILED_MEMBERS:+,}${MEMBERS[i]}"
	done
	case $layer in
	fanraid-raid6)
		for ((i = 0; i < k; i++)); do
			if ! err=$(dmsetup message "$DM_NAME" 0 fail "$i" 2>&1); then
				SKIP_REASON="NOT DEGRADED: dmsetup message $DM_NAME 0 fail $i refused: $err"
				return 1
			fi
		done
		# INFO: <start> <len> fanraid <level> <#devs> <health_chars> ...
		for ((i = 0; i < n; i++)); do
			[ "$i" -lt "$k" ] && want=${want}D || want=${want}A
		done
		got=$(dmsetup status "$DM_NAME" | awk '$3 == "fanraid" { print $6 }')
		DEGRADED_STATE="health $got"
		if [ "$got" != "$want" ]; then
			SKIP_REASON="NOT DEGRADED: fanraid health after fail 0..$((k - 1)) is '$got', expected '$want'"
			return 1
		fi ;;
	md-raid6)
		for ((i = 0; i < k; i++)); do
			if ! err=$(mdadm "$MD_DEV" --fail "${MEMBERS[i]}" 2>&1); then
				SKIP_REASON="NOT DEGRADED: mdadm --fail ${MEMBERS[i]} refused: $(echo "$err" | tail -n1)"
				return 1
			fi
		done
		# /proc/mdstat: "... [<devs>/<working>] [U_...]", one U per
		# working member in role order; roles follow --create order.
		for ((i = 0; i < n; i++)); do
			[ "$i" -lt "$k" ] && want=${want}_ || want=${want}U
		done
		want="[$n/$((n - k))] [$want]"
		got=$(awk -v md="${LAYER_DEV##*/}" '$1 == md { f = 1; next }
			f { if (match($0, /\[[0-9]+\/[0-9]+\] \[[U_]+\]/)) print substr($0, RSTART, RLENGTH); exit }' /proc/mdstat)
		DEGRADED_STATE="mdstat $got"
		if [ "$got" != "$want" ]; then
			SKIP_REASON="NOT DEGRADED: /proc/mdstat shows '$got' after --fail of members 0..$((k - 1)), expected '$want'"
			return 1
		fi ;;
	*)
		SKIP_REASON="fail=$k: no degraded state is modelled for $layer"
		return 1 ;;
	esac
	say "degraded $layer N=$n: members ${FAILED_MEMBERS} failed, $DEGRADED_STATE"
	return 0
}

layer_down() { # N
	grep -q " $MNT " /proc/mounts && umount "$MNT"
	dmsetup info "$DM_NAME" >/dev/null 2>&1 && dmsetup remove "$DM_NAME"
	[ -e "$MD_DEV" ] && mdadm --stop "$MD_DEV" >/dev/null 2>&1
	if [ "$DIRTY" = 1 ]; then
		members_wipe "$1"
		DIRTY=0
	fi
	return 0
}

# fanraid's per-member counters (raw status line), if the layer is fanraid.
fanraid_status() {
	dmsetup status "$DM_NAME" 2>/dev/null | grep ' fanraid ' || true
}

# Tells whether dm-fanraid accepts a RAID6 table at all: builds and removes
# one over the members without touching their data.
have_fanraid_raid6() {
	local n=${#MEMBERS[@]} chunk=${S[chunk]}
	[ "$n" -ge 4 ] || n=4
	have_target fanraid || return 1
	dmsetup create fr-probe --table \
		"0 $((chunk * 2)) fanraid raid6 $chunk 0 4$(dm_devs_args 4)" >/dev/null 2>&1 || return 1
	dmsetup remove fr-probe
}

# --- one run ---------------------------------------------------------------

# The job file, or for the raw ceiling a copy whose last section is
# repeated once per member (each member its own fio job, one group).
job_file_for() { # LAYER N DEST
	local src=$benchdir/jobs/${S[job]}.fio
	if [ "$1" != raw ]; then
		cp "$src" "$3"
		return
	fi
	awk -v devs="$(printf '%s ' "${MEMBERS[@]:0:$2}")" '
		/^\[/ { last = NR }
		{ line[NR] = $0 }
		END {
			for (i = 1; i < last; i++)
				print line[i]
			n = split(devs, d, " ")
			for (m = 1; m <= n; m++) {
				hdr = line[last]
				sub(/\]$/, "-m" (m - 1) "]", hdr)
				print hdr
				for (i = last + 1; i <= NR; i++) {
					l = line[i]
					gsub(/\$\{BENCH_TARGET\}/, d[m], l)
					print l
				}
			}
		}' "$src" >"$3"
}

# Runs fio once for LAYER over N members; writes json, meta and logs.
run_one() { # LAYER N
	local layer=$1 n=$2 rel=${S[id]}/$1-$2 job before after sb sa cache
	local size_mib rbw wbw io rd wr line
	job=$(mktemp /tmp/bench-job.XXXXXX)
	job_file_for "$layer" "$n" "$job"

	size_mib=$(to_mib "${S[size]}")
	# The job's size: one member's worth per job on the raw ceiling and on
	# block devices; N members' worth for a file in a filesystem is too much
	# once metadata and the second copy of raid1 metadata are counted, so
	# files get half.
	local jobs=${S[jobs]}
	[ "$jobs" = cpus ] && jobs=$(nproc)
	case "$layer:${S[fs]}:${S[layout]}" in
	# layout=1: a file of size x N that the runner wrote, or on the raw
	# ceiling size per member, split between the readers.
	raw:*:1) export BENCH_SIZE=$((size_mib / jobs))M ;;
	*:1) export BENCH_SIZE=$((size_mib * n / jobs))M ;;
	raw:*) export BENCH_SIZE=${size_mib}M ;;
	*:none)
		if [ "$LAYER_DEV" = btrfs ]; then
			export BENCH_SIZE=$((size_mib * n / 2))M
		else
			export BENCH_SIZE=$((size_mib * n))M
		fi ;;
	*) export BENCH_SIZE=$((size_mib * n / 2))M ;;
	esac
	export BENCH_TARGET=$TARGET BENCH_BS=${S[bs]} BENCH_QD=${S[qd]}
	# bs=stripe: one full RAID6 stripe, (N-2) data chunks.
	[ "${S[bs]}" = stripe ] && BENCH_BS=$(((n - 2) * S[chunk] * 512))
	export BENCH_DIRECT=${S[direct]} BENCH_RUNTIME=${S[runtime]} BENCH_RAMP=${S[ramp]}
	export BENCH_ENGINE=${S[engine]}
	export BENCH_LOG=$out/$rel BENCH_JOBS=$jobs
	BENCH_TIME_BASED=1
	[ "${S[once]}" = 1 ] && BENCH_TIME_BASED=0
	export BENCH_TIME_BASED

	local t_pre t_fio t_post t_emit
	t_pre=$(uptime_now)
	cache=cold
	drop_caches
	before=$(member_sectors "$n")
	sb=$(fanraid_status)
	local cpu0 cpu1 busy sw0 sw1
	cpu0=$(cpu_ticks)
	sw0=$(task_switches)
	local prof=()
	# perf=1: every CPU sampled on cpu-clock (a software event: TCG has
	# no PMU) while fio runs; its top symbols go with the results
	[ "${S[perf]}" = 1 ] && command -v perf >/dev/null &&
		prof=(perf record -q -e cpu-clock -a -g -F 999 -o /tmp/perf.data --)
	t_fio=$(uptime_now)
	(cd /tmp && "${prof[@]}" fio --output-format=json --output="$out/$rel.json" "$job") >"$out/$rel.fio-stderr" 2>&1
	local rc=$?
	t_post=$(uptime_now)
	if [ ${#prof[@]} -gt 0 ]; then
		# The flat top, then who called the symbols above 5%: a
		# cpu-clock sample cannot land where interrupts are off, so
		# time under an irq-disabling lock shows at its unlock, and
		# only the callers say whose lock that was.
		{
			perf report -i /tmp/perf.data --stdio --no-children --sort dso,sym \
				-g none --percent-limit 0.3 2>/dev/null | grep -v '^$' | head -n 60
			echo "# by thread: whose work the samples are (swapper: idle, and interrupts taken there)"
			perf report -i /tmp/perf.data --stdio --no-children --sort comm \
				-g none --percent-limit 0.5 2>/dev/null | grep -v '^$' | grep -v '^#' | head -n 20
			echo "# callers of the symbols above 5%"
			perf report -i /tmp/perf.data --stdio --no-children --sort sym \
				-g caller,2,callee,function,percent --percent-limit 5 2>/dev/null |
				grep -v '^$' | head -n 150
		} >"$out/$rel.perf.txt"
		rm -f /tmp/perf.data
	fi
	cpu1=$(cpu_ticks)
	sw1=$(task_switches)
	# Share of the CPUs' time busy over the run: where it is near 100 the
	# emulated CPU, not the members or the layer, sets the figure.
	# (busybox awk reads "printf ..., t > 0" as a redirection: parentheses)
	busy=$(echo "$cpu0 $cpu1" | awk '{ t = $4 - $2; printf "%.0f", (t > 0) ? 100 * ($3 - $1) / t : 0 }')
	sync
	after=$(member_sectors "$n")
	sa=$(fanraid_status)
	rm -f "$job"
	[ -s "$out/$rel.fio-stderr" ] || rm -f "$out/$rel.fio-stderr"

	# Summed over the jobs fio reports: MiB/s read and written, bytes
	# written (the amplification's divisor), operations per second, the
	# CPU fio saw its jobs spend in the kernel (percent of one CPU: the
	# cost of the layer below them, per I/O, once divided) and bytes read
	# (the cache check below). Jobs of the file* engines (stat, create)
	# move no data and are left out. Notes fio prints ahead of its JSON
	# ("note: both iodepth >= 1 and synchronous I/O engine are
	# selected...") are skipped; awk formats, as jq has no printf.
	local iops sys appr
	read -r rbw wbw io iops sys appr <<<"$(sed -n '/^[[:blank:]]*{/,$p' "$out/$rel.json" 2>/dev/null |
		jq -r '[.jobs[] | select(."job options".ioengine // "" | startswith("file") | not)] |
			[map(.read.bw_bytes), map(.write.bw_bytes), map(.write.io_bytes),
				map(.read.iops, .write.iops), map(.sys_cpu), map(.read.io_bytes)] |
			map(add // 0) | @tsv' 2>/dev/null |
		awk '{ r = $1; w = $2; wio = $3; ops = $4; sys = $5; rio = $6 }
			END { printf "%.1f %.1f %.0f %.0f %.1f %.0f\n", r / 1048576, w / 1048576, wio, ops, sys, rio }')"
	local rios wios flios
	set -- $before
	rd=$1 wr=$2 rios=$3 wios=$4 flios=$5
	set -- $after
	rd=$(($1 - rd)) wr=$(($2 - wr)) rios=$(($3 - rios)) wios=$(($4 - wios))
	flios=$(($5 - flios))

	# Cold or warm is measured, not assumed: a buffered run whose members
	# delivered less than 90% of what fio read was partly served from the
	# page cache (the file wrapped within the run).
	if [ "$appr" -gt 0 ] && [ $((rd * 512 * 10)) -lt $((appr * 9)) ]; then
		cache="warm ($((100 - rd * 512 * 100 / appr))% of reads from page cache)"
	fi

	{
		echo "scenario=${S[id]}"
		echo "layer=$layer"
		echo "n=$n"
		echo "job=${S[job]}"
		echo "fs=${S[fs]}"
		echo "bs=${S[bs]}"
		echo "engine=${S[engine]}"
		echo "bs_bytes=$BENCH_BS"
		echo "qd=${S[qd]}"
		echo "direct=${S[direct]}"
		echo "cache=$cache"
		echo "runtime=${S[runtime]}"
		echo "ramp=${S[ramp]}"
		echo "job_size=$BENCH_SIZE"
		echo "jobs=$jobs"
		echo "once=${S[once]}"
		echo "cpus=$(nproc)"
		echo "clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
		echo "cpu_busy_pct=$busy"
		echo "fio_seconds=$(awk -v a="$t_fio" -v b="$t_post" 'BEGIN { printf "%.2f", b - a }')"
		echo "task_switches=$((${sw1:-0} - ${sw0:-0}))"
		echo "chunk_sectors=${S[chunk]}"
		echo "features=${S[features]}"
		echo "mkfs=${S[mkfs]}"
		echo "fail=${S[fail]}"
		[ -n "$FAILED_MEMBERS" ] && echo "failed_members=$FAILED_MEMBERS"
		[ -n "$DEGRADED_STATE" ] && echo "degraded_state=$DEGRADED_STATE"
		local ra
		ra=$(ra_get)
		[ -n "$ra" ] && echo "read_ahead_kb=$ra"
		[ -b "$LAYER_DEV" ] && echo "io_min=$(blockdev --getiomin "$LAYER_DEV")"
		[ -b "$LAYER_DEV" ] && echo "io_opt=$(blockdev --getioopt "$LAYER_DEV")"
		echo "mode=$mode"
		[ "$mode" = vm ] && echo "member_nullb_mbps=${S[member]}"
		[ "$mode" = vm ] && echo "member_completion_ns=${S[completion_ns]}"
		[ "$mode" = vm ] && echo "member_cache_mib=${S[cache]}"
		[ "$mode" = vm ] && echo "member_flush_ms=${S[flush_ms]}"
		local IFS=,
		echo "members=${MEMBERS[*]:0:$n}"
		IFS=$' \t\n'
		echo "target=$TARGET"
		echo "kernel=$KERNEL_RELEASE"
		echo "fio=$FIO_VERSION"
		echo "fio_rc=$rc"
		echo "read_mibs=$rbw"
		echo "write_mibs=$wbw"
		echo "iops=$iops"
		echo "fio_sys_cpu_pct=$sys"
		echo "app_write_bytes=$io"
		echo "app_read_bytes=$appr"
		echo "member_read_bytes=$((rd * 512))"
		echo "member_write_bytes=$((wr * 512))"
		# Completed requests: bytes / ios is the size the members saw.
		echo "member_read_ios=$rios"
		echo "member_write_ios=$wios"
		echo "member_flush_ios=$flios"
		[ -n "$sb" ] && echo "fanraid_status_before=$sb"
		[ -n "$sa" ] && echo "fanraid_status_after=$sa"
		case $layer in fanraid-r6-* | md-raid6-*bitmap) bitmap_layer_state "$layer" ;; esac
	} >"$out/$rel.meta"

	line="measured: ${S[id]} $layer N=$n: $n x ${S[bs]} x qd${S[qd]}"
	line="$line $([ "${S[direct]}" = 1 ] && echo O_DIRECT || echo buffered) $cache"
	[ "${S[fail]}" != 0 ] && line="$line degraded (fail=${S[fail]})"
	[ "${S[fs]}" != none ] && line="$line on ${S[fs]}"
	[ "$jobs" != 1 ] && line="$line, $jobs readers"
	line="$line: read $rbw MiB/s, write $wbw MiB/s, $iops IOPS, fio sys CPU $sys%, CPU $busy% busy"
	if [ "${S[amp]}" = 1 ] && [ "$io" -gt 0 ]; then
		line="$line, write amplification $(awk -v m=$((wr * 512)) -v a="$io" 'BEGIN { printf "%.2f", m / a }')"
	fi
	[ $rc = 0 ] || line="$line (fio exit $rc)"
	echo "$line"

	t_emit=$(uptime_now)
	emit_file "$rel.json"
	emit_file "$rel.meta"
	[ -f "$out/$rel.fio-stderr" ] && emit_file "$rel.fio-stderr"
	[ -f "$out/$rel.perf.txt" ] && emit_file "$rel.perf.txt"
	local f
	for f in "$out/$rel"_*.log; do
		[ -f "$f" ] && emit_file "${f#"$out"/}"
	done
	say "time $rel: before fio $(awk -v a="$t_pre" -v b="$t_fio" 'BEGIN { printf "%.2f", b - a }')s," \
		"fio $(awk -v a="$t_fio" -v b="$t_post" 'BEGIN { printf "%.2f", b - a }')s," \
		"after $(awk -v a="$t_post" -v b="$t_emit" 'BEGIN { printf "%.2f", b - a }')s, sent $(uptime_since "$t_emit")s"
	return 0
}

# The layers of an entry in the order they run: as listed, or last first
# with BENCH_LAYER_ORDER=reverse (BENCH_VM_APPEND in the VM), to see what
# running first or last in an entry does to a layer on a busy host.
layer_order() { # LAYERS
	local l out=""
	for l in ${1//,/ }; do
		if [ "${BENCH_LAYER_ORDER:-}" = reverse ]; then
			out="$l $out"
		else
			out="$out $l"
		fi
	done
	# Unquoted on purpose: the words, one space apart.
	# shellcheck disable=SC2086
	echo $out
}

# --- main ------------------------------------------------------------------

mapfile -t entries < <(scenario_lines)

# The plan: every (entry, N, layer) to run, for the progress line.
total=0
for e in "${entries[@]}"; do
	load_entry "$e"
	selected || continue
	for n in ${S[n]//,/ }; do
		for l in ${S[layers]//,/ }; do
			total=$((total + 1))
		done
	done
done
[ $total -gt 0 ] || [ "$advise" = 1 ] || { say "nothing selected (suite $suite${only:+, only $only})"; exit 2; }

maxdev=0
if [ "$mode" = host ]; then
	IFS=, read -r -a _devs <<<"$devlist"
	maxdev=${#_devs[@]}
fi

done_runs=0 spent=0 budget_left=0
for e in "${entries[@]}"; do
	load_entry "$e"
	selected || continue
	for n in ${S[n]//,/ }; do
		for l in ${S[layers]//,/ }; do
			budget_left=$((budget_left + S[runtime] + S[ramp] + overhead))
		done
	done
done

# Groups of selected entries run on one build of each layer: an entry
# whose share= names the same group as the entry before it joins that
# entry's group (same members, n, fs, chunk, features, mkfs and size,
# checked; layers a subset of the first entry's), so one mkfs and one file
# serve several workloads.
groups=() prev_share=-
for e in "${entries[@]}"; do
	load_entry "$e"
	selected || continue
	if [ "${S[share]}" != - ] && [ "${S[share]}" = "$prev_share" ]; then
		groups[${#groups[@]} - 1]+=$'\n'$e
	else
		groups+=("$e")
	fi
	prev_share=${S[share]}
done

# What a group's entries must have in common to share one build.
build_key() {
	echo "${S[n]} ${S[fs]} ${S[chunk]} ${S[features]} ${S[mkfs]} ${S[size]} ${S[member]} ${S[completion_ns]} ${S[cache]} ${S[flush_ms]} ${S[layout]} ${S[fail]}"
}

start_all=$(date +%s)
say "$total runs, about ${budget_left}s; results in $out"
for g in "${groups[@]}"; do
	mapfile -t gents <<<"$g"
	key=""
	for e in "${gents[@]}"; do
		load_entry "$e"
		if [ -n "$key" ] && [ "$(build_key)" != "$key" ]; then
			say "${S[id]}: share=${S[share]} needs the same n, fs, chunk, features, mkfs, size and members as the entry before it"
			exit 2
		fi
		key=$(build_key)
		mkdir -p "$out/${S[id]}"
		: >"$out/${S[id]}/skipped"
		echo "$e" >"$out/${S[id]}/entry"
		emit_file "${S[id]}/entry"
	done
	load_entry "${gents[0]}"

	# The first entry's layers and counts: the others' are subsets.
	counts=${S[n]//,/ } glayers=${S[layers]//,/ }
	max=0
	for n in $counts; do [ "$n" -gt "$max" ] && max=$n; done
	if [ "$mode" = host ] && [ "$max" -gt "$maxdev" ]; then
		say "${S[id]}: only $maxdev devices given; N above $maxdev skipped"
		max=$maxdev
	fi
	members_up "$max" || { say "${S[id]}: could not create $max members"; members_down; continue; }
	member_stat_paths
	# Real drives start with whatever they held; fresh null_blk are zero.
	[ "$mode" = host ] && members_wipe "${#MEMBERS[@]}"

	whole_skip="" used=0
	if [ "${S[requires]}" = fanraid-raid6 ] && ! have_fanraid_raid6; then
		whole_skip="requires fanraid raid6, which this dm-fanraid does not accept yet"
	fi
	case ${S[fail]} in
	0 | 1 | 2) ;;
	*) whole_skip="fail=${S[fail]}: must be 0, 1 or 2 (members failed before the run)" ;;
	esac

	for n in $counts; do
		for l in $(layer_order "$glayers"); do
			t0=$(date +%s)
			load_entry "${gents[0]}"
			# The entries of the group that compare this layer: one
			# progress line for their runs on this build.
			ents=()
			for e in "${gents[@]}"; do
				load_entry "$e"
				case ",${S[layers]}," in *",$l,"*) ents+=("$e") ;; esac
			done
			load_entry "${gents[0]}"
			done_runs=$((done_runs + ${#ents[@]}))
			if [ "$done_runs" -gt ${#ents[@]} ]; then
				eta=$(((total - done_runs + ${#ents[@]}) * spent / (done_runs - ${#ents[@]})))
			else
				eta=$budget_left
			fi
			echo "@@P $((done_runs - ${#ents[@]} + 1)) $total $eta ${S[id]} $l $n"
			if [ -n "$whole_skip" ]; then
				for e in "${ents[@]}"; do
					load_entry "$e"
					echo "$l $n $whole_skip" >>"$out/${S[id]}/skipped"
					say "skip ${S[id]} $l N=$n: $whole_skip"
				done
				continue
			fi
			if [ "$n" -gt "$max" ]; then
				for e in "${ents[@]}"; do
					load_entry "$e"
					echo "$l $n only $max members" >>"$out/${S[id]}/skipped"
				done
				continue
			fi
			# fresh=1: new null_blk members for every run, so no run
			# inherits a previous one's written data or device state.
			if [ "$mode" = vm ] && [ "${S[fresh]}" = 1 ] && [ "$used" = 1 ]; then
				members_down
				members_up "$max" || { say "could not recreate members"; break 2; }
				member_stat_paths
			fi
			used=1
			t_up=$(uptime_now)
			watchdog_start "${S[id]} $l N=$n"
			if [ "${S[job]}" = resync ]; then
				# Builds, crashes, reassembles and times the layer itself.
				if ! resync_one "$l" "$n"; then
					echo "$l $n $SKIP_REASON" >>"$out/${S[id]}/skipped"
					say "skip ${S[id]} $l N=$n: $SKIP_REASON"
				fi
			elif [ "${S[job]}" = rebuild ]; then
				# Builds the layer, fails a member and times its rebuild.
				if ! rebuild_one "$l" "$n"; then
					echo "$l $n $SKIP_REASON" >>"$out/${S[id]}/skipped"
					say "skip ${S[id]} $l N=$n: $SKIP_REASON"
				fi
			elif layer_up "$l" "$n" && layer_degrade "$l" "$n"; then
				say "time $l N=$n: build $(uptime_since "$t_up")s"
				for e in "${ents[@]}"; do
					load_entry "$e"
					ra_apply "$n"
					run_one "$l" "$n"
				done
			else
				for e in "${ents[@]}"; do
					load_entry "$e"
					echo "$l $n $SKIP_REASON" >>"$out/${S[id]}/skipped"
					say "skip ${S[id]} $l N=$n: $SKIP_REASON"
				done
			fi
			layer_down "$n"
			watchdog_stop
			spent=$((spent + $(date +%s) - t0))
		done
	done
	members_down
	for e in "${gents[@]}"; do
		load_entry "$e"
		emit_file "${S[id]}/skipped"
	done
done
say "done in $(($(date +%s) - start_all))s"

# --advise in the VM: the advisor (bench/lib/advise.sh) against a fanraid
# RAID0 array of ADVISE_N simulated SSDs like the demo's (76 MiB/s), made
# with the target's defaults as `fanraid create` would. The members are
# the VM's own, so the advice also measures what needs writes.
if [ "$advise" = 1 ] && [ "$mode" = vm ]; then
	load_entry "id=advise n=${ADVISE_N:-8} member=76 size=512M"
	t0=$(date +%s)
	if members_up "${S[n]}" && have_target fanraid; then
		len=$(member_chunks_len "${S[n]}" 1024)
		dmsetup create fr-advise --table \
			"0 $((len * S[n])) fanraid raid0 1024 0 ${S[n]}$(dm_devs_args "${S[n]}")" &&
			dmsetup mknodes fr-advise &&
			bash "$here/advise.sh" --array /dev/mapper/fr-advise --yes-destroy-data --out "$out"
		dmsetup remove fr-advise 2>/dev/null
		emit_file advice.txt
		emit_file advice.log
	else
		say "advise: could not make ${S[n]} members with dm-fanraid loaded"
	fi
	members_down
	say "advice in $(($(date +%s) - t0))s"
fi
