#!/bin/bash
# Exercise a member rebuilt from scratch whose rebuild did not finish, with tables written by hand (no tool to guard it): while `rebuild 3` runs, the kernel records slot 3 failed on the other members and REBUILDING on member 3's own block; once the table is removed mid-rebuild, a table that would re-add member 3 from the bitmap is refused (its events are current, but no bitmap says what it lacks), and a table that lists it plainly loads with member 3 failed, its half-written data never read.
# group: tool-bitmap
# timeout: 300
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(vm_disks 6)
on_exit 'dmsetup remove hr6 >/dev/null 2>&1; fanraid stop hr6 >/dev/null 2>&1 || true'

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
