#!/bin/bash
# Exercise RAID6 under the block-layer stress Debian's fio allows: direct I/O of sizes that are multiples of 512 but not of 4 KiB at 512-byte offsets through libaio and io_uring, user buffers off page boundaries, trims mixed in (randtrimwrite), and an fsync storm (small buffered writes, fsync after each, psync and io_uring jobs), verified healthy, cold and with two members failed, and written again degraded; discards at 512-byte edges zero exactly the whole rows inside them and keep the rest, zero-outs zero exactly their range, and raidcalc verify finds P and Q right.
# group: stress
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_cmd fio blkdiscard cmp raidcalc || fail "fio, blkdiscard, cmp or raidcalc not in the image"

# The members take write-zeroes, which RAID6 discards need, and have a
# write-back cache (flushes reach them): loop devices over sparse files.
# 16 KiB chunks, so requests cross chunks and rows; a row is 64 KiB. Fresh
# files are zeroes, whose P and Q are zeroes: the array needs no resync.
n=6 chunk=32
row=$(((n - 2) * chunk))
mapfile -t devs < <(loop_members "$n" 16)
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

# Discards: RAID6 advertises them with a granularity of one row, and a
# fio job trims and rewrites blocks at 512-byte-granular sizes, verified.
# fio's randtrimwrite drops its writes when the job has an offset (fio
# 3.33), so it runs at the start of a dm-linear slice at 48 MiB.
assert_eq "$(cat "$sysq/discard_granularity")" $((row * 512)) "RAID6 discard_granularity"
assert_ne "$(cat "$sysq/discard_max_bytes")" 0 "RAID6 discard_max_bytes"
assert_ne "$(cat "$sysq/write_zeroes_max_bytes")" 0 "RAID6 write_zeroes_max_bytes"
dm_create frt "0 $((8 * 2048)) linear /dev/mapper/fr $((48 * 2048))"
fio --name=trim-then-write --filename=/dev/mapper/frt --direct=1 --ioengine=io_uring \
	--iodepth=8 --rw=randtrimwrite --bssplit="$sizes" --blockalign=512 --size=4M \
	--verify=crc32c --verify_fatal=1 --randseed=1514 --do_verify=1 --output=/tmp/fio-trim.out ||
	{ tail -n 40 /tmp/fio-trim.out; fail "fio trims and rewrites on RAID6: verify failed"; }
awk '/issued rwts/ { split($3, a, /[=,]/); exit !(a[3] > 0 && a[4] > 0) }' /tmp/fio-trim.out ||
	{ cat /tmp/fio-trim.out; fail "the trim job issued no trims or no writes"; }
grep 'issued rwts' /tmp/fio-trim.out | sed 's/^ */# /'
dm_remove frt
trim_sum=$(dd if=/dev/mapper/fr bs=1M skip=48 count=8 iflag=direct status=none | sha256sum)
log "fio randtrimwrite on RAID6, 512-byte-granular sizes: verified"

# Discards and zero-outs at 512-byte edges. A discard zeroes the rows it
# covers whole, on every member, and leaves partial rows alone (a discard
# is advisory); a zero-out zeroes exactly its range, partial rows through
# the parity path. The region starts on a row.
base=$((16 * 2048)) span=$((8 * 2048))
head -c $((span * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M seek=$((base * 512)) oflag=seek_bytes,direct status=none
zero_ref() { # START SECTORS
	head -c $(($2 * 512)) /dev/zero | dd of=/tmp/ref bs=512 seek="$1" conv=notrunc status=none
}
zero_range() { # START_SECTOR SECTORS
	blkdiscard -z -o $(((base + $1) * 512)) -l $(($2 * 512)) /dev/mapper/fr
	zero_ref "$1" "$2"
}
discard_range() { # START_SECTOR SECTORS: whole rows inside it become zeroes
	local a=$((($1 + row - 1) / row * row)) b=$((($1 + $2) / row * row))
	blkdiscard -o $(((base + $1) * 512)) -l $(($2 * 512)) /dev/mapper/fr
	[ "$a" -ge "$b" ] || zero_ref "$a" $((b - a))
}
zero_range 1 1
zero_range 31 3
zero_range 101 $(((n - 2) * chunk + 7))
zero_range $((span - 9)) 9
discard_range 300 7
discard_range 1001 $((row - 1))
discard_range 2047 $((3 * row + 2))
discard_range $((40 * row)) $((5 * row))
for ((k = 0; k < 50; k++)); do
	discard_range $(((k * 7919 + 1) % (span - 10000))) $(((k % 9 + 1) * 1033))
done
drop_caches
cmp /tmp/ref <(dd if=/dev/mapper/fr bs=1M skip=$((base * 512)) count=$((span * 512)) \
	iflag=skip_bytes,count_bytes,direct status=none) ||
	fail "discards or zero-outs at 512-byte edges changed other bytes or left data"
for ((m = 0; m < n; m++)); do
	assert_eq "$(fanraid_counter fr $m errors)" 0 "member $m errors after discards"
done
assert_contains "$(dmsetup status fr)" "raid6 $n AAAAAA " "health after discards"
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "raidcalc verify after discards and zero-outs"; }
log "54 discards zeroed exactly their whole rows, zero-outs exactly their ranges; $(tail -n 1 /tmp/verify.out)"

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
assert_eq "$(dd if=/dev/mapper/fr bs=1M skip=48 count=8 iflag=direct status=none | sha256sum)" "$trim_sum" \
	"trimmed and rewritten blocks with members 1 and 4 failed"
cmp /tmp/ref <(dd if=/dev/mapper/fr bs=1M skip=$((base * 512)) count=$((span * 512)) \
	iflag=skip_bytes,count_bytes,direct status=none) ||
	fail "zeroed ranges read back wrong with members 1 and 4 failed"
log "with members 1 and 4 failed: every verified block, the trimmed and the zeroed ranges read back exact"

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
