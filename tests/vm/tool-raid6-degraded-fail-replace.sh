#!/bin/bash
# Exercise raid6 through the tool: create resyncs parity, a missing member is assembled degraded with data intact, a stale member is left out, fail is recorded, and replace rebuilds both slots.
# group: tool
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(nullb_create_many 5 32)
on_exit 'fanraid stop f6 >/dev/null 2>&1 || true'

fanraid create f6 --level 6 --chunk 16K --bitmap none "${devs[@]}"
assert_contains "$(dmsetup table f6)" "fanraid raid6 32 2 resync superblock 5"
# 3 data members of 32 MiB - 1 MiB, in whole 16 KiB chunks.
assert_eq "$(blockdev --getsz /dev/mapper/f6)" $(((32 * 2048 - 2048) / 32 * 32 * 3)) "raid6 size"
for i in $(seq 1 120); do
	case "$(dmsetup status f6)" in *" idle "*) break ;; esac
	sleep 0.5
done
assert_contains "$(dmsetup status f6)" " idle "
head -c 20M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/f6 bs=1M oflag=direct status=none
fanraid stop f6

# Member 3 missing: assembled degraded, and said so.
out=$(fanraid assemble f6 "${devs[0]}" "${devs[1]}" "${devs[2]}" "${devs[4]}" 2>&1)
echo "$out"
assert_contains "$out" "from 4 of 5 members: ${devs[0]} ${devs[1]} ${devs[2]} (missing) ${devs[4]}"
assert_contains "$out" "running degraded"
assert_contains "$(dmsetup table f6)" " - -"
# degraded: status says so in its exit code (1), as mdadm --detail --test
rc=0
out=$(fanraid status f6) || rc=$?
echo "$out"
assert_eq "$rc" 1 "status exit code of a degraded array"
assert_contains "$out" "missing"
cmp <(head -c 20M /dev/mapper/f6) /tmp/data
fanraid stop f6
assert_contains "$(fanraid examine "${devs[0]}")" "degraded"

# The member comes back with old events: left out, still degraded.
out=$(fanraid assemble f6 "${devs[@]}" 2>&1)
echo "$out"
assert_contains "$out" "${devs[3]}: left out: stale"
assert_contains "$out" "from 4 of 5 members"
cmp <(head -c 20M /dev/mapper/f6) /tmp/data

# fail: the kernel takes a second member out, the superblocks record it.
out=$(fanraid fail f6 1)
echo "$out"
assert_contains "$out" "f6: slot 1 (${devs[1]}) marked failed"
assert_contains "$(dmsetup status f6)" "raid6 5 ADADA"
cmp <(head -c 20M /dev/mapper/f6) /tmp/data
fanraid stop f6
fanraid examine "${devs[0]}" | grep -q "failed mask 0xa" || fail "failed mask not 0xa: $(fanraid examine "${devs[0]}")"
out=$(fanraid assemble f6 2>&1)
echo "$out"
assert_contains "$out" "from 3 of 5 members"
cmp <(head -c 20M /dev/mapper/f6) /tmp/data

# replace: the stale old member goes back into slot 3, a new device into
# slot 1 (the failed one is still held by the target); both are rebuilt.
# (A healthy slot is hot-replaced now, by copying; onto itself it is refused.)
rc=0
out=$(fanraid replace f6 0 "${devs[0]}" 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "replacing a healthy slot with itself"
assert_contains "$out" "${devs[0]}: is slot 0 itself"
out=$(fanraid replace f6 3 "${devs[3]}")
echo "$out"
assert_contains "$out" "f6: slot 3 is now ${devs[3]}; rebuilding"
assert_contains "$(dmsetup table f6)" "rebuild 3"
fanraid_wait_idle f6 120
assert_contains "$(dmsetup status f6)" "raid6 5 ADAAA"
new=$(nullb_create spare 32)
out=$(fanraid replace f6 1 "$new")
echo "$out"
fanraid_wait_idle f6 120
assert_contains "$(dmsetup status f6)" "raid6 5 AAAAA"
cmp <(head -c 20M /dev/mapper/f6) /tmp/data
out=$(fanraid stop f6)
echo "$out"
assert_contains "$out" "5 members marked clean"
fanraid examine "$new" | grep -q "failed mask 0x0" || fail "new member still failed: $(fanraid examine "$new")"

# All five fresh again: a full assembly, in any order, data intact.
out=$(fanraid assemble f6 "$new" "${devs[4]}" "${devs[3]}" "${devs[2]}" "${devs[0]}" 2>&1)
echo "$out"
assert_contains "$out" "from 5 of 5 members: ${devs[0]} $new ${devs[2]} ${devs[3]} ${devs[4]}"
cmp <(head -c 20M /dev/mapper/f6) /tmp/data

# The rebuilt members' parity is what the userspace oracle computes.
table=$(dmsetup table f6)
fanraid stop f6
if have_cmd raidcalc; then
	drop_caches
	# shellcheck disable=SC2086
	raidcalc verify $table
fi
