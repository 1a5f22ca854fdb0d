#!/bin/bash
# Exercise the tool's RAID6 stripe cache setting: create --stripe-cache-mb reaches the table and the superblocks, status shows it with the target's use of it, set stripe-cache-mb reloads a running array without losing data and survives stop and assemble, and sizes below the geometry's minimum or on raid0 exit 2 touching nothing.
# group: tool
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 1 0 || skip "target fanraid 1.1.0 missing"
have_cmd fanraid jq || skip "fanraid or jq missing"

mapfile -t devs < <(nullb_create_many 6 48)
on_exit 'fanraid stop sc >/dev/null 2>&1 || true'

# exit_code WANT CMD...: CMD must exit with status WANT.
exit_code() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	assert_eq "$rc" "$want" "exit status of '$*'"
}

# 6 members, 128 KiB chunks: two operations of 8 x 128 KiB, 2 MiB.
exit_code 2 fanraid create sc --level 6 --chunk 128K --stripe-cache-mb 1 "${devs[@]}"
exit_code 2 fanraid create sc --level 0 --stripe-cache-mb 8 "${devs[@]}"
exit_code 2 fanraid create sc --level 6 --stripe-cache-mb 4097 "${devs[@]}"
dmsetup info sc >/dev/null 2>&1 && fail "a refused create left sc behind"
fanraid examine "${devs[0]}" >/dev/null 2>&1 && fail "a refused create wrote a superblock"

fanraid create sc --level 6 --chunk 128K --stripe-cache-mb 12 "${devs[@]}"
fanraid_wait_idle sc
assert_contains "$(dmsetup table sc)" "stripe_cache_mb 12 superblock bitmap 131072 6"
jq -e '.stripe_cache_mb == 12' <(fanraid examine --json "${devs[5]}") >/dev/null ||
	fail "superblock: $(fanraid examine --json "${devs[5]}")"
dd if=/dev/urandom of=/tmp/data bs=1M count=8 status=none
dd if=/tmp/data of=/dev/mapper/sc bs=1M oflag=direct status=none
jq -e '.arrays[0].stripe_cache | .mb == 12 and .default == false and .peak_kib > 0' \
	<(fanraid status --json sc) >/dev/null ||
	fail "status: $(fanraid status --json sc)"
assert_contains "$(fanraid status sc)" "12 MiB"

# A running array gets a new size by reload; the data stays.
fanraid set sc stripe-cache-mb 32
assert_contains "$(dmsetup table sc)" "stripe_cache_mb 32 superblock bitmap 131072 6"
cmp <(dd if=/dev/mapper/sc bs=1M count=8 iflag=direct status=none) /tmp/data ||
	fail "data changed across set stripe-cache-mb"
exit_code 2 fanraid set sc stripe-cache-mb 1
assert_contains "$(dmsetup table sc)" "stripe_cache_mb 32 superblock bitmap 131072 6"

fanraid stop sc
fanraid assemble sc "${devs[@]}"
assert_contains "$(dmsetup table sc)" "stripe_cache_mb 32 superblock bitmap 131072 6"
cmp <(dd if=/dev/mapper/sc bs=1M count=8 iflag=direct status=none) /tmp/data ||
	fail "data changed across stop and assemble"
# raidcalc reads the table as the tool wrote it, feature and all.
fanraid_wait_idle sc
table=$(dmsetup table sc)
fanraid stop sc
raidcalc verify "$table" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "raidcalc verify of $table"; }
log "stripe_cache_mb 12 at create, 32 after set, kept by assemble"
