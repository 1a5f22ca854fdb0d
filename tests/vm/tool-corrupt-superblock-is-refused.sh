#!/bin/bash
# Exercise superblock damage: one corrupted byte gives a clear checksum error naming the member, assemble refuses, and no other member or data block is touched.
# group: tool
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(nullb_create_many 3 32)
on_exit 'fanraid stop frc >/dev/null 2>&1 || true'
fanraid create frc --level 0 --chunk 32K "${devs[@]}"
head -c 8M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/frc bs=1M oflag=direct status=none
fanraid stop frc

# Flip one byte inside the array name of member 1's superblock.
off=$((4096 + 60))
b=$(dd if="${devs[1]}" bs=1 skip=$off count=1 status=none | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $((b ^ 1)))" |
	dd of="${devs[1]}" bs=1 seek=$off count=1 conv=notrunc status=none
drop_caches
before=$(for d in "${devs[@]}"; do sha256sum <"$d"; done)

rc=0
out=$(fanraid examine "${devs[1]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "examine exit status"
assert_eq "$out" "${devs[1]}: superblock checksum mismatch" "examine message"

rc=0
out=$(fanraid assemble frc "${devs[@]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "assemble exit status"
assert_contains "$out" "${devs[1]}: superblock checksum mismatch"
[ ! -e /dev/mapper/frc ] || fail "frc loaded with a corrupt member"

# By name, the damaged member is skipped with a warning and the array is incomplete.
rc=0
out=$(fanraid assemble frc 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "assemble by name exit status"
assert_contains "$out" "${devs[1]}: skipped: superblock checksum mismatch"
assert_contains "$out" "frc: slot 1 of 3 is missing"

drop_caches
after=$(for d in "${devs[@]}"; do sha256sum <"$d"; done)
assert_eq "$after" "$before" "members after the refusals"
fanraid examine "${devs[0]}" >/dev/null
fanraid examine "${devs[2]}" >/dev/null
