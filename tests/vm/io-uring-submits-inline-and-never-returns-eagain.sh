#!/bin/bash
# Exercise io_uring on fanraid: the target takes REQ_NOWAIT bios, so io_uring submits RAID0 and RAID6 reads and writes from the reader's own task and starts no io-wq worker, as on dm-stripe (dm-delay, which does not take them, is the control that starts workers); on members too busy to take a request at once (queue depth 1), reads and writes of mixed sizes split at chunk ends never hand the reader -EAGAIN, as they do on dm-stripe, fio verify passes, and no member counts an error, fails or has a read repaired from parity.
# group: stress
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_target delay || fail "target delay missing"
have_cmd fio || fail "fio not in the image"

# io_wq_workers: io-wq worker threads (iou-wrk-<pid>) alive in the system.
# A ring starts one only for a request it could not issue from the
# submitting task: one whose device refuses REQ_NOWAIT, or one that came
# back with -EAGAIN.
io_wq_workers() {
	cat /proc/[0-9]*/task/[0-9]*/comm 2>/dev/null | grep -c '^iou-wrk-' || true
}

# uring_run DEV RW SECONDS [fio options...]: fio on io_uring at queue depth
# 16 over the first 16 MiB of DEV for SECONDS; prints the most io-wq
# workers seen alive while it ran. Fails on any fio error.
uring_run() {
	local dev=$1 rw=$2 secs=$3 pid most=0 now
	shift 3
	fio --name=uring --filename="$dev" --ioengine=io_uring --direct=1 \
		--rw="$rw" --bs=4k --iodepth=16 --size=16M --time_based \
		--runtime="$secs" --randrepeat=0 --output=/tmp/uring.out "$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		now=$(io_wq_workers)
		[ "$now" -gt "$most" ] && most=$now
		sleep 0.2
	done
	wait "$pid" || { cat /tmp/uring.out >&2; fail "fio io_uring $rw on $dev failed"; }
	grep -q "err= 0" /tmp/uring.out || { cat /tmp/uring.out >&2; fail "fio io_uring $rw on $dev: errors"; }
	echo "$most"
}

# assert_no_fault NAME N: every member of NAME in sync, with no error and
# (RAID6) no read repaired from parity.
assert_no_fault() {
	local name=$1 n=$2 i
	for ((i = 0; i < n; i++)); do
		assert_eq "$(fanraid_counter "$name" $i errors)" 0 "$name member $i errors"
		assert_eq "$(fanraid_health "$name" $i)" A "$name member $i health"
	done
	if [ "$(dmsetup status "$name" | awk '{ print $4 }')" = raid6 ]; then
		for ((i = 0; i < n; i++)); do
			assert_eq "$(fanraid_corrected "$name" $i)" 0 "$name member $i reads repaired"
		done
	fi
}

n=4 chunk=128
# Part 1: members that always have room. Which layers io_uring submits to
# from the task itself.
mapfile -t devs < <(nullb_create_many "$n" 32)
msz=$(dev_sectors "${devs[0]}")
dm_create dly "0 $msz delay ${devs[0]} 0 0"
dm_create stripe "0 $((n * msz)) striped $n $chunk$(member_pairs "${devs[@]}")"
dm_create r0 "0 $((n * msz)) fanraid raid0 $chunk 0 $n$(member_pairs "${devs[@]}")"

control=$(uring_run /dev/mapper/dly randread 2)
log "io-wq workers: dm-delay $control"
[ "$control" -gt 0 ] ||
	fail "dm-delay takes no REQ_NOWAIT, yet io_uring started no worker: the probe sees nothing"
for dev in stripe r0; do
	for rw in randread randwrite; do
		workers=$(uring_run /dev/mapper/$dev $rw 2)
		log "io-wq workers: $dev $rw $workers"
		assert_eq "$workers" 0 "io-wq workers for $rw on $dev"
	done
done
assert_no_fault r0 $n
dm_remove r0
dm_remove stripe
dm_remove dly

# RAID6 with the same members, parity in sync (zeroed members: the parity
# of zeroes is zero), no superblock: writes read-modify-write through the
# gatherer, reads go straight to members.
dm_create r6 "0 $(((n - 2) * msz)) fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"
for rw in randread randwrite; do
	workers=$(uring_run /dev/mapper/r6 $rw 2)
	log "io-wq workers: r6 $rw $workers"
	assert_eq "$workers" 0 "io-wq workers for $rw on fanraid raid6"
done
assert_no_fault r6 $n
dm_remove r6
nullb_destroy_all

# Part 2: members that take one request at a time and hold it 100 us,
# under reads and writes of mixed sizes, many of them split at chunk ends.
# A REQ_NOWAIT request that finds such a member busy ends BLK_STS_AGAIN;
# io_uring issues it again only when it ends in the submitting task, and
# the DM core ends a split bio from the last piece's completion, in the
# member's interrupt: the reader gets -EAGAIN. dm-stripe is the control:
# its readers do get it here. fanraid takes REQ_NOWAIT off what it sends
# the members, so its readers never do, and no member counts a fault.
mapfile -t devs < <(nullb_create_many "$n" 32 hw_queue_depth=1 submit_queues=1 \
	irqmode=2 completion_nsec=100000)
msz=$(dev_sectors "${devs[0]}")
busy_run() {
	fio --name=busy --filename="$1" --ioengine=io_uring --direct=1 \
		--rw=randrw --bssplit=4k/50:64k/30:256k/20 --iodepth=32 --size=12M \
		--verify=crc32c --verify_fatal=1 --do_verify=1 --randrepeat=0 \
		--output=/tmp/busy.out
}
dm_create stripe "0 $((n * msz)) striped $n $chunk$(member_pairs "${devs[@]}")"
if busy_run /dev/mapper/stripe; then
	fail "dm-stripe: no -EAGAIN reached fio: the busy members never pushed back"
fi
grep -q "Resource temporarily unavailable" /tmp/busy.out ||
	{ cat /tmp/busy.out >&2; fail "dm-stripe: fio failed, but not with -EAGAIN"; }
log "control: dm-stripe's reader got -EAGAIN: $(grep -m1 'io_u error' /tmp/busy.out)"
dm_remove stripe
for level in raid0 raid6; do
	if [ $level = raid0 ]; then
		dm_create busy "0 $((n * msz)) fanraid raid0 $chunk 0 $n$(member_pairs "${devs[@]}")"
	else
		dm_create busy "0 $(((n - 2) * msz)) fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"
	fi
	busy_run /dev/mapper/busy ||
		{ tail -n 40 /tmp/busy.out >&2; fail "$level on busy members: fio io_uring failed"; }
	grep -q "err= 0" /tmp/busy.out || { cat /tmp/busy.out >&2; fail "$level: fio errors"; }
	log "$level on busy members: $(grep -E 'issued rwts' /tmp/busy.out)"
	assert_no_fault busy $n
	dm_remove busy
done
