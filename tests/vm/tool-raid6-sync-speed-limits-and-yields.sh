#!/bin/bash
# fanraid set sync-speed-max caps a running sync pass per member (measured by the pass's checkpoint and by member 0's own /sys/block stat) and a new cap takes hold without restarting it; sync-speed-min is the rate the pass drops to while fio reads the array, and without I/O it runs well above it; both persist in the superblocks across stop and assemble; bad rates and raid0 exit 2 touching nothing.
# group: tool
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 6 0 || skip "target fanraid 1.6.0 missing"
have_cmd fanraid fio jq || skip "fanraid, fio or jq missing"

# 4 GiB members that hold no memory until written: --assume-clean writes
# nothing, and a check pass only reads, so no pass ends while measured.
mapfile -t devs < <(nullb_create_many 6 4096)
on_exit 'fanraid stop ss >/dev/null 2>&1 || true; fanraid stop s0 >/dev/null 2>&1 || true'

# exit_code WANT CMD...: CMD must exit with status WANT.
exit_code() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	assert_eq "$rc" "$want" "exit status of '$*'"
}

fanraid create ss --level 6 --chunk 64K --assume-clean "${devs[@]:0:4}"
fanraid_wait_idle ss
table0=$(dmsetup table ss)

# No unit, a fraction, past a u32 of KiB/s, zero, twice: refused before
# anything changes.
for bad in 2048 1.5K 4T 0K; do
	exit_code 2 fanraid set ss sync-speed-max "$bad"
done
exit_code 2 fanraid set ss sync-speed-min 1M sync-speed-min 2M
fanraid create s0 --level 0 --chunk 64K "${devs[@]:4:2}"
exit_code 2 fanraid set s0 sync-speed-max 1M
fanraid stop s0
assert_eq "$(dmsetup table ss)" "$table0" "table after refused sets"

# sync_cp: member sectors the pass has done (sync_current counts the two
# data members' worth).
sync_cp() {
	fanraid status --json ss | jq '.arrays[0].sync_current / 2'
}

# pass_rate SECONDS: KiB/s per member over SECONDS, as the pass's checkpoint
# moved (pass_kib) and as member 0 read (member_kib, its own counters).
pass_rate() {
	local c0 c1 r0 r1 t0 t1
	# busybox date has no %N; uptime counts hundredths of a second
	c0=$(sync_cp)
	r0=$(blk_stat "${devs[0]}" 3)
	t0=$(cut -d' ' -f1 /proc/uptime)
	sleep "$1"
	c1=$(sync_cp)
	r1=$(blk_stat "${devs[0]}" 3)
	t1=$(cut -d' ' -f1 /proc/uptime)
	# A rate of 0 must say why: no number from status, or a pass that stood.
	[[ $c0 =~ ^[0-9]+$ && $c1 =~ ^[0-9]+$ ]] ||
		fail "sync_current from fanraid status: '$c0' then '$c1'"
	[ "$c1" != "$c0" ] || log "the pass stood at $c0: $(dmsetup status ss)"
	pass_kib=$(awk -v a="$c0" -v b="$c1" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%d", (b - a) / 2 / (t1 - t0) }')
	member_kib=$(awk -v a="$r0" -v b="$r1" -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%d", (b - a) / 2 / (t1 - t0) }')
}

# within VALUE LOW HIGH WHAT: LOW <= VALUE <= HIGH.
within() {
	[ "$1" -ge "$2" ] && [ "$1" -le "$3" ] ||
		fail "$4: $1 KiB/s, want $2 to $3"
}

fanraid set ss sync-speed-max 2M
assert_contains "$(dmsetup table ss)" "max_sync_rate 2048 "
dmsetup message ss 0 check
sleep 1
pass_rate 6
log "cap 2 MiB/s: pass $pass_kib KiB/s, member 0 read $member_kib KiB/s"
within "$pass_kib" 1024 2560 "pass under a 2 MiB/s cap"
within "$member_kib" 1024 2560 "member 0 reads under a 2 MiB/s cap"

# A new cap reaches the running pass: it goes on from where it was.
before=$(sync_cp)
fanraid set ss sync-speed-max 4M
after=$(sync_cp)
[ "$after" -ge "$before" ] || fail "the pass restarted: $before then $after"
assert_eq "$(fanraid status --json ss | jq -r '.arrays[0].action')" check "action"
sleep 1
pass_rate 6
log "cap 4 MiB/s: pass $pass_kib KiB/s, member 0 read $member_kib KiB/s"
within "$pass_kib" 2048 5120 "pass under a 4 MiB/s cap"
within "$member_kib" 2048 5120 "member 0 reads under a 4 MiB/s cap"

# Floor 1 MiB/s, no cap: alone the pass runs far above the floor, and under
# a reader it yields down to it. The floor comes while an uncapped batch
# runs (a batch lasts a second), after a read: a pass that charged that
# batch to the floor once slept for minutes.
fanraid set ss sync-speed-max off
sleep 1
dd if=/dev/mapper/ss of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
fanraid set ss sync-speed-min 1M
sleep 1
pass_rate 4
idle_kib=$pass_kib
log "floor 1 MiB/s, idle: pass $idle_kib KiB/s"
[ "$idle_kib" -ge 3072 ] || fail "idle pass at $idle_kib KiB/s: not above the 1 MiB/s floor"
fio --name=reader --filename=/dev/mapper/ss --rw=randread --bs=4k \
	--direct=1 --ioengine=libaio --iodepth=4 --time_based --runtime=14 \
	--output=/tmp/reader.out >/dev/null 2>&1 &
reader=$!
sleep 2
pass_rate 8
busy_kib=$pass_kib
wait "$reader" || { cat /tmp/reader.out; fail "fio reader"; }
log "floor 1 MiB/s, under fio: pass $busy_kib KiB/s ($idle_kib idle)"
within "$busy_kib" 256 1536 "pass yielding to a reader, 1 MiB/s floor"
[ "$idle_kib" -ge $((3 * busy_kib)) ] ||
	fail "the pass did not yield: $idle_kib KiB/s idle, $busy_kib under fio"
fanraid idle ss
fanraid_wait_idle ss

# Both limits are in every superblock, and assemble loads them.
fanraid set ss sync-speed-max 4M sync-speed-min 1M
assert_contains "$(fanraid status ss)" "sync speed: minimum 1.00 MiB/s, maximum 4.00 MiB/s per member"
jq -e '.arrays[0] | .sync_speed_min_kib == 1024 and .sync_speed_max_kib == 4096' \
	<(fanraid status --json ss) >/dev/null || fail "status --json: $(fanraid status --json ss)"
fanraid stop ss
for d in "${devs[@]:0:4}"; do
	assert_contains "$(fanraid examine "$d")" "sync speed: minimum 1.00 MiB/s, maximum 4.00 MiB/s per member"
	jq -e '.sync_speed_min_kib == 1024 and .sync_speed_max_kib == 4096' \
		<(fanraid examine --json "$d") >/dev/null || fail "examine --json $d: $(fanraid examine --json "$d")"
done
fanraid assemble ss "${devs[@]:0:4}"
assert_contains "$(dmsetup table ss)" "max_sync_rate 4096 min_sync_rate 1024 "
fanraid set ss sync-speed-max off sync-speed-min off
fanraid stop ss
assert_contains "$(fanraid examine "${devs[2]}")" "sync speed: minimum none, maximum unlimited per member"
jq -e '.sync_speed_min_kib == null and .sync_speed_max_kib == null' \
	<(fanraid examine --json "${devs[2]}") >/dev/null || fail "examine --json after off"
fanraid assemble ss "${devs[@]:0:4}"
case "$(dmsetup table ss)" in *sync_rate*) fail "limits set off came back: $(dmsetup table ss)" ;; esac
log "cap and floor held, retuned live, persisted and cleared"
