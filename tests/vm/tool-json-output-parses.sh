#!/bin/bash
# Exercise the tool's --json output: status, list and examine print JSON that jq parses, with the values the array really has; status shows a resync's progress with speed and time left, and --watch redraws it.
# group: tool
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid jq || skip "fanraid or jq missing"

mapfile -t devs < <(nullb_create_many 3 32)
on_exit 'fanraid stop fj >/dev/null 2>&1 || true'

# No arrays: still a valid document.
fanraid status --json | jq -e '.arrays == []'

fanraid create fj --level 0 --chunk 128K --flush drop --ra off --ra-window 4 "${devs[@]}"
# The recorded choices are what the target was given, in its order.
assert_contains "$(dmsetup table fj)" "raid0 256 6 flush_policy drop readahead off ra_window 4 3 "
dd if=/dev/urandom of=/dev/mapper/fj bs=1M count=4 oflag=direct status=none

fanraid status --json | tee /tmp/status.json
jq -e '.arrays | length == 1' /tmp/status.json
jq -e '.arrays[0].name == "fj" and .arrays[0].level == "raid0"' /tmp/status.json
jq -e '.arrays[0].chunk_bytes == 131072 and .arrays[0].devices == 3' /tmp/status.json
jq -e '.arrays[0].flush_policy == "drop"' /tmp/status.json
assert_eq "$(jq -r '.arrays[0].sectors' /tmp/status.json)" "$(blockdev --getsz /dev/mapper/fj)" "sectors"
assert_eq "$(jq -r '[.arrays[0].members[].device] | join(" ")' /tmp/status.json)" "${devs[*]}" "member devices"
jq -e '[.arrays[0].members[].health] | all(. == "alive")' /tmp/status.json
# 4 MiB written: the members' write_sectors add up to 8192.
assert_eq "$(jq '[.arrays[0].members[].write_sectors] | add' /tmp/status.json)" 8192 "write_sectors"

# status NAME gives the same array.
fanraid status --json fj | jq -e '.arrays[0].uuid' >/dev/null
# list --json: the same array, its size the kernel's own
uuid=$(jq -r '.arrays[0].uuid' /tmp/status.json)
fanraid list --json | tee /tmp/list.json
jq -e '.arrays | length == 1' /tmp/list.json
jq -e '.arrays[0].name == "fj" and .arrays[0].level == "raid0" and .arrays[0].members == 3' /tmp/list.json
assert_eq "$(jq -r '.arrays[0].size_bytes' /tmp/list.json)" "$(blockdev --getsize64 /dev/mapper/fj)" "list size_bytes"
assert_eq "$(jq -r '.arrays[0].uuid' /tmp/list.json)" "$uuid" "list uuid"

fanraid stop fj
fanraid examine --json "${devs[2]}" | tee /tmp/examine.json
jq -e '.slot == 2 and .devices == 3 and .name == "fj"' /tmp/examine.json
jq -e '.state == "clean" and .flush_policy == "drop" and .chunk_sectors == 256' /tmp/examine.json
jq -e '.data_offset_sectors == 2048 and .events == 2' /tmp/examine.json
jq -e '.target_readahead == "off" and .ra_window == 4 and .ra_cache_mb == null' /tmp/examine.json
# ... and assembly loads them again.
fanraid assemble fj
assert_contains "$(dmsetup table fj)" "raid0 256 6 flush_policy drop readahead off ra_window 4 3 "
fanraid stop fj
assert_eq "$(jq -r .device /tmp/examine.json)" "${devs[2]}" "examine device"

# A degraded raid6: the missing member's device is null, its health dead.
# Members capped at 8 MB/s, so the initial resync runs for seconds.
mapfile -t r6 < <(nullb_create_many 4 32 mbps=8)
fanraid create fj6 --level 6 --chunk 16K "${r6[@]}"
on_exit 'fanraid stop fj6 >/dev/null 2>&1 || true'
out=$(fanraid status fj6)
echo "$out"
assert_contains "$out" "progress: resync "
assert_contains "$out" "/s, "
assert_contains "$out" " left"
timeout 5 fanraid status --watch fj6 >/tmp/watch.txt || true
n=$(grep -c 'Every 2s: fanraid status fj6' /tmp/watch.txt)
[ "$n" -ge 2 ] || fail "--watch drew $n reports in 5 s"
for i in $(seq 1 120); do
	case "$(dmsetup status fj6)" in *" idle "*) break ;; esac
	sleep 0.5
done
fanraid stop fj6
fanraid assemble fj6 "${r6[0]}" "${r6[1]}" "${r6[3]}"
rc=0
fanraid status --json fj6 >/tmp/r6.json || rc=$?
cat /tmp/r6.json
assert_eq "$rc" 1 "status exit code of a degraded array"
jq -e '.arrays[0].members[2].device == null and .arrays[0].members[2].health == "dead"' /tmp/r6.json
jq -e '.arrays[0].level == "raid6" and .arrays[0].mismatch_sectors == 0' /tmp/r6.json
fanraid stop fj6
jq -e '.failed_mask == 4 and .state == "clean,degraded"' <(fanraid examine --json "${r6[0]}")
