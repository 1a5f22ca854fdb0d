#!/bin/bash
# Exercise a member rebuilt from scratch whose rebuild did not finish, with tables written by hand (no tool to guard it): while `rebuild 3` runs, the kernel records slot 3 failed on the other members and REBUILDING on member 3's own block; once the table is removed mid-rebuild, a table that would re-add member 3 from the bitmap is refused (its events are current, but no bitmap says what it lacks), and a table that lists it plainly loads with member 3 failed, its half-written data never read. Likewise a member whose superblock is behind the others' (the old device of a slot since rebuilt onto a spare) loads failed.
# group: tool-bitmap
# timeout: 500
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(vm_disks 6)
on_exit 'dmsetup remove hr6 >/dev/null 2>&1; dmsetup remove st6 >/dev/null 2>&1; fanraid stop st6 >/dev/null 2>&1 || true'

# The group's disks may hold an earlier scenario's array.
fanraid create hr6 --force --level 6 --chunk 64K --bitmap 1M "${devs[@]}"
fanraid_wait_idle hr6 150
head -c 32M /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/hr6 bs=1M oflag=direct status=none
base=$(dmsetup table hr6)
fanraid stop hr6
log "table: $base"

# with_features EXTRA...: the table with EXTRA feature arguments added.
with_features() {
	echo "$base" | awk -v extra="$*" '{
		k = split(extra, e, " ")
		$6 += k
		$6 = $6 " " extra
		print
	}'
}

dmsetup create hr6 --table "$(with_features rebuild 3 max_sync_rate 64)"
sleep 2
assert_eq "$(dmsetup status hr6 | awk '{ print $8 }')" recover "sync action while member 3 is rebuilt"
read -r st0 ev0 mask0 <<<"$(examine_field "${devs[0]}")"
read -r st3 ev3 mask3 <<<"$(examine_field "${devs[3]}")"
log "member 0: $st0 $ev0 $mask0; member 3: $st3 $ev3 $mask3"
assert_eq "$mask0" 0x8 "failed mask on a survivor during the rebuild"
assert_contains "$st3" rebuilding
assert_eq "$ev3" "$ev0" "member 3's events against a survivor's"
dmsetup remove hr6

dmesg_mark
expect_fail dmsetup create hr6 --table "$(with_features readd 3)"
assert_contains "$(dmesg_since)" "Member cannot be re-added: it was being rebuilt from scratch"
dmsetup remove hr6 2>/dev/null || true

dmsetup create hr6 --table "$base"
assert_eq "$(fanraid_health hr6 3)" D "member 3 in a table that lists it plainly"
cmp -n 32M /tmp/ref /dev/mapper/hr6 || fail "data differs with member 3 left out"
dmsetup remove hr6
zero_superblocks "${devs[@]}"

# A member that missed updates: member 2 fails, writes go on, its slot is
# rebuilt onto another device (which clears slot 2 from the failed mask),
# and the old device comes back in a hand-written table. Its own block is
# events behind the others, and nothing else marks it.
fanraid create st6 --level 6 --chunk 64K "${devs[@]}"
fanraid_wait_idle st6 150
first=$(dmsetup table st6)
dmsetup message st6 0 fail 2
head -c 8M /dev/urandom >/tmp/new
dd if=/tmp/new of=/dev/mapper/st6 bs=1M oflag=direct status=none
spare=$(nullb_create spare6 128)
fanraid replace st6 2 "$spare"
fanraid_wait_idle st6 200
assert_eq "$(dmsetup status st6 | awk '{ print $6 }')" AAAAAA "health after the rebuild onto the spare"
fanraid stop st6
read -r st2 ev2 mask2 <<<"$(examine_field "${devs[2]}")"
read -r st0 ev0 mask0 <<<"$(examine_field "${devs[0]}")"
log "old member 2: $st2 $ev2 $mask2; member 0: $st0 $ev0 $mask0"
assert_eq "$mask0" 0x0 "failed mask once slot 2 is rebuilt"
# The table the array was created with: the old device in slot 2.
dmesg_mark
dmsetup create st6 --table "$first"
assert_contains "$(dmesg_since)" "member 2 is behind the others"
assert_eq "$(fanraid_health st6 2)" D "the old member 2 in a hand-written table"
cmp -n 8M /tmp/new /dev/mapper/st6 || fail "data written while member 2 was away differs"
dmsetup remove st6
zero_superblocks "${devs[@]}"
