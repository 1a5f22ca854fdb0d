#!/bin/bash
# Exercise a RAID0 member with a real bad range (the error target inside its table): reads of that range get EIO, every other range reads exactly, writes go on, the array stays up and only that member counts errors.
# group: faults
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"

n=4 chunk=128
len=$((16 * n * chunk))
mapfile -t raw < <(nullb_create_many $n 8)
for ((i = 0; i < n; i++)); do
	dm_create "m$i" "0 $(dev_sectors "${raw[i]}") linear ${raw[i]} 0"
	dev[i]=/dev/mapper/m$i
done
dm_create fr "0 $len fanraid raid0 $chunk 0 $n$(member_pairs "${dev[@]}")"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none

# Member 2's sectors [bad, bad + 8) now fail: row 5's chunk on member 2.
bad=$((5 * chunk + 24)) size=$(dev_sectors "${raw[2]}")
dmsetup load m2 --table "0 $bad linear ${raw[2]} 0
$bad 8 error
$((bad + 8)) $((size - bad - 8)) linear ${raw[2]} $((bad + 8))"
dmsetup suspend m2 && dmsetup resume m2

# Every chunk of the array, one direct read each: only the bad one fails.
bad_chunk=$((5 * n + 2)) failed=""
for ((c = 0; c < len / chunk; c++)); do
	if dd if=/dev/mapper/fr of=/tmp/piece bs=$((chunk * 512)) skip=$c count=1 iflag=direct status=none 2>/dev/null; then
		dd if=/tmp/ref bs=$((chunk * 512)) skip=$c count=1 status=none | cmp - /tmp/piece ||
			fail "chunk $c read back different data"
	else
		failed="$failed $c"
	fi
done
assert_eq "$failed" " $bad_chunk" "chunks whose reads failed"
# The 4 KiB around the bad sectors fail; the rest of that chunk reads.
dd if=/dev/mapper/fr of=/dev/null bs=4096 skip=$(((bad_chunk * chunk + 24) / 8)) count=1 iflag=direct status=none 2>/dev/null &&
	fail "a read of the bad sectors succeeded"
dd if=/dev/mapper/fr of=/tmp/piece bs=4096 skip=$((bad_chunk * chunk / 8)) count=3 iflag=direct status=none ||
	fail "the good start of the bad chunk did not read"
dd if=/tmp/ref bs=4096 skip=$((bad_chunk * chunk / 8)) count=3 status=none | cmp - /tmp/piece ||
	fail "the good start of the bad chunk read back different data"

# The array is up, writes elsewhere work, and only member 2 counts errors.
dmsetup info fr | grep -q "State: *ACTIVE" || fail "the array is not active"
head -c 65536 /dev/urandom >/tmp/piece
dd if=/tmp/piece of=/dev/mapper/fr bs=65536 seek=1 oflag=direct status=none || fail "a write after the error failed"
dd if=/dev/mapper/fr bs=65536 skip=1 count=1 iflag=direct status=none | cmp - /tmp/piece || fail "write after the error lost"
for ((i = 0; i < n; i++)); do
	e=$(fanraid_counter fr "$i" errors)
	if [ "$i" = 2 ]; then
		[ "$e" -gt 0 ] || fail "member 2 counted no errors"
	else
		assert_eq "$e" 0 "errors counted on member $i"
	fi
done
log "raid0: EIO for chunk $bad_chunk only; member 2 errors $(fanraid_counter fr 2 errors)"

dm_remove fr
for ((i = 0; i < n; i++)); do dm_remove "m$i"; done
nullb_destroy_all
