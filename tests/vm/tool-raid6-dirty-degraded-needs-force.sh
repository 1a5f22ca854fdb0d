#!/bin/bash
# Exercise assembly of a raid6 array that lost power while writing with a member failed: the superblocks say dirty and degraded, assemble refuses it and says which rows are at risk and why (without a bitmap: any row; with one: how many regions), and --force assembles it with a warning and resyncs parity degraded: what it reads with one member lost, it reads with two.
# group: reboot-dirty-degraded
# timeout: 300
# boots: 2
# disks: 10x64
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || skip "target fanraid 1.3.0 missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t all < <(vm_disks 10)
devs=("${all[@]:0:5}")
bm=("${all[@]:5:5}")

if [ "$VMTEST_BOOT" = 1 ]; then
	fanraid create dd6 --level 6 --chunk 32K --bitmap none "${devs[@]}"
	fanraid create db6 --level 6 --chunk 32K --bitmap 1M "${bm[@]}"
	fanraid_wait_idle dd6 150
	fanraid_wait_idle db6 150
	fanraid_wait_bitmap_clean db6 40
	fanraid fail dd6 4
	fanraid fail db6 4
	assert_contains "$(fanraid examine "${devs[0]}")" "failed mask 0x10"
	fio --name=load --filename=/dev/mapper/dd6 --rw=randwrite --bs=16k \
		--direct=1 --ioengine=libaio --iodepth=8 --time_based \
		--runtime=120 --output=/dev/null &
	# 2 MiB of the bitmap array: 512 KiB per data member, one region or two
	fio --name=loadb --filename=/dev/mapper/db6 --rw=randwrite --bs=16k \
		--offset=32M --size=2M --direct=1 --ioengine=libaio --iodepth=8 \
		--time_based --runtime=120 --output=/dev/null &
	# both writers under way (fio takes a while to start under TCG)
	for ((i = 0; i < 60; i++)); do
		[ "$(fanraid_sb_state dd6)" = dirty ] && [ "$(fanraid_sb_state db6)" = dirty ] && break
		sleep 0.5
	done
	sleep 1
	status=$(dmsetup status dd6)
	log "status: $status"
	assert_contains "$status" " dirty"
	assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty,degraded"
	vm_crash
fi

rc=0
out=$(fanraid assemble db6 "${bm[@]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status of the bitmap array without --force"
assert_contains "$out" "db6: was not stopped cleanly while degraded (slot 4 missing)"
assert_contains "$out" "the bitmap shows "
n=$(echo "$out" | sed -n 's/.*the bitmap shows \([0-9]*\) region.*/\1/p')
[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "regions at risk: '$n', want 1-3"
dmsetup info db6 >/dev/null 2>&1 && fail "db6 was assembled without --force"

rc=0
out=$(fanraid assemble dd6 "${devs[@]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status without --force"
assert_contains "$out" "dd6: was not stopped cleanly while degraded (slot 4 missing)"
assert_contains "$out" "parity that disagrees with their data"
assert_contains "$out" "use --force"
dmsetup info dd6 >/dev/null 2>&1 && fail "dd6 was assembled without --force"
out=$(fanraid assemble dd6 --force "${devs[@]}" 2>&1)
echo "$out"
assert_contains "$out" "--force: assembling although it was not stopped cleanly while degraded (slot 4 missing)"
assert_contains "$out" "from 4 of 5 members"
assert_contains "$(dmsetup status dd6)" "raid6 5 AAAAD"
# Parity is made to agree with what is left, degraded, as md resyncs a
# forced dirty degraded array.
assert_contains "$(dmsetup table dd6)" " resync "
fanraid_wait_idle dd6 150
assert_contains "$(dmsetup status dd6)" "raid6 5 AAAAD"
dd if=/dev/mapper/dd6 of=/tmp/one-lost bs=1M iflag=direct status=none
# Member 3 gone too: rows that lost a data block read from P and Q now.
dmsetup message dd6 0 fail 3
dd if=/dev/mapper/dd6 of=/tmp/two-lost bs=1M iflag=direct status=none
cmp /tmp/one-lost /tmp/two-lost || fail "after the forced resync, Q disagrees with what P rebuilds"
fanraid stop dd6
