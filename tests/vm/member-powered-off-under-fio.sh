#!/bin/bash
# Exercise a member that vanishes mid-I/O: a null_blk member is powered off while fio reads and writes the array. RAID6: fio verify passes, only that member fails; RAID0: the I/O to it fails with EIO, nothing hangs; both arrays then remove cleanly.
# group: faults
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd fio || fail "fio not in the image"

chunk=128
fio_common=(--filename=/dev/mapper/fr --direct=1 --ioengine=libaio --iodepth=16
	--bs=4k --size=12M --randseed=9 --verify=crc32c --verify_fatal=1)

# power_off NAME: the member disappears, as a pulled drive does.
power_off() { echo 0 >"$NULLB_CFS/$1/power"; }

# RAID6: written with a verify pattern, then read-verified while member 2
# goes away, then written and verified again, degraded.
n=5
mapfile -t d < <(nullb_create_many $n 8)
dm_create fr "0 $((12 * 2048)) fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]}")"
fio --name=fill "${fio_common[@]}" --rw=write --do_verify=0 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "raid6: fio could not write the pattern"; }
fio --name=check "${fio_common[@]}" --rw=read --verify_only=1 --numjobs=1 >/tmp/fio.out 2>&1 &
fiopid=$!
sleep 1
power_off "${d[2]##*/}"
wait $fiopid || { cat /tmp/fio.out; fail "raid6: fio verify failed after a member vanished"; }
assert_eq "$(fanraid_health fr 2)" D "raid6: the vanished member"
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" AADAA "raid6: health"
fio --name=again "${fio_common[@]}" --rw=randwrite --do_verify=1 --randseed=10 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "raid6: degraded write and verify failed"; }
dm_remove fr || fail "raid6: remove after a member vanished"
log "raid6: member 2 powered off under fio: verified, member failed, removed"
nullb_destroy_all

# RAID0: the same pull under a read; the reads of that member fail, the
# others complete, and no bio is left behind.
n=4
mapfile -t d < <(nullb_create_many $n 4)
dm_create fr "0 $((12 * 2048)) fanraid raid0 $chunk 0 $n$(member_pairs "${d[@]}")"
fio --name=fill "${fio_common[@]}" --rw=write --do_verify=0 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "raid0: fio could not write the pattern"; }
fio --name=check "${fio_common[@]}" --rw=randread --verify_only=1 --verify_fatal=0 \
	--continue_on_error=all --loops=4 >/tmp/fio.out 2>&1 &
fiopid=$!
sleep 1
power_off "${d[1]##*/}"
wait $fiopid
grep -q "err=\|Input/output error\|verify" /tmp/fio.out || log "raid0: fio saw no error (read finished before the pull?)"
[ "$(fanraid_counter fr 1 errors)" -gt 0 ] || fail "raid0: no error counted on the pulled member: $(dmsetup status fr)"
for i in 0 2 3; do
	assert_eq "$(fanraid_counter fr $i errors)" 0 "raid0: errors on member $i"
done
errors=$(fanraid_counter fr 1 errors)
dm_remove fr || fail "raid0: remove after a member vanished"
log "raid0: member 1 powered off under fio: $errors errors on it, removed"
nullb_destroy_all
