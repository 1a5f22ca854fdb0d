#!/bin/bash
# fanraid replace of a dead slot while the kernel fails another member, and set after it: the tool is held on its read of the new device (a suspended dm device) while member 2 returns EIO to a write, the kernel fails it and records it, and member 2 comes back with the stale data. The replace must keep member 2 failed (status D, failed in every block) and the data exact, before and after a stop and assemble. It used to read the blocks before, write them back after, and load member 2 as in sync. fanraid set then leaves member 2's block as it is (it used to write it, as fresh as its peers'), and waits for the array's suspend lock while another command holds it.
# group: tool
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_cmd fanraid || fail "fanraid missing"

mapfile -t nb < <(nullb_create_many 7 16)
sectors=$(dev_sectors "${nb[0]}")
m=()
for i in 0 1 2 3 4 5; do
	dm_create "kr$i" "0 $sectors linear ${nb[$i]} 0"
	m+=("/dev/mapper/kr$i")
done
dm_create krnew "0 $sectors linear ${nb[6]} 0"
on_exit 'dmsetup resume krnew 2>/dev/null; fanraid stop kf >/dev/null 2>&1; true'
mask() { examine_field "$1" | awk '{ print $3 }'; }

fanraid create kf --level 6 --chunk 16K --bitmap none "${m[@]}"
fanraid_wait_idle kf
head -c 4M /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/kf bs=1M oflag=direct status=none
fanraid fail kf 0
assert_eq "$(fanraid_health kf 0)" D "slot 0 after fail"

# The tool reads the new device's block after the array's: hold it there.
dmsetup suspend krnew
fanraid replace kf 0 /dev/mapper/krnew >/tmp/replace.out 2>&1 &
rp=$!
held=0
for ((i = 0; i < 200 && held < 5; i++)); do
	if [ "$(awk '{ print $3 }' "/proc/$rp/stat" 2>/dev/null)" = D ]; then
		held=$((held + 1))
	else
		held=0
	fi
	sleep 0.1
done
[ "$held" -ge 5 ] || fail "replace never waited on the suspended new device: $(cat /tmp/replace.out)"

# Meanwhile member 2 fails a write for real; its peers record it.
dm_swap kr2 "0 $sectors error"
head -c 1M /dev/urandom >/tmp/away
dd if=/tmp/away of=/tmp/ref bs=1M seek=1 conv=notrunc status=none
dd if=/tmp/away of=/dev/mapper/kf bs=1M seek=1 oflag=direct status=none ||
	fail "a degraded write failed"
assert_eq "$(fanraid_health kf 2)" D "member 2 after its EIO"
assert_eq "$(mask "${m[1]}")" 0x5 "member 1's block with members 0 and 2 failed"
# member 2 answers again, with the data of before the write
dm_swap kr2 "0 $sectors linear ${nb[2]} 0"

dmsetup resume krnew
wait "$rp" || fail "replace failed: $(cat /tmp/replace.out)"
cat /tmp/replace.out
m[0]=/dev/mapper/krnew
fanraid_wait_idle kf
dmsetup status kf
assert_eq "$(fanraid_health kf 0)" A "slot 0 after its rebuild"
assert_eq "$(fanraid_health kf 2)" D "member 2, failed while replace ran"
for i in 0 1 3 4 5; do
	assert_eq "$(mask "${m[i]}")" 0x4 "member $i's failed mask after the rebuild"
done
drop_caches
cmp <(head -c 4M /dev/mapper/kf) /tmp/ref || fail "data differs after the replace"

# fanraid set records settings in the blocks of the members in service
# only: member 2's (readable again, failed in the kernel) stays as it was.
before=$(examine_field "${m[2]}")
ev1=$(examine_field "${m[1]}" | awk '{ print $2 }')
fanraid set kf sync-speed-max 8M
assert_eq "$(examine_field "${m[2]}")" "$before" "member 2's block after set"
[ "$(examine_field "${m[1]}" | awk '{ print $2 }')" -gt "$ev1" ] || fail "set wrote no block"

# A command's suspend window holds the array's lock: a second one waits
# for it instead of reading blocks the first is about to write.
mkdir -p /run/fanraid
flock /run/fanraid/kf.lock sleep 3 &
holder=$!
sleep 0.5
t0=$EPOCHREALTIME
fanraid set kf sync-speed-max 4M
t1=$EPOCHREALTIME
wait "$holder"
waited=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
log "set waited $waited s for the lock held 3 s"
awk -v w="$waited" 'BEGIN { exit !(w >= 2) }' || fail "set did not wait for the array's lock ($waited s)"

fanraid stop kf
out=$(fanraid assemble kf "${m[@]}" 2>&1)
echo "$out"
assert_contains "$out" "from 5 of 6 members"
assert_eq "$(fanraid_health kf 2)" D "member 2 after assembly"
cmp <(head -c 4M /dev/mapper/kf) /tmp/ref || fail "data differs after assembly"
fanraid stop kf
