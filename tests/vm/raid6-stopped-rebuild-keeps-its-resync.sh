#!/bin/bash
# A rebuild that also owed a resync (a member replaced after an unclean stop) and stops at a row it cannot rebuild (two more members unreadable there, dm-dust) goes on as a resync from that row: the rows above it are made to agree, as md keeps its resync point when a recovery stops, and the kernel log names the row the resync could not read. It used to go idle, and the array looked clean with torn rows above the stop.
# group: faults
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || fail "target fanraid 1.4.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

n=6 chunk=128
rows=64 stop=10
len=$((rows * (n - 2) * chunk))
mapfile -t dev < <(dust_members $n 8)
table() { # FEATURE_WORDS
	echo "0 $len fanraid raid6 $chunk $1 $n$(member_pairs "${dev[@]}")"
}
dm_create fr "$(table 0)"
head -c $((len * 512)) /dev/urandom | dd of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

# Rows 40 and 60 torn by the crash: member 0's block changed, P and Q
# not. The pass has at most 16 windows (rows here) in flight, so when it
# stops at row 10 it has not reached them.
for r in 40 60; do
	head -c 4096 /dev/urandom |
		dd of="${dev[0]}" bs=512 seek=$((r * chunk + 40)) oflag=direct status=none
done
raidcalc verify -r 27:37 "$(table 0)" >/tmp/verify.out 2>&1 &&
	fail "the torn rows pass raidcalc verify: $(tail -n1 /tmp/verify.out)"
# Member 1 is new (random bytes); members 3 and 4 are unreadable at one
# page of row 10, so the rebuild has three blocks lost there.
head -c $((rows * chunk * 512)) /dev/urandom |
	dd of="${dev[1]}" bs=1M oflag=direct status=none
dust_bad dust3 $((stop * chunk + 16))
dust_bad dust4 $((stop * chunk + 16))

dmesg_mark
dm_create fr "$(table "3 rebuild 1 resync")"
fanraid_wait_idle fr 120
log "after the pass: health $(fanraid_health fr 1), lost row $(fanraid_lost_row fr)"
assert_eq "$(fanraid_lost_row fr)" $stop "row the rebuild stopped at"
assert_eq "$(fanraid_health fr 1)" D "member 1's health after the stopped rebuild"
dm_remove fr
dust_verify $n "$(table 0)" "rows above the stopped rebuild" --missing 1
log "$(tail -n1 /tmp/verify.out)"
dmesg_since | grep -q "rebuild stopped at row $stop .*the resync goes on" ||
	fail "the kernel log does not say the resync goes on: $(dmesg_since | tail -n 5)"
dmesg_since | grep -q "resync: row $stop, member sectors .* unreadable" ||
	fail "the kernel log does not name row $stop as unreadable to the resync"
dmesg_since | grep -q "resync complete, but pages left as they were, more than two blocks unreadable: 1$" ||
	fail "the resync's end does not count the window it left: $(dmesg_since | tail -n 5)"
