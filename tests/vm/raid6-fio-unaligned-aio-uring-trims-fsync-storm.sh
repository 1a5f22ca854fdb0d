#!/bin/bash
# Exercise RAID6 under the block-layer stress Debian's fio allows: direct I/O of sizes that are multiples of 512 but not of 4 KiB at 512-byte offsets through libaio and io_uring, user buffers off page boundaries, and an fsync storm (small buffered writes, fsync after each, psync and io_uring jobs), verified healthy, cold and with two members failed, and written again degraded; discards are refused cleanly (EOPNOTSUPP, no kernel log, no member error, data kept) and zero-outs at 512-byte edges still zero exactly their range.
# group: stress
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_cmd fio blkdiscard cmp || fail "fio, blkdiscard or cmp not in the image"

# The members would take discards and have a volatile cache (flushes reach
# them); 16 KiB chunks, so requests cross chunks and rows. Fresh null_blk
# is zeroes, whose P and Q are zeroes: the array needs no resync.
n=6 chunk=32
mapfile -t devs < <(nullb_create_many "$n" 16 discard=1 cache_size=8)
len=$(((n - 2) * $(dev_sectors "${devs[0]}") / chunk * chunk))
dm_create fr "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"
sysq=/sys/block/$(dmsetup info -c --noheadings -o blkdevname fr)/queue

# mem_align puts two jobs' user buffers 2560 and 512 bytes past a page
# boundary (the queue's DMA alignment is 512), so their bios carry segments
# that start and end inside pages.
sizes=512/15:1536/15:3584/15:7680/15:12800/10:66048/15:259584/15
cat >/tmp/unaligned.fio <<JOB
[global]
filename=/dev/mapper/fr
direct=1
blockalign=512
verify=crc32c
verify_fatal=1
randseed=1512
size=4M

[libaio-odd-sizes]
ioengine=libaio
iodepth=16
rw=randwrite
bssplit=$sizes
offset=0

[io_uring-odd-sizes]
ioengine=io_uring
iodepth=16
rw=randwrite
bssplit=$sizes
mem_align=2560
offset=4M

[libaio-randrw]
ioengine=libaio
iodepth=16
rw=randrw
bsrange=512-40k
mem_align=512
offset=8M

[io_uring-randrw]
ioengine=io_uring
iodepth=16
rw=randrw
bsrange=512-40k
offset=12M
JOB
fio /tmp/unaligned.fio --do_verify=1 --output=/tmp/fio.out ||
	{ tail -n 40 /tmp/fio.out; fail "unaligned direct I/O: fio verify failed"; }
drop_caches
for job in libaio-odd-sizes io_uring-odd-sizes; do
	fio /tmp/unaligned.fio --section="$job" --verify_only=1 --output=/tmp/fio-cold.out ||
		{ tail -n 40 /tmp/fio-cold.out; fail "$job: cold re-read verify failed"; }
done
log "libaio and io_uring, 512-byte-granular sizes and offsets: verified, and cold"

# Discard: RAID6 advertises none (parity would not cover what a member
# dropped), so the block layer refuses it with EOPNOTSUPP before fanraid
# sees it. The refusal must stay a refusal: every attempt fails the same
# way, nothing in the kernel log, no member error, the data kept.
assert_eq "$(cat "$sysq/discard_max_bytes")" 0 "RAID6 discard_max_bytes"
assert_eq "$(cat "$sysq/write_zeroes_max_bytes")" 0 "RAID6 write_zeroes_max_bytes"
sum_before=$(dd if=/dev/mapper/fr bs=1M count=16 iflag=direct status=none | sha256sum)
dmesg_mark
for ((k = 0; k < 50; k++)); do
	if blkdiscard -o $(((k * 7919 + 1) % (len - 4096) * 512)) -l $(((k % 9 + 1) * 66048)) /dev/mapper/fr >/tmp/discard.out 2>&1; then
		fail "blkdiscard on RAID6 succeeded"
	fi
	assert_contains "$(cat /tmp/discard.out)" "Operation not supported" "blkdiscard error"
done
if fio --name=trims --filename=/dev/mapper/fr --direct=1 --ioengine=libaio --rw=randtrim \
	--bs=64k --size=4M --output=/tmp/fio-trim.out >/dev/null 2>&1; then
	fail "fio trims on RAID6 succeeded"
fi
grep -qE 'err=95|Operation not supported' /tmp/fio-trim.out ||
	{ cat /tmp/fio-trim.out; fail "fio trims on RAID6 did not fail with EOPNOTSUPP"; }
klog=$(dmesg_since)
[ -z "$klog" ] || fail "refused discards logged: $klog"
for ((m = 0; m < n; m++)); do
	assert_eq "$(fanraid_counter fr $m errors)" 0 "member $m errors after refused discards"
done
assert_contains "$(dmsetup status fr)" "raid6 $n AAAAAA " "health after refused discards"
assert_eq "$(dd if=/dev/mapper/fr bs=1M count=16 iflag=direct status=none | sha256sum)" "$sum_before" \
	"data under the refused discards"
log "50 blkdiscards and a fio trim job refused with EOPNOTSUPP, kernel log quiet, data kept"

# Zero-out has no write-zeroes to use, so the block layer writes zero
# pages through fanraid's write path: exactly the range at 512-byte edges.
base=$((16 * 2048)) span=$((8 * 2048))
head -c $((span * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M seek=$((base * 512)) oflag=seek_bytes,direct status=none
zero_range() { # START_SECTOR SECTORS
	blkdiscard -z -o $(((base + $1) * 512)) -l $(($2 * 512)) /dev/mapper/fr
	head -c $(($2 * 512)) /dev/zero | dd of=/tmp/ref bs=512 seek="$1" conv=notrunc status=none
}
zero_range 1 1
zero_range 31 3
zero_range 101 $(((n - 2) * chunk + 7))
zero_range $((span - 9)) 9
drop_caches
cmp /tmp/ref <(dd if=/dev/mapper/fr bs=1M skip=$((base * 512)) count=$((span * 512)) \
	iflag=skip_bytes,count_bytes,direct status=none) ||
	fail "zero-out at 512-byte edges changed other bytes or left data"
log "zero-outs at 512-byte edges cleared exactly their ranges"

# fsync storm: small buffered writes, fsync after each, three psync and
# two io_uring jobs on their own 512 KiB each; every fsync is a flush that
# RAID6 must send to every member after the parity writes.
flushes_before=$(fanraid_counter fr 0 flushes)
fsync_storm_job fr 4243 512k 3 26M 28M
fsync_storm_verify fr "$n" 50 "$flushes_before"
log "fsync storm, 5 jobs, fsync after each write: verified, cold too; member 0 got $(($(fanraid_counter fr 0 flushes) - flushes_before)) flushes"

# Everything again with two members failed, rebuilt from P and Q: the
# parity of every unaligned write and of every fsync'd page is right.
dmsetup message fr 0 fail 1
dmsetup message fr 0 fail 4
drop_caches
for job in libaio-odd-sizes io_uring-odd-sizes; do
	fio /tmp/unaligned.fio --section="$job" --verify_only=1 --output=/tmp/fio-cold.out ||
		{ tail -n 40 /tmp/fio-cold.out; fail "$job: verify with members 1 and 4 failed"; }
done
fio /tmp/storm.fio --verify_only=1 --output=/tmp/storm-cold.out ||
	{ tail -n 40 /tmp/storm-cold.out; fail "fsync storm: verify with members 1 and 4 failed"; }
cmp /tmp/ref <(dd if=/dev/mapper/fr bs=1M skip=$((base * 512)) count=$((span * 512)) \
	iflag=skip_bytes,count_bytes,direct status=none) ||
	fail "zeroed ranges read back wrong with members 1 and 4 failed"
log "with members 1 and 4 failed: every verified block and the zeroed ranges read back exact"

# Degraded writes at the same granularity: two members lost in every row,
# so each partial write rebuilds what it does not overwrite from the rest.
# The same jobs 32 MiB further on, with a new seed.
awk '/^offset=/ { sub(/=/, " "); sub(/M$/, ""); $0 = "offset=" ($2 + 32) "M" }
	/^randseed=/ { $0 = "randseed=1513" } { print }' /tmp/unaligned.fio >/tmp/degraded.fio
grep -q '^offset=32M' /tmp/degraded.fio || fail "degraded job file: $(cat /tmp/degraded.fio)"
fio /tmp/degraded.fio --do_verify=1 --output=/tmp/fio.out ||
	{ tail -n 40 /tmp/fio.out; fail "unaligned direct I/O with members 1 and 4 failed: fio verify failed"; }
drop_caches
for job in libaio-odd-sizes io_uring-odd-sizes; do
	fio /tmp/degraded.fio --section="$job" --verify_only=1 --output=/tmp/fio-cold.out ||
		{ tail -n 40 /tmp/fio-cold.out; fail "$job: cold verify of degraded writes failed"; }
done
log "with members 1 and 4 failed: libaio and io_uring unaligned writes verified, and cold"
dm_remove fr
