#!/bin/bash
# Exercise the clean mark the kernel writes once writes stop: a raid6 array idle for longer than safe_mode_delay when the power goes is clean on every member, the next boot assembles it without a resync, and its data and parity are exact.
# group: reboot-idle
# timeout: 300
# boots: 2
# disks: 5x64
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || skip "target fanraid 1.3.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

mapfile -t devs < <(vm_disks 5)

known() { # extra fio options
	fio --name=known --filename=/dev/mapper/i6 --rw=randwrite --bs=16k \
		--size=24M --direct=1 --verify=crc32c --randseed=99 \
		--output=/tmp/known.out "$@" || { cat /tmp/known.out; fail "known data: fio $*"; }
}

if [ "$VMTEST_BOOT" = 1 ]; then
	fanraid create i6 --level 6 --chunk 32K "${devs[@]}"
	fanraid_wait_idle i6 150
	known --do_verify=0
	# Writing: dirty on the media. Idle: clean again within the delay.
	sleep 1
	status=$(dmsetup status i6)
	log "status: $status"
	assert_contains "$status" " clean"
	for d in "${devs[@]}"; do
		assert_contains "$(fanraid examine "$d")" "state: clean"
	done
	vm_crash
fi

for d in "${devs[@]}"; do
	assert_contains "$(fanraid examine "$d")" "state: clean"
done
out=$(fanraid assemble --scan 2>&1)
echo "$out"
case "$out" in *"not stopped cleanly"*) fail "clean crash reported unclean: $out" ;; esac
case "$(dmsetup table i6)" in *resync*) fail "resync after an idle crash: $(dmsetup table i6)" ;; esac
assert_contains "$(dmsetup status i6)" " idle "
known --verify_only
fanraid stop i6
drop_caches
raidcalc verify --level 6 --chunk 32K --data-offset 1M "${devs[@]}" || fail "parity mismatches after an idle crash"
