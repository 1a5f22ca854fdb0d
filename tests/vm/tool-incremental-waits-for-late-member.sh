#!/bin/bash
# fanraid incremental, as udev calls it: a raid6 starts only when its last member appears; --run (the last-resort timer) starts it degraded; a member that comes after that is re-added (recovering only what the bitmap says it missed: nothing), not left failed; status exit codes say degraded, then healthy.
# group: tool
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid jq || skip "fanraid or jq missing"

mapfile -t d < <(nullb_create_many 4 32)
on_exit 'fanraid stop fi >/dev/null 2>&1 || true'
fanraid create fi --level 6 --chunk 16K "${d[@]}"
fanraid_wait_idle fi
head -c 8M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fi bs=1M oflag=direct status=none
fanraid stop fi
uuid=$(fanraid examine --json "${d[0]}" | jq -r .array_uuid)
u32=${uuid//-/}

# three of four: recorded, nothing started
for i in 0 1 2; do
	out=$(fanraid incremental --export "${d[$i]}" 2>/tmp/err)
	echo "$out"; cat /tmp/err
	assert_contains "$out" "FANRAID_STARTED=no"
	assert_contains "$out" "FANRAID_UUID32=$u32"
	assert_contains "$(cat /tmp/err)" "waiting for $((3 - i)) more member"
done
dmsetup info fi >/dev/null 2>&1 && fail "fi started before its last member"
[ -L "/run/fanraid/incremental/$u32/slot2" ] || fail "slot 2 not recorded"

# the fourth completes it: started whole, nothing marked failed
out=$(fanraid incremental --export "${d[3]}" 2>/tmp/err)
echo "$out"; cat /tmp/err
assert_contains "$out" "FANRAID_STARTED=yes"
assert_contains "$(dmsetup status fi)" "raid6 4 AAAA"
fanraid status fi >/dev/null
# again for a member already in: nothing changes
out=$(fanraid incremental --export "${d[1]}")
assert_contains "$out" "FANRAID_STARTED=running"
assert_contains "$(dmsetup status fi)" "raid6 4 AAAA"
cmp <(head -c 8M /dev/mapper/fi) /tmp/data
fanraid stop fi
jq -e '.failed_mask == 0' <(fanraid examine --json "${d[3]}")

# next boot: member 3 is slow; the timer gives up waiting and starts degraded
rm -rf /run/fanraid
for i in 0 1 2; do
	fanraid incremental "${d[$i]}"
done
dmsetup info fi >/dev/null 2>&1 && fail "fi started before the timeout"
out=$(fanraid incremental --run --uuid "$u32" 2>&1)
echo "$out"
assert_contains "$out" "from 3 of 4 members"
rc=0
fanraid status fi >/dev/null || rc=$?
assert_eq "$rc" 1 "status exit code, degraded"
# the timer firing again changes nothing
out=$(fanraid incremental --run --uuid "$u32" 2>&1)
assert_contains "$out" "fi: already running"

# member 3 arrives late: put back into its slot and rebuilt
out=$(fanraid incremental --export "${d[3]}" 2>/tmp/err)
echo "$out"; cat /tmp/err
assert_contains "$out" "FANRAID_STARTED=running"
assert_contains "$(cat /tmp/err)" "back after the array started without it; re-adding"
# nothing was written while it was away: the bitmap recovers no region
assert_contains "$(dmsetup table fi)" " readd 3 "
fanraid_wait_idle fi
assert_eq "$(fanraid_bitmap fi | cut -d' ' -f3)" 0 "regions recovered for a member that missed no write"
assert_contains "$(dmsetup status fi)" "raid6 4 AAAA"
assert_eq "$(fanraid status --json fi | jq -r '.arrays[0].members[3].device')" "${d[3]}" "slot 3 device"
rc=0
fanraid status fi >/dev/null || rc=$?
assert_eq "$rc" 0 "status exit code after the rebuild"
cmp <(head -c 8M /dev/mapper/fi) /tmp/data
fanraid stop fi
# clean and whole on disk: the late member is not failed for good
jq -e '.failed_mask == 0 and .state == "clean"' <(fanraid examine --json "${d[0]}")
fanraid assemble fi "${d[@]}"
assert_contains "$(dmsetup status fi)" "raid6 4 AAAA"
