#!/bin/bash
# Exercise flush_policy dirty: a flush reaches exactly the members that completed a write since their last flush, the others are counted as elided, and passthrough still flushes every member.
# group: main
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=4
# A volatile write cache, or the block layer strips flushes before the target.
mapfile -t d < <(nullb_create_many $n 64 cache_size=16 blocksize=4096)
pairs=$(member_pairs "${d[@]}")
len=$(($(dev_sectors "${d[0]}") * n))

flushes() {
	local i
	for ((i = 0; i < n; i++)); do fanraid_counter fr $i flushes; done
}

# write_and_flush CHUNK: one 4 KiB write into logical chunk CHUNK, then fsync.
write_and_flush() {
	dd if=/dev/urandom of=/dev/mapper/fr bs=64k count=1 seek="$1" \
		oflag=direct conv=fsync status=none
}

dm_create fr "0 $len fanraid raid0 128 2 flush_policy dirty $n$pairs"
dmsetup message fr 0 stats reset
assert_eq "$(echo $(flushes))" "0 0 0 0" "counters after reset"

write_and_flush 0
assert_eq "$(echo $(flushes))" "1 0 0 0" "flushes after writing member 0"
elided=$(fanraid_total fr flushes_elided)
[ "$elided" -ge 3 ] || fail "flushes_elided $elided after one write"

write_and_flush 2
assert_eq "$(echo $(flushes))" "1 0 1 0" "flushes after writing member 2"

# A flush with nothing written reaches nobody.
sync /dev/mapper/fr
assert_eq "$(echo $(flushes))" "1 0 1 0" "flushes with nothing written"

# Four chunks: every member written, every member flushed.
dd if=/dev/urandom of=/dev/mapper/fr bs=256k count=1 oflag=direct conv=fsync status=none
assert_eq "$(echo $(flushes))" "2 1 2 1" "flushes after writing every member"
assert_contains "$(dmsetup table fr)" " 2 flush_policy dirty " "table"
dm_remove fr

# passthrough: every flush reaches every member.
dm_create fr "0 $len fanraid raid0 128 2 flush_policy passthrough $n$pairs"
dmsetup message fr 0 stats reset
write_and_flush 0
assert_eq "$(echo $(flushes))" "1 1 1 1" "passthrough flushes"
assert_eq "$(fanraid_total fr flushes_elided)" 0 "elided with passthrough"
dm_remove fr
