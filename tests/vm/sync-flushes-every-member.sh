#!/bin/bash
# Exercise flush fan-out: an fsync of the fanraid device, and a filesystem sync on it, reach every member (flush counters in status), and flush_policy drop really drops them.
# group: main
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=4
# cache_size gives null_blk a volatile write cache; without one the block
# layer strips flushes before any target sees them.
mapfile -t d < <(nullb_create_many $n 64 cache_size=16)
assert_eq "$(cat /sys/block/${d[0]#/dev/}/queue/write_cache)" "write back" \
	"null_blk write cache"
len=$(($(dev_sectors "${d[0]}") * n))
pairs=$(member_pairs "${d[@]}")

flushes() { # DEV: every member's flush counter, one a line
	local i
	for ((i = 0; i < n; i++)); do fanraid_counter "$1" $i flushes; done
}

# assert_all_rose BEFORE AFTER WHAT
assert_all_rose() {
	local -a b a
	local i
	mapfile -t b <<<"$1"
	mapfile -t a <<<"$2"
	for ((i = 0; i < n; i++)); do
		[ "${a[i]}" -gt "${b[i]}" ] ||
			fail "$3: member $i flushes ${b[i]} -> ${a[i]}; status: $(dmsetup status fr)"
	done
}

dm_create fr "0 $len fanraid raid0 128 0 $n$pairs"
assert_eq "$(cat /sys/block/$(dmsetup info -c --noheadings -o blkdevname fr)/queue/write_cache)" \
	"write back" "fanraid advertises the members' write cache"
dmsetup message fr 0 stats reset
before=$(flushes fr)
assert_eq "$(echo $before)" "0 0 0 0" "flush counters after stats reset"

# A raw write and an fsync of the device.
dd if=/dev/urandom of=/dev/mapper/fr bs=64k count=16 status=none
sync /dev/mapper/fr
after=$(flushes fr)
assert_all_rose "$before" "$after" "fsync of the device"
log "fsync: flushes per member $(echo $after)"

# A filesystem's sync issues its own flushes (journal commit, sync_fs).
mkfs.ext4 -q -F /dev/mapper/fr
mkdir -p /mnt/fr
mount -t ext4 /dev/mapper/fr /mnt/fr
before=$(flushes fr)
head -c 4M /dev/urandom >/mnt/fr/file
sync
after=$(flushes fr)
assert_all_rose "$before" "$after" "sync of ext4 on fanraid"
log "ext4 sync: flushes per member $(echo $before) -> $(echo $after)"
umount /mnt/fr
dm_remove fr

# flush_policy drop: the members never see a flush.
dm_create fr "0 $len fanraid raid0 128 2 flush_policy drop $n$pairs"
dmsetup message fr 0 stats reset
dd if=/dev/urandom of=/dev/mapper/fr bs=64k count=16 status=none
sync /dev/mapper/fr
assert_eq "$(echo $(flushes fr))" "0 0 0 0" "flushes with flush_policy drop"
writes=$(fanraid_counter fr 0 writes)
[ "$writes" -gt 0 ] || fail "no writes counted on member 0 with flush_policy drop"
dm_remove fr
