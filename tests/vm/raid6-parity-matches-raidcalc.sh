#!/bin/bash
# Exercise RAID6 parity writes: after full-stripe, partial-stripe and unaligned writes, P and Q on the members match raidcalc (ISA-L) byte for byte and the data reads back exactly, for n = 4, 5, 8, 16 and chunks 4K, 64K, 512K.
# group: raid6
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

off=2048

# write_at OFFSET_BYTES LEN_BYTES [buffered]: new random bytes at OFFSET, on
# the device and in the model /tmp/data.
# Each is one write() call, so one bio (that the DM core splits at chunks).
write_at() {
	local o=$1 l=$2 flag=oflag=seek_bytes,direct
	[ "${3:-}" = buffered ] && flag="oflag=seek_bytes conv=fsync"
	head -c "$l" /dev/urandom >/tmp/piece
	dd if=/tmp/piece of=/tmp/data bs="$l" seek="$o" oflag=seek_bytes conv=notrunc status=none
	dd if=/tmp/piece of=/dev/mapper/fr bs="$l" seek="$o" $flag status=none
}

check_parity() { # NDEVS CHUNK_SECTORS [corrupt]
	local n=$1 chunk=$2 corrupt=${3:-} stripe rows len member_mb i k o l table
	local -a devs=()

	# Enough rows for P and Q to visit every member (n + 1), unless that
	# is more than about 2 MiB of data (then fewer, at least two); the
	# last row is cut short one data chunk plus 4 KiB in.
	stripe=$(((n - 2) * chunk))
	rows=$((4096 / stripe))
	[ $rows -le $((n + 1)) ] || rows=$((n + 1))
	[ $rows -ge 2 ] || rows=2
	len=$(((rows - 1) * stripe + chunk + 8))
	member_mb=$(((off + rows * chunk) / 2048 + 1))
	mapfile -t devs < <(nullb_create_many "$n" "$member_mb")
	table="0 $len fanraid raid6 $chunk 0 $n"
	for ((i = 0; i < n; i++)); do table="$table ${devs[i]} $off"; done
	dm_create fr "$table"

	# Full stripes: the whole device in stripe-sized direct writes.
	head -c $((len * 512)) /dev/urandom >/tmp/data
	dd if=/tmp/data of=/dev/mapper/fr bs=$((stripe * 512)) oflag=direct status=none

	# Partial stripes at 4 KiB-multiple offsets that are not chunk aligned,
	# then sub-page writes (the members have 512-byte blocks), then one
	# buffered write that goes through the page cache.
	RANDOM=$((n * 10000 + chunk))
	for ((k = 0; k < 8; k++)); do
		o=$(((RANDOM * 32768 + RANDOM) % (len / 8) * 4096))
		l=$(((RANDOM % (2 * chunk / 8) + 1) * 4096))
		[ $((o + l)) -le $((len * 512)) ] || l=$((len * 512 - o))
		write_at "$o" "$l"
	done
	for ((k = 0; k < 4; k++)); do
		o=$(((RANDOM * 32768 + RANDOM) % (len - 16) * 512))
		l=$(((RANDOM % 15 + 1) * 512))
		write_at "$o" "$l"
	done
	o=$((len / 2 / 8 * 8))
	l=$((chunk + 16))
	[ $((o + l)) -le "$len" ] || l=$((len - o))
	write_at $((o * 512)) $((l * 512)) buffered
	drop_caches

	if [ -n "$corrupt" ]; then
		# Negative control: one byte of one member changed behind the
		# target's back must make the verifier fail. Its complement, not
		# a fixed value: over random data a fixed byte is already there
		# once in 256 runs, and then nothing was changed.
		local at=$((off * 512 + 4097)) old
		old=$(dd if="${devs[1]}" bs=1 skip="$at" count=1 status=none | od -An -tu1 | tr -d ' ')
		[ -n "$old" ] || fail "could not read member byte $at"
		printf "\\$(printf '%03o' $((255 - old)))" |
			dd of="${devs[1]}" bs=1 seek="$at" conv=notrunc status=none
		[ "$(dd if="${devs[1]}" bs=1 skip="$at" count=1 status=none | od -An -tu1 | tr -d ' ')" = $((255 - old)) ] ||
			fail "member byte $at was not changed"
		drop_caches
		if raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1; then
			cat /tmp/verify.out
			fail "raidcalc verify missed a corrupted member byte"
		fi
		log "n=$n chunk=$((chunk / 2))K: corrupted member caught: $(tail -n1 /tmp/verify.out)"
	else
		raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
			{ cat /tmp/verify.out; fail "n=$n chunk=$((chunk / 2))K: P/Q do not match raidcalc"; }
		raidcalc read -s 0 -n "$len" -o /tmp/members "$(dmsetup table fr)"
		cmp /tmp/data /tmp/members ||
			fail "n=$n chunk=$((chunk / 2))K: members do not hold the data written"
		cmp /tmp/data /dev/mapper/fr ||
			fail "n=$n chunk=$((chunk / 2))K: device reads back different data"
		log "n=$n chunk=$((chunk / 2))K: $(tail -n1 /tmp/verify.out)"
	fi

	dm_remove fr
	nullb_destroy_all
	rm -f /tmp/data /tmp/members /tmp/piece /tmp/verify.out
}

for n in 4 5 8 16; do
	for chunk in 8 128 1024; do
		check_parity "$n" "$chunk"
	done
done
check_parity 5 128 corrupt
