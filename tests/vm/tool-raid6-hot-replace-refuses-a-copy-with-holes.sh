#!/bin/bash
# fanraid replace of a healthy member keeps the old member when the new device does not hold the copy. dm-mirror (no handle_errors) reports a copy in sync even where its writes failed, so the tool compares the legs itself: a new device with the error target over 8-10 MiB, one that drops writes there silently (dm-flakey drop_writes, which no mirror can see), and one that fails writes between its block and the data offset (copied at the end) are all refused (a spare among them is a spare no more), the slot back on its old member, the new device without a block, the data exact. The tool before swapped both in. During a slow copy that succeeds, the new device holds no block (a crash then leaves nothing for assembly to take), and gets one of its own at the end; with the old member's block kept, incremental assembly keeps the new device whatever the order udev reports them in; killed mid-copy, with the old member then missing, assembly leaves the slot out.
# group: tool
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_target flakey 1 0 0 || fail "target flakey missing"
have_cmd fanraid raidcalc jq || fail "fanraid, raidcalc or jq missing"
modprobe dm-mirror 2>/dev/null || true
dmsetup targets | grep -q '^mirror ' || fail "dm-mirror missing"

mapfile -t nb < <(nullb_create_many 7 16)
sectors=$(dev_sectors "${nb[0]}")
m=()
for i in 0 1 2 3 4; do
	dm_create "hq$i" "0 $sectors linear ${nb[$i]} 0"
	m+=("/dev/mapper/hq$i")
done
# new_dev START LEN TARGET-LINE: /dev/mapper/hq5 over nb5, sectors
# START..START+LEN-1 mapped by the given target line.
new_dev() {
	dmsetup remove hq5 2>/dev/null || true
	printf '0 %d linear %s 0\n%d %d %s\n%d %d linear %s %d\n' \
		"$1" "${nb[5]}" "$1" "$2" "$3" $(($1 + $2)) $((sectors - $1 - $2)) \
		"${nb[5]}" $(($1 + $2)) | dmsetup create hq5
	dmsetup mknodes hq5
}
on_exit 'fanraid stop hq >/dev/null 2>&1; true'
fanraid create hq --level 6 --chunk 16K --bitmap none "${m[@]}"
fanraid_wait_idle hq
# random data everywhere, so a region the copy missed differs from the old
bytes=$(blockdev --getsize64 /dev/mapper/hq)
head -c "$bytes" /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/hq bs=1M oflag=direct status=none
# the member list of the table (the finished resync drops out at a reload)
members() { dmsetup table hq | sed 's/.* superblock //'; }
members0=$(members)

refused() { # WHAT EXPECTED-TEXT
	if fanraid replace hq 2 /dev/mapper/hq5 >/tmp/replace.out 2>&1; then
		cat /tmp/replace.out
		fail "$1: the hot replace succeeded"
	fi
	cat /tmp/replace.out
	assert_contains "$(cat /tmp/replace.out)" "; /dev/mapper/hq5 is not taken"
	assert_contains "$(cat /tmp/replace.out)" "$2"
	assert_eq "$(members)" "$members0" "$1: the members after the refusal"
	dmsetup info hq-replace2 >/dev/null 2>&1 && fail "$1: the copy mirror is still there"
	assert_contains "$(dmsetup status hq)" "raid6 5 AAAAA "
	if fanraid examine /dev/mapper/hq5 >/tmp/ex.out 2>&1; then
		cat /tmp/ex.out
		fail "$1: the refused device holds a block"
	fi
	drop_caches
	cmp /tmp/ref <(dd if=/dev/mapper/hq bs=1M iflag=direct status=none) ||
		fail "$1: the data after the refusal"
	log "$1: refused"
}

# 1. Copy writes at 8-10 MiB (data area) fail: dm-mirror logs them and
# reports the copy whole.
new_dev 16384 4096 error
refused "error target" "to compare the copy failed"

# 2. Copy writes there vanish: the legs differ at rest.
new_dev 16384 4096 "flakey ${nb[5]} 16384 0 1 1 drop_writes"
refused "dropped writes" "with the array suspended (2 pieces): /dev/mapper/hq5 lost writes"

# 2b. The same onto a spare of the array: refused, and no spare any more
# (the monitor would rebuild onto it, never reading back what it wrote).
new_dev 16384 4096 "flakey ${nb[5]} 16384 0 1 1 drop_writes"
fanraid add hq /dev/mapper/hq5 --force >/dev/null
assert_contains "$(fanraid examine /dev/mapper/hq5)" "member: spare of 5 members"
refused "spare" "/dev/mapper/hq5: was a spare of hq and is not any more: it failed or lost writes"

# 3. Writes past the block up to the data offset (the bitmap's place) fail:
# the head, copied last with the array suspended, does not take.
new_dev 16 2032 "flakey ${nb[5]} 16 0 1 1 error_writes"
refused "head" "/dev/mapper/hq5 failed while the copy was checked"

# 4. A slow new device that takes the copy: no block on it until the end.
# A second holder of the old member makes clearing its block fail.
dmsetup remove hq5
dm_create hq5 "0 $sectors delay ${nb[5]} 0 0 ${nb[5]} 0 100"
dm_create hold2 "0 $sectors linear ${m[2]} 0"
fanraid replace hq 2 /dev/mapper/hq5 >/tmp/replace.out 2>&1 &
rp=$!
sleep 1
kill -0 $rp 2>/dev/null || { cat /tmp/replace.out; fail "the slow copy ended within 1 s"; }
dmsetup info hq-replace2 >/dev/null 2>&1 || fail "no copy mirror mid-copy"
drop_caches
if fanraid examine /dev/mapper/hq5 >/tmp/ex.out 2>&1; then
	cat /tmp/ex.out
	fail "the new device holds a block mid-copy"
fi
wait $rp || { cat /tmp/replace.out; fail "the slow hot replace failed"; }
cat /tmp/replace.out
assert_contains "$(cat /tmp/replace.out)" "hq: slot 2 is now /dev/mapper/hq5"
assert_contains "$(cat /tmp/replace.out)" "clearing the old member's superblock failed"
assert_contains "$(dmsetup status hq)" "raid6 5 AAAAA "
assert_eq "$(fanraid examine /dev/mapper/hq5 | sed -n 's/.*slot \([0-9]*\) of.*/\1/p' | head -n 1)" 2 "the new device's slot"
drop_caches
cmp /tmp/ref <(dd if=/dev/mapper/hq bs=1M iflag=direct status=none) || fail "the data after the hot replace"
table=$(dmsetup table hq)
fanraid stop hq
# shellcheck disable=SC2086
raidcalc verify $table >/tmp/verify.out 2>&1 || { cat /tmp/verify.out; fail "raidcalc verify"; }
log "$(tail -n 1 /tmp/verify.out)"
dm_remove hold2

# 4b. udev reports the new device before the old one, whose block was kept:
# incremental assembly keeps the new one in slot 2 (it used to take
# whichever came last, and start degraded without the new one).
uuid=$(fanraid examine --json /dev/mapper/hq5 | jq -r .array_uuid)
u32=${uuid//-/}
for d in "${m[0]}" "${m[1]}" /dev/mapper/hq5 "${m[2]}" "${m[3]}" "${m[4]}"; do
	fanraid incremental "$d" >>/tmp/incr.out 2>&1 || { cat /tmp/incr.out; fail "incremental $d"; }
done
cat /tmp/incr.out
assert_contains "$(cat /tmp/incr.out)" "${m[2]} is behind the slot 2 member already recorded; ignored"
[ "$(readlink "/run/fanraid/incremental/$u32/slot2")" = /dev/mapper/hq5 ] ||
	fail "slot 2 recorded as $(readlink "/run/fanraid/incremental/$u32/slot2")"
dmsetup info hq >/dev/null 2>&1 || fail "incremental assembly did not start hq"
dmsetup table hq | grep -q "$(printf '%d:%d' $(stat -L -c '0x%t 0x%T' /dev/mapper/hq5))" ||
	fail "slot 2 is not the new device: $(dmsetup table hq)"
assert_contains "$(dmsetup status hq)" "raid6 5 AAAAA "

# 5. The tool killed mid-copy and the array taken down, the old member of
# slot 1 then missing: assembly leaves the slot out, never taking the
# partial copy (the copy used to carry the old member's block).
dm_create hq6 "0 $sectors delay ${nb[6]} 0 0 ${nb[6]} 0 100"
fanraid replace hq 1 /dev/mapper/hq6 >/tmp/replace.out 2>&1 &
rp=$!
sleep 1
dmsetup info hq-replace1 >/dev/null 2>&1 || { cat /tmp/replace.out; fail "no copy mirror for slot 1 after 1 s"; }
kill -9 $rp
wait $rp 2>/dev/null || true
dmsetup remove hq
dmsetup remove hq-replace1
# named, it is refused as no member at all; left out, the slot is missing
expect_fail fanraid assemble hq "${m[0]}" /dev/mapper/hq6 /dev/mapper/hq5 "${m[3]}" "${m[4]}"
assert_contains "$(fanraid assemble hq "${m[0]}" /dev/mapper/hq6 2>&1)" "/dev/mapper/hq6: no fanraid superblock"
out=$(fanraid assemble hq "${m[0]}" /dev/mapper/hq5 "${m[3]}" "${m[4]}" 2>&1) ||
	{ echo "$out"; fail "assembly without slot 1's old member refused"; }
echo "$out"
assert_eq "$(fanraid_health hq 1)" D "slot 1 after assembly without its old member"
dmsetup table hq | grep -q "$(printf '%d:%d' $(stat -L -c '0x%t 0x%T' /dev/mapper/hq6))" &&
	fail "the partial copy was assembled: $(dmsetup table hq)"
drop_caches
cmp /tmp/ref <(dd if=/dev/mapper/hq bs=1M iflag=direct status=none) || fail "the data without slot 1"
fanraid stop hq
