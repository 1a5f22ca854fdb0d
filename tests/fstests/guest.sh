#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the Debian VM (tests/debvm/storage.sh fstests) as the boot's
# payload, then powers off. fstests, built on the host (make fstests), is
# in /opt/xfstests; the list of tests is /debvm/fstests.list.
#
# Two sets of six virtio disks (serials t0..t5 and s0..s5) carry TEST_DEV
# and SCRATCH_DEV. Each configuration builds both devices the same way:
#   fanraid RAID0 of 4, fanraid RAID6 of 6, the same RAID6 with slot 1
#   failed, dm-stripe over 4 (the control of RAID0) and md RAID6 over 6
#   (the control of RAID6)
# and each file system of /debvm/fstests.fs runs the whole list on it.
# Results go to the second serial port, one line a test:
#   @@ T <fs> <config> <test> pass|fail|notrun <seconds> [reason]
# then @@ END pass|fail (fail: a configuration could not be set up).
set -uo pipefail
exec 3>/dev/ttyS1
unset DM_DISABLE_UDEV

say() { echo "$*" >&3; echo "fstests: $*"; }
failed=0
finish() {
	say "@@ END $([ $failed = 0 ] && echo pass || echo fail)"
	sync
	systemctl poweroff
	exit 0
}

say "@@ BOOTED $(uname -r) in $(cut -d' ' -f1 /proc/uptime) s"
# insmod resolves no dependencies: the module's own come first.
modprobe -a raid6_pq xor
insmod /debvm/dm-fanraid.ko || { say "not ok - insmod dm-fanraid"; failed=1; finish; }
modprobe dm-flakey; modprobe dm-mod; modprobe raid456
udevadm settle
t=(); s=()
for i in 0 1 2 3 4 5; do
	t+=("$(readlink -f /dev/disk/by-id/virtio-t$i)")
	s+=("$(readlink -f /dev/disk/by-id/virtio-s$i)")
done
say "# members: TEST ${t[*]}  SCRATCH ${s[*]}"
# fstests' own users (also made by the image's customize hook)
mkdir -p /mnt/test /mnt/scratch
sz=$(blockdev --getsz "${t[0]}")
# CHUNK for every layout: 64 KiB
chunk_kib=64

# wipe DEV...: no superblock of the last configuration is left for the
# next one to find (fanraid's and md's sit in the first and last MiBs)
wipe() {
	local d
	for d in "$@"; do
		blkdiscard -f "$d" 2>/dev/null ||
			{ dd if=/dev/zero of="$d" bs=1M count=8 oflag=direct status=none
			  dd if=/dev/zero of="$d" bs=1M seek=$((sz / 2048 - 8)) count=8 oflag=direct status=none; }
	done
}

# leftovers: what a stopped check leaves mounted, and a flakey or other
# table fstests left over an array
leftovers() {
	umount /mnt/test /mnt/scratch 2>/dev/null
	dmsetup ls | awk '$1 != "fst" && $1 != "fss" {print $1}' |
		xargs -r -n1 dmsetup remove 2>/dev/null
}

teardown() {
	leftovers
	for n in fst fss; do
		fanraid stop "$n" >/dev/null 2>&1 || true
	done
	mdadm --stop /dev/md/fst /dev/md/fss >/dev/null 2>&1 || true
	dmsetup remove fst 2>/dev/null; dmsetup remove fss 2>/dev/null
	udevadm settle
}

# setup CONFIG NAME DEV...: device NAME for CONFIG over DEV...; prints its path
setup() {
	local cfg=$1 name=$2
	shift 2
	case $cfg in
	fanraid-raid0)
		fanraid create "$name" --level 0 --chunk ${chunk_kib}K "${@:1:4}" >&2 || return 1
		echo "/dev/mapper/$name" ;;
	fanraid-raid0-ra-off)
		# the same RAID0 without the readahead queues: tells a failure
		# of the cache from one of the mapping
		fanraid create "$name" --level 0 --chunk ${chunk_kib}K --ra off "${@:1:4}" >&2 || return 1
		echo "/dev/mapper/$name" ;;
	fanraid-raid6)
		fanraid create "$name" --level 6 --chunk ${chunk_kib}K "$@" >&2 || return 1
		# create zeroes the members; wait for anything it still does
		for ((i = 0; i < 600; i++)); do
			dmsetup status "$name" | grep -q ' idle ' && break
			sleep 1
		done
		echo "/dev/mapper/$name" ;;
	fanraid-raid6-degraded)
		# the healthy RAID6's arrays, with slot 1 failed
		fanraid fail "$name" 1 >&2 || return 1
		echo "/dev/mapper/$name" ;;
	dm-stripe)
		local n=$(( (sz / (chunk_kib * 2)) * (chunk_kib * 2) )) tbl d
		tbl="0 $((n * 4)) striped 4 $((chunk_kib * 2))"
		for d in "${@:1:4}"; do tbl="$tbl $d 0"; done
		echo "$tbl" | dmsetup create "$name" >&2 || return 1
		echo "/dev/mapper/$name" ;;
	md-raid6)
		# --assume-clean: the members were just discarded to zeroes, as
		# fanraid create zeroes its own; no resync competes with the tests
		mdadm --create "/dev/md/$name" --run --level=6 --raid-devices=6 \
			--chunk=$chunk_kib --layout=left-symmetric --assume-clean \
			--metadata=1.2 --homehost=any "$@" >&2 || return 1
		# the kernel name: check compares it with what mount shows
		udevadm settle; readlink -f "/dev/md/$name" ;;
	esac
}

configs=${FSTESTS_CONFIGS:-$(cat /debvm/fstests.configs)}
fslist=$(cat /debvm/fstests.fs)
tests=$(grep -v '^#' /debvm/fstests.list | awk '{print $1}' | tr '\n' ' ')
say "# tests: $tests"
cd /opt/xfstests || { say "not ok - no /opt/xfstests"; failed=1; finish; }
# fstests writes results/ under its own tree
for cfg in $configs; do
	case $cfg in
	fanraid-raid6-degraded) ;;	# keeps the RAID6 of the last step
	*) teardown; wipe "${t[@]}" "${s[@]}" ;;
	esac
	t0=$(date +%s)
	if ! td=$(setup "$cfg" fst "${t[@]}") || ! sd=$(setup "$cfg" fss "${s[@]}"); then
		say "not ok - set up $cfg"
		failed=1
		continue
	fi
	say "# $cfg: TEST_DEV=$td SCRATCH_DEV=$sd ($(($(blockdev --getsize64 "$td") >> 20)) MiB) set up in $(($(date +%s) - t0)) s"
	dmsetup status fst 2>/dev/null | cut -c1-120 | sed 's/^/# | /' >&3
	cat /proc/mdstat | sed 's/^/# | /' >&3
	for fs in $fslist; do
		leftovers
		case $fs in
		xfs) mkfs.xfs -q -f "$td" ;;
		ext4) mkfs.ext4 -q -F "$td" ;;
		esac
		cat >local.config <<EOC
export FSTYP=$fs
export TEST_DEV=$td
export TEST_DIR=/mnt/test
export SCRATCH_DEV=$sd
export SCRATCH_MNT=/mnt/scratch
EOC
		t1=$(date +%s)
		rm -rf results
		# check's own report goes to the log as it runs; then one line
		# a test to the results. A combination has its time budget, so
		# one hung test cannot take the others' time.
		timeout "$(cat /debvm/fstests.budget)" ./check -R xunit $tests 2>&1 |
			tee /tmp/check.out | sed -u "s/^/# $fs $cfg | /" >&3
		rc=${PIPESTATUS[0]}
		echo >&3	# check's last line may be unfinished
		python3 /debvm/xunit2lines.py results/result.xml /tmp/check.out "$fs" "$cfg" $tests >&3
		for f in results/*/*.out.bad results/*/*.dmesg; do
			[ -f "$f" ] || continue
			say "# --- $fs $cfg $f"
			head -40 "$f" | sed 's/^/# > /' >&3
		done
		# fsx's own log of its last operations, for a failed fsx test
		if grep -q "READ BAD DATA" results/*/*.out.bad 2>/dev/null; then
			for f in /mnt/test/*.fsxlog; do
				[ -f "$f" ] || continue
				say "# --- $fs $cfg $f (last 80 lines)"
				tail -80 "$f" | sed 's/^/# fsxlog > /' >&3
			done
		fi
		dmsetup status fst 2>/dev/null | cut -c1-200 | sed 's/^/# status | /' >&3
		say "# $fs $cfg: check exit $rc in $(($(date +%s) - t1)) s"
	done
done
teardown
dmesg | grep -E 'BUG|WARNING|Oops|Call Trace|fanraid' | tail -40 | sed 's/^/# dmesg | /' >&3
finish
