#!/bin/bash
# A resync that meets a window with three blocks unreadable at one page (three members' media errors there, dm-dust) still makes P and Q agree at every other page of that window, page by page as md's 4 KiB stripes, and leaves only that page as it was, named in the kernel log and counted at the end. It used to leave the whole window: two pages beside it that a crash had torn stayed torn behind an array that looked in sync.
# group: faults
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || fail "target fanraid 1.4.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

n=6 chunk=128 rows=32 row=5
len=$((rows * (n - 2) * chunk))
mapfile -t dev < <(dust_members $n 4)
table() { # FEATURE_WORDS
	echo "0 $len fanraid raid6 $chunk $1 $n$(member_pairs "${dev[@]}")"
}
dm_create fr "$(table 0)"
head -c $((len * 512)) /dev/urandom | dd of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

# Row 5 torn by a crash at pages 1 and 9 of member 0's block (whatever it
# holds there), and unreadable at page 4 on members 1, 2 and 3: three
# blocks of that page lost, so the page cannot be checked.
for p in 1 9; do
	head -c 4096 /dev/urandom |
		dd of="${dev[0]}" bs=512 seek=$((row * chunk + p * 8)) oflag=direct status=none
done
raidcalc verify -r $row:$row "$(table 0)" >/tmp/verify.out 2>&1 &&
	fail "the torn row passes raidcalc verify: $(tail -n1 /tmp/verify.out)"
bad=$((row * chunk + 4 * 8))
for m in 1 2 3; do
	dust_bad dust$m $bad
done

dmesg_mark
dm_create fr "$(table "1 resync")"
fanraid_wait_idle fr 120
dm_remove fr
dust_verify $n "$(table 0)" "the pages beside the unreadable one"
log "$(tail -n1 /tmp/verify.out)"
dmesg_since | grep -q "resync: row $row, member sectors $bad-$((bad + 7)): more than two blocks unreadable" ||
	fail "the kernel log does not name the unreadable page: $(dmesg_since | tail -n 5)"
dmesg_since | grep -q "resync complete, but pages left as they were, more than two blocks unreadable: 1$" ||
	fail "the resync's end does not count the one page it left: $(dmesg_since | tail -n 5)"
for m in 1 2 3; do
	assert_eq "$(dust_count dust$m)" 1 "dust$m: the unreadable page was never written"
done
