#!/bin/bash
# RAID6 keeps P and Q of pages it wrote, so a second small write to a stripe page reads only its old data: 4 KiB random writes over 1 MiB read the members (their own /sys/block stat) under 2 bytes per byte written, where three reads a write make 3; and the parity kept never outlives the members' own: after whole-stripe writes, a discard zeroes rows, a scrub repair, a member that fails on a real write error and its rebuild, each followed by more writes to the same pages, P and Q match raidcalc (ISA-L) and the device and raidcalc read the reference file.
# group: raid6
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_cmd raidcalc blkdiscard cmp losetup || fail "raidcalc, blkdiscard, cmp or losetup missing"

# 6 members, 4 data, 32 KiB chunks: a row is 128 KiB, so the block layer
# splits discards on row edges. 64 rows: 8 MiB of data.
n=6 chunk=64 rows=64
row=$(((n - 2) * chunk))
len=$((rows * row))
mapfile -t devs < <(loop_members "$n" 4)
table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"
dmesg_mark
dm_create fr "$table"
kept=$(dmesg_since | sed -n 's/.*parity of \([0-9]*\) pages kept.*/\1/p' | tail -n 1)
[ "${kept:-0}" -gt 0 ] || fail "the stripe cache keeps no parity: $(dmesg_since | grep 'stripe cache')"
log "parity of $kept stripe pages kept"

head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none

# pages_write COUNT SEED [SPAN_KIB]: COUNT writes of 4 KiB of new random
# bytes at random pages of the first SPAN_KIB (default 1 MiB) of the
# device, each one direct write, and into /tmp/ref.
pages_write() {
	local k o span=$((${3:-1024} / 4))
	RANDOM=$2
	for ((k = 0; k < $1; k++)); do
		o=$((RANDOM % span))
		head -c 4096 /dev/urandom >/tmp/page
		dd if=/tmp/page of=/tmp/ref bs=4096 seek=$o conv=notrunc status=none
		dd if=/tmp/page of=/dev/mapper/fr bs=4096 seek=$o oflag=direct status=none
	done
}
member_read_sectors() {
	local d sum=0
	for d in "${devs[@]}"; do sum=$((sum + $(blk_stat "$d" 3))); done
	echo $sum
}
# check WHAT [MISSING]: see ref_check in lib.sh.
check() { ref_check fr "$table" "$@"; }

# 1. Locality: 1 MiB holds 64 stripe pages (4 data pages each). The
# first write to each reads data, P and Q; later ones find P and Q kept.
pages_write 48 1
r0=$(member_read_sectors)
pages_write 240 2
r1=$(member_read_sectors)
amp=$(((r1 - r0) * 100 / (240 * 8)))
log "240 writes of 4 KiB: members read $((r1 - r0)) sectors, $amp% of what was written"
[ "$amp" -lt 200 ] || fail "members read ${amp}% of the bytes written: P and Q are not kept (3 reads a write is 300%)"
check "random 4 KiB writes"

# Whole stripes over the same rows take P and Q from their data alone:
# the parity kept of the small writes before is stale now.
head -c $((1 << 20)) /dev/urandom >/tmp/stripes
dd if=/tmp/stripes of=/tmp/ref bs=1M conv=notrunc status=none
dd if=/tmp/stripes of=/dev/mapper/fr bs=$((row * 512)) oflag=direct status=none
pages_write 150 8
check "writes after whole stripes"

# 2. A discard zeroes rows 1..6 whole behind the parity kept of them;
# writes to the same pages must then read the zeroed P and Q.
blkdiscard -o $((row * 512)) -l $((6 * row * 512)) /dev/mapper/fr
dd if=/dev/zero of=/tmp/ref bs=512 seek=$row count=$((6 * row)) conv=notrunc status=none
pages_write 150 3
check "writes after a discard"

# 3. A scrub repair rewrites P and Q from the data: a member byte changed
# behind the target's back (in a data page of row 0) is found and put
# right; writes to the same stripe pages go on from the members' parity.
printf '\xa5' | dd of="${devs[0]}" bs=1 seek=$((4096 + 7)) conv=notrunc status=none
drop_caches
dmsetup message fr 0 repair
fanraid_wait_idle fr
pages_write 150 4
check "writes after a repair"

# 4. Member 2 fails on a real write error (the error target under it),
# writes go on degraded, then it comes back, empty, and is rebuilt.
dmsetup suspend fr
dm_create m2err "0 $(dev_sectors "${devs[2]}") error"
t2=$(echo "$table" | awk -v m=2 '{ $(8 + 2 * m) = "/dev/mapper/m2err"; print }')
dmsetup load fr --table "$t2"
dmsetup resume fr
pages_write 100 5
assert_eq "$(fanraid_health fr 2)" D "member 2 after a write error"
check "writes with member 2 failed" 2
dmsetup suspend fr
head -c $((4 << 20)) /dev/zero | dd of="${devs[2]}" bs=1M oflag=direct status=none 2>/dev/null || true
dmsetup load fr --table "${table/ 0 $n / 2 rebuild 2 $n }"
dmsetup resume fr
dm_remove m2err
pages_write 100 6
fanraid_wait_idle fr
pages_write 100 7
check "writes during and after the rebuild of member 2"

dm_remove fr
rm -f /tmp/ref /tmp/page /tmp/stripes /tmp/verify.out
