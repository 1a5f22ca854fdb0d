#!/bin/bash
# Exercise writes that land above the resync checkpoint: members are prefilled with garbage, the initial resync is slowed to a crawl, 4 KiB random writes go to rows it has not reached (8 members, where a read-modify-write would be cheaper and would carry the garbage parity into the new parity), a member then fails, and every block written still reads back exactly through reconstruction.
# group: raid6-resync
# timeout: 400
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

mapfile -t devs < <(nullb_create_many 8 32)
on_exit 'fanraid stop rw6 >/dev/null 2>&1 || true'
for d in "${devs[@]}"; do
	head -c 32M /dev/urandom >"$d"
done
# The tool wipes only signatures: the data area keeps its garbage.
fanraid create rw6 --level 6 --chunk 16K --force "${devs[@]}"
table=$(dmsetup table rw6)
assert_contains "$table" " resync superblock bitmap "
# 200 KiB/s per member: the checkpoint stays in the first few MiB.
slow=$(echo "$table" | awk '{ $6 = $6 + 2; $7 = "max_sync_rate 200 " $7; print }')
dm_swap rw6 "$slow"
assert_contains "$(dmsetup table rw6)" " max_sync_rate 200 resync "
# 186 MiB of array: write 2 MiB at 150 MiB, about 25 MiB into each member.
fio --name=above --filename=/dev/mapper/rw6 --rw=randwrite --bs=4k \
	--offset=150M --size=2M --direct=1 --ioengine=libaio --iodepth=4 \
	--verify=crc32c --randseed=9 --do_verify=0 --output=/tmp/above.out ||
	{ cat /tmp/above.out; fail "writes above the checkpoint"; }
status=$(dmsetup status rw6)
log "status: $status"
assert_contains "$status" " resync "
cur=$(echo "$status" | awk '{ split($7, r, "/"); print r[1] }')
[ "$cur" -lt $((150 * 2048)) ] || fail "the resync reached the writes already ($cur sectors)"
dmsetup message rw6 0 fail 0
drop_caches
fio --name=above --filename=/dev/mapper/rw6 --rw=randwrite --bs=4k \
	--offset=150M --size=2M --direct=1 --ioengine=libaio --iodepth=4 \
	--verify=crc32c --randseed=9 --verify_only --output=/tmp/v.out ||
	{ cat /tmp/v.out; fail "blocks written above the checkpoint, member 0 failed"; }
fanraid stop rw6
