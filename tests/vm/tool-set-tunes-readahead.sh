#!/bin/bash
# Exercise fanraid set: readahead, ra-window and read-ahead-kb reach the running target and sysfs, survive stop and assemble, and bad input exits 2 touching nothing.
# group: tool
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid jq || skip "fanraid or jq missing"

mapfile -t devs < <(nullb_create_many 4 32)
mapfile -t nc < <(nullb_create_many 2 32)
on_exit 'fanraid stop fs >/dev/null 2>&1 || true'
on_exit 'fanraid stop fsn >/dev/null 2>&1 || true'

# The array's read_ahead_kb, found from its major:minor as the tool does.
ra_kb() {
	local mm
	mm=$(dmsetup info -c --noheadings -o major,minor --separator : fs | tr -d ' ')
	cat "/sys/dev/block/$mm/queue/read_ahead_kb"
}

events() {
	fanraid examine --json "$1" | jq -r .events
}

# exit_code WANT CMD...: CMD must exit with status WANT.
exit_code() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	assert_eq "$rc" "$want" "exit status of '$*'"
}

# raid0 of 4 x 64 KiB chunks: a stripe is 256 KiB, two stripes 512 KiB.
fanraid create fs --level 0 --chunk 64K "${devs[@]}"
stripe2_kb=512

ev=$(events "${devs[0]}")
fanraid set fs readahead off
assert_contains "$(dmsetup table fs)" "readahead off"
jq -e '.arrays[0].target_readahead == "off"' <(fanraid status --json fs)
assert_eq "$(events "${devs[0]}")" $((ev + 1)) "events after set"
jq -e '.target_readahead == "off"' <(fanraid examine --json "${devs[3]}")

fanraid set fs ra-window 8
assert_contains "$(dmsetup table fs)" "readahead off ra_window 8"
jq -e '.arrays[0].ra_window == 8' <(fanraid status --json fs)
assert_contains "$(fanraid status fs)" "target readahead off, window 8 stripes"

# Below the kernel's default, so assemble must set it exactly.
fanraid set fs read-ahead-kb 64
assert_eq "$(ra_kb)" 64 "read_ahead_kb after set 64"
jq -e '.arrays[0].readahead_kb == 64' <(fanraid status --json fs)
jq -e '.readahead_sectors == 128' <(fanraid examine --json "${devs[1]}")
fanraid stop fs
fanraid assemble fs "${devs[@]}"
assert_eq "$(ra_kb)" 64 "read_ahead_kb after assemble"
assert_contains "$(dmsetup table fs)" "readahead off ra_window 8"

# Several settings in one call; auto is two full stripes.
fanraid set fs ra-window 16 read-ahead-kb auto
assert_eq "$(ra_kb)" "$stripe2_kb" "read_ahead_kb after auto"
assert_contains "$(dmsetup table fs)" "readahead off ra_window 16"
fanraid set fs ra-window 8
fanraid stop fs
fanraid assemble fs "${devs[@]}"
assert_contains "$(dmsetup table fs)" "readahead off ra_window 8"
assert_eq "$(ra_kb)" "$stripe2_kb" "read_ahead_kb after the second assemble"
jq -e '.target_readahead == "off" and .ra_window == 8' <(fanraid examine --json "${devs[2]}")

# Bad input is a usage error, and changes nothing.
table=$(dmsetup table fs)
ev=$(events "${devs[0]}")
exit_code 2 fanraid set fs ra-window 0
exit_code 2 fanraid set fs ra-window 65
exit_code 2 fanraid set fs readahead maybe
exit_code 2 fanraid set fs readahead
exit_code 2 fanraid set fs read-ahead-kb 0
exit_code 2 fanraid set fs read-ahead-kb lots
exit_code 2 fanraid set fs window 8
exit_code 2 fanraid set fs readahead on readahead off
exit_code 2 fanraid set fs
# ... even when a good setting comes first.
exit_code 2 fanraid set fs readahead on ra-window 99
# Less than a page would round down to none: refused before writing.
exit_code 1 fanraid set fs read-ahead-kb 2
assert_eq "$(dmsetup table fs)" "$table" "table after bad input"
assert_eq "$(events "${devs[0]}")" "$ev" "events after bad input"
assert_eq "$(ra_kb)" "$stripe2_kb" "read_ahead_kb after bad input"
exit_code 1 fanraid set nosuch readahead on
assert_contains "$(fanraid set nosuch readahead on 2>&1 || true)" "nosuch: no such array"

# No readahead cache: the target cannot take it, and no superblock changes.
fanraid create fsn --level 0 --chunk 64K --ra-cache-mb 0 "${nc[@]}"
ev=$(events "${nc[0]}")
exit_code 1 fanraid set fsn readahead on
assert_contains "$(fanraid set fsn ra-window 4 2>&1 || true)" \
	"fsn: the target has no readahead cache (created with --ra-cache-mb 0)"
assert_eq "$(events "${nc[0]}")" "$ev" "events after a refused set"
fanraid stop fsn
fanraid stop fs
