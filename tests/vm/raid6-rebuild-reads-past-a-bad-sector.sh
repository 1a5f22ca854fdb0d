#!/bin/bash
# Exercise a RAID6 rebuild onto a blank replacement while a different member has a real bad sector (dm-dust): the rebuild serves that window from the remaining parity, repairs the sector, finishes, and the data is exact.
# group: faults
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

n=5 chunk=128
len=$((24 * (n - 2) * chunk))
mapfile -t raw < <(nullb_create_many $((n + 1)) 8)
for ((i = 0; i < n; i++)); do
	dev[i]=$(dust_create "dust$i" "${raw[i]}")
done
dm_create fr "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${dev[@]}")"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

# Member 1 is replaced by a blank device; member 3 has a bad block in a
# row the rebuild must read: in each row it is data, P or Q.
new=$(dust_create dustnew "${raw[n]}")
bad_sector=$((9 * chunk + 40))
dust_bad dust3 "$bad_sector"
dev[1]=$new
dm_create fr "0 $len fanraid raid6 $chunk 2 rebuild 1 $n$(member_pairs "${dev[@]}")"
fanraid_wait_idle fr 200
status=$(dmsetup status fr)
assert_eq "$(echo "$status" | awk '{ print $6 }')" AAAAA "health after the rebuild: $status"
assert_eq "$(dust_count dust3)" 0 "the rebuild left member 3's bad block unrepaired"
[ "$(fanraid_corrected fr 3)" -gt 0 ] || fail "no read error repaired on member 3: $status"
dmesg | grep -q "rebuild stopped" && fail "the rebuild stopped at the bad sector"

drop_caches
dd if=/dev/mapper/fr of=/tmp/got bs=1M iflag=direct status=none || fail "reading the rebuilt array failed"
cmp /tmp/ref /tmp/got || fail "the rebuilt array returned different data"
dmsetup message dust3 0 disable >/dev/null
drop_caches
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "parity does not match after the rebuild"; }
log "rebuild past a bad sector on member 3: $(tail -n1 /tmp/verify.out)"

dm_remove fr
for d in dust0 dust1 dust2 dust3 dust4 dustnew; do dm_remove "$d"; done
nullb_destroy_all
