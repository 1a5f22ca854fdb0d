#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the Debian VM (tests/debvm/storage.sh ceph, `make ceph-bench`)
# as the boot's payload, then powers off. A one-node Ceph (deploy.sh): one
# mon, one mgr, and one BlueStore OSD at a time on the array under test,
# built over the same six virtio members m0..m5 each time:
#   fanraid-raid0:POLICY   fanraid RAID0 of 6, flush_policy POLICY
#   fanraid-raid6:POLICY   fanraid RAID6 of 6, flush_policy POLICY
#   md-raid6               md RAID6 of 6 (--assume-clean on zeroed members)
#   dm-stripe              dm-stripe of 6
#   fanraid-raid6-fail:POLICY  fanraid RAID6 over dm-linear wrappers of the
#                          members; FAIL_AT seconds into the write bench
#                          slot 1's wrapper becomes the `error` target, so
#                          the member fails on a real EIO; the OSD must
#                          stay up
# Each: rados bench write, then seq and rand over what it wrote, 16 x 4 MiB
# in flight (-t 16 -b 4M), SECONDS each (/debvm/ceph.seconds). The first
# OSD also takes the smoke test: rados put/get of 64 MiB byte-exact and
# HEALTH_OK; with /debvm/ceph.smoke (`make ceph-smoke`, part of `make
# check`) that is all it runs. Results on the second serial port:
#   @@ B <config> <write|seq|rand> <MB/s> <stall seconds> <longest stall>
#        <max latency s> <avg latency s>
#   @@ H <config> <health>        ok - / not ok - <what>
# with rados bench's own output as # lines, then @@ END pass|fail.
set -uo pipefail
exec 3>/dev/ttyS1
. /debvm/deploy.sh
chunk=64K
secs=$(cat /debvm/ceph.seconds)
fail_at=${FAIL_AT:-8}
smoke_only=0
[ -e /debvm/ceph.smoke ] && smoke_only=1
failed=0

say() { echo "$*" >&3; echo "ceph: $*"; }
ok() { say "ok - $*"; }
bad() { say "not ok - $*"; failed=1; }
finish() {
	say "@@ END $([ $failed = 0 ] && echo pass || echo fail)"
	sync
	systemctl poweroff
	exit 0
}
# wait_for SECONDS CMD...
wait_for() {
	local t=$1 i
	shift
	for ((i = 0; i < t; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 1
	done
	return 1
}

say "@@ BOOTED $(uname -r) in $(cut -d' ' -f1 /proc/uptime) s"
# insmod resolves no dependencies: the module's own come first.
modprobe -a raid6_pq xor
insmod /debvm/dm-fanraid.ko || { bad "insmod dm-fanraid"; finish; }
modprobe raid456
udevadm settle
m=()
for i in 0 1 2 3 4 5; do m+=("$(readlink -f /dev/disk/by-id/virtio-m$i)"); done
sz=$(blockdev --getsz "${m[0]}")

t0=$(date +%s)
ceph_conf
if ! ceph_mon_mgr; then
	bad "mon and mgr bootstrap"
	journalctl -b -u "ceph-mon@*" | tail -20 | sed 's/^/# | /' >&3
	finish
fi
wait_for 180 bash -c "ceph mgr stat | grep -q '\"available\": true'" || bad "mgr available"
say "# mon and mgr up in $(($(date +%s) - t0)) s; $(ceph --version)"
say "# bluestore_min_alloc_size hdd $(ceph config get osd bluestore_min_alloc_size_hdd) ssd $(ceph config get osd bluestore_min_alloc_size_ssd), osd_memory_target $(ceph config get osd osd_memory_target)"

# array CONFIG: builds the device of CONFIG over m0..m5, prints its path
array() {
	local kind=${1%%:*} pol=${1#*:} d n tbl
	[ "$pol" = "$1" ] && pol=passthrough
	for d in "${m[@]}"; do blkdiscard -f "$d"; done
	case $kind in
	fanraid-raid0)
		fanraid create cb --level 0 --chunk $chunk --flush "$pol" "${m[@]}" >&2 || return 1 ;;
	fanraid-raid6)
		fanraid create cb --level 6 --chunk $chunk --flush "$pol" "${m[@]}" >&2 || return 1
		wait_for 600 bash -c "dmsetup status cb | grep -q ' idle '" || return 1 ;;
	fanraid-raid6-fail)
		local w=() i
		for i in "${!m[@]}"; do
			echo "0 $sz linear ${m[$i]} 0" | dmsetup create "cbm$i" >&2 || return 1
			w+=("/dev/mapper/cbm$i")
		done
		udevadm settle
		fanraid create cb --level 6 --chunk $chunk --flush "$pol" "${w[@]}" >&2 || return 1
		wait_for 600 bash -c "dmsetup status cb | grep -q ' idle '" || return 1 ;;
	dm-stripe)
		# 1 MiB into each member, as md's and fanraid's data start after
		# their superblocks: at offset 0 the OSD's BlueStore label would
		# also sit at the start of m0, and ceph-volume raw activate, which
		# scans every block device for labels, found m0 instead of the
		# array (no OSD came up on dm-stripe).
		n=$(( ((sz - 2048) / 128) * 128 ))
		tbl="0 $((n * 6)) striped 6 128"
		for d in "${m[@]}"; do tbl="$tbl $d 2048"; done
		echo "$tbl" | dmsetup create cb >&2 || return 1 ;;
	md-raid6)
		mdadm --create /dev/md/cb --run --level=6 --raid-devices=6 --chunk=64 \
			--layout=left-symmetric --assume-clean --metadata=1.2 --homehost=any \
			"${m[@]}" >&2 || return 1
		udevadm settle
		readlink -f /dev/md/cb; return 0 ;;
	*) return 1 ;;
	esac
	udevadm settle
	echo /dev/mapper/cb
}

unarray() {
	fanraid stop cb >/dev/null 2>&1
	dmsetup remove cb >/dev/null 2>&1
	mdadm --stop /dev/md/cb >/dev/null 2>&1
	local i
	for i in "${!m[@]}"; do dmsetup remove "cbm$i" >/dev/null 2>&1; done
	udevadm settle
}

# member_dies N: from now on every I/O to wrapper cbmN fails, as a drive
# that stopped answering does; fanraid learns of it from its own I/O
member_dies() {
	dmsetup suspend "cbm$1" &&
		dmsetup load "cbm$1" --table "0 $sz error" &&
		dmsetup resume "cbm$1"
}

# bench CONFIG MODE [ARGS]: one rados bench, its per-second report to the
# log, its figures to the results
bench() {
	local cfg=$1 mode=$2 out=/tmp/bench.$2
	shift 2
	# -b is for write only: seq and rand read the objects write left
	local b=()
	[ "$mode" = write ] && b=(-b 4M)
	rados bench -p bench "$secs" "$mode" -t 16 "${b[@]}" "$@" >"$out" 2>&1
	local rc=$?
	sed "s/^/# $cfg $mode | /" "$out" >&3
	[ $rc = 0 ] || { bad "$cfg: rados bench $mode (exit $rc)"; return 1; }
	# per-second lines: sec, cur ops, started, finished, avg MB/s, cur MB/s
	awk -v cfg="$cfg" -v mode="$mode" '
		$1 ~ /^[0-9]+$/ && NF >= 8 && $1 > 0 {
			if ($6 + 0 == 0) { st++; run++; if (run > lng) lng = run } else run = 0
		}
		/^Bandwidth \(MB\/sec\)/ { bw = $3 }
		/^Max latency\(s\)/ { mx = $3 }
		/^Average Latency\(s\)/ { av = $3 }
		END { printf "@@ B %s %s %s %d %d %s %s\n", cfg, mode, bw, st, lng, mx, av }' "$out" >&3
}

health() {
	ceph health 2>&1 | head -1
}

first=1
for cfg in $(cat /debvm/ceph.configs); do
	t1=$(date +%s)
	if ! dev=$(array "$cfg"); then
		bad "$cfg: build the array"
		unarray
		continue
	fi
	if ! id=$(ceph_osd_create "$dev" 2>/tmp/osd.log); then
		sed "s/^/# $cfg osd | /" /tmp/osd.log | tail -40 >&3
		bad "$cfg: ceph-volume makes an OSD on $dev"
		unarray
		continue
	fi
	grep '^# osd' /tmp/osd.log >&3
	wait_for 300 bash -c "ceph osd stat | grep -q '1 up.*1 in'" || bad "$cfg: osd.$id up and in"
	ceph_pool bench 2>/dev/null || bad "$cfg: pool created"
	# every PG, the mgr's own pool's too, active+clean
	wait_for 300 bash -c "ceph pg stat | grep -Eq '^([0-9]+) pgs: \\1 active\\+clean;'" || bad "$cfg: pgs active+clean"
	say "# $cfg: array, OSD and pool in $(($(date +%s) - t1)) s: $(ceph -s --format json | jq -c '{health: .health.status, osd: .osdmap}' 2>/dev/null)"
	if [ $first = 1 ]; then
		# the smoke test: 64 MiB in and out byte-exact, health OK
		t2=$(date +%s)
		head -c 64M /dev/urandom >/tmp/smoke.in
		rados -p bench put smoke /tmp/smoke.in && rados -p bench get smoke /tmp/smoke.out &&
			cmp /tmp/smoke.in /tmp/smoke.out && ok "$cfg: rados put/get of 64 MiB byte-exact" ||
			bad "$cfg: rados put/get of 64 MiB byte-exact"
		h=$(health)
		[ "$h" = HEALTH_OK ] && ok "$cfg: ceph health is HEALTH_OK" || bad "$cfg: ceph health is HEALTH_OK ($h)"
		say "# smoke: $(($(date +%s) - t2)) s (cluster up $(($(date +%s) - t0)) s after the payload started)"
		rados -p bench rm smoke
		rm -f /tmp/smoke.in /tmp/smoke.out
		first=0
		if [ $smoke_only = 1 ]; then
			ceph_osd_destroy "$id" "$dev"
			unarray
			finish
		fi
	fi
	case $cfg in
	fanraid-raid6-fail*)
		( sleep "$fail_at"; member_dies 1 >/tmp/fail.log 2>&1; echo "$(date +%s.%N) slot 1 returns EIO" >>/tmp/fail.log ) &
		fp=$!
		bench "$cfg" write --no-cleanup
		wait $fp
		sed 's/^/# fail | /' /tmp/fail.log >&3
		dmsetup status cb | cut -c1-100 | sed 's/^/# | /' >&3
		# the kernel, not a command, failed it
		dmsetup status cb | grep -q ' raid6 6 ADAAAA ' &&
			ok "$cfg: slot 1 failed by its own I/O errors, the array went on degraded" ||
			bad "$cfg: slot 1 failed by its own I/O errors ($(dmsetup status cb | cut -c1-80))"
		;;
	*) bench "$cfg" write --no-cleanup ;;
	esac
	bench "$cfg" seq
	bench "$cfg" rand
	h=$(health)
	say "@@ H $cfg $h"
	ceph osd stat | sed 's/^/# /' >&3
	ceph osd stat | grep -q '1 up.*1 in' || bad "$cfg: osd.$id stayed up"
	case $cfg in
	fanraid-raid6-fail*)
		ceph health detail | grep -qi 'osd.*down' && bad "$cfg: no OSD down in ceph health" ||
			ok "$cfg: no OSD down in ceph health ($h)"
		;;
	esac
	# every pool goes with its OSD, the mgr's device_health_metrics too:
	# a pool's PGs are made once, at its creation, so the next OSD (with
	# the same id) could never serve the old ones and health would stay
	# at WARN; the mgr makes its pool again
	for p in $(ceph osd pool ls); do
		ceph osd pool rm "$p" "$p" --yes-i-really-really-mean-it >/dev/null 2>&1
	done
	ceph_osd_destroy "$id" "$dev"
	unarray
	say "# $cfg: $(($(date +%s) - t1)) s"
done
finish
