#!/bin/bash
# Exercise the tool's exclusive opens: a mounted member, or one already in a running array, is refused by create and assemble; stop refuses a mounted array and leaves it running.
# group: tool
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid mkfs.ext4 || skip "fanraid or mkfs.ext4 missing"

mapfile -t devs < <(nullb_create_many 4 32)
on_exit 'umount /mnt/busy 2>/dev/null; fanraid stop busy >/dev/null 2>&1 || true'
mkdir -p /mnt/busy

# A mounted filesystem: busy, even with --force.
mkfs.ext4 -q -F "${devs[0]}"
mount "${devs[0]}" /mnt/busy
rc=0
out=$(fanraid create busy --level 0 --force "${devs[0]}" "${devs[1]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "create over a mounted member"
assert_contains "$out" "${devs[0]}: device is busy"
umount /mnt/busy

# A member of a running array cannot join a second one.
fanraid create busy --level 0 --force "${devs[0]}" "${devs[1]}"
rc=0
out=$(fanraid create other --level 0 --force "${devs[1]}" "${devs[2]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "create over a running member"
assert_contains "$out" "${devs[1]}: device is busy"
rc=0
out=$(fanraid assemble busy "${devs[0]}" "${devs[1]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "assemble of a running array"
assert_contains "$out" "busy: already running"

# stop refuses while the array is mounted, and the array keeps running.
mkfs.ext4 -q -F /dev/mapper/busy
mount /dev/mapper/busy /mnt/busy
rc=0
out=$(fanraid stop busy 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "stop of a mounted array"
assert_contains "$out" "busy: device is busy"
[ -b /dev/mapper/busy ] || fail "busy vanished after a refused stop"
touch /mnt/busy/still-here
umount /mnt/busy
fanraid stop busy
assert_contains "$(fanraid examine "${devs[0]}")" "state: clean"

# Unknown names and devices are named in the error.
rc=0
out=$(fanraid stop nosuch 2>&1) || rc=$?
assert_eq "$rc" 1 "stop of an unknown array"
assert_eq "$out" "nosuch: no such array (not running)"
rc=0
out=$(fanraid examine /dev/nosuch 2>&1) || rc=$?
assert_eq "$rc" 1 "examine of a missing device"
assert_contains "$out" "/dev/nosuch: cannot open: No such file or directory"
rc=0
out=$(fanraid examine "${devs[3]}" 2>&1) || rc=$?
assert_eq "$out" "${devs[3]}: no fanraid superblock (bad magic)"
