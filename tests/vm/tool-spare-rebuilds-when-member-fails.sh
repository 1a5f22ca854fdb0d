#!/bin/bash
# fanraid add gives a raid6 array a hot spare (status and examine list it, assemble leaves it out, bad input is refused by name); when a member swapped to the error target fails under writes, fanraid monitor rebuilds onto the spare within seconds with nobody involved, and the data reads back exact and raidcalc verify is clean.
# group: tool
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_cmd fanraid raidcalc jq || fail "fanraid, raidcalc or jq missing"

mapfile -t nb < <(nullb_create_many 7 24)
sectors=$(dev_sectors "${nb[0]}")
m=()
for i in 0 1 2 3 4; do
	dm_create "sm$i" "0 $sectors linear ${nb[$i]} 0"
	m+=("/dev/mapper/sm$i")
done
spare=${nb[5]} other=${nb[6]}
on_exit 'kill $monpid 2>/dev/null; fanraid stop fs >/dev/null 2>&1; true'
fanraid create fs --level 6 --chunk 64K "${m[@]}"
fanraid_wait_idle fs

# Bad input, each refused by name.
out=$(fanraid add fs /dev/nosuchdev 2>&1) && fail "add of a missing device succeeded"
assert_contains "$out" "/dev/nosuchdev"
out=$(fanraid add fs "${m[1]}" 2>&1) && fail "add of a member succeeded"
assert_contains "$out" "is already slot 1 of fs"
out=$(fanraid add nosuch "$spare" 2>&1) && fail "add to a missing array succeeded"
assert_contains "$out" "nosuch: no such array"
mkfs.ext4 -q -F "$other"
out=$(fanraid add fs "$other" 2>&1) && fail "add of a device holding ext4 succeeded"
assert_contains "$out" "appears to contain"

out=$(fanraid add fs "$spare")
assert_contains "$out" "fs: $spare added as a spare"
out=$(fanraid add fs "$spare" 2>&1) && fail "adding the same spare twice succeeded"
assert_contains "$out" "is already a spare of fs"
assert_contains "$(fanraid status fs)" "spares: $spare"
assert_eq "$(fanraid status fs --json | jq -r '.arrays[0].spares[0]')" "$spare" "status --json spares"
assert_contains "$(fanraid examine "$spare")" "member: spare of 5 members"
assert_eq "$(fanraid examine "$spare" --json | jq -r '.role, .slot, .name')" "$(printf 'spare\nnull\nfs')" \
	"examine --json of the spare"
assert_eq "$(fanraid examine "${m[0]}" --json | jq -r '.role')" member "examine --json of a member"

# A stop and an assemble given the spare too leave it out: it stays a spare.
fanraid stop fs
out=$(fanraid assemble fs "${m[@]}" "$spare" 2>&1)
echo "$out"
assert_contains "$out" "$spare: spare of fs, not assembled as a member"
assert_contains "$out" "from 5 of 5 members"
assert_contains "$(dmsetup status fs)" "raid6 5 AAAAA "
assert_contains "$(fanraid status fs)" "spares: $spare"

head -c $((12 * 1024 * 1024)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fs bs=1M oflag=direct status=none

cat >/tmp/prog.sh <<'EOS'
#!/bin/bash
echo "$*" >>/tmp/events
EOS
chmod +x /tmp/prog.sh
printf 'PROGRAM /tmp/prog.sh\n' >/tmp/mon.conf
: >/tmp/events
fanraid monitor --config /tmp/mon.conf >/tmp/monitor.out 2>&1 &
monpid=$!
for i in $(seq 1 50); do
	grep -q "monitoring" /tmp/monitor.out && break
	sleep 0.1
done
grep -q "monitoring" /tmp/monitor.out || fail "monitor did not start: $(cat /tmp/monitor.out)"

# Member 2 dies: every I/O to it fails from now on; writes find out.
dm_swap sm2 "0 $sectors error"
t0=$(date +%s)
head -c $((2 * 1024 * 1024)) /dev/urandom >/tmp/more
dd if=/tmp/more of=/tmp/data bs=1M seek=4 conv=notrunc status=none
dd if=/tmp/more of=/dev/mapper/fs bs=1M seek=4 oflag=direct status=none
spare_rdev=$(printf '%d:%d' $(stat -L -c '0x%t 0x%T' "$spare"))
for i in $(seq 1 200); do
	grep -q "^SpareActivated fs slot 2 rebuilding onto $spare" /tmp/events && break
	sleep 0.1
done
grep -q "^SpareActivated fs slot 2 rebuilding onto $spare" /tmp/events ||
	fail "no SpareActivated in: $(cat /tmp/events); monitor: $(cat /tmp/monitor.out)"
log "monitor put the spare in $(($(date +%s) - t0)) s after the failing writes"
grep -q "^Fail fs slot 2 " /tmp/events || fail "no Fail event: $(cat /tmp/events)"
assert_contains "$(dmsetup table fs)" " $spare_rdev "
fanraid_wait_idle fs 120
assert_contains "$(dmsetup status fs)" "raid6 5 AAAAA "
assert_contains "$(fanraid status fs)" "spares: none"
drop_caches
cmp /tmp/data <(head -c $((12 * 1024 * 1024)) /dev/mapper/fs) || fail "data differs after the rebuild onto the spare"
kill $monpid
fanraid stop fs
assert_contains "$(fanraid examine "$spare")" "member: slot 2 of 5"
drop_caches
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${m[0]}" "${m[1]}" "$spare" "${m[3]}" "${m[4]}" \
	>/tmp/verify.out 2>&1 || { cat /tmp/verify.out; fail "raidcalc verify after the rebuild onto the spare"; }
log "$(tail -n 1 /tmp/verify.out)"
