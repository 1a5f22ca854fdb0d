#!/bin/bash
# Exercise a write-intent bitmap whose copies differ, as a crash in the middle of a bitmap write leaves them: one region's bit on member 0 alone. Assembled, every member holds the union at once (their bitmap pages compared byte for byte). Then member 0 fails through a real EIO while that region is written, comes back with `fanraid re-add`, and the recovery covers the region: with two other members failed the array still reads every byte from it, and raidcalc verify finds parity in agreement.
# group: tool-bitmap
# timeout: 400
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

on_exit 'fanraid stop rb6 >/dev/null 2>&1 || true'

lin_members 6
# 1 MiB regions: 95 bits, the first bytes of the page at byte 8192.
# The group's disks may hold an earlier scenario's array.
fanraid create rb6 --force --level 6 --chunk 64K --bitmap 1M "${lin[@]}"
fanraid_wait_idle rb6 150
fanraid_wait_bitmap_clean rb6 40
head -c 64M /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/rb6 bs=1M oflag=direct status=none
fanraid_wait_bitmap_clean rb6 40
fanraid stop rb6

# bitmap_page K: member K's bitmap page as hex, read past the page cache.
bitmap_page() {
	dd if="${lin[$1]}" bs=4096 skip=2 count=1 iflag=direct status=none | od -An -tx1 | tr -d ' \n'
}
# Array offset 16 MiB is row 64 (4 data members of 64 KiB), member sector
# 8192: region 4, bit 4 of byte 0. Only member 0 got it.
printf '\x10' | dd of="${lin[0]}" bs=1 seek=8192 conv=notrunc status=none
sync
drop_caches
assert_eq "$(bitmap_page 0 | cut -c1-2)" 10 "member 0's first bitmap byte"
assert_eq "$(bitmap_page 3 | cut -c1-2)" 00 "member 3's first bitmap byte"

fanraid assemble rb6 "${lin[@]}"
# At once, before the cleaner's first look (5 s): every member has the bit.
for k in 1 2 3 4 5; do
	assert_eq "$(bitmap_page "$k")" "$(bitmap_page 0)" "member $k's bitmap page against member 0's"
done
assert_eq "$(bitmap_page 5 | cut -c1-2)" 10 "member 5's first bitmap byte"

# Member 0 goes away through EIO while region 4 is written.
dm_swap lin0 "0 $(dev_sectors "${devs[0]}") error"
head -c 1M /dev/urandom >/tmp/away
dd if=/tmp/away of=/tmp/ref bs=1M seek=16 conv=notrunc status=none
dd if=/tmp/away of=/dev/mapper/rb6 bs=1M seek=16 oflag=direct status=none ||
	fail "writes while member 0 is away"
assert_eq "$(fanraid_health rb6 0)" D "member 0 after its EIO"
read -r region dirty synced <<<"$(fanraid_bitmap rb6)"
log "bits set while member 0 is away: $dirty"
[ "$dirty" -ge 1 ] || fail "no bit set while member 0 is away"

dm_swap lin0 "0 $(dev_sectors "${devs[0]}") linear ${devs[0]} 0"
fanraid re-add rb6 /dev/mapper/lin0
fanraid_wait_idle rb6 150
assert_eq "$(fanraid_health rb6 0)" A "member 0 after the re-add"
read -r region dirty2 synced <<<"$(fanraid_bitmap rb6)"
log "the re-add recovered $synced regions"
[ "$synced" -ge 1 ] || fail "the re-add recovered no region"

# Members 1 and 2 gone: every row needs member 0's data or parity.
dmsetup message rb6 0 fail 1
dmsetup message rb6 0 fail 2
drop_caches
cmp -n 64M /tmp/ref /dev/mapper/rb6 || fail "data differs with members 1 and 2 failed"
fanraid stop rb6
drop_caches
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${lin[@]}" >/tmp/verify.out 2>&1 ||
	{ tail -n 3 /tmp/verify.out; fail "parity mismatches"; }
for k in 0 1 2 3 4 5; do dm_remove "lin$k"; done
zero_superblocks "${devs[@]}"
