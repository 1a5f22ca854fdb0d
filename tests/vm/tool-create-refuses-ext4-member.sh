#!/bin/bash
# Exercise create's probe: a member holding ext4 is refused by name and label, nothing is written to any member, and --force erases the old signature and succeeds.
# group: tool
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid mkfs.ext4 blkid || skip "fanraid, mkfs.ext4 or blkid missing"

mapfile -t devs < <(nullb_create_many 3 32)
on_exit 'fanraid stop fr1 >/dev/null 2>&1 || true'
mkfs.ext4 -q -F -L precious "${devs[1]}"
before=$(for d in "${devs[@]}"; do dd if="$d" bs=1M count=2 status=none | sha256sum; done)

rc=0
out=$(fanraid create fr1 --level 0 "${devs[@]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status of a refused create"
assert_contains "$out" "${devs[1]}: appears to contain an existing ext4 filesystem (label 'precious') (use --force)"
[ ! -e /dev/mapper/fr1 ] || fail "fr1 exists after a refused create"
after=$(for d in "${devs[@]}"; do dd if="$d" bs=1M count=2 status=none | sha256sum; done)
assert_eq "$after" "$before" "member contents after a refused create"
assert_eq "$(blkid -o value -s TYPE "${devs[1]}")" ext4 "ext4 still there"

# A partition table is refused the same way.
printf 'label: gpt\n' | sfdisk -q "${devs[2]}" 2>/dev/null ||
	printf 'o\nw\n' | fdisk "${devs[2]}" >/dev/null 2>&1 || true
if blkid -p -o value -s PTTYPE "${devs[2]}" >/dev/null 2>&1; then
	rc=0
	out=$(fanraid create fr1 --level 0 "${devs[2]}" 2>&1) || rc=$?
	echo "$out"
	assert_eq "$rc" 1 "exit status with a partition table"
	assert_contains "$out" "${devs[2]}: appears to contain a"
	assert_contains "$out" "partition table (use --force)"
fi

# A device listed twice, and a usage error, are refused before any I/O.
rc=0
fanraid create fr1 --level 0 "${devs[0]}" "${devs[0]}" 2>&1 | tee /tmp/out || true
assert_contains "$(cat /tmp/out)" "${devs[0]}: listed twice"
rc=0
fanraid create fr1 --level 5 "${devs[0]}" || rc=$?
assert_eq "$rc" 2 "exit status of a usage error"

out=$(fanraid create fr1 --level 0 --force "${devs[@]}" 2>&1)
echo "$out"
assert_contains "$out" "${devs[1]}: appears to contain an existing ext4 filesystem (label 'precious'); --force given, erasing it"
[ -b /dev/mapper/fr1 ] || fail "fr1 missing after --force"
fanraid stop fr1
if blkid -p "${devs[1]}" >/dev/null 2>&1; then
	fail "${devs[1]} still carries a signature: $(blkid -p "${devs[1]}")"
fi
assert_contains "$(fanraid examine "${devs[1]}")" "slot 1 of 3"

# A member of an existing fanraid array is refused too.
rc=0
out=$(fanraid create fr2 --level 0 "${devs[0]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status for an existing member"
assert_contains "$out" "${devs[0]}: is already slot 0 of fanraid array 'fr1' (use --force)"
