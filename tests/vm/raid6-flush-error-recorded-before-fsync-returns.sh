#!/bin/bash
# Exercise a member whose flush fails (dm-flakey error_writes) on an array made by the tool: the fsync succeeds only after the survivors' superblocks record the member as failed, so a crash right after it could never take the member back as in sync.
# group: faults
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || fail "target fanraid 1.3.0 missing"
have_target flakey 1 0 0 || fail "target flakey missing"
have_target delay 1 2 0 || fail "target delay with a flush class missing"
have_cmd fanraid || fail "fanraid missing"

n=5
mapfile -t raw < <(nullb_create_many $n 32 cache_size=8 blocksize=4096)
sz=$(dev_sectors "${raw[0]}")
# The survivors hold every write 1.5 s (dm-delay's write class, not its
# flush class): a superblock update that the fsync did not wait for is
# still in flight when the fsync returns, and examine shows the old mask.
for ((i = 0; i < n; i++)); do
	if [ $i = 3 ]; then
		dm_create "f$i" "0 $sz flakey ${raw[i]} 0 3600 0"
	else
		dm_create "f$i" "0 $sz delay ${raw[i]} 0 0 ${raw[i]} 0 1500 ${raw[i]} 0 0"
	fi
	dev[i]=/dev/mapper/f$i
done
fanraid create ff --level 6 --chunk 64K "${dev[@]}"
fanraid_wait_idle ff 150
len=$(dev_sectors /dev/mapper/ff)
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/ff bs=1M oflag=direct status=none
sleep 1	# past safe_mode_delay: clean again, no update pending

mask() { fanraid examine "$1" | sed -n 's/.*failed mask \(0x[0-9a-f]*\).*/\1/p'; }
assert_eq "$(mask "${dev[0]}")" 0x0 "failed mask before the fault"

# Member 3's flushes (and writes) fail from now on; reads still work.
dmsetup load f3 --table "0 $sz flakey ${raw[3]} 0 0 3600 1 error_writes"
dmsetup suspend f3 && dmsetup resume f3
# Only a flush reaches the members: no data written since the last one.
dd if=/dev/null of=/dev/mapper/ff conv=fsync status=none ||
	fail "the fsync failed although four of five members flushed"
# Right after the fsync returned, with nothing else in between.
for i in 0 1 2 4; do
	assert_eq "$(mask "${dev[i]}")" 0x8 "failed mask on survivor $i when the fsync returned"
done
assert_eq "$(fanraid_health ff 3)" D "member 3 after its flush failed"
drop_caches
cmp /tmp/ref /dev/mapper/ff || fail "the array returned different data"

fanraid stop ff
for ((i = 0; i < n; i++)); do dm_remove "f$i"; done
nullb_destroy_all
