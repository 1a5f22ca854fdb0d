#!/bin/bash
# Sequential RAID6 writes smaller than a stripe, many in flight (32 KiB, iodepth 32, two streams), are gathered into whole stripes: the members read less than 15% of what they write (1.6-2.8% measured), P/Q match raidcalc and fio verifies the data. A stream's windows lie in different gathering domains, whose recent write ends the detector reads across; with the detector off the members read 39% of what they write.
# group: raid6
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio raidcalc || skip "fio or raidcalc not in the image"

n=8 chunk=128 off=2048
stream_mb=48
len=$((2 * stream_mb * 2048))
# Completions 200 us late: the stripes of one batch are still being written
# when the submitter goes to sleep, which is when a window no stream writes
# to would be sent on half full.
mapfile -t devs < <(nullb_create_many "$n" $(((off + len / (n - 2)) / 2048 + 2)) \
	irqmode=2 completion_nsec=200000)
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done
dm_create fr "$table"
dmsetup message fr 0 stats reset

# Two streams, each over its own half; 32 KiB is half a chunk, a twelfth of a stripe.
fio --name=streams --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
	--iodepth=32 --numjobs=2 --rw=write --bs=32k --size=${stream_mb}M \
	--offset_increment=${stream_mb}M --verify=crc32c --verify_fatal=1 \
	--do_verify=0 --output-format=terse --terse-version=3 --group_reporting \
	>/tmp/fio.out || { cat /tmp/fio.out; fail "fio sequential writes failed"; }

read_sectors=$(fanraid_members_sum fr "$n" read_sectors)
write_sectors=$(fanraid_members_sum fr "$n" write_sectors)
[ "$write_sectors" -ge $((len * n / (n - 2))) ] ||
	fail "members wrote $write_sectors sectors, less than data and parity ($((len * n / (n - 2))))"
log "members read $read_sectors sectors while writing $write_sectors" \
	"($((read_sectors * 1000 / write_sectors)) per mille)"
[ $((read_sectors * 1000 / write_sectors)) -lt 150 ] ||
	fail "sequential writes were not gathered into stripes: members read $read_sectors of $write_sectors sectors written"

drop_caches
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q do not match after the streams"; }
fio --name=streams --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
	--iodepth=32 --numjobs=2 --rw=write --bs=32k --size=${stream_mb}M \
	--offset_increment=${stream_mb}M --verify=crc32c --verify_fatal=1 \
	--verify_only=1 --output-format=terse --terse-version=3 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio verify of the streams' data failed"; }
log "$(tail -n1 /tmp/verify.out); fio verified 2 x $stream_mb MiB"

dm_remove fr
nullb_destroy_all
rm -f /tmp/fio.out /tmp/verify.out
