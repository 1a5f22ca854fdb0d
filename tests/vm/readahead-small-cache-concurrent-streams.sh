#!/bin/bash
# Exercise readahead under cache pressure: three concurrent sequential readers on a 1 MiB cache, where fetching ahead must recycle segments, each read back exactly the bytes written.
# group: readahead
# timeout: 400
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=5
mapfile -t d < <(nullb_create_many $n 64 blocksize=4096)
pairs=$(member_pairs "${d[@]}")
len=$((n * 48 * 2048))
# 32 segments of 32 KiB: three streams' windows do not fit, so every fetch
# ahead takes a cached segment back, possibly one a reader has just found.
dm_create fr "0 $len fanraid raid0 64 6 readahead on ra_window 8 ra_cache_mb 1 $n$pairs"

head -c 16M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none

# Reader: NAME BS SKIP COUNT (in BS units), O_DIRECT at queue depth 1.
reader() { sha_reader "$1" /dev/mapper/fr /tmp/data "$2" "$3" "$4"; }
for round in 1 2 3 4; do
	reader a 32k 0 512 &
	reader b 64k 64 192 &
	reader c 128k 64 64 &
	wait
	for r in a b c; do
		assert_eq "$(cat /tmp/got.$r)" "$(cat /tmp/want.$r)" "round $round reader $r"
	done
done
hits=$(fanraid_total fr ra_hits)
wasted=$(fanraid_total fr ra_wasted)
log "hits $hits prefetched $(fanraid_total fr ra_prefetched) wasted $wasted sectors"
[ "$hits" -gt 1000 ] || fail "only $hits hits: the cache was not exercised"
dm_remove fr
