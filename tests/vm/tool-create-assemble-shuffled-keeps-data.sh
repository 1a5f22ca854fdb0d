#!/bin/bash
# Exercise the fanraid tool's life cycle: create -> mkfs -> write -> stop -> assemble with members listed in shuffled order (and by name alone, and --scan) -> data intact.
# group: tool
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid mkfs.ext4 || skip "fanraid or mkfs.ext4 missing"

mapfile -t devs < <(nullb_create_many 4 64)
on_exit 'umount /mnt/fr 2>/dev/null; fanraid stop fr0 >/dev/null 2>&1 || true'

out=$(fanraid create fr0 --level 0 --chunk 64K "${devs[@]}")
echo "$out"
assert_contains "$out" "/dev/mapper/fr0"
assert_contains "$out" "mkfs.ext4 -E stride=16,stripe_width=64"
[ -b /dev/mapper/fr0 ] || fail "/dev/mapper/fr0 missing after create"

# The table the tool loaded is what the kernel prints back, members by slot.
table=$(dmsetup table fr0)
log "table: $table"
want="raid0 128 0 4"
for d in "${devs[@]}"; do
	want="$want $(cat "/sys/class/block/${d##*/}/dev") 2048"
done
assert_contains "$table" "fanraid $want" "dmsetup table"
# Length: the smallest member's data area in whole 64 KiB chunks, times 4.
len=$(echo "$table" | awk '{ print $2 }')
assert_eq "$len" $(((64 * 2048 - 2048) / 128 * 128 * 4)) "target length"

mkfs.ext4 -q -F /dev/mapper/fr0
mkdir -p /mnt/fr
mount /dev/mapper/fr0 /mnt/fr
head -c 50M /dev/urandom >/mnt/fr/data
sum=$(sha256sum </mnt/fr/data)
umount /mnt/fr

out=$(fanraid stop fr0)
echo "$out"
assert_contains "$out" "4 members marked clean"
[ ! -e /dev/mapper/fr0 ] || fail "/dev/mapper/fr0 still present after stop"
fanraid examine "${devs[2]}"
assert_contains "$(fanraid examine "${devs[2]}")" "slot 2 of 4"
assert_contains "$(fanraid examine "${devs[2]}")" "state: clean"

# Shuffled order: the superblocks, not the command line, decide the slots.
out=$(fanraid assemble fr0 "${devs[3]}" "${devs[1]}" "${devs[0]}" "${devs[2]}")
echo "$out"
assert_contains "$out" "from 4 of 4 members: ${devs[0]} ${devs[1]} ${devs[2]} ${devs[3]}"
assert_contains "$(dmsetup table fr0)" "fanraid $want"
assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty"
mount /dev/mapper/fr0 /mnt/fr
assert_eq "$(sha256sum </mnt/fr/data)" "$sum" "data after shuffled assemble"
umount /mnt/fr
fanraid stop fr0

# By name alone: the tool finds the members itself.
fanraid assemble fr0
mount -o ro /dev/mapper/fr0 /mnt/fr
assert_eq "$(sha256sum </mnt/fr/data)" "$sum" "data after assemble by name"
umount /mnt/fr
fanraid stop fr0

# --scan, then again: the second run finds it already running.
fanraid assemble --scan
out=$(fanraid assemble --scan)
assert_contains "$out" "fr0: already running"
e2fsck -fn /dev/mapper/fr0
fanraid list | grep -q '^fr0	raid0	4 members' || fail "list does not show fr0: $(fanraid list)"
fanraid status fr0
fanraid stop fr0
