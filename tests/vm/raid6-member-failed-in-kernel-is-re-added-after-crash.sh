#!/bin/bash
# Exercise a member that fails inside the kernel, with the write-intent bitmap: members sit behind dm-linear, one is switched to the error target in the middle of a write, the writes go on degraded and set their regions' bits; after a power cut the next boot's assemble re-adds the stale member and recovers only those regions (sync_regions equals the bits set), every byte written reads back exactly even with two other members failed, and raidcalc verify finds no mismatch.
# group: reboot-kernel-fail-bitmap
# timeout: 400
# boots: 2
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

mapfile -t devs < <(vm_disks 6)

# 48 MiB whose every 64 KiB block fio recognises again from its seed.
known() { # extra fio options
	fio --name=known --filename=/dev/mapper/k6 --rw=write --bs=64k \
		--size=48M --direct=1 --verify=crc32c --randseed=777 \
		--output=/tmp/known.out "$@" || { cat /tmp/known.out; fail "known data: fio $*"; }
}

examine_field() { # DEV: "events N" and "failed mask 0x..", from examine
	fanraid examine "$1" | sed -n 's/.*state: \([a-z,]*\), events \([0-9]*\), failed mask \(0x[0-9a-f]*\).*/\1 \2 \3/p'
}

if [ "$VMTEST_BOOT" = 1 ]; then
	lin=()
	for k in 0 1 2 3 4 5; do
		dm_create "lin$k" "0 $(dev_sectors "${devs[k]}") linear ${devs[k]} 0"
		lin+=("/dev/mapper/lin$k")
	done
	fanraid create k6 --level 6 --chunk 64K --bitmap 1M "${lin[@]}"
	fanraid_wait_idle k6 150
	fanraid_wait_bitmap_clean k6 40
	before=$(examine_field "${devs[3]}")
	log "member 3 before: $before"
	# Slow enough that the member dies in the middle of it.
	known --do_verify=0 --rate=6m &
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
fi

# Second boot, on the raw disks: nothing was stopped.
bits=$(fanraid examine --json "${devs[0]}" | sed -n 's/.*"bitmap_dirty_regions": \([0-9]*\).*/\1/p')
log "bits set on a survivor: $bits"
# 48 MiB of array is 12 MiB per data member: 12 or 13 regions of 1 MiB.
[ "$bits" -ge 12 ] && [ "$bits" -le 14 ] || fail "$bits bits set after writing 48 MiB"
out=$(fanraid assemble --scan 2>&1)
echo "$out"
assert_contains "$out" "re-adding ${devs[3]} as slot 3"
fanraid_wait_idle k6 200
assert_contains "$(dmsetup status k6)" "raid6 6 AAAAAA"
read -r region dirty synced <<<"$(fanraid_bitmap k6)"
assert_eq "$synced" "$bits" "regions the re-add recovered"
known --verify_only
fanraid stop k6
assert_eq "$(examine_field "${devs[3]}" | cut -d' ' -f3)" 0x0 "failed mask after the re-add"
drop_caches
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${devs[@]}" || fail "parity mismatches after the re-add"
# Member 3 holds every byte: with members 0 and 1 gone it is needed everywhere.
fanraid assemble k6 "${devs[@]}"
dmsetup message k6 0 fail 0
dmsetup message k6 0 fail 1
drop_caches
known --verify_only
fanraid stop k6
