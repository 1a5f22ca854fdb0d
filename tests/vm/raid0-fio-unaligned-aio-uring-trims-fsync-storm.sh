#!/bin/bash
# Exercise RAID0 under the block-layer stress Debian's fio allows: direct I/O of sizes that are multiples of 512 but not of 4 KiB at 512-byte offsets through libaio and io_uring, user buffers off page boundaries, trims mixed in (randtrimwrite), all verified; discards and zero-outs at 512-byte edges clear exactly their range, a whole-array discard all of it; an fsync storm (many small buffered writes, fsync after each, six jobs on psync and io_uring) verifies, also cold, with the flushes reaching every member.
# group: stress
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_cmd fio blkdiscard cmp || fail "fio, blkdiscard or cmp not in the image"

# 16 KiB chunks, so most requests cross a chunk and many a member. The
# members take discards (freed sectors read back as zeroes) and have a
# volatile cache, or the block layer would strip every flush before fanraid
# saw it.
n=5 chunk=32
mapfile -t devs < <(nullb_create_many "$n" 16 discard=1 cache_size=8)
len=$((n * $(dev_sectors "${devs[0]}")))
dm_create fr "0 $len fanraid raid0 $chunk 0 $n$(member_pairs "${devs[@]}")"
assert_ne "$(cat "/sys/block/$(dmsetup info -c --noheadings -o blkdevname fr)/queue/discard_max_bytes")" 0 \
	"fanraid RAID0 advertises discard"

# Sizes 512 B to about 256 KiB, none a multiple of 4 KiB but 512 itself
# and the larger odd ones, every offset a multiple of 512 only. fio's
# randtrimwrite drops its writes when the job has an offset (fio 3.33), so
# the trim job has the start of the array.
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
randseed=1511
size=6M

[trim-then-write]
ioengine=io_uring
iodepth=8
rw=randtrimwrite
bssplit=$sizes
offset=0

[libaio-odd-sizes]
ioengine=libaio
iodepth=16
rw=randwrite
bssplit=$sizes
offset=6M

[io_uring-odd-sizes]
ioengine=io_uring
iodepth=16
rw=randwrite
bssplit=$sizes
mem_align=2560
offset=12M

[libaio-randrw]
ioengine=libaio
iodepth=16
rw=randrw
bsrange=512-40k
mem_align=512
offset=18M
JOB
fio /tmp/unaligned.fio --do_verify=1 --output=/tmp/fio.out ||
	{ tail -n 40 /tmp/fio.out; fail "unaligned direct I/O with trims: fio verify failed"; }
grep -q 'trim: IOPS' /tmp/fio.out || { cat /tmp/fio.out; fail "the trim job issued no trims"; }
# Issued counts: reads (the verify), writes, trims; a trim job that wrote
# nothing would verify nothing.
grep 'issued rwts' /tmp/fio.out | sed 's/^ */# /'
awk '/^trim-then-write/ { on = 1 } on && /issued rwts/ { split($3, a, /[=,]/); exit !(a[3] > 0 && a[4] > 0) }' /tmp/fio.out ||
	fail "the trim job wrote nothing to verify"
drop_caches
# The pure writers once more from the media (verify_only replays their
# offsets); the trim job's blocks were verified above.
for job in libaio-odd-sizes io_uring-odd-sizes; do
	fio /tmp/unaligned.fio --section="$job" --verify_only=1 --output=/tmp/fio-cold.out ||
		{ tail -n 40 /tmp/fio-cold.out; fail "$job: cold re-read verify failed"; }
done
log "libaio and io_uring, 512-byte-granular sizes and offsets, trims mixed in: verified, and cold"

# Discard and zero-out at 512-byte edges that cross chunks and members:
# exactly the range reads as zeroes (null_blk frees each discarded sector),
# everything around it keeps the reference.
base=$((24 * 2048)) span=$((8 * 2048))
head -c $((span * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M seek=$((base * 512)) oflag=seek_bytes,direct status=none
zero_range() { # FLAG START_SECTOR SECTORS: blkdiscard FLAG, and in /tmp/ref
	blkdiscard ${1:+"$1"} -o $(((base + $2) * 512)) -l $(($3 * 512)) /dev/mapper/fr
	head -c $(($3 * 512)) /dev/zero |
		dd of=/tmp/ref bs=512 seek="$2" conv=notrunc status=none
}
zero_range "" 1 1             # one sector, not 4 KiB aligned
zero_range "" 31 3            # across a chunk edge
zero_range "" 101 $((5 * chunk + 7))   # across every member
zero_range -z 1001 9          # write-zeroes, inside a chunk
zero_range -z 2047 $((2 * n * chunk + 3))
zero_range "" $((span - 9)) 9 # up to the end of the region
drop_caches
cmp /tmp/ref <(dd if=/dev/mapper/fr bs=1M skip=$((base * 512)) count=$((span * 512)) \
	iflag=skip_bytes,count_bytes,direct status=none) ||
	fail "discard or zero-out at 512-byte edges changed other bytes or left data"
log "discards and zero-outs at 512-byte edges cleared exactly their ranges"

# fsync storm: small buffered writes (the page cache turns the sub-page ones
# into read-modify-write of 4 KiB pages), an fsync after every one, four
# psync and two io_uring jobs each on its own MiB.
flushes_before=$(fanraid_counter fr 0 flushes)
fsync_storm_job fr 4242 1M 4 34M 40M
fsync_storm_verify fr "$n" 100 "$flushes_before"
log "fsync storm, 6 jobs, fsync after each write: verified, cold too; member 0 got $(($(fanraid_counter fr 0 flushes) - flushes_before)) flushes"

# A discard of the whole array: every member gets one range, and all of it
# reads back as zeroes.
blkdiscard /dev/mapper/fr
drop_caches
cmp -n $((len * 512)) /dev/zero /dev/mapper/fr || fail "a whole-array discard left data"
log "a discard of the whole array zeroed all of it"
dm_remove fr
