#!/bin/bash
# Exercise the degraded RAID6 write path that once hung in make bench (write-direct-raid6-fail1, N=16): sequential 1 MiB O_DIRECT writes at queue depth 32 with one and two members failed, in a loop, also with most of the guest's memory taken and with members capped at 25 MiB/s as make bench runs them, under hung-task detection; every run ends, fio verify passes and no task blocks.
# group: stress
# timeout: 600
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd fio || fail "fio not in the image"

# A task blocked for 20 s is reported (and is a failure: the runner fails
# any scenario whose kernel log shows a warning or a call trace).
echo 20 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null ||
	fail "no hung-task detector (CONFIG_DETECT_HUNG_TASK)"
echo 1 >/proc/sys/kernel/hung_task_warnings 2>/dev/null || true

n=16 chunk=1024
mapfile -t d < <(nullb_create_many $n 12)
sz=$(dev_sectors "${d[0]}")
len=$((sz / chunk * chunk * (n - 2)))
table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]}")"
rounds=${ROUNDS:-3}

# Requests each member holds (reads, writes): a stalled read worker waits
# in fanraid_r6_io() for its member reads, so this says which member
# stopped answering.
members_inflight() {
	local b
	for b in /sys/block/nullb*; do
		echo "${b##*/}: $(cat "$b/inflight")"
	done | tr '\n' ' '
	echo
}

# run LABEL: one timed fio write-and-verify; a watchdog reports a stall.
run() {
	local t0=$SECONDS
	timeout 120 fio --name="$1" --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
		--iodepth=32 --rw=write --bs=1M --size=$((len / 2048))M --verify=crc32c \
		--verify_fatal=1 --do_verify=1 >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; members_inflight; echo w >/proc/sysrq-trigger; fail "$1: fio failed or stalled ($((SECONDS - t0)) s)"; }
	log "$1: $((SECONDS - t0)) s"
}

for ((r = 1; r <= rounds; r++)); do
	for failed in 1 2; do
		dm_create fr "$table"
		dmsetup message fr 0 fail 0
		[ $failed = 2 ] && dmsetup message fr 0 fail 1
		run "round $r, $failed failed"
		dm_remove fr
	done
done

# The same with most of the free memory held in tmpfs: bio and stripe
# allocations then come from their reserves.
free_kb=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
hog_mb=$((free_kb / 1024 - 160))
mkdir -p /tmp/hog && mount -t tmpfs -o size=$((hog_mb + 16))M hog /tmp/hog
dd if=/dev/zero of=/tmp/hog/fill bs=1M count=$hog_mb status=none 2>/dev/null || true
log "holding $(du -m /tmp/hog/fill | cut -f1) MiB of $((free_kb / 1024)) MiB available"
dm_create fr "$table"
dmsetup message fr 0 fail 0
run "under memory pressure, 1 failed"
dm_remove fr
rm -f /tmp/hog/fill
umount /tmp/hog
nullb_destroy_all

# The entry as make bench runs it: members capped at 25 MiB/s (null_blk
# mbps=26, bench/lib/bench.sh members_up) with completions from a 2 ms
# timer, two submit queues of 64, 4 KiB blocks and requests of at most
# 512 KiB, so requests queue behind the cap as on slow drives. They come
# from null_blk_fixed, as the bench's do: stock null_blk's throttle can
# stop a queue for good (nullb-throttle-stall-is-below-fanraid).
modinfo null_blk_fixed >/dev/null 2>&1 || fail "null_blk_fixed missing (tests/vm/nullb/build.sh)"
modprobe -r null_blk && modprobe null_blk_fixed nr_devices=0 || fail "cannot load null_blk_fixed"
trap 'nullb_destroy_all; modprobe -r null_blk_fixed; modprobe null_blk nr_devices=0; true' EXIT
mapfile -t d < <(nullb_create_many $n 40 blocksize=4096 max_sectors=1024 irqmode=2 \
	completion_nsec=2000000 hw_queue_depth=64 submit_queues=2 mbps=26)
sz=$(dev_sectors "${d[0]}")
len=$((sz / chunk * chunk * (n - 2)))
table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]}")"
for ((r = 1; r <= rounds - 1; r++)); do
	dm_create fr "$table"
	dmsetup message fr 0 fail 0
	run "capped members, round $r, 1 failed"
	dm_remove fr
done
nullb_destroy_all
dmesg | grep -q "blocked for more than" && fail "a task blocked: $(dmesg | grep -m1 'blocked for more than')"
true
