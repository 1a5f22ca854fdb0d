#!/bin/bash
# Exercise a power cut during random writes with the write-intent bitmap: after the crash the members' bitmaps hold a few set regions, the next boot's assemble resyncs exactly those (sync_regions in status equals the bits examine counted, a small part of the array), data outside them reads back exactly, raidcalc verify then finds no parity mismatch, and an idle crash afterwards needs no resync at all.
# group: reboot-bitmap
# timeout: 500
# boots: 3
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

mapfile -t devs < <(vm_disks 6)

bitmap_bits() { # DEV: bits examine counts in its bitmap
	fanraid examine --json "$1" | sed -n 's/.*"bitmap_dirty_regions": \([0-9]*\).*/\1/p'
}

case $VMTEST_BOOT in
1)
	fanraid create cb6 --level 6 --chunk 64K --bitmap 1M "${devs[@]}"
	fanraid_wait_idle cb6 150
	fanraid_wait_bitmap_clean cb6 40
	# A known 32 MiB at the start, never written again: checked after the crash.
	fio --name=known --filename=/dev/mapper/cb6 --rw=write --bs=64k \
		--size=32M --direct=1 --verify=crc32c --randseed=5 --do_verify=0 \
		--output=/tmp/known.out || { cat /tmp/known.out; fail "known data"; }
	fanraid_wait_bitmap_clean cb6 40
	# Random 4 KiB writes into 8 MiB at offset 128 MiB (2 MiB per data
	# member: two or three regions), cut off by the power.
	fio --name=rand --filename=/dev/mapper/cb6 --rw=randwrite --bs=4k \
		--offset=128M --size=8M --direct=1 --ioengine=libaio --iodepth=8 \
		--time_based --runtime=120 --output=/dev/null &
	sleep 4
	read -r region dirty synced <<<"$(fanraid_bitmap cb6)"
	log "bitmap while writing: $dirty of 95 regions"
	[ "$dirty" -ge 1 ] && [ "$dirty" -le 4 ] || fail "bitmap has $dirty bits set while writing 8 MiB"
	vm_crash
	;;
2)
	bits=$(bitmap_bits "${devs[0]}")
	log "bits on member 0 after the crash: $bits"
	[ "$bits" -ge 1 ] && [ "$bits" -le 4 ] || fail "$bits bits set after the crash"
	assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty"
	out=$(fanraid assemble --scan 2>&1)
	echo "$out"
	assert_contains "$out" "resyncing parity"
	fanraid_wait_idle cb6 150
	read -r region dirty synced <<<"$(fanraid_bitmap cb6)"
	log "resync covered $synced regions"
	assert_eq "$synced" "$bits" "regions the resync covered"
	fio --name=known --filename=/dev/mapper/cb6 --rw=write --bs=64k \
		--size=32M --direct=1 --verify=crc32c --randseed=5 --verify_only \
		--output=/tmp/known.out || { cat /tmp/known.out; fail "known data after the crash"; }
	fanraid stop cb6
	drop_caches
	raidcalc verify --level 6 --chunk 64K --data-offset 1M "${devs[@]}" ||
		fail "parity mismatches after the bitmap resync"
	# Idle, clean and crashed: nothing to resync next time.
	fanraid assemble --scan
	dd if=/dev/urandom of=/dev/mapper/cb6 bs=64k count=16 seek=100 oflag=direct status=none
	fanraid_wait_bitmap_clean cb6 40
	assert_eq "$(fanraid_sb_state cb6)" clean "state before the idle crash"
	vm_crash
	;;
3)
	out=$(fanraid assemble --scan 2>&1)
	echo "$out"
	case $out in *resync*) fail "an idle crash resynced: $out" ;; esac
	assert_contains "$(dmsetup status cb6)" " idle "
	assert_eq "$(fanraid_bitmap cb6 | cut -d' ' -f2)" 0 "bits after an idle crash"
	fanraid stop cb6
	;;
esac
