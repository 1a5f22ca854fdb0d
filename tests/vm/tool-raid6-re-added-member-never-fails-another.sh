#!/bin/bash
# Two members away one after the other and re-added in turn: member 1 fails (its peers record it), then member 0 (whose own block still names member 1 failed); member 1 is re-added and recovered, then member 0. The kernel's first superblock update after member 0's re-add must not take the failed mask from member 0's old block: member 1, in sync, stays in sync on disk (failed mask 0 once both are recovered), and the next assembly takes all six members. Then again with member 0 re-added by assembly, where the first update is the one at the end of its recovery. It used to record member 1 failed again, and assembly left it out.
# group: tool-bitmap
# timeout: 400
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || fail "target fanraid 1.4.0 missing"
have_cmd fanraid || fail "fanraid missing"

on_exit 'fanraid stop rr6 >/dev/null 2>&1 || true'
mask() { examine_field "$1" | awk '{ print $3 }'; }

lin_members 6
fanraid create rr6 --level 6 --chunk 64K --bitmap 1M "${lin[@]}"
fanraid_wait_idle rr6 150
fanraid_wait_bitmap_clean rr6 40
head -c 32M /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/rr6 bs=1M oflag=direct status=none

# away_write SLOT MIB_OFFSET: member SLOT returns EIO; 2 MiB written at
# MIB_OFFSET fail it, and its peers record it.
away_write() {
	dm_swap "lin$1" "0 $(dev_sectors "${devs[$1]}") error"
	head -c 2M /dev/urandom >/tmp/away
	dd if=/tmp/away of=/tmp/ref bs=1M seek="$2" conv=notrunc status=none
	dd if=/tmp/away of=/dev/mapper/rr6 bs=1M seek="$2" oflag=direct status=none ||
		fail "writes while member $1 is away"
	assert_eq "$(fanraid_health rr6 "$1")" D "member $1 after its EIO"
}
# back SLOT: the member returns and is re-added; its recovery ends.
back() {
	dm_swap "lin$1" "0 $(dev_sectors "${devs[$1]}") linear ${devs[$1]} 0"
	fanraid re-add rr6 "/dev/mapper/lin$1"
	fanraid_wait_idle rr6 150
	assert_eq "$(fanraid_health rr6 "$1")" A "member $1 after its re-add"
}
away_write 1 4
away_write 0 12
log "member 0's own block: failed mask $(mask "${devs[0]}"); member 2's: $(mask "${devs[2]}")"
assert_eq "$(mask "${devs[0]}")" 0x2 "member 0's old block names member 1"
back 1
back 0
for i in 0 1 2 3 4 5; do
	assert_eq "$(mask "${devs[i]}")" 0x0 "member $i's failed mask with every member recovered"
done
fanraid stop rr6
out=$(fanraid assemble rr6 "${lin[@]}" 2>&1)
echo "$out"
assert_contains "$out" "from 6 of 6 members"
cmp <(head -c 32M /dev/mapper/rr6) /tmp/ref

# The same, but member 0 comes back at assembly: re-added there, the array
# dirty from the start, so the first update may be the one that ends its
# recovery (the pass has taken it out of rebuilding by then).
away_write 1 4
away_write 0 12
back 1
fanraid stop rr6
dm_swap lin0 "0 $(dev_sectors "${devs[0]}") linear ${devs[0]} 0"
assert_eq "$(mask "${devs[0]}")" 0x2 "member 0's old block names member 1 again"
out=$(fanraid assemble rr6 "${lin[@]}" 2>&1)
echo "$out"
assert_contains "$(dmsetup table rr6)" " readd 0 "
fanraid_wait_idle rr6 150
assert_eq "$(fanraid_health rr6 0)" A "member 0 after its re-add at assembly"
for i in 0 1 2 3 4 5; do
	assert_eq "$(mask "${devs[i]}")" 0x0 "member $i's failed mask after the re-add at assembly"
done
cmp <(head -c 32M /dev/mapper/rr6) /tmp/ref
fanraid stop rr6
out=$(fanraid assemble rr6 "${lin[@]}" 2>&1)
echo "$out"
assert_contains "$out" "from 6 of 6 members"
fanraid stop rr6
