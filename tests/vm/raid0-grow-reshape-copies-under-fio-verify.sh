#!/bin/bash
# Grow a RAID0 array from 4 to 6 members with the kernel's reshape copy while fio writes and verifies across both layouts: the copy stops where the recorded position leaves no room, a reload mid-copy resumes from the recorded position, bad reshape tables and messages are refused, and the grown array reads back bit for bit against a reference file and against raidcalc's mapping.
# group: data
# timeout: 900
. "${0%/*}/lib.sh"

have_target fanraid 1 7 0 || skip "target fanraid 1.7.0 missing"
have_cmd fio || skip "fio missing"

chunk=128
mapfile -t d < <(nullb_create_many 6 24)
member=$(($(dev_sectors "${d[0]}") / chunk * chunk))
old_len=$((member * 4))
new_len=$((member * 6))
old_pairs=$(member_pairs "${d[@]:0:4}")
new_pairs=$(member_pairs "${d[@]}")
old_stripe=$((chunk * 4))
new_stripe=$((chunk * 6))
# Two new rows are the critical section: ceil(4 old / 2 added) rows.
crit=$((2 * new_stripe))

# A reference everywhere, in the old layout.
dm_create fr "0 $old_len fanraid raid0 $chunk 0 4$old_pairs"
head -c $((old_len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

# The critical section is the tool's job; with nothing running, copy it
# through a table of the new shape.
dm_create frnew "0 $new_len fanraid raid0 $chunk 0 6$new_pairs"
dd if=/tmp/ref of=/dev/mapper/frnew bs=512 count=$crit oflag=direct status=none
dm_remove frnew

# Tables the constructor must refuse, each with its own reason.
refuse() {
	local table=$1 why=$2
	dmesg_mark
	expect_fail dmsetup create frbad --table "$table"
	dmesg_since | grep -q "$why" || fail "no '$why' for: $table"
}
refuse "0 $old_len fanraid raid0 $chunk 3 reshape 4 $((crit - new_stripe)) 6$new_pairs" "inside the critical section"
refuse "0 $old_len fanraid raid0 $chunk 3 reshape 4 $((crit + chunk)) 6$new_pairs" "not a new row boundary"
refuse "0 $old_len fanraid raid0 $chunk 3 reshape 6 $crit 6$new_pairs" "Invalid reshape member count"
refuse "0 $old_len fanraid raid0 $chunk 3 reshape 4 18446744073709551616 6$new_pairs" "Invalid reshape position"
refuse "0 $((old_len - chunk)) fanraid raid0 $chunk 3 reshape 4 $crit 6$new_pairs" "old layout's capacity"
refuse "0 $old_len fanraid raid0 $chunk 2 reshape 4 6$new_pairs" "requires <old_ndevs> <position>"
refuse "0 $((member * 2)) fanraid raid6 $chunk 3 reshape 4 $crit 6$new_pairs" "reshape on raid6 requires superblock"
refuse "0 $((member * 2)) fanraid raid6 $chunk 6 superblock rebuild 5 reshape 4 $crit 6$new_pairs" "cannot run with rebuild or readd"

dm_create fr "0 $old_len fanraid raid0 $chunk 3 reshape 4 $crit 6$new_pairs"

# reshape_status: sets done and safe from the last two INFO words.
reshape_status() {
	local -a st
	read -r -a st < <(dmsetup status fr)
	done=${st[${#st[@]} - 2]}
	safe=${st[${#st[@]} - 1]}
}

# With only the critical section recorded, new rows may overwrite old rows
# up to crit / old stripe: the copy stops there and waits.
limit=$((crit / old_stripe * new_stripe))
for ((i = 0; i < 40; i++)); do
	reshape_status
	[ "$done" = "$limit" ] && break
	sleep 0.25
done
sleep 1
reshape_status
assert_eq "$done" "$limit" "copy stopped at the row limit"
assert_eq "$safe" "$crit" "recorded position"
dmsetup status fr | grep -q " reshape " || fail "action is not reshape: $(dmsetup status fr)"
dmsetup table fr | grep -q " reshape 4 $crit 6 " || fail "TABLE lacks the reshape feature: $(dmsetup table fr)"

# Messages out of range are refused and change nothing.
expect_fail dmsetup message fr 0 reshape_safe $((done + new_stripe))
expect_fail dmsetup message fr 0 reshape_safe $((done - chunk))
expect_fail dmsetup message fr 0 reshape_safe $((crit - new_stripe))
expect_fail dmsetup message fr 0 reshape_safe 18446744073709551616
reshape_status
assert_eq "$safe" "$crit" "recorded position after bad messages"

# fio writes and verifies its region while the copy walks through it: below
# the recorded position, between it and the copy, in the window, beyond.
cat >/tmp/grow.fio <<JOB
[global]
filename=/dev/mapper/fr
direct=1
ioengine=libaio
iodepth=8
verify=crc32c
verify_fatal=1
randseed=4242
offset=1M
size=40M
rate=3m

[grow]
rw=randwrite
bsrange=4k-96k
JOB
fio /tmp/grow.fio --do_verify=1 --output=/tmp/fio.out &
fio_pid=$!

# The tool's loop: record what is copied, and once reload the table from
# its own TABLE line, which resumes at the recorded position.
reloaded=0
for ((i = 0; i < 1200; i++)); do
	reshape_status
	[ "$safe" = "$old_len" ] && break
	if [ "$done" -gt "$safe" ]; then
		dmsetup message fr 0 reshape_safe "$done"
	fi
	if [ $reloaded = 0 ] && [ "$done" -gt $((old_len / 3)) ]; then
		table=$(dmsetup table fr)
		dmsetup suspend fr
		dmsetup reload fr --table "$table"
		dmsetup resume fr
		reloaded=1
		log "reloaded at $done sectors copied: $table"
	fi
	sleep 0.2
done
assert_eq "$safe" "$old_len" "copy finished and recorded"
assert_eq "$reloaded" 1 "reloaded mid-copy"
dmsetup status fr | grep -q " idle " || fail "action after the copy: $(dmsetup status fr)"
wait $fio_pid || { tail -n 30 /tmp/fio.out; fail "fio verify during the grow failed"; }
log "fio verified 40 MiB written during the copy"

# The grown array: every member in the new layout, the new length.
dm_remove fr
dm_create fr "0 $new_len fanraid raid0 $chunk 0 6$new_pairs"
drop_caches
fio /tmp/grow.fio --verify_only=1 --rate=0 --output=/tmp/fio-reread.out ||
	{ tail -n 30 /tmp/fio-reread.out; fail "cold re-read of fio's writes failed"; }
cmp -n $((1024 * 1024)) /tmp/ref /dev/mapper/fr || fail "first MiB differs from the reference"
cmp -i $((41 * 1024 * 1024)) -n $(((old_len - 41 * 2048) * 512)) /tmp/ref /dev/mapper/fr ||
	fail "data after fio's region differs from the reference"
for m in "${d[@]:4}"; do
	[ "$(blk_stat "$m" 7)" -gt $((member / 2)) ] ||
		fail "new member $m received $(blk_stat "$m" 7) sectors"
done
if have_cmd raidcalc; then
	raidcalc read -o /tmp/extracted $(dmsetup table fr) >/dev/null ||
		fail "raidcalc read failed"
	cmp -n $((old_len * 512)) /tmp/extracted /dev/mapper/fr ||
		fail "raidcalc's mapping disagrees with the grown array"
fi
log "grown 4 -> 6: reference and fio data exact$(have_cmd raidcalc && echo ', raidcalc agrees')"
dm_remove fr
nullb_destroy_all
