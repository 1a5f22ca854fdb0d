#!/bin/bash
# Exercise readahead coherence: data prefetched into the cache and then overwritten is never served again, under repeated overwrites inside the prefetch window.
# group: readahead
# timeout: 400
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=5
mapfile -t d < <(nullb_create_many $n 64 blocksize=4096)
pairs=$(member_pairs "${d[@]}")
len=$((n * 48 * 2048))
dm_create fr "0 $len fanraid raid0 64 4 readahead on ra_window 8 $n$pairs"

head -c 16M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none

# Start a stream so the next stripes are cached, overwrite inside them,
# read on: the new bytes must come back, at several places.
for off in 1 7 13 29 61 101; do
	dd if=/dev/mapper/fr of=/dev/null bs=64k count=$off iflag=direct status=none
	head -c 192k /dev/urandom >/tmp/patch
	dd if=/tmp/patch of=/dev/mapper/fr bs=64k seek=$((off + 2)) oflag=direct status=none
	dd if=/tmp/patch of=/tmp/data bs=64k seek=$((off + 2)) conv=notrunc status=none
	cmp <(dd if=/dev/mapper/fr bs=64k count=256 iflag=direct status=none) /tmp/data ||
		fail "stale data after overwriting 64k blocks $((off + 2))-$((off + 4))"
done
[ "$(fanraid_total fr ra_hits)" -gt 0 ] || fail "readahead never hit: the test proves nothing"

dm_remove fr
