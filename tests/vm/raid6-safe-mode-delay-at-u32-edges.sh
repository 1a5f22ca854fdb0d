#!/bin/bash
# Exercise safe_mode_delay at the edges of u32 on members with real superblocks: 0 marks the array clean as soon as writes stop, 4294967295 keeps it dirty while it runs and clean only once suspended for removal, 4294967296 and 2^64-1 are refused naming the argument, and the feature without superblock is refused.
# group: tool
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || skip "target fanraid 1.3.0 missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(nullb_create_many 4 16)
on_exit 'dmsetup remove sm >/dev/null 2>&1 || true; fanraid stop s6 >/dev/null 2>&1 || true'

fanraid create s6 --level 6 --chunk 16K --bitmap none "${devs[@]}"
fanraid_wait_idle s6 120
table=$(dmsetup table s6)
fanraid stop s6
assert_contains "$table" " 2 resync superblock 4 "

# with DELAY: the table line, without the resync the tool asked for at create
line() {
	echo "$table" | sed "s/ 2 resync superblock 4 / 3 superblock safe_mode_delay $1 4 /"
}
write_some() {
	dd if=/dev/urandom of=/dev/mapper/sm bs=64k count=4 oflag=direct status=none
}
sb_state() {
	fanraid_sb_state sm
}

dm_create sm "$(line 0)"
assert_contains "$(dmsetup table sm)" "superblock safe_mode_delay 0 4 "
write_some
sleep 0.5
assert_eq "$(sb_state)" clean "state 0.5 s after writes with safe_mode_delay 0"
dm_remove sm

dm_create sm "$(line 4294967295)"
write_some
sleep 1
assert_eq "$(sb_state)" dirty "state 1 s after writes with safe_mode_delay 4294967295"
assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty"
dm_remove sm
assert_contains "$(fanraid examine "${devs[0]}")" "state: clean"

for v in 4294967296 18446744073709551615 -1; do
	dmesg_mark
	dmsetup create sm --table "$(line "$v")" 2>/dev/null && fail "safe_mode_delay $v loaded"
	assert_contains "$(dmesg_since)" "Invalid safe_mode_delay: not a number of ms (0-4294967295)"
done
dmesg_mark
bad=$(echo "$table" | sed "s/ 2 resync superblock 4 / 2 safe_mode_delay 5 4 /")
dmsetup create sm --table "$bad" 2>/dev/null && fail "safe_mode_delay without superblock loaded"
assert_contains "$(dmesg_since)" "Feature safe_mode_delay requires superblock"
