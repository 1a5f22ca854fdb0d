#!/bin/bash
# Exercise the fanraid lifecycle under load: suspend/resume and table reloads keep fio's verified data intact, remove is refused while the device is open, and rmmod works once it is gone.
# group: main
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio || skip "fio missing"

n=4
mapfile -t d < <(nullb_create_many $n 64)
len=$(($(dev_sectors "${d[0]}") * n))
pairs=$(member_pairs "${d[@]}")
table="0 $len fanraid raid0 128 0 $n$pairs"
dm_create fr "$table"

state() { dmsetup info -c --noheadings -o attr fr; }

# wait_open: until some process holds the device open (fio starts slowly
# under emulation).
wait_open() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(dmsetup info -c --noheadings -o open fr)" -gt 0 ] && return
		sleep 0.1
	done
	fail "nothing opened the device"
}

# Writer with verification, running through everything below. The rate
# cap keeps it writing (about 12 s) however fast the machine is.
fio --name=life --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
	--rw=randwrite --bsrange=4k-64k --iodepth=16 --size=96M --rate=8m \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --randseed=3 \
	--output=/tmp/fio-life.out &
fio_pid=$!
on_exit "kill $fio_pid 2>/dev/null"
wait_open
sleep 1

# Suspend: in-flight I/O drains, new I/O waits; nothing reaches the members.
dmsetup suspend fr
assert_contains "$(state)" "s" "attributes of a suspended device"
w1=$(fanraid_counter fr 0 writes)
sleep 2
w2=$(fanraid_counter fr 0 writes)
assert_eq "$w2" "$w1" "member 0 writes while suspended"
dmsetup resume fr
sleep 2
w3=$(fanraid_counter fr 0 writes)
[ "$w3" -gt "$w2" ] || fail "no writes after resume ($w2 -> $w3)"
log "suspend held member 0 at $w1 writes; after resume $w3"

# Reload: same geometry, new feature; the inactive table swaps in at resume.
dmsetup reload fr --table "0 $len fanraid raid0 128 2 flush_policy drop $n$pairs"
assert_contains "$(dmsetup info fr)" "Tables present:    LIVE & INACTIVE" "info after reload"
dmsetup resume fr
assert_contains "$(dmsetup table fr)" "raid0 128 2 flush_policy drop $n" "table after reload"
dmsetup reload fr --table "$table"
dmsetup resume fr
assert_contains "$(dmsetup table fr)" "raid0 128 0 $n" "table after reloading the original"

wait $fio_pid || { cat /tmp/fio-life.out; fail "fio verify failed across suspend and reloads"; }
log "fio verified 96 MiB written across a suspend and two reloads"

# Remove with I/O in flight: refused while fio holds the device open.
fio --name=busy --filename=/dev/mapper/fr --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=64k --iodepth=16 --time_based --runtime=120 \
	--output=/tmp/fio-busy.out &
busy_pid=$!
on_exit "kill $busy_pid 2>/dev/null"
wait_open
# fio opens the device once to size it and closes it again before its job
# opens it for good: only writes arriving show the job's open.
w=$(fanraid_counter fr 0 writes)
for ((i = 0; i < 600; i++)); do
	[ "$(fanraid_counter fr 0 writes)" -gt "$w" ] && break
	sleep 0.1
done
out=$(dmsetup remove fr 2>&1) && fail "dmsetup remove of an open device succeeded"
assert_contains "$out" "busy" "dmsetup remove of an open device"
log "remove while open refused: $out"
expect_fail rmmod dm_fanraid
kill $busy_pid
wait $busy_pid || true
dmsetup info fr >/dev/null 2>&1 && dm_remove fr
expect_fail dmsetup info fr

rmmod dm_fanraid
[ ! -d /sys/module/dm_fanraid ] || fail "dm_fanraid still loaded after rmmod"
modprobe dm-fanraid
have_target fanraid 1 0 0 || fail "dm-fanraid did not load again"
