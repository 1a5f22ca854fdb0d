#!/bin/bash
# Exercise RAID6 scrub: pages of P, Q and data corrupted on the members behind the target's back are counted by check without being changed, corrected by repair (the data page restored, not parity rewritten from it), and a second check and raidcalc verify then find nothing.
# group: raid6
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

n=5 chunk=128 off=2048
rows=10
stripe=$(((n - 2) * chunk))
len=$((rows * stripe))
mapfile -t devs < <(nullb_create_many "$n" $(((off + rows * chunk) / 2048 + 1)))
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done
dm_create fr "$table"

status() { dmsetup status fr | awk -v f="$1" '{ print $f }'; }
# mismatch_cnt follows the six counters of each member.
mismatches() { dmsetup status fr | awk '{ print $(9 + 6 * $5) }'; }

run_pass() { # ACTION
	local i
	dmsetup message fr 0 "$1"
	for ((i = 0; i < 600; i++)); do
		[ "$(status 8)" = idle ] && return 0
		sleep 0.2
	done
	fail "$1 still running after 120s: $(dmsetup status fr)"
}

map_field() { # LOGICAL FIELD
	raidcalc_field "$table" "$1" "$2"
}

# 4 KiB of random bytes at member MEMBER's data-area sector SECTOR.
corrupt() { # MEMBER SECTOR
	head -c 4096 /dev/urandom >/tmp/junk
	dd if=/tmp/junk of="${devs[$1]}" bs=512 seek=$((off + $2)) oflag=direct status=none
}

head -c $((len * 512)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
run_pass check
assert_eq "$(mismatches)" 0 "check of a freshly written array: mismatch_cnt"

# P of row 2 (its second page), Q of row 5, data of row 7.
corrupt "$(map_field $((2 * stripe)) p_member)" $((2 * chunk + 8))
corrupt "$(map_field $((5 * stripe)) q_member)" $((5 * chunk))
dl=$((7 * stripe + chunk + 16))
corrupt "$(map_field "$dl" member)" "$(map_field "$dl" sector)"
# One block wrong per row: P and Q name it, and repair restores what was
# written (/tmp/data is left as it was).
drop_caches
raidcalc verify "$table" >/tmp/verify.out 2>&1 && fail "raidcalc verify missed the corruption"
log "corrupted: $(tail -n1 /tmp/verify.out)"

run_pass check
cnt=$(mismatches)
[ "$cnt" -ge 24 ] && [ "$cnt" -le 48 ] ||
	fail "check after corrupting three pages: mismatch_cnt $cnt, want 24..48 sectors"
log "check found mismatch_cnt $cnt"
drop_caches
raidcalc verify "$table" >/tmp/verify.out 2>&1 && fail "check changed the members: $(cat /tmp/verify.out)"
log "after check, raidcalc still finds: $(tail -n1 /tmp/verify.out)"

run_pass repair
cnt=$(mismatches)
[ "$cnt" -ge 24 ] || fail "repair counted mismatch_cnt $cnt, want >= 24"
run_pass check
assert_eq "$(mismatches)" 0 "check after repair: mismatch_cnt"
drop_caches
raidcalc verify "$table" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "raidcalc verify after repair"; }
log "after repair: $(tail -n1 /tmp/verify.out)"

dd if=/dev/mapper/fr iflag=direct bs=1M status=none | cmp /tmp/data - ||
	fail "repair did not restore the data written"
# The repaired parity rebuilds the data: read with the data member and P failed.
dmsetup message fr 0 fail "$(map_field "$dl" member)"
dmsetup message fr 0 fail "$(map_field "$dl" p_member)"
dd if=/dev/mapper/fr iflag=direct bs=1M status=none | cmp /tmp/data - ||
	fail "repaired parity does not rebuild the data"
dm_remove fr
