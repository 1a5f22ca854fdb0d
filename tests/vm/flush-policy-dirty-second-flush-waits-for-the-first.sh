#!/bin/bash
# Exercise flush_policy dirty with a flush in flight: a member behind dm-delay holds each flush 3 s; after one write, two fsyncs of the array half a second apart must both wait for a flush of that member, and the member's own /sys/block stat must count both flushes.
# group: main
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_target delay 1 2 0 || fail "target delay with a flush class missing"

delay_ms=3000
# Volatile write caches, or the block layer strips the flushes.
mapfile -t d < <(nullb_create_many 2 16 cache_size=8 blocksize=4096)
sz=$(dev_sectors "${d[0]}")
dm_create slow "0 $sz delay ${d[0]} 0 0 ${d[0]} 0 0 ${d[0]} 0 $delay_ms"
dm_create fr "0 $((2 * sz)) fanraid raid0 128 2 flush_policy dirty 2 /dev/mapper/slow 0 ${d[1]} 0"
nullb_flushes() { awk '{ print $16 }' "/sys/block/${d[0]##*/}/stat"; }

# now_ms: uptime in ms (10 ms steps); busybox date has no %N.
now_ms() {
	local up
	read -r up _ </proc/uptime
	echo $((${up%.*} * 1000 + 10#${up#*.} * 10))
}

# fsync_ms: how long one fsync of the array takes, in ms.
fsync_ms() {
	local t0
	t0=$(now_ms)
	dd if=/dev/null of=/dev/mapper/fr conv=fsync status=none || echo "fsync failed" >>/tmp/fsync.err
	echo $(($(now_ms) - t0))
}

# A write to member 0 (chunk 0), then two fsyncs racing.
head -c 4096 /dev/urandom | dd of=/dev/mapper/fr bs=4096 oflag=direct status=none
before=$(nullb_flushes)
: >/tmp/fsync.err
fsync_ms >/tmp/first &
sleep 0.5
second=$(fsync_ms)
wait
first=$(cat /tmp/first)
[ -s /tmp/fsync.err ] && fail "an fsync failed"
log "first fsync ${first} ms, second ${second} ms (member flush delay ${delay_ms} ms)"
[ "$first" -ge $((delay_ms - 200)) ] || fail "the first fsync did not wait for the member's flush: $first ms"
# The second began 0.5 s into the first flush: it must wait for a flush
# too, at least until the first one completes.
[ "$second" -ge $((delay_ms - 700)) ] ||
	fail "the second fsync returned in $second ms, before the flush in flight completed"
after=$(nullb_flushes)
[ $((after - before)) -ge 2 ] ||
	fail "member 0 saw $((after - before)) flushes for two fsyncs (its /sys/block stat)"

# Idle member, no write since: the next fsync is elided and fast.
third=$(fsync_ms)
[ "$third" -lt $((delay_ms / 2)) ] || fail "an fsync with nothing written waited $third ms"

dm_remove fr
dm_remove slow
nullb_destroy_all
