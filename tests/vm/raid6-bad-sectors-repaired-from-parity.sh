#!/bin/bash
# Exercise RAID6 read errors from real bad sectors (dm-dust): data is rebuilt from parity and written back, the member stays in service, two bad members in one row are served from Q, and a sector that cannot be rewritten fails only its member.
# group: faults
# timeout: 480
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

n=6 chunk=128
len=$((32 * (n - 2) * chunk))		# 32 rows: 8 MiB of data
mapfile -t dev < <(dust_members $n 16)
table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${dev[@]}")"
dm_create fr "$table"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
drop_caches

# fresh_target: the same table loaded anew, so no read is served from the
# readahead cache of an earlier one (counters start from 0 again).
fresh_target() {
	dmsetup load fr --table "$table"
	dmsetup suspend fr
	dmsetup resume fr
}

# read_all WHAT: the whole array, O_DIRECT, must be the reference.
read_all() {
	drop_caches
	dd if=/dev/mapper/fr of=/tmp/got bs=1M iflag=direct status=none ||
		fail "$1: reading the array failed: $(dmesg | tail -n 5)"
	cmp /tmp/ref /tmp/got || fail "$1: the array returned different data"
}

# 1. Eight bad sectors in the middle of one chunk heal on rewrite.
set -- $(data_where fr "$len" $((3 * (n - 2) * chunk + 2 * chunk + 64)))
m=$1 s=$2
dust_bad "dust$m" "$s"
assert_eq "$(dust_count "dust$m")" 1 "bad block listed"
read_all "one bad block"
assert_eq "$(fanraid_health fr "$m")" A "member $m health after a repaired read"
[ "$(fanraid_corrected fr "$m")" -gt 0 ] || fail "read_errors_corrected of member $m is $(fanraid_corrected fr "$m")"
[ "$(fanraid_counter fr "$m" errors)" -gt 0 ] || fail "the read error was not counted"
assert_eq "$(dust_count "dust$m")" 0 "the rewrite did not heal the bad block"
log "one bad block on member $m at $s: repaired, $(fanraid_corrected fr "$m") corrected"

# 2. Two members bad in the same row and offset: P and Q rebuild both.
set -- $(data_where fr "$len" $((7 * (n - 2) * chunk + 0 * chunk + 32)))
m1=$1 s1=$2
set -- $(data_where fr "$len" $((7 * (n - 2) * chunk + 3 * chunk + 32)))
m2=$1 s2=$2
assert_eq "$s1" "$s2" "both blocks in one row at one offset"
fresh_target
before1=$(fanraid_corrected fr "$m1") before2=$(fanraid_corrected fr "$m2")
dust_bad "dust$m1" "$s1"
dust_bad "dust$m2" "$s2"
read_all "two bad blocks in one row"
[ "$(fanraid_corrected fr "$m1")" -gt "$before1" ] || fail "member $m1 not repaired"
[ "$(fanraid_corrected fr "$m2")" -gt "$before2" ] || fail "member $m2 not repaired"
assert_eq "$(dust_count "dust$m1")" 0 "member $m1 still bad"
assert_eq "$(dust_count "dust$m2")" 0 "member $m2 still bad"
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" AAAAAA "health after two repairs"

# The members agree with raidcalc (ISA-L): the rewrites were the right bytes.
dust_verify $n "$(dmsetup table fr)" "after the repairs"
log "two bad blocks in one row (members $m1, $m2): repaired; $(tail -n1 /tmp/verify.out)"

# 3. A block that fails its rewrites too: the member fails, the data stays.
set -- $(data_where fr "$len" $((11 * (n - 2) * chunk + 1 * chunk + 96)))
m=$1 s=$2
fresh_target
dust_bad "dust$m" "$s" 255
read_all "an unrewritable block"
assert_eq "$(fanraid_health fr "$m")" D "member $m after its rewrite failed"
dmesg | grep -q "member $m failed: rewrite after a read error failed" ||
	fail "the kernel log does not say why member $m failed"
read_all "with member $m failed"
log "unrewritable block on member $m: member failed, data exact"

dm_remove fr
for ((i = 0; i < n; i++)); do dm_remove "dust$i"; done
nullb_destroy_all
