#!/bin/bash
# Exercise a member that fails inside the kernel: members sit behind dm-linear, one is switched to the error target in the middle of a write, the writes go on degraded, and the survivors' superblocks record it before they complete; after a power cut the next boot's assemble leaves the stale member out, every byte written reads back exactly, and once the member is rebuilt raidcalc verify finds no mismatch.
# group: reboot-kernel-fail
# timeout: 400
# boots: 2
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || skip "target fanraid 1.3.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

mapfile -t devs < <(vm_disks 6)

if [ "$VMTEST_BOOT" = 1 ]; then
	kernel_fail_then_crash --bitmap none
fi

# Second boot, on the raw disks: nothing was stopped.
out=$(fanraid assemble --scan 2>&1)
echo "$out"
assert_contains "$out" "${devs[3]}: left out: stale"
assert_contains "$out" "from 5 of 6 members"
assert_contains "$(dmsetup status k6)" "raid6 6 AAADAA"
known_k6 --verify_only
# The stale member comes back and is rebuilt from the others.
fanraid replace k6 3 "${devs[3]}"
fanraid_wait_idle k6 200
assert_contains "$(dmsetup status k6)" "raid6 6 AAAAAA"
known_k6 --verify_only
fanraid stop k6
assert_eq "$(examine_field "${devs[3]}" | cut -d' ' -f3)" 0x0 "failed mask after the rebuild"
drop_caches
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${devs[@]}" || fail "parity mismatches after the rebuild"
