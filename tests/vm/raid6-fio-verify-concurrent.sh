#!/bin/bash
# Exercise RAID6 under concurrent random writes of mixed, unaligned sizes (512 B to 1 MiB, iodepth 32, 4 jobs): fio verifies every block healthy and with two members failed, and P/Q stay consistent even when the jobs overwrite the same stripes.
# group: raid6
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio raidcalc || skip "fio or raidcalc not in the image"

n=6 chunk=128 off=2048
region_mb=6
len=$((4 * region_mb * 2048))
# Members have 512-byte blocks, so the array takes 512-byte writes at any
# sector: the sub-page and unaligned cases go through partial pages.
mapfile -t devs < <(nullb_create_many "$n" $(((off + len / (n - 2)) / 2048 + 2)))
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done
dm_create fr "$table"

fio_common=(--filename=/dev/mapper/fr --direct=1 --ioengine=libaio
	--iodepth=32 --numjobs=4 --rw=randwrite --blockalign=512
	--bssplit=512/10:1536/5:4k/25:12k/15:64k/20:200k/10:1m/15
	--output-format=terse --terse-version=3 --group_reporting)

# Each job its own region, so fio can verify what it wrote.
fio --name=regions "${fio_common[@]}" --size=${region_mb}M --offset_increment=${region_mb}M \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --randseed=5 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio verify failed on a healthy array"; }
log "fio wrote and verified 4 x ${region_mb} MiB in 4 concurrent jobs"

drop_caches
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q do not match after concurrent writes"; }
log "$(tail -n1 /tmp/verify.out)"

# The same blocks, read back with two members failed (reconstructed).
dmsetup message fr 0 fail 2
dmsetup message fr 0 fail 5
fio --name=regions "${fio_common[@]}" --size=${region_mb}M --offset_increment=${region_mb}M \
	--verify=crc32c --verify_fatal=1 --verify_only=1 --randseed=5 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio verify failed with members 2 and 5 failed"; }
log "fio verified every block again with members 2 and 5 failed"
dm_remove fr

# Four jobs writing the same region at once: no data to verify, but two
# writes to one stripe must never leave P/Q inconsistent.
dm_create fr "$table"
fio --name=overlap "${fio_common[@]}" --size=4M --offset=0 --randrepeat=0 \
	--norandommap >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "overlapping fio writes failed"; }
drop_caches
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q inconsistent after overlapping concurrent writes"; }
# And the data the members hold is what the device returns.
raidcalc read -s 0 -n $((4 * 2048)) -o /tmp/members "$(dmsetup table fr)"
cmp /tmp/members <(dd if=/dev/mapper/fr iflag=direct bs=1M count=4 status=none) ||
	fail "device and members disagree after overlapping writes"
log "overlapping writers: $(tail -n1 /tmp/verify.out)"
dm_remove fr
