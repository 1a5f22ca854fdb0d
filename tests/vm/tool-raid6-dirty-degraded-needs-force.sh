#!/bin/bash
# Exercise assembly of a raid6 array that lost power while writing with a member failed: the superblocks say dirty and degraded, assemble refuses it and says which rows are at risk and why, and --force assembles it with a warning.
# group: reboot-dirty-degraded
# timeout: 300
# boots: 2
# disks: 5x64
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || skip "target fanraid 1.3.0 missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(vm_disks 5)

if [ "$VMTEST_BOOT" = 1 ]; then
	fanraid create dd6 --level 6 --chunk 32K --bitmap none "${devs[@]}"
	fanraid_wait_idle dd6 150
	fanraid fail dd6 4
	assert_contains "$(fanraid examine "${devs[0]}")" "failed mask 0x10"
	fio --name=load --filename=/dev/mapper/dd6 --rw=randwrite --bs=16k \
		--direct=1 --ioengine=libaio --iodepth=8 --time_based \
		--runtime=120 --output=/dev/null &
	sleep 3
	status=$(dmsetup status dd6)
	log "status: $status"
	assert_contains "$status" " dirty"
	assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty,degraded"
	vm_crash
fi

rc=0
out=$(fanraid assemble --scan 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status without --force"
assert_contains "$out" "dd6: was not stopped cleanly while degraded (slot 4 missing)"
assert_contains "$out" "parity that disagrees with their data"
assert_contains "$out" "use --force"
dmsetup info dd6 >/dev/null 2>&1 && fail "dd6 was assembled without --force"
out=$(fanraid assemble --scan --force 2>&1)
echo "$out"
assert_contains "$out" "--force: assembling although it was not stopped cleanly while degraded (slot 4 missing)"
assert_contains "$out" "from 4 of 5 members"
assert_contains "$(dmsetup status dd6)" "raid6 5 AAAAD"
dd if=/dev/mapper/dd6 of=/dev/null bs=1M count=16 iflag=direct status=none
fanraid stop dd6
