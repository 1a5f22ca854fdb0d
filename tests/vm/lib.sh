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

# dm_swap NAME TABLE: give a live device a new table (a member wrapper
# turned to the error target, or back), I/O in flight finishing first.
dm_swap() {
	dmsetup suspend "$1"
	dmsetup load "$1" --table "$2"
	dmsetup resume "$1"
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

# fanraid_members_sum DEV NDEVS FIELD: a member counter (fanraid_counter's
# FIELD) summed over members 0..NDEVS-1.
fanraid_members_sum() {
	local i sum=0
	for ((i = 0; i < $2; i++)); do
		sum=$((sum + $(fanraid_counter "$1" "$i" "$3")))
	done
	echo "$sum"
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

# lin_members COUNT: dm-linear devices lin0... over the first COUNT
# "# disks:" disks, which dm_swap can switch to the error target and back;
# sets the arrays devs (the disks) and lin (/dev/mapper/lin<k>).
lin_members() {
	local k
	mapfile -t devs < <(vm_disks "$1")
	lin=()
	for ((k = 0; k < $1; k++)); do
		dm_create "lin$k" "0 $(dev_sectors "${devs[k]}") linear ${devs[k]} 0"
		lin+=("/dev/mapper/lin$k")
	done
}

# lost_table MISSING...: the table line of a RAID6 over the members in
# the array devs, each at sector $off, with those indexes given as "- -"
# (lost); the caller sets n, len and chunk.
# shellcheck disable=SC2154 # chunk and off: the caller's
lost_table() {
	local t="0 $len fanraid raid6 $chunk 0 $n" i
	for ((i = 0; i < n; i++)); do
		case " $* " in
		*" $i "*) t="$t - -" ;;
		*) t="$t ${devs[i]} $off" ;;
		esac
	done
	echo "$t"
}

# survivor_reads MISSING...: sectors the members in devs other than those
# indexes have read, from the kernel's own counters for them.
survivor_reads() {
	local i sum=0
	for ((i = 0; i < n; i++)); do
		case " $* " in *" $i "*) continue ;; esac
		sum=$((sum + $(blk_stat "${devs[i]}" 3)))
	done
	echo "$sum"
}

# zero_superblocks DEV...: no fanraid superblock left on DEV (4 KiB at
# byte 4096), so the next scenario of a group can create on its disks.
zero_superblocks() {
	local d
	for d in "$@"; do
		dd if=/dev/zero of="$d" bs=4096 seek=1 count=1 oflag=direct status=none ||
			fail "zeroing the superblock of $d"
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

# ref_check NAME TABLE WHAT [MISSING]: /dev/mapper/NAME, and raidcalc
# reading the members of TABLE itself, both read the reference /tmp/ref,
# and raidcalc finds P and Q right. MISSING: a member raidcalc must not
# read ("- -" in its table), rebuilt from the others.
ref_check() {
	local name=$1 t=$2 what=$3 missing=${4:-}
	drop_caches
	cmp /tmp/ref "/dev/mapper/$name" || fail "$what: the device does not read the reference"
	# <start> <len> fanraid <level> <chunk> 0 <#devs>, then dev offset pairs
	[ -z "$missing" ] ||
		t=$(echo "$t" | awk -v m="$missing" '{ $(8 + 2 * m) = "-"; $(9 + 2 * m) = "-"; print }')
	raidcalc read -o /tmp/rc.out "$t" || fail "$what: raidcalc read"
	cmp /tmp/ref /tmp/rc.out || fail "$what: raidcalc reads other data off the members"
	rm -f /tmp/rc.out
	raidcalc verify "$t" >/tmp/verify.out 2>&1 || { cat /tmp/verify.out; fail "$what: raidcalc verify"; }
	log "$what: exact; $(tail -n 1 /tmp/verify.out)"
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

# fanraid_wait_sb_state DEV STATE [SECONDS] [WHAT]: wait until the array's
# superblock state in its status is STATE (clean or dirty), at most SECONDS
# (20; fio takes a while to start on a loaded TCG host); fail naming WHAT.
fanraid_wait_sb_state() {
	local i
	for ((i = 0; i < ${3:-20} * 5; i++)); do
		[ "$(fanraid_sb_state "$1")" = "$2" ] && return 0
		sleep 0.2
	done
	assert_eq "$(fanraid_sb_state "$1")" "$2" "${4:-superblock state of $1}"
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

# dust_members N MIB [attr=value...]: N null_blk members of MIB MiB (with
# those null_blk attributes), each behind a dm-dust device dust0..dustN-1,
# whose paths it prints, one per line.
dust_members() {
	local -a raw
	local i
	mapfile -t raw < <(nullb_create_many "$@")
	for ((i = 0; i < $1; i++)); do
		dust_create "dust$i" "${raw[i]}"
	done
}

# data_where DEV LEN LOGICAL: "MEMBER SECTOR" of the data chunk holding
# array sector LOGICAL of fanraid device DEV, LEN sectors long (raidcalc).
data_where() {
	raidcalc map -L "$2" -s "$3" "$(dmsetup table "$1")" |
		awk '{ for (i = 1; i < NF; i++) { if ($i == "member") m = $(i + 1); if ($i == "sector") s = $(i + 1) } print m, s }'
}

# raidcalc_field TABLE LOGICAL FIELD: one field of raidcalc map's answer for
# array sector LOGICAL of TABLE (member, sector, row, p_member, q_member...).
raidcalc_field() {
	raidcalc map -s "$2" "$1" | sed -n "s/.* $3 \([0-9]*\).*/\1/p"
}

# dust_verify N TABLE WHAT [OPTION...]: dust0..N-1 pass every read again,
# and raidcalc (ISA-L) finds P and Q of TABLE's members right (with those
# raidcalc verify options, e.g. --missing 1), or the test fails naming
# WHAT. Its summary is left in the last line of /tmp/verify.out.
dust_verify() {
	local i
	for ((i = 0; i < $1; i++)); do dmsetup message "dust$i" 0 disable >/dev/null; done
	drop_caches
	raidcalc verify "${@:4}" "$2" >/tmp/verify.out 2>&1 ||
		{ cat /tmp/verify.out; fail "$3: P and Q disagree with the data"; }
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
	dm_swap lin3 "0 $(dev_sectors "${devs[3]}") error"
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

# grow_power_cuts LEVEL (a "# boots: 4" scenario with six "# disks:"): a
# grow of array g0 from 4 to 6 members under a mounted xfs, cut by the
# power three times: in the critical section with only its backup written
# (test hook FANRAID_TEST_HALT=backup), at about a third of the copy and at
# half, with files written while it runs (raid0's copy is not paced: at
# two thirds it once finished while the file was synced). Each boot assembles,
# resumes and finds every synced file intact; the last finishes the grow,
# grows xfs, and xfs_repair finds nothing. raid0: the tool records the
# progress and is frozen before the cut, so nothing past it is recorded.
# raid6: the kernel records it itself, paced by sync-speed-max, and runs
# on until the cut; parity is resynced once the grow ends and raidcalc
# verify finds none wrong.
grow_power_cuts() {
	local level=$1 old_bytes new_bytes i
	local -a devs
	mapfile -t devs < <(vm_disks 6)
	mkdir -p /mnt/g
	case "$VMTEST_BOOT" in
	1)
		fanraid create g0 --level "$level" --chunk 64K "${devs[@]:0:4}"
		fanraid_wait_idle g0 150
		# raid6 copies on its own from assembly on: slow enough to be
		# cut (the superblocks keep the limit for every boot).
		[ "$level" = 6 ] && fanraid set g0 sync-speed-max 2M
		mkfs.xfs -q -f /dev/mapper/g0
		mount /dev/mapper/g0 /mnt/g
		grow_add_file a 40
		grow_add_file b 40
		# Halted once the backup is recorded and before the first
		# rows are rewritten: the cut lands in the critical section.
		FANRAID_TEST_HALT=backup fanraid grow g0 --add "${devs[4]}" "${devs[5]}" >/tmp/grow.out 2>&1 &
		for ((i = 0; i < 600; i++)); do
			grep -q "halted" /tmp/grow.out && break
			sleep 0.1
		done
		cat /tmp/grow.out
		assert_contains "$(cat /tmp/grow.out)" "halted"
		assert_contains "$(fanraid examine "${devs[0]}")" "backup"
		vm_crash
		;;
	2 | 3)
		grow_assemble_and_mount
		grow_add_file "c$VMTEST_BOOT" 10
		grow_cut_at $((VMTEST_BOOT == 2 ? 30 : 50)) "d$VMTEST_BOOT" "$level"
		;;
	4)
		grow_assemble_and_mount
		old_bytes=$(blockdev --getsize64 /dev/mapper/g0)
		fanraid grow g0 --continue
		new_bytes=$(blockdev --getsize64 /dev/mapper/g0)
		assert_eq "$new_bytes" $((old_bytes / (level == 6 ? 2 : 4) * (level == 6 ? 4 : 6))) \
			"array size after the grow"
		xfs_growfs /mnt/g >/dev/null
		grow_add_file g 100
		grow_check_files
		umount /mnt/g
		drop_caches
		xfs_repair -n /dev/mapper/g0 >/tmp/repair.out 2>&1 ||
			{ cat /tmp/repair.out; fail "xfs_repair -n found problems"; }
		mount /dev/mapper/g0 /mnt/g
		grow_check_files
		umount /mnt/g
		if [ "$level" = 6 ]; then
			# The cuts left it dirty: the new table resyncs.
			fanraid_wait_idle g0 300
			fanraid stop g0
			raidcalc verify --level 6 --chunk 64K --data-offset 1M "${devs[@]}" ||
				fail "raidcalc verify after the grow"
		else
			fanraid stop g0
		fi
		log "raid$level grown 4 -> 6 through three power cuts: $old_bytes -> $new_bytes bytes"
		;;
	esac
}

# A new file of MiB random bytes in /mnt/g, recorded in SHA256SUMS and synced.
grow_add_file() { # NAME MIB
	head -c "$2M" /dev/urandom >"/mnt/g/$1"
	(cd /mnt/g && sha256sum "$1" >>SHA256SUMS)
	sync
}

grow_check_files() {
	(cd /mnt/g && sha256sum -c --quiet SHA256SUMS) ||
		fail "boot $VMTEST_BOOT: files differ after the power cut"
	log "boot $VMTEST_BOOT: $(wc -l </mnt/g/SHA256SUMS) files intact"
}

# A grow's progress in g0: the last two INFO words, and the table length.
grow_copy_done() { dmsetup status g0 | awk '{ print $(NF - 1) }'; }
grow_copy_safe() { dmsetup status g0 | awk '{ print $NF }'; }
grow_old_len() { dmsetup table g0 | awk '{ print $2 }'; }

# Until g0's copy has passed PERCENT of the old array.
grow_wait_copy() { # PERCENT
	local i len done
	len=$(grow_old_len)
	for ((i = 0; i < 1200; i++)); do
		done=$(grow_copy_done)
		[ "$done" != - ] && [ $((done * 100)) -ge $(($1 * len)) ] && return 0
		sleep 0.05
	done
	fail "the copy never reached $1%: $(dmsetup status g0)"
}

# Resume the grow, let it pass PERCENT, write a file while it runs and cut
# the power; raid0's tool is frozen first, so no more is recorded.
grow_cut_at() { # PERCENT FILE LEVEL
	local pid
	fanraid grow g0 --continue >/tmp/grow.out 2>&1 &
	pid=$!
	grow_wait_copy "$1"
	grow_add_file "$2" 6
	[ "$3" = 0 ] && kill -STOP $pid && sleep 0.5
	[ "$(grow_copy_safe)" -lt "$(grow_old_len)" ] || fail "the grow finished before the cut"
	log "cut at $(grow_copy_done) copied, $(grow_copy_safe) recorded, of $(grow_old_len)"
	vm_crash
}

grow_assemble_and_mount() {
	local out
	out=$(fanraid assemble g0 2>&1) || { echo "$out"; fail "assemble after the power cut"; }
	echo "$out"
	assert_contains "$out" "grow"
	assert_contains "$(dmsetup table g0)" "reshape 4 "
	mount /dev/mapper/g0 /mnt/g
	grow_check_files
}

# sha_reader NAME DEVICE REFERENCE BS SKIP COUNT: read COUNT blocks of BS
# from SKIP with O_DIRECT at queue depth 1 (one request at a time) and
# leave the sha256 of what the device returned in /tmp/got.NAME and of the
# reference file's same range in /tmp/want.NAME, for the caller to compare
# (readers run in the background, side by side).
sha_reader() {
	dd if="$2" bs="$4" skip="$5" count="$6" iflag=direct status=none |
		sha256sum >"/tmp/got.$1"
	dd if="$3" bs="$4" skip="$5" count="$6" status=none | sha256sum >"/tmp/want.$1"
}
