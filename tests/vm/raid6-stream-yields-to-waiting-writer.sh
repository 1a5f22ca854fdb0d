#!/bin/bash
# A RAID6 stream (1 MiB writes, iodepth 32) keeps dozens of stripe windows at the members alone and beside 4 KiB random writes that wait for nothing (no flush), but one while a 4 KiB writer that waits on each write (fdatasync, queue depth 1) writes beside it: the median of the stripe cache's use over 2 s, alone and beside; the waiting writer's data verifies, P/Q match raidcalc. Members serve requests in order, so every window the stream keeps there is time the waiting writer's read-modify-write queues behind (bench sync-beside-stream-raid6 measures that latency).
# group: raid6
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio raidcalc || skip "fio or raidcalc not in the image"

n=8 chunk=256 off=2048
len=$((96 * 2048))
window_kib=$((n * 128))	# one 128 KiB window on every member
# Completions 20 ms late, so the stream's windows stay at the members a
# while: its member writes are sync writes, which the members' writeback
# throttling leaves alone, and at 2 ms they came back as fast as two vCPUs
# made them. Late, not capped in bandwidth: null_blk stops and restarts a
# capped queue in bursts, and random writers then look like one at queue
# depth 1.
mapfile -t devs < <(nullb_create_many "$n" $(((off + len / (n - 2)) / 2048 + 2)) \
	irqmode=2 completion_nsec=20000000)
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done
dm_create fr "$table"

# stream: 1 MiB sequential writes 32 deep over the first 64 MiB, in the
# background until stream_stop; waits until the cache holds its windows.
stream() {
	local i
	fio --name=stream --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
		--iodepth=32 --rw=write --bs=1m --size=64M --time_based --runtime=120 \
		--output-format=terse --terse-version=3 >/tmp/stream.out 2>&1 &
	spid=$!
	for ((i = 0; i < 200; i++)); do
		[ "$(fanraid_total fr stripe_cache_kib)" -gt 0 ] && return
		sleep 0.1
	done
	fail "the stream wrote nothing in 20 s"
}

# stream_stop: end it (fio stops on SIGINT and reports), check it saw no error.
stream_stop() {
	kill -INT "$spid"
	wait "$spid" || true
	[ "$(awk -F';' '$1 == 3 { print $5; exit }' /tmp/stream.out)" = 0 ] ||
		{ cat /tmp/stream.out; fail "the stream failed"; }
}

# fio's terse (version 3) write KiB and KiB/s
write_kib() { awk -F';' '$1 == 3 { print $47; exit }' "$1"; }
write_kibs() { awk -F';' '$1 == 3 { print $48; exit }' "$1"; }

# cache_median: the median of 21 samples of the stripe cache's use (KiB)
# 0.1 s apart. A median, not the peak: the guest's CPUs are emulated, and a
# waiting writer starved of them for 100 ms lets the stream take its
# windows back for that moment.
cache_median() {
	local i
	for ((i = 0; i < 21; i++)); do
		fanraid_total fr stripe_cache_kib
		sleep 0.1
	done | sort -n | sed -n 11p
}

stream
sleep 1
alone=$(cache_median)
stream_stop
log "stream alone: stripe cache holds $alone KiB (median) ($((alone / window_kib)) windows)," \
	"$(write_kibs /tmp/stream.out) KiB/s"
[ "$alone" -gt $((4 * window_kib)) ] ||
	fail "the stream alone held only $alone KiB of the cache: nothing for the waiting writer to change"

# Small writes alone are no sign of a writer that waits: 4 KiB random
# writes 4 x 8 deep with no flush leave the stream its windows.
stream
fio --name=busy --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
	--iodepth=8 --numjobs=4 --group_reporting --rw=randwrite --bs=4k \
	--offset=64M --size=4M --time_based --runtime=4 \
	--output-format=terse --terse-version=3 >/tmp/busy.out 2>&1 &
bpid=$!
sleep 1
busy=$(cache_median)
wait "$bpid" || { cat /tmp/busy.out; fail "the small writer that does not wait failed"; }
stream_stop
log "stream beside a writer that does not wait: stripe cache holds $busy KiB (median)" \
	"($((busy / window_kib)) windows), the writer wrote $(($(write_kib /tmp/busy.out) / 4)) blocks"
[ "$busy" -gt $((4 * window_kib)) ] ||
	fail "the stream held only $busy KiB beside 4 KiB writes that wait for nothing: it yielded to them"

# The waiter: 1024 writes of 4 KiB at random, each followed by fdatasync,
# then fio reads them all back and checks them.
stream
fio --name=waiter --filename=/dev/mapper/fr --direct=1 --ioengine=psync \
	--rw=randwrite --bs=4k --offset=64M --size=4M --fdatasync=1 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 \
	--output-format=terse --terse-version=3 >/tmp/waiter.out 2>&1 &
wpid=$!
sleep 2
beside=$(cache_median)
wait "$wpid" || { cat /tmp/waiter.out; fail "the waiting writer failed or did not verify"; }
stream_stop
log "stream beside a waiting writer: stripe cache holds $beside KiB (median) ($((beside / window_kib)) windows)," \
	"$(write_kibs /tmp/stream.out) KiB/s; the waiter wrote $(($(write_kib /tmp/waiter.out) / 4)) blocks"
# One stream window and the waiter's one small operation, with room for a
# stream window that was not recognised as one.
[ "$beside" -le $((2 * window_kib)) ] ||
	fail "the stream held $beside KiB of windows beside a waiting writer, more than 1 window ($window_kib KiB) and slack"

drop_caches
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q do not match after the stream and the waiting writer"; }
log "$(tail -n1 /tmp/verify.out)"

dm_remove fr
nullb_destroy_all
rm -f /tmp/stream.out /tmp/busy.out /tmp/waiter.out /tmp/verify.out
