#!/bin/bash
# Exercise a transient member failure with the write-intent bitmap: a member behind dm-linear starts returning EIO, writes go on and set their regions' bits, the member comes back and `fanraid re-add` recovers only those regions (counted in status and in the member's own write counter), and afterwards the array, with two other members failed, still reads every byte exactly from the re-added one.
# group: tool-bitmap
# timeout: 400
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

on_exit 'fanraid stop rb6 >/dev/null 2>&1 || true'

lin_members 6
# 1 MiB regions (2048 sectors): 95 of them on each 96 MiB member.
fanraid create rb6 --level 6 --chunk 64K --bitmap 1M "${lin[@]}"
assert_contains "$(dmsetup table rb6)" " superblock bitmap 2048 6 "
fanraid_wait_idle rb6 150
fanraid_wait_bitmap_clean rb6 40
read -r region dirty synced <<<"$(fanraid_bitmap rb6)"
assert_eq "$region" 2048 "bitmap region"
# virtio disks offer write-zeroes: create zeroed them, no resync ran
log "initial resync covered $synced regions"

# Data everywhere first (a reference copy in RAM), then member 3 goes away.
head -c 64M /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/rb6 bs=1M oflag=direct status=none
fanraid_wait_bitmap_clean rb6 40
dm_swap lin3 "0 $(dev_sectors "${devs[3]}") error"
# 4 MiB of the array while it is away, at array offset 16 MiB: 1 MiB per
# data member, so one or two regions of member sectors.
head -c 4M /dev/urandom >/tmp/away
dd if=/tmp/away of=/tmp/ref bs=1M seek=16 conv=notrunc status=none
dd if=/tmp/away of=/dev/mapper/rb6 bs=1M seek=16 oflag=direct status=none ||
	fail "writes while member 3 is away"
assert_eq "$(fanraid_health rb6 3)" D "member 3 after its EIO"
read -r region dirty synced <<<"$(fanraid_bitmap rb6)"
log "regions written while away: $dirty"
[ "$dirty" -ge 1 ] && [ "$dirty" -le 3 ] || fail "bitmap has $dirty bits set, want 1-3"
# Bits stay while a member is failed, however long it is idle.
sleep 12
assert_eq "$(fanraid_bitmap rb6 | cut -d' ' -f2)" "$dirty" "bits after 12 s idle, degraded"

dm_swap lin3 "0 $(dev_sectors "${devs[3]}") linear ${devs[3]} 0"
out=$(fanraid re-add rb6 /dev/mapper/lin3)
echo "$out"
assert_contains "$out" "slot 3"
assert_contains "$(dmsetup table rb6)" " readd 3 "
fanraid_wait_idle rb6 150
assert_eq "$(fanraid_health rb6 3)" A "member 3 after the re-add"
read -r region dirty2 synced <<<"$(fanraid_bitmap rb6)"
assert_eq "$synced" "$dirty" "regions the recovery covered"
# the new table counts from zero, and only the recovery wrote since
written=$(fanraid_counter rb6 3 write_sectors)
log "re-add wrote $written sectors to member 3 for $dirty regions"
[ "$written" -le $((dirty * 2048 + 64)) ] || fail "re-add wrote $written sectors, more than $dirty regions"
[ "$written" -gt 0 ] || fail "re-add wrote nothing"

# Parity agrees with the data everywhere, member 3 included.
fanraid stop rb6
drop_caches
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${lin[@]}" || fail "parity mismatches after the re-add"
fanraid assemble rb6 "${lin[@]}"
# Members 0 and 1 gone: every row needs member 3's data or parity.
dmsetup message rb6 0 fail 0
dmsetup message rb6 0 fail 1
drop_caches
cmp -n 64M /tmp/ref /dev/mapper/rb6 || fail "data differs with members 0 and 1 failed"
fanraid stop rb6
for k in 0 1 2 3 4 5; do dm_remove "lin$k"; done
