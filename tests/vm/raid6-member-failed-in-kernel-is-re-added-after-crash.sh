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

if [ "$VMTEST_BOOT" = 1 ]; then
	kernel_fail_then_crash --bitmap 1M
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
known_k6 --verify_only
fanraid stop k6
assert_eq "$(examine_field "${devs[3]}" | cut -d' ' -f3)" 0x0 "failed mask after the re-add"
drop_caches
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${devs[@]}" || fail "parity mismatches after the re-add"
# Member 3 holds every byte: with members 0 and 1 gone it is needed everywhere.
fanraid assemble k6 "${devs[@]}"
dmsetup message k6 0 fail 0
dmsetup message k6 0 fail 1
drop_caches
known_k6 --verify_only
fanraid stop k6
