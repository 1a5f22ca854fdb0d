#!/bin/bash
# Exercise a RAID6 read-modify-write that meets a bad sector (dm-dust): a 4 KiB write on 8 members pins its data page, P and Q only; when the old data's read fails, the write is done again as a reconstruct-write on every slot, the new data lands on the bad block (which heals), the member stays in service with the read counted as repaired, and the array matches a reference file and raidcalc (ISA-L).
# group: faults
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

# 8 members: a 4 KiB write reads 3 slots read-modifying, 5 reconstructing.
n=8 chunk=128
len=$((16 * (n - 2) * chunk))		# 16 rows: 6 MiB of data
mapfile -t dev < <(dust_members $n 4)
table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${dev[@]}")"
dm_create fr "$table"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
# A new table: no parity kept from those writes, so the writes below read.
dm_swap fr "$table"

# write4k LOGICAL: 4 KiB of new data there, O_DIRECT, in the reference too.
write4k() {
	head -c 4096 /dev/urandom >/tmp/new
	dd if=/tmp/new of=/dev/mapper/fr bs=512 seek="$1" oflag=direct \
		status=none || fail "4 KiB write at $1 failed: $(dmesg | tail -n 5)"
	dd if=/tmp/new of=/tmp/ref bs=512 seek="$1" conv=notrunc status=none
}

# A healthy 4 KiB write: 3 pages of the stripe cache (12 KiB), not 8.
dmsetup message fr 0 stats reset
write4k $((2 * (n - 2) * chunk + 3 * chunk + 16))
assert_eq "$(fanraid_total fr stripe_cache_peak_kib)" 12 \
	"stripe cache peak (KiB) of one read-modify-write"

# The same over a bad sector of its own data block.
logical=$((5 * (n - 2) * chunk + 2 * chunk + 64))
set -- $(data_where fr "$len" "$logical")
m=$1 s=$2
dust_bad "dust$m" "$s"
assert_eq "$(dust_count "dust$m")" 1 "bad block listed"
dmsetup message fr 0 stats reset
write4k "$logical"
assert_eq "$(fanraid_total fr stripe_cache_peak_kib)" $((n * 4)) \
	"stripe cache peak (KiB) of the write done again on every slot"
assert_eq "$(fanraid_health fr "$m")" A "member $m health after the write"
[ "$(fanraid_counter fr "$m" errors)" -gt 0 ] || fail "the read error was not counted"
[ "$(fanraid_corrected fr "$m")" -gt 0 ] ||
	fail "read_errors_corrected of member $m is $(fanraid_corrected fr "$m")"
assert_eq "$(dust_count "dust$m")" 0 "the write did not heal the bad block"

drop_caches
dd if=/dev/mapper/fr of=/tmp/got bs=1M iflag=direct status=none ||
	fail "reading the array failed: $(dmesg | tail -n 5)"
cmp /tmp/ref /tmp/got || fail "the array returned different data"
dm_remove fr
dust_verify $n "$table" "after the writes"
log "bad sector on member $m at $s under a 4 KiB write: rewritten, $(tail -n1 /tmp/verify.out)"
for ((i = 0; i < n; i++)); do dm_remove "dust$i"; done
nullb_destroy_all
