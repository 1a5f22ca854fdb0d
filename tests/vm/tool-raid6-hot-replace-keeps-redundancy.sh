#!/bin/bash
# fanraid replace on a healthy member copies it onto the new device through a dm-mirror while it stays in service: under fio writes the slot reads A throughout, another member failed mid-copy loses nothing, the old member's superblock is cleared at the end; an old member that fails mid-copy falls back to a rebuild from parity; fio verify, a reference region and raidcalc verify stay exact.
# group: tool
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_cmd fanraid raidcalc fio || fail "fanraid, raidcalc or fio missing"
modprobe dm-mirror 2>/dev/null || true
dmsetup targets | grep -q '^mirror ' || fail "dm-mirror missing"

mapfile -t nb < <(nullb_create_many 8 16)
sectors=$(dev_sectors "${nb[0]}")
m=()
for i in 0 1 2 3 4; do
	dm_create "hm$i" "0 $sectors linear ${nb[$i]} 0"
	m+=("/dev/mapper/hm$i")
done
# The new devices write slowly (dm-delay, 200 ms a write), so the copy
# takes seconds and things can happen during it; fast again afterwards.
for i in 5 6; do
	dm_create "hn$i" "0 $sectors delay ${nb[$i]} 0 0 ${nb[$i]} 0 200"
done
undelay() { # N
	dm_swap "hn$1" "0 $sectors linear ${nb[$1]} 0"
}
on_exit 'fanraid stop fh >/dev/null 2>&1; true'
fanraid create fh --level 6 --chunk 16K --bitmap none "${m[@]}"
fanraid_wait_idle fh
head -c $((4 * 1024 * 1024)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fh bs=1M seek=32 oflag=direct status=none

cat >/tmp/w.fio <<JOB
[w]
filename=/dev/mapper/fh
direct=1
ioengine=libaio
iodepth=4
rw=randwrite
bsrange=4k-64k
size=12M
verify=crc32c
randseed=4711
rate=2m
JOB

# 1. Slot 2 by its device, onto hn5, with fio writing; member 4 fails mid-copy.
# A second holder of the old member (a dm device over it) makes clearing its
# block fail, as an exclusive open by anyone else would.
dm_create hold2 "0 $sectors linear ${m[2]} 0"
fio /tmp/w.fio --do_verify=0 --output=/tmp/fio.out &
fiopid=$!
fanraid replace fh "${m[2]}" /dev/mapper/hn5 >/tmp/replace.out 2>&1 &
reppid=$!
seen=""
failed4=""
for i in $(seq 1 300); do
	kill -0 $reppid 2>/dev/null || break
	h=$(fanraid_health fh 2)
	seen="$seen$h"
	# once slot 2 sits on the copy mirror (the tool first zeroes the
	# new device's block, 200 ms a write here), member 4 fails
	if [ -z "$failed4" ] && [ -b /dev/mapper/fh-replace2 ] &&
		dmsetup table fh | grep -q "$(printf '%d:%d' $(stat -L -c '0x%t 0x%T' /dev/mapper/fh-replace2))"; then
		dmsetup message fh 0 fail 4
		failed4=$i
	fi
	sleep 0.1
done
wait $reppid || { cat /tmp/replace.out; fail "hot replace of slot 2 failed"; }
cat /tmp/replace.out
undelay 5
[ -n "$failed4" ] || fail "slot 2 never sat on the copy mirror while the copy ran"
case $seen in *[!A]*) fail "slot 2 was not A throughout the copy: $seen" ;; esac
log "slot 2 read A in all $i samples of the copy; member 4 failed at sample $failed4"
wait $fiopid || { tail -n 20 /tmp/fio.out; fail "fio writes during the copy failed"; }
assert_contains "$(cat /tmp/replace.out)" "fh: slot 2 is now /dev/mapper/hn5"
dmsetup info fh-replace2 >/dev/null 2>&1 && fail "the copy mirror is still there"
assert_contains "$(dmsetup status fh)" "raid6 5 AAAAD "
assert_contains "$(cat /tmp/replace.out)" "clearing the old member's superblock failed"
# Kept, the old block must never pass for the slot's: two events behind the
# new member's (one behind may be a crash-cut update), with its own uuid.
old_ev=$(examine_field "${m[2]}" | awk '{ print $2 }')
new_ev=$(examine_field /dev/mapper/hn5 | awk '{ print $2 }')
log "events: old member $old_ev, new member $new_ev"
[ "$new_ev" -ge $((old_ev + 2)) ] || fail "the old member is only $((new_ev - old_ev)) events behind"
[ "$(fanraid examine "${m[2]}" | grep ' member: ')" != "$(fanraid examine /dev/mapper/hn5 | grep ' member: ')" ] ||
	fail "the new member kept the old member's uuid"
dm_remove hold2
drop_caches
fio /tmp/w.fio --verify_only=1 --output=/tmp/fio-v.out || { tail -n 20 /tmp/fio-v.out; fail "fio verify after the hot replace"; }
cmp /tmp/ref <(dd if=/dev/mapper/fh bs=1M skip=32 count=4 iflag=direct status=none) || fail "reference region after the hot replace"
fanraid replace fh 4 "${nb[7]}" >/dev/null
fanraid_wait_idle fh 120
assert_contains "$(dmsetup status fh)" "raid6 5 AAAAA "

# 2. Slot 1 onto hn6; the old member dies mid-copy: rebuilt from parity.
fanraid replace fh 1 /dev/mapper/hn6 >/tmp/replace.out 2>&1 &
reppid=$!
sleep 1.5
kill -0 $reppid 2>/dev/null || { cat /tmp/replace.out; fail "the second copy ended within 1.5 s"; }
dm_swap hm1 "0 $sectors error"
dd if=/dev/urandom of=/dev/mapper/fh bs=64K count=16 seek=600 oflag=direct status=none
wait $reppid || { cat /tmp/replace.out; fail "hot replace with the old member failing mid-copy"; }
cat /tmp/replace.out
undelay 6
assert_contains "$(cat /tmp/replace.out)" "rebuilding /dev/mapper/hn6 from parity instead"
fanraid_wait_idle fh 120
assert_contains "$(dmsetup status fh)" "raid6 5 AAAAA "
drop_caches
cmp /tmp/ref <(dd if=/dev/mapper/fh bs=1M skip=32 count=4 iflag=direct status=none) || fail "reference region after the fallback"
fio /tmp/w.fio --verify_only=1 --output=/tmp/fio-v.out || { tail -n 20 /tmp/fio-v.out; fail "fio verify after the fallback"; }
table=$(dmsetup table fh)
fanraid stop fh
drop_caches
# shellcheck disable=SC2086
raidcalc verify $table >/tmp/verify.out 2>&1 || { cat /tmp/verify.out; fail "raidcalc verify"; }
log "$(tail -n 1 /tmp/verify.out)"
