#!/bin/bash
# Exercise a grow whose copy meets a real write error: a new member turns into the error target mid-copy, the copy stops (reshape_failed) without an oops while reads below and above it still work, and a reload once the member is back resumes from the recorded position and ends with every byte of the reference in place.
# group: data
# timeout: 600
. "${0%/*}/lib.sh"

have_target fanraid 1 7 0 || skip "target fanraid 1.7.0 missing"

chunk=128
mapfile -t d < <(nullb_create_many 5 16)
member=$(($(dev_sectors "${d[0]}") / chunk * chunk))
old_len=$((member * 3))
new_len=$((member * 5))
new_stripe=$((chunk * 5))
crit=$((2 * new_stripe))	# ceil(3 old / 2 added) rows
# Members 3 and 4 (the new ones) through dm-linear, so one can fail.
for k in 3 4; do
	dm_create "nm$k" "0 $(dev_sectors "${d[k]}") linear ${d[k]} 0"
done
pairs=$(member_pairs "${d[0]}" "${d[1]}" "${d[2]}" /dev/mapper/nm3 /dev/mapper/nm4)

dm_create fr "0 $old_len fanraid raid0 $chunk 0 3$(member_pairs "${d[@]:0:3}")"
head -c $((old_len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr
dm_create frnew "0 $new_len fanraid raid0 $chunk 0 5$pairs"
dd if=/tmp/ref of=/dev/mapper/frnew bs=512 count=$crit oflag=direct status=none
dm_remove frnew

copy_words() { dmsetup status fr | awk '{ print $(NF - 1), $NF }'; }
record() { # checkpoint what is copied, as the tool would
	local done safe
	read -r done safe < <(copy_words)
	[ "$done" -gt "$safe" ] && dmsetup message fr 0 reshape_safe "$done"
	return 0
}

dm_create fr "0 $old_len fanraid raid0 $chunk 3 reshape 3 $crit 5$pairs"
# Let the copy pass a third, then take member 4 away: its writes fail.
for ((i = 0; i < 200; i++)); do
	record
	read -r done safe < <(copy_words)
	[ "$done" -gt $((old_len / 3)) ] && break
	sleep 0.1
done
dm_swap nm4 "0 $(dev_sectors "${d[4]}") error"
dmesg_mark
for ((i = 0; i < 200; i++)); do
	record
	case "$(dmsetup status fr)" in *" reshape_failed "*) break ;; esac
	sleep 0.1
done
assert_contains "$(dmsetup status fr)" " reshape_failed "
dmesg_since | grep -q "reshape copy of sectors .* failed; stopped" ||
	fail "no log line for the failed copy"
read -r done safe < <(copy_words)
log "copy stopped at $done copied, $safe recorded, of $old_len"
[ "$done" -lt "$old_len" ] || fail "copy finished despite the error"
# Reads of the old layout and of copied rows on the healthy members work.
cmp -i $(((old_len - 2048) * 512)) -n $((2048 * 512)) /tmp/ref /dev/mapper/fr ||
	fail "the array's tail (old layout) after the copy error"
cmp -n $((chunk * 512)) /tmp/ref /dev/mapper/fr || fail "the first chunk after the copy error"

# The member comes back; a reload from TABLE resumes at the recorded position.
dm_swap nm4 "0 $(dev_sectors "${d[4]}") linear ${d[4]} 0"
table=$(dmsetup table fr)
assert_contains "$table" " reshape 3 $safe "
dmsetup suspend fr
dmsetup reload fr --table "$table"
dmsetup resume fr
for ((i = 0; i < 600; i++)); do
	record
	read -r done safe < <(copy_words)
	[ "$safe" = "$old_len" ] && break
	sleep 0.1
done
assert_eq "$safe" "$old_len" "copy resumed and finished"
dm_remove fr
dm_create fr "0 $new_len fanraid raid0 $chunk 0 5$pairs"
cmp -n $((old_len * 512)) /tmp/ref /dev/mapper/fr || fail "grown array differs from the reference"
log "a copy error stopped the grow; after the reload it finished and the data is exact"
dm_remove fr
dm_remove nm3
dm_remove nm4
nullb_destroy_all
