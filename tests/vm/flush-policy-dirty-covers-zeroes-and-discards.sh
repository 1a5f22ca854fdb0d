#!/bin/bash
# Exercise flush_policy dirty with writes that carry no data: a member that completed a write-zeroes or a discard since its last flush gets the next flush, like one that completed a plain write.
# group: main
# may-skip: a loop driver without write-zeroes (kernels before 5.x)
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fallocate || skip "fallocate missing"
have_cmd blkdiscard || skip "blkdiscard missing"

# Loop members over files on ext4: they have a volatile write cache (a
# flush is an fsync) and take write-zeroes and discards (fallocate);
# null_blk takes neither.
modprobe loop max_loop=8 || true
[ -c /dev/loop-control ] || mknod /dev/loop-control c 10 237
for i in 0 1 2 3 4 5 6 7; do [ -b /dev/loop$i ] || mknod /dev/loop$i b 7 $i; done
mapfile -t h < <(nullb_create_many 1 256 blocksize=4096)
mkfs.ext4 -q -F "${h[0]}"
mkdir -p /mnt/fp
mount "${h[0]}" /mnt/fp
on_exit 'losetup -D; umount /mnt/fp'
lo=()
for i in 0 1; do
	truncate -s 64M /mnt/fp/m$i
	lo[i]=$(losetup -f --show /mnt/fp/m$i)
done
q=/sys/block/${lo[1]#/dev/}/queue
[ "$(cat $q/write_zeroes_max_bytes)" -gt 0 ] || skip "loop takes no write-zeroes here"
assert_eq "$(cat $q/write_cache)" "write back" "loop write cache"

len=$(($(dev_sectors "${lo[0]}") * 2))
dm_create fr "0 $len fanraid raid0 128 2 flush_policy dirty 2 ${lo[0]} 0 ${lo[1]} 0"
flushes() { echo "$(fanraid_counter fr 0 flushes) $(fanraid_counter fr 1 flushes)"; }
dmsetup message fr 0 stats reset
dd if=/dev/urandom of=/dev/mapper/fr bs=64k count=2 oflag=direct status=none
sync /dev/mapper/fr
assert_eq "$(flushes)" "1 1" "after writing both members"
sync /dev/mapper/fr
assert_eq "$(flushes)" "1 1" "a flush with nothing written"

# Chunk 1 is on member 1: zero it, then discard it.
fallocate -z -o 65536 -l 65536 /dev/mapper/fr
sync /dev/mapper/fr
assert_eq "$(flushes)" "1 2" "after a write-zeroes on member 1"
blkdiscard -o 65536 -l 65536 /dev/mapper/fr
sync /dev/mapper/fr
assert_eq "$(flushes)" "1 3" "after a discard on member 1"
fallocate -p -o 65536 -l 65536 /dev/mapper/fr
sync /dev/mapper/fr
assert_eq "$(flushes)" "1 4" "after a punched hole on member 1"
dm_remove fr
