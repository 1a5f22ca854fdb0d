#!/bin/bash
# Members with 4 KiB sectors: RAID6 over 4Kn null_blk members takes 4096-byte logical blocks, refuses 512-byte direct I/O and reads back every byte fio verify wrote, also with a member failed; RAID6 over 512e scsi_debug members (512-byte logical, 4 KiB physical, each its own store) keeps 512-byte I/O and passes the 4 KiB physical block on, so mkfs aligns; parity matches raidcalc on both.
# group: large
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_cmd fio raidcalc || fail "fio or raidcalc not in the image"

n=6 chunk=256

# fill_and_check LABEL BS: fio verify over the whole array, raidcalc
# verify of the members, then a verified read with member 2 failed.
fill_and_check() {
	fio --name="$1" --filename=/dev/mapper/fr --direct=1 --ioengine=libaio --iodepth=8 \
		--rw=randwrite --bs="$2" --verify=crc32c --verify_fatal=1 --do_verify=1 >/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "$1: fio verify failed"; }
	raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
		{ cat /tmp/verify.out; fail "$1: P/Q mismatch"; }
	dmsetup message fr 0 fail 2
	drop_caches
	fio --name="$1" --filename=/dev/mapper/fr --direct=1 --ioengine=libaio --iodepth=8 \
		--rw=randread --bs="$2" --verify=crc32c --verify_fatal=1 --verify_only=1 >/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "$1: degraded read found other data"; }
}

# 4Kn: the members' logical block is 4 KiB.
mapfile -t d < <(nullb_create_many $n 8 blocksize=4096)
sz=$(dev_sectors "${d[0]}")
dm_create fr "0 $((sz / chunk * chunk * (n - 2))) fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]}")"
assert_eq "$(blockdev --getss /dev/mapper/fr)" 4096 "4Kn: the array's logical block"
if dd if=/dev/zero of=/dev/mapper/fr bs=512 count=1 oflag=direct status=none 2>/dev/null; then
	fail "4Kn: a 512-byte direct write was accepted"
fi
fill_and_check 4kn 4k
dm_remove fr
nullb_destroy_all
log "4Kn: 4096-byte logical blocks, 512-byte I/O refused, data and parity exact, degraded exact"

# 512e: scsi_debug, one host and store per member (a shared store would
# make every member the same disk).
modprobe sd_mod || fail "sd_mod will not load"
modprobe scsi_debug add_host=$n per_host_store=1 num_tgts=1 dev_size_mb=8 \
	sector_size=512 physblk_exp=3 || fail "scsi_debug will not load"
on_exit 'modprobe -r scsi_debug 2>/dev/null'
for ((i = 0; i < 50; i++)); do
	mapfile -t d < <(for b in /sys/block/sd*; do
		[ "$(cat "$b/device/model" 2>/dev/null | tr -d ' ')" = scsi_debug ] && echo "/dev/${b##*/}"
	done)
	[ "${#d[@]}" = $n ] && [ -b "${d[n - 1]}" ] && break
	sleep 0.2
done
[ "${#d[@]}" = $n ] || fail "scsi_debug gave ${#d[@]} disks, not $n"
assert_eq "$(blockdev --getpbsz "${d[0]}")" 4096 "512e member: physical block"
sz=$(dev_sectors "${d[0]}")
dm_create fr "0 $((sz / chunk * chunk * (n - 2))) fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]}")"
assert_eq "$(blockdev --getss /dev/mapper/fr)" 512 "512e: the array's logical block"
assert_eq "$(blockdev --getpbsz /dev/mapper/fr)" 4096 "512e: the array's physical block"
dd if=/dev/urandom of=/dev/mapper/fr bs=512 count=1 seek=7 oflag=direct status=none ||
	fail "512e: a 512-byte direct write was refused"
fill_and_check 512e 4k
dm_remove fr
log "512e: 512-byte I/O kept, 4 KiB physical block passed on, data and parity exact, degraded exact"
