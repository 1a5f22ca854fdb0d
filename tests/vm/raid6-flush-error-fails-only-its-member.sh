#!/bin/bash
# Exercise a RAID6 member whose flushes fail for real (dm-flakey error_writes): the fsync of the array succeeds, that member alone is failed with the reason logged, and the data written before and after reads back exactly.
# group: faults
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_target flakey 1 0 0 || fail "target flakey missing"

n=5 chunk=128
len=$((16 * (n - 2) * chunk))
mapfile -t raw < <(nullb_create_many $n 8 cache_size=8 blocksize=4096)
sz=$(dev_sectors "${raw[0]}")
for ((i = 0; i < n; i++)); do
	dm_create "f$i" "0 $sz flakey ${raw[i]} 0 3600 0"
	dev[i]=/dev/mapper/f$i
done
dm_create fr "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${dev[@]}")"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M status=none
sync

# Member 2 now fails every write, empty flushes included; reads still work.
dmsetup load f2 --table "0 $sz flakey ${raw[2]} 0 0 3600 1 error_writes"
dmsetup suspend f2 && dmsetup resume f2

# Dirty the page cache again without touching member 2, then fsync.
dd if=/tmp/ref of=/dev/mapper/fr bs=4096 count=1 conv=notrunc status=none
dd if=/dev/null of=/dev/mapper/fr conv=fsync status=none ||
	fail "the fsync failed although four of five members flushed"
assert_eq "$(fanraid_health fr 2)" D "member 2 after its flush failed"
dmesg | grep -q "member 2 failed: flush error" || fail "the kernel log does not say member 2's flush failed"
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" AADAA "only member 2 failed"

# Writes go on degraded; everything reads back.
head -c 1048576 /dev/urandom >/tmp/piece
dd if=/tmp/piece of=/tmp/ref bs=1M seek=2 conv=notrunc status=none
dd if=/tmp/piece of=/dev/mapper/fr bs=1M seek=2 oflag=direct status=none || fail "a degraded write failed"
drop_caches
cmp /tmp/ref /dev/mapper/fr || fail "the array returned different data"

dm_remove fr
for ((i = 0; i < n; i++)); do dm_remove "f$i"; done
nullb_destroy_all
