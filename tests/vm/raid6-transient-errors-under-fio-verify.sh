#!/bin/bash
# Exercise transient member faults: one RAID6 member of 5, then of 8, behind dm-flakey fails all its I/O for 1 s in every 3 s while fio writes and verifies the array; no wrong data is ever returned, and the member ends as fanraid.rst documents: in service with its read repairs counted, or failed for a write error, a failed rewrite or too many read errors.
# group: faults
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_target flakey 1 0 0 || fail "target flakey missing"
have_cmd fio || fail "fio not in the image"

# faults N: the run on N members. At 5 a 4 KiB write reconstructs; at 8 it
# read-modifies in an operation holding its data, P and Q alone, and a
# failed read makes it start again on every slot.
faults() {
	local n=$1 chunk=128 sz health corrected errors
	local -a d dev
	mapfile -t d < <(nullb_create_many $n 8)
	sz=$(dev_sectors "${d[0]}")
	# Up 2 s, down 1 s; with no feature arguments flakey fails every read and
	# write while down (6.1).
	dm_create flaky "0 $sz flakey ${d[3]} 0 2 1"
	dev=("${d[@]}")
	dev[3]=/dev/mapper/flaky
	dm_create fr "0 $((16 * 2048)) fanraid raid6 $chunk 0 $n$(member_pairs "${dev[@]}")"

	for round in 1 2 3; do
		fio --name=r$round --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
			--iodepth=8 --rw=randrw --bssplit=4k/50:64k/30:256k/20 --size=16M \
			--verify=crc32c --verify_fatal=1 --do_verify=1 --randseed=$round \
			>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "round $round: fio verify failed"; }
	done
	health=$(fanraid_health fr 3)
	corrected=$(fanraid_corrected fr 3)
	errors=$(fanraid_counter fr 3 errors)
	log "$n members: member 3 after three rounds: health $health, $errors errors, $corrected repaired"
	[ "$errors" -gt 0 ] || fail "flakey never failed a read of member 3"
	case $health in
	A) [ "$corrected" -gt 0 ] && [ "$corrected" -le 20 ] ||
		fail "member 3 in service with $corrected repairs (max_read_errors 20)" ;;
	D) dmesg | grep -E -q "member 3 failed: (write error|rewrite after a read error failed|too many read errors)" ||
		fail "member 3 failed without a documented reason: $(dmesg | grep 'member 3 failed')" ;;
	*) fail "member 3 health $health" ;;
	esac
	assert_eq "$(dmsetup status fr | awk '{ print $6 }' | tr -d A)" "$([ "$health" = D ] && echo D)" "other members"

	# Whatever state it ended in, the array takes writes and reads them back.
	dm_swap flaky "0 $sz linear ${d[3]} 0"
	fio --name=after --filename=/dev/mapper/fr --direct=1 --ioengine=libaio --iodepth=8 \
		--rw=write --bs=64k --size=16M --verify=crc32c --verify_fatal=1 \
		--do_verify=1 >/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "write and verify after the faults failed"; }

	dm_remove fr
	dm_remove flaky
	nullb_destroy_all
}

faults 5
faults 8
