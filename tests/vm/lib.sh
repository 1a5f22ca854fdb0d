# SPDX-License-Identifier: GPL-2.0-only
#
# Harness library for the VM scenarios (tests/vm/*.sh), sourced by each one:
#
#	. "${0%/*}/lib.sh"
#
# Runs inside the test VM (bash, busybox, the tools the initramfs carries).
# Scenarios exit 0 to pass, 77 to skip (capability missing), anything else
# to fail; /init also fails a scenario whose kernel log shows an oops, BUG,
# WARNING or call trace. Sourcing turns on `set -euo pipefail` and reports the
# failing line, so a plain command that fails is an assertion.

export DM_DISABLE_UDEV=1
NULLB_CFS=/sys/kernel/config/nullb

if [ "${1:-}" != --no-strict ]; then
	set -euo pipefail
	trap '_rc=$?; echo "FAIL: line $LINENO: $BASH_COMMAND (status $_rc)" >&2' ERR
	trap '_run_exit_hooks' EXIT
fi

_exit_hooks=()

# Run CMD... when the scenario exits, last registered first.
on_exit() {
	_exit_hooks+=("$*")
}

_run_exit_hooks() {
	local i
	set +e
	trap - ERR
	for ((i = ${#_exit_hooks[@]} - 1; i >= 0; i--)); do
		eval "${_exit_hooks[$i]}" || true
	done
}

log() {
	echo "# $*"
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# The capability a scenario needs is missing: report it skipped, never
# passed.
skip() {
	echo "${*:-capability missing}" >/tmp/.skip-reason
	echo "SKIP: ${*:-capability missing}"
	exit 77
}

# have_target NAME [MAJ MIN PATCH]: the kernel offers target NAME at
# version >= MAJ.MIN.PATCH. Loads dm-NAME first if it is not listed yet.
have_target() {
	local name=$1 want="${2:-0}.${3:-0}.${4:-0}" got
	got=$(dmsetup targets 2>/dev/null | awk -v n="$name" '$1 == n { print $2 }')
	if [ -z "$got" ]; then
		modprobe "dm-$name" 2>/dev/null || true
		got=$(dmsetup targets 2>/dev/null | awk -v n="$name" '$1 == n { print $2 }')
	fi
	[ -n "$got" ] || return 1
	got=${got#v}
	[ "$(printf '%s\n%s\n' "$want" "$got" | sort -V | head -n1)" = "$want" ]
}

# have_cmd CMD...: every command is in the image.
have_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || return 1
	done
}

# have_fs TYPE: the kernel can mount TYPE (loads its module on demand).
have_fs() {
	modprobe "$1" 2>/dev/null || true
	grep -qw "$1" /proc/filesystems
}

# nullb_create NAME SIZE_MB [attr=value...]: a null_blk device made through
# configfs, memory backed (data persists) with 512-byte blocks unless the
# attributes say otherwise. Prints its path: /dev/NAME on kernels that name
# the disk after the configfs item (6.1 does), else /dev/nullb<index>.
nullb_create() {
	local name=$1 size=$2 kv d=$NULLB_CFS/$1 idx
	shift 2
	[ -d "$NULLB_CFS" ] || fail "null_blk configfs missing at $NULLB_CFS"
	mkdir "$d"
	echo "$size" >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 512 >"$d/blocksize"
	for kv in "$@"; do
		echo "${kv#*=}" >"$d/${kv%%=*}"
	done
	echo 1 >"$d/power"
	if [ -b "/dev/$name" ]; then
		echo "/dev/$name"
		return
	fi
	idx=$(cat "$d/index")
	[ -b "/dev/nullb$idx" ] || fail "nullb $name: neither /dev/$name nor /dev/nullb$idx appeared"
	echo "/dev/nullb$idx"
}

# nullb_create_many COUNT SIZE_MB [attr=value...]: COUNT devices, made one
# by one (configfs has no batch), named nullb<k> after those that exist;
# paths on stdout, one a line.
nullb_create_many() {
	local count=$1 size=$2 i=0 made=0
	shift 2
	while [ $made -lt "$count" ]; do
		if [ ! -e "$NULLB_CFS/nullb$i" ] && [ ! -e "/dev/nullb$i" ]; then
			nullb_create "nullb$i" "$size" "$@"
			made=$((made + 1))
		fi
		i=$((i + 1))
	done
}

# loop_members COUNT SIZE_MB: COUNT loop devices over sparse files on the
# tmpfs /tmp (/tmp/lm/m<i>). Unlike null_blk they take write-zeroes (a
# hole punched in the file; with REQ_NOUNMAP tmpfs refuses, and the block
# layer writes zero pages) and discards, and they have a write-back cache
# (flushes reach them); a file's allocated blocks (stat %b) say what its
# member holds. Paths on stdout, one a line; harness_reset detaches them.
loop_members() {
	local i dev
	modprobe loop max_loop=16 2>/dev/null || true
	[ -c /dev/loop-control ] || mknod /dev/loop-control c 10 237
	for ((i = 0; i < 16; i++)); do
		[ -b /dev/loop$i ] || mknod /dev/loop$i b 7 $i
	done
	mkdir -p /tmp/lm
	for ((i = 0; i < $1; i++)); do
		[ ! -e /tmp/lm/m$i ] || fail "loop_members: /tmp/lm/m$i exists"
		truncate -s "$2M" /tmp/lm/m$i
		dev=$(losetup -f --show /tmp/lm/m$i) || fail "losetup /tmp/lm/m$i"
		echo "$dev"
	done
}

# loop_blocks I: 512-byte blocks allocated to loop_members' file I.
loop_blocks() {
	stat -c %b "/tmp/lm/m$1"
}

# blk_stat DEV FIELD: one field of /sys/block/DEV/stat (1-based, as in
# Documentation/block/stat.rst: 5 write I/Os, 7 write sectors, 12 discard
# I/Os, 14 discard sectors).
blk_stat() {
	awk -v f="$2" '{ print $f }' "/sys/block/${1#/dev/}/stat"
}

nullb_destroy() {
	local d=$NULLB_CFS/$1
	[ -d "$d" ] || return 0
	echo 0 >"$d/power" 2>/dev/null || true
	rmdir "$d"
}

nullb_destroy_all() {
	local d
	[ -d "$NULLB_CFS" ] || return 0
	for d in "$NULLB_CFS"/*; do
		[ -d "$d" ] && nullb_destroy "${d##*/}"
	done
	return 0
}

# dm_create NAME TABLE: creates the device and its /dev/mapper node (no udev
# in the VM). Fails with dmsetup's message when the kernel refuses TABLE.
dm_create() {
	local name=$1
	shift
	dmsetup create "$name" --table "$*"
	dmsetup mknodes "$name"
	[ -b "/dev/mapper/$name" ] || fail "dm $name: /dev/mapper/$name missing"
}

dm_remove() {
	dmsetup remove "$1"
}

dev_sectors() {
	blockdev --getsz "$1"
}

# Write back and drop the page cache, so reads of a member see the media and
# not pages left over from the partition scan or an earlier read.
drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

assert_eq() {
	[ "$1" = "$2" ] || fail "${3:-values differ}: expected '$2', got '$1'"
}

assert_ne() {
	[ "$1" != "$2" ] || fail "${3:-values equal}: both '$1'"
}

# assert_contains HAYSTACK NEEDLE [what]
assert_contains() {
	case "$1" in
	*"$2"*) ;;
	*) fail "${3:-output} does not contain '$2': $1" ;;
	esac
}

# expect_fail CMD...: CMD must fail; its output is printed for the log.
expect_fail() {
	if "$@"; then
		fail "expected failure: $*"
	fi
}

# dmesg_mark, then dmesg_since: the kernel log written in between. The
# mark is the last record's timestamp, not a line count: once the ring
# buffer wraps, old lines drop off the front and a count points past the
# new ones.
dmesg_mark() {
	_dmesg_mark=$(dmesg | tail -n 1 | sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/p')
}

# A subshell that ignores SIGPIPE: a reader that stops at its first match
# (grep -q) must not turn the lines after it into a failure, which
# pipefail would report.
dmesg_since() (
	trap '' PIPE
	dmesg | awk -v mark="${_dmesg_mark:-0}" '{
		t = $0
		if (!sub(/^\[ */, "", t) || !sub(/\].*/, "", t))
			next
		if (t + 0 > mark + 0)
			print
	}' 2>/dev/null || true
)

# Put the VM back to a clean state between scenarios: no processes left
# over, nothing mounted, no dm or null_blk devices.
harness_reset() {
	local m
	kill -9 -1 2>/dev/null
	sleep 0.2
	for m in $(awk '$2 ~ "^/mnt" { print $2 }' /proc/mounts | sort -r); do
		umount -l "$m"
	done
	dmsetup remove_all --force
	losetup -D 2>/dev/null
	nullb_destroy_all
	rm -rf /tmp/*
	return 0
}

# fanraid_counter DEV MEMBER FIELD: one per-member counter from the fanraid
# INFO status. FIELD: reads writes read_sectors write_sectors flushes errors.
# INFO is <level> <#devs> <health> <sync_ratio> <action>, then 6 counters
# per member.
fanraid_counter() {
	local dev=$1 member=$2 field=$3 k
	case $field in
	reads) k=0 ;; writes) k=1 ;; read_sectors) k=2 ;; write_sectors) k=3 ;;
	flushes) k=4 ;; errors) k=5 ;;
	*) fail "fanraid_counter: unknown field $field" ;;
	esac
	dmsetup status "$dev" | awk -v i="$member" -v k="$k" '
		$3 == "fanraid" { print $(9 + 6 * i + k); exit }'
}

# fanraid_total DEV FIELD: a whole-array counter after the per-member ones
# in the fanraid INFO status. FIELD: mismatch_cnt ra_hits ra_misses
# ra_prefetched ra_wasted flushes_elided stripe_cache_kib
# stripe_cache_peak_kib (docs/fanraid.rst, Status).
fanraid_total() {
	local k
	case $2 in
	mismatch_cnt) k=0 ;; ra_hits) k=1 ;; ra_misses) k=2 ;;
	ra_prefetched) k=3 ;; ra_wasted) k=4 ;; flushes_elided) k=5 ;;
	stripe_cache_kib) k=6 ;; stripe_cache_peak_kib) k=7 ;;
	*) fail "fanraid_total: unknown field $2" ;;
	esac
	# <start> <len> fanraid <level> <#devs> <health> <sync> <action>, then
	# six counters per member
	dmsetup status "$1" | awk -v k="$k" '
		$3 == "fanraid" { print $(9 + 6 * $5 + k); exit }'
}

# vm_disks COUNT: the paths of the "# disks:" virtio disks, one a line,
# once their device nodes exist.
vm_disks() {
	local i letters=abcdefghijklmnopqrstuvwxyz
	for ((i = 0; i < $1; i++)); do
		local d=/dev/vd${letters:i:1} t
		for t in $(seq 1 100); do
			[ -b "$d" ] && break
			sleep 0.1
		done
		[ -b "$d" ] || fail "virtio disk $d never appeared"
		echo "$d"
	done
}

# vm_crash: end this boot at once, as a power cut would, with no unmount,
# no sync and nothing stopped ("# boots: 2" scenarios). The kernel log is
# checked first, since this boot ends without the runner's scan.
vm_crash() {
	local hit
	hit=$(dmesg | grep -E -m1 'Oops|BUG:|WARNING:|kmemleak|general protection|Call Trace' || true)
	[ -z "$hit" ] || fail "kernel log before the crash: $hit"
	log "crashing boot $VMTEST_BOOT"
	echo 1 >/proc/sys/kernel/sysrq
	echo b >/proc/sysrq-trigger
	sleep 30
	fail "still running after sysrq b"
}

# member_pairs DEV...: the "<dev> <offset>" words of a table, offset 0, each
# pair after a space (append to "<#devs>").
member_pairs() {
	local m
	for m in "$@"; do
		printf ' %s 0' "$m"
	done
}

# fanraid_wait_idle NAME [SECONDS]: wait until the array's resync, rebuild
# or scrub has finished (action idle in its status), at most SECONDS (150).
fanraid_wait_idle() {
	local i
	for ((i = 0; i < ${2:-150} * 2; i++)); do
		case "$(dmsetup status "$1")" in *" idle "*) return 0 ;; esac
		sleep 0.5
	done
	fail "$1 still syncing: $(dmsetup status "$1")"
}

# fanraid_health DEV MEMBER: the member's health character (A, a or D).
fanraid_health() {
	dmsetup status "$1" | awk -v i="$2" '$3 == "fanraid" { print substr($6, i + 1, 1); exit }'
}

# fanraid_corrected DEV MEMBER: read errors the target repaired on MEMBER
# from parity (target 1.2.0+: one word per member after the stripe cache
# words).
fanraid_corrected() {
	dmsetup status "$1" | awk -v i="$2" '
		$3 == "fanraid" { print $(9 + 6 * $5 + 8 + i); exit }'
}

# fanraid_sb_state DEV: clean, dirty or none (target 1.3.0+).
fanraid_sb_state() {
	dmsetup status "$1" | awk '$3 == "fanraid" { print $(18 + 8 * $5); exit }'
}

# fanraid_bitmap DEV: "<region_sectors> <dirty_regions> <sync_regions>"
# (target 1.4.0+: the write-intent bitmap and the regions the last sync
# pass covered).
fanraid_bitmap() {
	dmsetup status "$1" | awk '$3 == "fanraid" {
		n = 19 + 8 * $5; print $n, $(n + 1), $(n + 2); exit }'
}

# fanraid_lost_row DEV: the row where the last rebuild stopped because its
# data is lost, or - (target 1.4.0+).
fanraid_lost_row() {
	dmsetup status "$1" | awk '$3 == "fanraid" { print $(22 + 8 * $5); exit }'
}

# dust_create NAME DEV: NAME over DEV through dm-dust with 4 KiB blocks,
# bad-block list empty and reads passing until dust_bad. Prints its path.
dust_create() {
	modprobe dm-dust 2>/dev/null || true
	dmsetup targets | grep -q '^dust ' || fail "dm-dust missing (tests/vm/dust/build.sh)"
	dm_create "$1" "0 $(dev_sectors "$2") dust $2 0 4096" >/dev/null
	echo "/dev/mapper/$1"
}

# dust_bad NAME SECTOR [WRITE_FAILS]: the 4 KiB block of dust device NAME
# at SECTOR (a multiple of 8) fails its reads until a write succeeds; the
# first WRITE_FAILS writes to it fail too (default 0: it heals on the first
# write, as a drive remaps a sector). Failing starts at once.
dust_bad() {
	[ $(($2 % 8)) = 0 ] || fail "dust_bad: sector $2 is not 4 KiB aligned"
	dmsetup message "$1" 0 addbadblock $(($2 / 8)) ${3:-0} >/dev/null
	dmsetup message "$1" 0 enable >/dev/null
}

# dust_count NAME: bad blocks dust device NAME still lists.
dust_count() {
	dmsetup message "$1" 0 countbadblocks | sed -n 's/.*countbadblocks: \([0-9]*\) .*/\1/p'
}

# fanraid_blamed DEV MEMBER: sectors the last check or repair found wrong on
# MEMBER, named by P and Q together (target 1.2.0+: one word per member
# after read_errors_corrected).
fanraid_blamed() {
	dmsetup status "$1" | awk -v i="$2" '
		$3 == "fanraid" { print $(9 + 7 * $5 + 8 + i); exit }'
}

# log_entries FILE: the log's entries in order, one a line, sectors in
# 512-byte units:
#	W <sector> <sectors> <flags>	a write
#	F <flags>			an empty flush
#	M <text>			a mark
#	D <sector> <sectors>		a discard
# Format (drivers/md/dm-log-writes.c): at byte 0 the super, le64 magic,
# version, nr_entries, le32 sectorsize; then each entry on its own sectorsize
# block, le64 sector, nr_sectors, flags, data_len (sector and nr_sectors in
# sectorsize units; a mark's text follows in the same block), followed by
# nr_sectors blocks of data unless it is a discard.
log_entries() {
	local LOG_FLUSH=1 LOG_DISCARD=4 LOG_MARK=8
	local f=$1 magic ver nr ss spb pos e sec cnt flags dlen size
	size=$(stat -c %s "$f")
	read -r magic ver nr < <(echo $(od -A n -t u8 -N 24 "$f"))
	ss=$(echo $(od -A n -t u4 -j 24 -N 4 "$f"))
	[ "$magic" = $((0x6a736677736872)) ] || fail "$f: log magic $magic"
	[ "$ver" = 1 ] || fail "$f: log version $ver"
	spb=$((ss / 512))
	pos=$spb
	for ((e = 0; e < nr; e++)); do
		[ $((pos * 512 + ss)) -le "$size" ] || fail "$f: entry $e of $nr beyond the log"
		read -r sec cnt flags dlen < <(echo $(od -A n -t u8 -j $((pos * 512)) -N 32 "$f"))
		if ((flags & LOG_MARK)); then
			echo "M $(dd if="$f" bs=1 skip=$((pos * 512 + 32)) count="$dlen" status=none)"
		elif ((flags & LOG_DISCARD)); then
			echo "D $((sec * spb)) $((cnt * spb))"
		elif ((cnt > 0)); then
			echo "W $((sec * spb)) $((cnt * spb)) $flags"
		elif ((flags & LOG_FLUSH)); then
			echo "F $flags"
		else
			echo "? $sec $cnt $flags $dlen"
		fi
		pos=$((pos + spb))
		((flags & LOG_DISCARD)) || pos=$((pos + cnt * spb))
	done
}

# logwrites_members COUNT MB LOG_MB: COUNT null_blk members of MB MiB with a
# volatile write cache (without one the block layer strips flushes before
# any target), each under dm-log-writes lw0... logging to its own LOG_MB
# null_blk. Sets lw_pairs (the "/dev/mapper/lwI 0" words of a table),
# lw_logs (the log devices) and lw_sectors (a member's size).
logwrites_members() {
	local i
	mapfile -t _lw_data < <(nullb_create_many "$1" "$2" cache_size=16 blocksize=4096)
	mapfile -t lw_logs < <(nullb_create_many "$1" "$3")
	lw_sectors=$(dev_sectors "${_lw_data[0]}")
	lw_pairs=""
	for ((i = 0; i < $1; i++)); do
		dm_create "lw$i" "0 $lw_sectors log-writes ${_lw_data[i]} ${lw_logs[i]}"
		lw_pairs="$lw_pairs /dev/mapper/lw$i 0"
	done
	assert_eq "$(cat /sys/block/$(dmsetup info -c --noheadings -o blkdevname lw0)/queue/write_cache)" \
		"write back" "log-writes passes the member's write cache up"
}

# logwrites_mark COUNT TEXT: a mark in the log of lw0 ... lw(COUNT-1).
logwrites_mark() {
	local i
	for ((i = 0; i < $1; i++)); do dmsetup message "lw$i" 0 mark "$2"; done
}

# logwrites_remove COUNT: remove lw0..., which logs what each still held
# back and waits for its log; a log that stopped logging fails.
logwrites_remove() {
	local i st
	for ((i = 0; i < $1; i++)); do
		st=$(dmsetup status "lw$i")
		case $st in *logging_disabled*) fail "lw$i stopped logging: $st" ;; esac
		dm_remove "lw$i"
	done
}

# fanraid_wait_bitmap_clean NAME [SECONDS]: wait until the array's bitmap
# has no bit set (the cleaner clears idle regions after one to two periods
# of 5 s), at most SECONDS (40).
fanraid_wait_bitmap_clean() {
	local i bm
	for ((i = 0; i < ${2:-40} * 2; i++)); do
		bm=$(fanraid_bitmap "$1")
		[ "${bm#* }" != "${bm}" ] && [ "$(echo "$bm" | cut -d' ' -f2)" = 0 ] && return 0
		sleep 0.5
	done
	fail "$1 bitmap still dirty: $(fanraid_bitmap "$1")"
}

# known_k6 [fio options]: 48 MiB at the start of /dev/mapper/k6 whose every
# 64 KiB block fio recognises again from its seed (the kernel-fail crash
# scenarios).
known_k6() {
	fio --name=known --filename=/dev/mapper/k6 --rw=write --bs=64k \
		--size=48M --direct=1 --verify=crc32c --randseed=777 \
		--output=/tmp/known.out "$@" || { cat /tmp/known.out; fail "known data: fio $*"; }
}

# examine_field DEV: "<state> <events> <failed mask>" from fanraid examine.
examine_field() {
	fanraid examine "$1" | sed -n 's/.*state: \([a-z,]*\), events \([0-9]*\), failed mask \(0x[0-9a-f]*\).*/\1 \2 \3/p'
}

# kernel_fail_then_crash CREATE_OPTION... (first boot, six "# disks:"):
# array k6 over dm-linear members, member 3 switched to the error target in
# the middle of a slow write of known_k6, the writes go on degraded, the
# survivors record the failure and the dead member's block does not; once
# idle and clean again, a power cut.
kernel_fail_then_crash() {
	local -a devs lin
	local k writer status st0 ev0 mask0 st3 ev3 mask3
	mapfile -t devs < <(vm_disks 6)
	for k in 0 1 2 3 4 5; do
		dm_create "lin$k" "0 $(dev_sectors "${devs[k]}") linear ${devs[k]} 0"
		lin+=("/dev/mapper/lin$k")
	done
	fanraid create k6 --level 6 --chunk 64K "$@" "${lin[@]}"
	fanraid_wait_idle k6 150
	case $(dmsetup table k6) in *" bitmap "*) fanraid_wait_bitmap_clean k6 40 ;; esac
	log "member 3 before: $(examine_field "${devs[3]}")"
	# Slow enough that the member dies in the middle of it.
	known_k6 --do_verify=0 --rate=6m &
	writer=$!
	sleep 3
	dmsetup suspend lin3
	dmsetup load lin3 --table "0 $(dev_sectors "${devs[3]}") error"
	dmsetup resume lin3
	log "member 3 now returns EIO"
	wait "$writer" || fail "writes did not go on past the member failure"
	status=$(dmsetup status k6)
	log "status: $status"
	assert_contains "$status" "raid6 6 AAADAA"
	# The survivors know; the dead member's own block is as it was.
	read -r st0 ev0 mask0 <<<"$(examine_field "${devs[0]}")"
	read -r st3 ev3 mask3 <<<"$(examine_field "${devs[3]}")"
	assert_eq "$mask0" 0x8 "failed mask on a survivor"
	assert_contains "$st0" "degraded"
	assert_eq "$mask3" 0x0 "failed mask on the dead member"
	[ "$ev3" -lt "$ev0" ] || fail "dead member events $ev3 not below the survivors' $ev0"
	# Idle past safe_mode_delay: clean again, so the next boot needs no --force.
	sleep 1
	assert_contains "$(dmsetup status k6)" " clean"
	vm_crash
}

# fsync_storm_job ARRAY SEED SIZE PSYNC_JOBS PSYNC_OFFSET URING_OFFSET:
# /tmp/storm.fio, small buffered writes (512 B-16 KiB at 512-byte offsets,
# so the page cache read-modify-writes sub-page ones) with an fsync after
# every one, PSYNC_JOBS psync jobs from PSYNC_OFFSET and two io_uring jobs
# from URING_OFFSET, each on its own SIZE.
fsync_storm_job() {
	cat >/tmp/storm.fio <<JOB
[global]
filename=/dev/mapper/$1
direct=0
rw=randwrite
bsrange=512-16k
blockalign=512
fsync=1
verify=crc32c
verify_fatal=1
randseed=$2
size=$3
offset_increment=$3

[storm-psync]
ioengine=psync
numjobs=$4
offset=$5

[storm-io_uring]
ioengine=io_uring
iodepth=4
numjobs=2
offset=$6
JOB
}

# fsync_storm_verify ARRAY MEMBERS MIN_FLUSHES FLUSHES_BEFORE: run the fio
# job /tmp/storm.fio (writes with fsync after each, verify=...) against
# /dev/mapper/ARRAY, verify it again cold, and require every one of its
# MEMBERS to have seen MIN_FLUSHES flushes (member 0's FLUSHES_BEFORE
# subtracted) and no error.
fsync_storm_verify() {
	local fr=$1 n=$2 min=$3 before=$4 m f
	fio /tmp/storm.fio --do_verify=1 --output=/tmp/storm.out ||
		{ tail -n 40 /tmp/storm.out; fail "fsync storm: fio verify failed"; }
	drop_caches
	fio /tmp/storm.fio --verify_only=1 --output=/tmp/storm-cold.out ||
		{ tail -n 40 /tmp/storm-cold.out; fail "fsync storm: cold re-read verify failed"; }
	for ((m = 0; m < n; m++)); do
		f=$(fanraid_counter "$fr" $m flushes)
		[ "$m" != 0 ] || f=$((f - before))
		[ "$f" -ge "$min" ] || fail "member $m saw $f flushes in an fsync storm"
		assert_eq "$(fanraid_counter "$fr" $m errors)" 0 "member $m errors"
	done
}
