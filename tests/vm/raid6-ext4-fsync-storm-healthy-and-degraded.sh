#!/bin/bash
# Exercise an fsync storm through a filesystem on RAID6: ext4 with four fio jobs (psync and io_uring) writing files in 512 B to 16 KiB pieces with an fsync after each (journal commits: preflushes and FUA writes on parity rows), verified, then again with a member failed; after a remount every file verifies cold, e2fsck -fn is clean, and the flushes reached every surviving member.
# group: stress
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_cmd fio mkfs.ext4 e2fsck || fail "fio, mkfs.ext4 or e2fsck not in the image"
have_fs ext4 || fail "ext4 not available"

# Members with a volatile cache, so the block layer passes flushes and FUA
# down and fanraid has to order them behind its parity writes.
n=5 chunk=64
mapfile -t devs < <(nullb_create_many "$n" 40 cache_size=8)
len=$(((n - 2) * $(dev_sectors "${devs[0]}") / chunk * chunk))
dm_create fr "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=1,lazy_journal_init=1 /dev/mapper/fr
mkdir -p /mnt/fr
mount -o noinit_itable /dev/mapper/fr /mnt/fr

# storm NAME SEED: the job file of one storm, four jobs of 1 MiB files.
storm() {
	cat <<JOB
[global]
directory=/mnt/fr
rw=randwrite
bsrange=512-16k
fsync=1
verify=crc32c
verify_fatal=1
randseed=$2
size=1M

[$1-psync]
ioengine=psync
numjobs=3

[$1-io_uring]
ioengine=io_uring
iodepth=4
JOB
}
storm healthy 77 >/tmp/healthy.fio
storm degraded 78 >/tmp/degraded.fio
flushes_before=$(fanraid_counter fr 0 flushes)

fio /tmp/healthy.fio --do_verify=1 --output=/tmp/fio.out ||
	{ tail -n 40 /tmp/fio.out; fail "fsync storm on ext4: fio verify failed"; }
log "healthy: 4 jobs, an fsync after every write, verified"

# One member out: every commit now has a row with parity or data missing.
dmsetup message fr 0 fail 2
fio /tmp/degraded.fio --do_verify=1 --output=/tmp/fio.out ||
	{ tail -n 40 /tmp/fio.out; fail "fsync storm on ext4 with member 2 failed: fio verify failed"; }
log "member 2 failed: 4 more jobs, an fsync after every write, verified"

umount /mnt/fr
e2fsck -fn /dev/mapper/fr >/tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "e2fsck after the fsync storms"; }
mount /dev/mapper/fr /mnt/fr
for f in healthy degraded; do
	fio /tmp/$f.fio --verify_only=1 --output=/tmp/fio-cold.out ||
		{ tail -n 40 /tmp/fio-cold.out; fail "$f storm: files do not verify after a remount"; }
done
umount /mnt/fr
for ((m = 0; m < n; m++)); do
	[ "$m" = 2 ] && continue
	f=$(fanraid_counter fr $m flushes)
	[ "$m" != 0 ] || f=$((f - flushes_before))
	[ "$f" -ge 100 ] || fail "member $m saw $f flushes in two fsync storms"
	assert_eq "$(fanraid_counter fr $m errors)" 0 "member $m errors"
done
log "e2fsck clean, every file verifies after a remount; member 0 got $(($(fanraid_counter fr 0 flushes) - flushes_before)) flushes"
dm_remove fr
