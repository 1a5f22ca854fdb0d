#!/bin/bash
# A read of P or Q that fails during a resync or a repair (a bad sector, dm-dust) is rebuilt from the data and written back, and the other parity, read as it was, is still compared and rewritten where wrong: over members of random bytes a resync meeting bad P and Q sectors leaves raidcalc (ISA-L) finding every row right, and a repair meeting a bad P beside a corrupted Q corrects the Q. When the lost half was regenerated with both halves, the other compared equal to itself and kept its random bytes (a CI run of raid6-resync-losing-a-member-makes-q-agree, whose member failed on a read of Q).
# group: faults
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

n=6 chunk=128
rows=24
len=$((rows * (n - 2) * chunk))
mapfile -t dev < <(dust_members $n 8)
for d in "${dev[@]}"; do
	head -c $((rows * chunk * 512)) /dev/urandom |
		dd of="$d" bs=1M oflag=direct status=none
done
table() { # FEATURE_WORDS
	echo "0 $len fanraid raid6 $chunk $1 $n$(member_pairs "${dev[@]}")"
}
# Where raidcalc (ISA-L's side) puts row R's P and Q.
p_member() { raidcalc_field "$(table 0)" $(($1 * (n - 2) * chunk)) p_member; }
q_member() { raidcalc_field "$(table 0)" $(($1 * (n - 2) * chunk)) q_member; }
verify() { # WHAT
	dust_verify $n "$(table 0)" "$1"
	log "$1: $(tail -n1 /tmp/verify.out)"
}

bad=
# 1. Resync: member 0 holds Q of row 6 and P of row 11, both unreadable
# at one page; member 3 holds P of row 8 and Q of row 15, likewise.
for r in 6 11 8 15; do
	m=$(p_member $r)
	{ [ $r = 6 ] || [ $r = 15 ]; } && m=$(q_member $r)
	dust_bad "dust$m" $((r * chunk + 24))
	bad="$bad row $r member $m;"
done
assert_eq "$(q_member 6) $(p_member 11) $(p_member 8) $(q_member 15)" "0 0 3 3" "parity members"
dm_create fr "$(table "1 resync")"
fanraid_wait_idle fr 120
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" AAAAAA "health after the resync"
for m in 0 3; do
	assert_eq "$(dust_count "dust$m")" 0 "member $m's bad blocks left after the resync"
	[ "$(fanraid_corrected fr $m)" -gt 0 ] || fail "no read error corrected on member $m"
done
dm_remove fr
verify "resync over bad parity sectors ($bad)"

# 2. Repair: row 17's P (member 0) unreadable at one page, its Q (member
# 1) changed behind the target's back at the same page.
r=17
assert_eq "$(p_member $r) $(q_member $r)" "0 1" "row $r's P and Q members"
head -c 4096 /dev/urandom |
	dd of="${dev[1]}" bs=512 seek=$((r * chunk + 40)) oflag=direct status=none
dust_bad dust0 $((r * chunk + 40))
dm_create fr "$(table 0)"
dmsetup message fr 0 repair
fanraid_wait_idle fr 120
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" AAAAAA "health after the repair"
assert_eq "$(dust_count dust0)" 0 "member 0's bad block left after the repair"
dm_remove fr
verify "repair over a bad P beside a wrong Q"
