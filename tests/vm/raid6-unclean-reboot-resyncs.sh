#!/bin/bash
# Exercise an unclean shutdown across a real reboot: a raid6 array built by the tool on disks that outlive the VM is cut off mid-write by an emergency restart; the next boot finds the superblocks dirty, resyncs, and the members verify with zero mismatches while the data written before the load reads back exactly.
# group: reboot-raid6
# timeout: 400
# boots: 2
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

mapfile -t devs < <(vm_disks 6)

# 32 MiB whose every 64 KiB block fio can recognise again from its seed.
known() { # extra fio options
	fio --name=known --filename=/dev/mapper/c6 --rw=write --bs=64k \
		--size=32M --direct=1 --verify=crc32c --randseed=4242 \
		--output=/tmp/known.out "$@" || { cat /tmp/known.out; fail "known data: fio $*"; }
}

# Members verified offline, as the superblock describes them.
verify_members() {
	raidcalc verify --level 6 --chunk 64K --data-offset 1M "${devs[@]}"
}

# Member k through dm-delay (linear until its writes are held back).
delay_table() { # K WRITE_MS
	local d=${devs[$1]}
	echo "0 $(dev_sectors "$d") delay $d 0 0 $d 0 $2"
}

if [ "$VMTEST_BOOT" = 1 ]; then
	slow=()
	for k in 0 1 2 3 4 5; do
		dm_create "slow$k" "$(delay_table $k 0)"
		slow+=("/dev/mapper/slow$k")
	done
	fanraid create c6 --level 6 --chunk 64K "${slow[@]}"
	fanraid_wait_idle c6 150
	known --do_verify=1
	# Writers across the rest of the array, many in flight. They start
	# first: the kernel marks the superblocks dirty before the first one
	# goes out, and that must not wait for the slowed member.
	fio --name=load --filename=/dev/mapper/c6 --rw=randwrite --bsrange=4k-256k \
		--offset=32M --direct=1 --ioengine=libaio --iodepth=32 --numjobs=2 \
		--time_based --runtime=120 --randrepeat=0 --output=/dev/null &
	fanraid_wait_sb_state c6 dirty 60 "superblock state under load"
	sleep 1
	# The last member's writes now take 3 s: when the power goes, rows
	# written since then are on five members and not on the sixth.
	dm_swap slow5 "$(delay_table 5 3000)"
	sleep 4
	writes=$(dmsetup status c6 | awk '{ s = 0; for (i = 0; i < 6; i++) s += $(10 + 6 * i); print s }')
	[ "$writes" -gt 100 ] || fail "only $writes member writes before the crash"
	log "member writes before the crash: $writes"
	vm_crash
fi

# Second boot: nothing was stopped, so every superblock still says dirty.
assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty"
verify_members >/tmp/before 2>&1 && fail "no torn rows after the crash: the test proves nothing"
log "before the resync: $(tail -n 1 /tmp/before)"

out=$(fanraid assemble --scan 2>&1)
echo "$out"
assert_contains "$out" "c6: was not stopped cleanly; resyncing parity"
fanraid_wait_idle c6 150
known --verify_only
fanraid stop c6
drop_caches
verify_members || fail "parity mismatches after the resync"
assert_contains "$(fanraid examine "${devs[0]}")" "state: clean"
