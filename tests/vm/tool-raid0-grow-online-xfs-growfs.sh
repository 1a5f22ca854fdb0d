#!/bin/bash
# Exercise fanraid grow on a mounted xfs: 4 -> 6 raid0 members while fio writes and verifies a file, then xfs_growfs takes the new size and xfs_repair finds nothing; grow refuses a member already in the array and a device holding a filesystem.
# group: tool
# timeout: 600
. "${0%/*}/lib.sh"

have_target fanraid 1 7 0 || skip "target fanraid 1.7.0 missing"
have_cmd fanraid fio mkfs.xfs xfs_growfs xfs_repair || skip "fanraid, fio or xfsprogs missing"
have_fs xfs || skip "xfs missing"

mapfile -t d < <(nullb_create_many 8 100)
on_exit 'umount /mnt/g 2>/dev/null; fanraid stop g0 >/dev/null 2>&1 || true'

fanraid create g0 --level 0 --chunk 64K "${d[0]}" "${d[1]}" "${d[2]}" "${d[3]}"
old_bytes=$(blockdev --getsize64 /dev/mapper/g0)
mkfs.xfs -q -f /dev/mapper/g0
mkdir -p /mnt/g
mount /dev/mapper/g0 /mnt/g
head -c 48M /dev/urandom >/mnt/g/before
sha_before=$(sha256sum </mnt/g/before)
sync

# Refusals: nothing changes on the array or the devices.
expect_fail fanraid grow g0 --add "${d[3]}"
mkfs.ext4 -q -F "${d[6]}"
out=$(fanraid grow g0 --add "${d[6]}" 2>&1) && fail "grew onto an ext4 device: $out"
echo "$out"
assert_eq "$(blkid -o value -s TYPE "${d[6]}")" ext4 "ext4 device after the refusal"
wipefs -a -q "${d[6]}"
assert_eq "$(blockdev --getsize64 /dev/mapper/g0)" "$old_bytes" "size after refusals"

# fio writes and verifies a file while the array is restriped under it.
fio --name=during --filename=/mnt/g/during --size=32M --rw=randwrite \
	--bsrange=4k-128k --direct=1 --ioengine=libaio --iodepth=8 \
	--verify=crc32c --verify_fatal=1 --randseed=77 --rate=4m \
	--output=/tmp/fio.out &
fio_pid=$!
sleep 2
out=$(fanraid grow g0 --add "${d[4]}" "${d[5]}" 2>&1) || { echo "$out"; fail "grow failed"; }
echo "$out"
wait $fio_pid || { tail -n 30 /tmp/fio.out; fail "fio verify during the grow failed"; }

new_bytes=$(blockdev --getsize64 /dev/mapper/g0)
assert_eq "$new_bytes" $((old_bytes / 4 * 6)) "array size after the grow"
assert_contains "$(dmsetup table g0)" " 6 "
case "$(dmsetup table g0)" in *reshape*) fail "reshape feature left in the table" ;; esac
assert_contains "$(fanraid examine "${d[5]}")" "raid0"
xfs_growfs /mnt/g >/dev/null
fs_bytes=$(df -P -k /mnt/g | awk 'NR == 2 { print $2 * 1024 }')
[ "$fs_bytes" -gt $((old_bytes * 5 / 4)) ] || fail "xfs did not grow: $fs_bytes of $new_bytes"
# The new space takes data.
head -c 64M /dev/urandom >/mnt/g/after
sha_after=$(sha256sum </mnt/g/after)
umount /mnt/g
drop_caches
xfs_repair -n /dev/mapper/g0 >/tmp/repair.out 2>&1 || { cat /tmp/repair.out; fail "xfs_repair -n found problems"; }
mount /dev/mapper/g0 /mnt/g
assert_eq "$(sha256sum </mnt/g/before)" "$sha_before" "file written before the grow"
assert_eq "$(sha256sum </mnt/g/after)" "$sha_after" "file written after xfs_growfs"
fio --name=during --filename=/mnt/g/during --size=32M --rw=randwrite \
	--bsrange=4k-128k --direct=1 --verify=crc32c --randseed=77 \
	--verify_only --output=/tmp/fio-reread.out ||
	{ tail -n 30 /tmp/fio-reread.out; fail "fio's file after the grow"; }
umount /mnt/g

# The grown array assembles from its superblocks alone.
fanraid stop g0
fanraid assemble g0 "${d[@]:0:6}"
assert_eq "$(blockdev --getsize64 /dev/mapper/g0)" "$new_bytes" "size after reassembly"
fanraid stop g0
log "grown 4 -> 6 under xfs and fio verify: $old_bytes -> $new_bytes bytes, xfs_repair clean"
