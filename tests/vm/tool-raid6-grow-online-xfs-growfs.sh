#!/bin/bash
# Exercise fanraid grow on raid6: 4 -> 6 members under a mounted xfs while fio writes and verifies a file, the kernel recording its own progress in the superblocks; suspended a third of the way, raidcalc verify finds both layouts' parity right from the table line; the size doubles, xfs_growfs takes it, xfs_repair finds nothing, the array reassembles and raidcalc verify finds every row's parity right, the new rows included. Then a grow that loses a member to the error target mid-copy goes on degraded, and fio's data still verifies.
# group: tool
# timeout: 600
. "${0%/*}/lib.sh"

have_target fanraid 1 8 0 || skip "target fanraid 1.8.0 missing"
have_cmd fanraid raidcalc fio mkfs.xfs xfs_growfs xfs_repair || skip "fanraid, raidcalc, fio or xfsprogs missing"
have_fs xfs || skip "xfs missing"

mapfile -t d < <(nullb_create_many 6 160)
on_exit 'umount /mnt/g 2>/dev/null; fanraid stop g6 >/dev/null 2>&1 || true; for k in 0 1 2 3 4 5; do dmsetup remove lin$k 2>/dev/null; done; true'

# Null_blk starts zeroed, so its parity is already right: no resync to wait for.
fanraid create g6 --level 6 --chunk 64K --assume-clean "${d[@]:0:4}"
old_bytes=$(blockdev --getsize64 /dev/mapper/g6)
mkfs.xfs -q -f /dev/mapper/g6
mkdir -p /mnt/g
mount /dev/mapper/g6 /mnt/g
head -c 48M /dev/urandom >/mnt/g/before
sha_before=$(sha256sum </mnt/g/before)
sync

fio --name=during --filename=/mnt/g/during --size=32M --rw=randwrite \
	--bsrange=4k-128k --direct=1 --ioengine=libaio --iodepth=8 \
	--verify=crc32c --verify_fatal=1 --randseed=78 --rate=2m \
	--output=/tmp/fio.out &
fio_pid=$!
sleep 2
# Slow at first, so that the copy can be caught in the middle.
fanraid set g6 sync-speed-max 4M
t0=$(date +%s)
fanraid grow g6 --add "${d[4]}" "${d[5]}" >/tmp/grow.out 2>&1 &
grow_pid=$!
old_len=$(($(blockdev --getsz /dev/mapper/g6)))
for ((i = 0; i < 1200; i++)); do
	done_s=$(dmsetup status g6 | awk '{ print $(NF - 1) }')
	[ "$done_s" != - ] && [ "$done_s" -gt $((old_len / 3)) ] && break
	sleep 0.05
done
# Suspended, the copy and the writes stand still: both layouts check out
# where they are whole, from the members alone.
dmsetup suspend g6
table=$(dmsetup table g6)
assert_contains "$table" " reshape 4 "
raidcalc verify $table >/tmp/verify-mid.out 2>&1 ||
	{ cat /tmp/verify-mid.out; fail "raidcalc verify in the middle of the grow"; }
cat /tmp/verify-mid.out
assert_contains "$(cat /tmp/verify-mid.out)" "grow at "
dmsetup resume g6
fanraid set g6 sync-speed-max off
wait $grow_pid || { cat /tmp/grow.out; fail "grow failed"; }
cat /tmp/grow.out
log "grow took $(($(date +%s) - t0)) s"
wait $fio_pid || { tail -n 30 /tmp/fio.out; fail "fio verify during the grow failed"; }

new_bytes=$(blockdev --getsize64 /dev/mapper/g6)
assert_eq "$new_bytes" $((old_bytes * 2)) "array size after the grow"
table=$(dmsetup table g6)
assert_contains "$table" " superblock "
assert_contains "$table" " 6 "
case "$table" in *reshape*) fail "reshape feature left in the table" ;; esac
assert_contains "$(fanraid examine "${d[5]}")" "raid6"
case "$(fanraid examine "${d[0]}")" in *reshape* | *grow*) fail "grow state left in the superblock" ;; esac
xfs_growfs /mnt/g >/dev/null
fs_bytes=$(df -P -k /mnt/g | awk 'NR == 2 { print $2 * 1024 }')
[ "$fs_bytes" -gt $((old_bytes * 3 / 2)) ] || fail "xfs did not grow: $fs_bytes of $new_bytes"
head -c 64M /dev/urandom >/mnt/g/after
sha_after=$(sha256sum </mnt/g/after)
umount /mnt/g
drop_caches
xfs_repair -n /dev/mapper/g6 >/tmp/repair.out 2>&1 || { cat /tmp/repair.out; fail "xfs_repair -n found problems"; }
mount /dev/mapper/g6 /mnt/g
assert_eq "$(sha256sum </mnt/g/before)" "$sha_before" "file written before the grow"
assert_eq "$(sha256sum </mnt/g/after)" "$sha_after" "file written after xfs_growfs"
fio --name=during --filename=/mnt/g/during --size=32M --rw=randwrite \
	--bsrange=4k-128k --direct=1 --verify=crc32c --randseed=78 \
	--verify_only --output=/tmp/fio-reread.out ||
	{ tail -n 30 /tmp/fio-reread.out; fail "fio's file after the grow"; }
umount /mnt/g

fanraid stop g6
fanraid assemble g6 "${d[@]}"
assert_eq "$(blockdev --getsize64 /dev/mapper/g6)" "$new_bytes" "size after reassembly"
fanraid stop g6
# Every row's P and Q, from the copy, the writes during it and the zeroed new rows.
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${d[@]}" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "raidcalc verify after the grow"; }
tail -n 2 /tmp/verify.out

# A member dies in the middle of the copy: it goes on degraded.
for k in 0 1 2 3 4 5; do
	wipefs -a -q "${d[k]}"
	dm_create "lin$k" "0 $(dev_sectors "${d[k]}") linear ${d[k]} 0"
done
fanraid create g6 --level 6 --chunk 64K --assume-clean --force /dev/mapper/lin{0,1,2,3}
fio --name=known --filename=/dev/mapper/g6 --size=250M --rw=write --bs=1M \
	--direct=1 --verify=crc32c --do_verify=0 --randseed=79 --output=/tmp/known.out ||
	{ cat /tmp/known.out; fail "writing known data"; }
fanraid grow g6 --force --add /dev/mapper/lin4 /dev/mapper/lin5 >/tmp/grow.out 2>&1 &
grow_pid=$!
for ((i = 0; i < 600; i++)); do
	done_s=$(dmsetup status g6 | awk '{ print $(NF - 1) }')
	[ "$done_s" != - ] && [ "$done_s" -gt 40000 ] && break
	sleep 0.05
done
dm_swap lin1 "0 $(dev_sectors "${d[1]}") error"
log "member 1 returns EIO from $done_s sectors copied"
wait $grow_pid || { cat /tmp/grow.out; fail "the grow stopped when a member failed"; }
cat /tmp/grow.out
status=$(dmsetup status g6)
assert_contains "$status" "raid6 6 ADAAAA"
assert_eq "$(blockdev --getsize64 /dev/mapper/g6)" "$new_bytes" "size of the degraded grow"
drop_caches
fio --name=known --filename=/dev/mapper/g6 --size=250M --rw=write --bs=1M \
	--direct=1 --verify=crc32c --verify_only --randseed=79 --output=/tmp/known-reread.out ||
	{ tail -n 30 /tmp/known-reread.out; fail "data after the degraded grow"; }
fanraid stop g6
log "raid6 grown 4 -> 6 under xfs and fio verify: $old_bytes -> $new_bytes bytes, parity verified; degraded grow exact"
