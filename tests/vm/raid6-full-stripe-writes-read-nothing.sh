#!/bin/bash
# Full-stripe RAID6 writes compute P and Q from the data alone: aligned direct writes of whole stripes (and of several stripes) make no member read, and P/Q still match raidcalc (ISA-L) byte for byte. Partial writes after them must read (negative control of the counter).
# group: raid6
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

off=2048

full_stripes() { # NDEVS CHUNK_SECTORS ROWS
	local n=$1 chunk=$2 rows=$3 stripe len i table reads
	local -a devs=()

	stripe=$(((n - 2) * chunk))
	len=$((rows * stripe))
	# dd writes a block shorter than bs without O_DIRECT: through the page
	# cache, written back a page per bio at close, by a flusher that may
	# sleep between them (the last stripe of 3 rows at bs of 2 stripes read
	# the members in about 1 run of 20). Even rows: every block is whole.
	[ $((rows % 2)) -eq 0 ] || fail "rows=$rows: the last two-stripe block would be short"
	mapfile -t devs < <(nullb_create_many "$n" $(((off + rows * chunk) / 2048 + 1)))
	table="0 $len fanraid raid6 $chunk 0 $n"
	for ((i = 0; i < n; i++)); do table="$table ${devs[i]} $off"; done
	dm_create fr "$table"
	dmsetup message fr 0 stats reset

	head -c $((len * 512)) /dev/urandom >/tmp/data
	# One stripe per write, then two stripes per write over the same rows.
	dd if=/tmp/data of=/dev/mapper/fr bs=$((stripe * 512)) oflag=direct status=none
	head -c $((len * 512)) /dev/urandom >/tmp/data
	dd if=/tmp/data of=/dev/mapper/fr bs=$((2 * stripe * 512)) oflag=direct status=none
	reads=$(fanraid_members_sum fr "$n" reads)
	assert_eq "$reads" 0 "n=$n chunk=$((chunk / 2))K: member reads during full-stripe writes"

	raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
		{ cat /tmp/verify.out; fail "n=$n chunk=$((chunk / 2))K: P/Q do not match raidcalc"; }
	cmp /tmp/data /dev/mapper/fr ||
		fail "n=$n chunk=$((chunk / 2))K: device reads back different data"
	log "n=$n chunk=$((chunk / 2))K: no member reads; $(tail -n1 /tmp/verify.out)"

	# Negative control: a 4 KiB write into one chunk must read something.
	dmsetup message fr 0 stats reset
	head -c 4096 /dev/urandom | dd of=/dev/mapper/fr bs=4096 seek=1 oflag=direct status=none
	reads=$(fanraid_members_sum fr "$n" reads)
	[ "$reads" -gt 0 ] || fail "n=$n: a partial write read no member (counter broken?)"

	dm_remove fr
	nullb_destroy_all
	rm -f /tmp/data /tmp/verify.out
}

full_stripes 6 128 8
full_stripes 4 1024 4
full_stripes 5 8 16
