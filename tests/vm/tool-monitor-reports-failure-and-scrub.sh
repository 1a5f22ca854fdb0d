#!/bin/bash
# fanraid monitor waits on dm events: check finds a silently corrupted chunk (CheckFinished and MismatchesFound with the count); a member swapped to the error target fails under writes and PROGRAM runs within seconds with Fail and DegradedArray, and a mail goes to sendmail; three dead is FailedArray and status exit 2; a new array is noticed (NewArray) and a stopped one too (DeviceDisappeared).
# group: tool
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t nb < <(nullb_create_many 4 32)
sectors=$(dev_sectors "${nb[0]}")
m=()
for i in 0 1 2 3; do
	dm_create "mm$i" "0 $sectors linear ${nb[$i]} 0"
	m+=("/dev/mapper/mm$i")
done
on_exit 'kill $monpid 2>/dev/null; dmsetup remove fm >/dev/null 2>&1; fanraid stop fz >/dev/null 2>&1; true'
fanraid create fm --level 6 --chunk 16K "${m[@]}"
fanraid_wait_idle fm

# PROGRAM and a sendmail that keeps what it is given
cat >/tmp/prog.sh <<'EOS'
#!/bin/bash
echo "$*" >>/tmp/events
EOS
chmod +x /tmp/prog.sh
cat >/usr/sbin/sendmail <<'EOS'
#!/bin/bash
echo "sendmail $*" >>/tmp/mail
cat >>/tmp/mail
EOS
chmod +x /usr/sbin/sendmail
printf 'PROGRAM /tmp/prog.sh\nMAILADDR ops@example.com\n' >/tmp/mon.conf
: >/tmp/events
fanraid monitor --config /tmp/mon.conf >/tmp/monitor.out 2>&1 &
monpid=$!
for i in $(seq 1 50); do
	grep -q "monitoring" /tmp/monitor.out && break
	sleep 0.1
done
grep -q "monitoring" /tmp/monitor.out || fail "monitor did not start: $(cat /tmp/monitor.out)"

# wait_event PATTERN: PROGRAM was called with it within 10 s
wait_event() {
	local i
	for i in $(seq 1 100); do
		grep -q "$1" /tmp/events && return 0
		sleep 0.1
	done
	fail "no event '$1' in: $(cat /tmp/events); monitor: $(cat /tmp/monitor.out)"
}

# scrub: a chunk of member 2's data area changed behind the array's back
head -c 8M /dev/urandom | dd of=/dev/mapper/fm bs=1M oflag=direct status=none
dd if=/dev/urandom of="${nb[2]}" bs=4096 seek=$((2048 / 8 + 16)) count=1 oflag=direct conv=notrunc status=none
out=$(fanraid check fm)
echo "$out"
assert_contains "$out" "fm: check started"
mism=$(echo "$out" | sed -n 's/.*check finished: \([0-9]*\) mismatched sectors.*/\1/p')
[ -n "$mism" ] && [ "$mism" -gt 0 ] || fail "check found no mismatches: $out"
# the target raises no event when a scrub starts, only when it ends
wait_event "^CheckFinished fm $mism mismatched sectors"
wait_event "^MismatchesFound fm $mism mismatched sectors"
out=$(fanraid repair fm)
assert_contains "$out" "fm: repair finished"
assert_contains "$(fanraid check fm)" "check finished: 0 mismatched sectors"

# member 1 dies: every I/O to it fails from now on
dm_swap mm1 "0 $sectors error"
t0=$(date +%s)
dd if=/dev/urandom of=/dev/mapper/fm bs=64K count=64 oflag=direct status=none
wait_event "^Fail fm slot 1 "
wait_event "^DegradedArray fm 1 of 4 members dead or missing"
log "PROGRAM ran $(( $(date +%s) - t0 )) s after the failing writes"
grep -q "^sendmail -t -i" /tmp/mail || fail "sendmail not run: $(cat /tmp/mail 2>/dev/null)"
grep -q "^To: ops@example.com" /tmp/mail || fail "mail: no To: $(cat /tmp/mail)"
grep -q "^Subject: Fail event on fm:" /tmp/mail || fail "mail: no Fail subject: $(cat /tmp/mail)"
grep -q "health AD" /tmp/mail || fail "mail: no status: $(cat /tmp/mail)"
# resync/check events are not mailed
grep -q "Subject: CheckStarted" /tmp/mail && fail "CheckStarted was mailed"
rc=0
fanraid status fm >/dev/null || rc=$?
assert_eq "$rc" 1 "status exit code, raid6 one member dead"

# two more fail by message: more than raid6 can lose, exit 2
dmsetup message fm 0 fail 2
dmsetup message fm 0 fail 3
wait_event "^Fail fm slot 3 "
wait_event "^FailedArray fm 3 of 4 members dead or missing"
rc=0
fanraid status fm >/dev/null || rc=$?
assert_eq "$rc" 2 "status exit code, raid6 three members dead"

# an array made while the monitor runs is found through the kernel's uevent
mapfile -t z < <(nullb_create_many 2 16)
fanraid create fz --level 0 --chunk 16K "${z[@]}"
wait_event "^NewArray fz"
rc=0
fanraid status fz >/dev/null || rc=$?
assert_eq "$rc" 0 "status exit code, healthy raid0"
rc=0
fanraid status >/dev/null || rc=$?
assert_eq "$rc" 2 "status exit code over all arrays: the worst"
fanraid stop fz
wait_event "^DeviceDisappeared fz"
kill $monpid
cat /tmp/monitor.out
