#!/bin/bash
# Exercise assemble's checks: a member of another array, a stale member and a missing raid0 member are each refused by name, and nothing is loaded.
# group: tool
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(nullb_create_many 4 32)
on_exit 'fanraid stop alpha >/dev/null 2>&1 || true; fanraid stop beta >/dev/null 2>&1 || true'
fanraid create alpha --level 0 "${devs[0]}" "${devs[1]}"
fanraid stop alpha
fanraid create beta --level 0 "${devs[2]}" "${devs[3]}"
fanraid stop beta

rc=0
out=$(fanraid assemble alpha "${devs[0]}" "${devs[2]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status with a foreign member"
assert_contains "$out" "${devs[2]}: member of array 'beta'"
assert_contains "$out" "not of 'alpha'"
[ ! -e /dev/mapper/alpha ] || fail "alpha loaded with a foreign member"

rc=0
out=$(fanraid assemble alpha "${devs[0]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status with a missing raid0 member"
assert_contains "$out" "alpha: slot 1 of 2 is missing; a raid0 array cannot run without it"

# A member whose events fell behind (it missed a stop) is stale.
dd if="${devs[1]}" of=/tmp/sb1 bs=4096 skip=1 count=1 status=none
fanraid assemble alpha "${devs[0]}" "${devs[1]}"
fanraid stop alpha
dd if=/tmp/sb1 of="${devs[1]}" bs=4096 seek=1 count=1 conv=notrunc status=none
rc=0
out=$(fanraid assemble alpha "${devs[1]}" "${devs[0]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status with a stale member"
assert_contains "$out" "${devs[1]}: stale member: events 2, but ${devs[0]} has 4"

# --uuid picks the array; the foreign devices given are then refused.
uuid=$(fanraid examine --json "${devs[2]}" | sed 's/.*"array_uuid": "\([^"]*\)".*/\1/')
rc=0
out=$(fanraid assemble --uuid "$uuid" "${devs[2]}" "${devs[0]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit status with --uuid and a foreign member"
assert_contains "$out" "${devs[0]}: member of array 'alpha'"
fanraid assemble --uuid "$uuid"
[ -b /dev/mapper/beta ] || fail "beta not assembled by --uuid"
fanraid stop beta
