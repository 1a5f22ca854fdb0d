#!/bin/bash
# Exercise readahead: sequential O_DIRECT reads at queue depth 1 are served from the prefetch cache with the right bytes, random reads waste little, the switch and window messages work and round-trip in the table, and memory stays put.
# group: readahead
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=8
mapfile -t d < <(nullb_create_many $n 64 blocksize=4096)
pairs=$(member_pairs "${d[@]}")
len=$((n * 48 * 2048))

dm_create fr "0 $len fanraid raid0 128 0 $n$pairs"
# Off by default: the switch is a message away.
dmsetup message fr 0 readahead on
head -c 32M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
want=$(sha256sum </tmp/data)

# Sequential, one request at a time: most reads must hit the cache.
dmsetup message fr 0 stats reset
kernel_kib() { # slab and vmalloc: where leaked bios and requests would show
	drop_caches
	awk '/^(Slab|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}
free_kib() { drop_caches; awk '/^MemFree:/ { print $2 }' /proc/meminfo; }
kernel_before=$(kernel_kib)
free_before=$(free_kib)
got=$(dd if=/dev/mapper/fr bs=256k count=128 iflag=direct status=none | sha256sum)
assert_eq "$got" "$want" "sequential O_DIRECT read through readahead"
hits=$(fanraid_total fr ra_hits)
misses=$(fanraid_total fr ra_misses)
prefetched=$(fanraid_total fr ra_prefetched)
log "sequential: hits $hits misses $misses prefetched $prefetched sectors"
[ "$hits" -gt $((misses * 4)) ] || fail "sequential reads: $hits hits, $misses misses"
[ "$prefetched" -ge $((32 * 2048 / 2)) ] || fail "only $prefetched sectors prefetched"

# Buffered reads through the page cache's own readahead hit it too.
drop_caches
got=$(dd if=/dev/mapper/fr bs=1M count=32 status=none | sha256sum)
assert_eq "$got" "$want" "buffered read through readahead"

# The cache was allocated at load; reading must not grow memory use. MemFree
# swings by some 25 MiB between samples here (per-cpu page lists, null_blk's
# backing store), so read the array 4 more times: a leak per request would
# cost at least as much as the 160 MiB read.
for pass in 1 2 3 4; do
	dd if=/dev/mapper/fr of=/dev/null bs=256k count=128 iflag=direct status=none
done
kernel_after=$(kernel_kib)
free_after=$(free_kib)
log "memory: slab+vmalloc $kernel_before -> $kernel_after KiB, free $free_before -> $free_after KiB"
[ $((kernel_after - kernel_before)) -lt 4096 ] ||
	fail "slab+vmalloc grew by $((kernel_after - kernel_before)) KiB while reading"
[ $((free_before - free_after)) -lt 65536 ] ||
	fail "MemFree fell by $((free_before - free_after)) KiB while reading"

# Random reads are not streams: little may be fetched in vain.
dmsetup message fr 0 stats reset
fio --name=rand --filename=/dev/mapper/fr --rw=randread --bs=4k --direct=1 \
	--size=32M --number_ios=2000 --randrepeat=0 --output=/dev/null
hits=$(fanraid_total fr ra_hits)
wasted=$(fanraid_total fr ra_wasted)
prefetched=$(fanraid_total fr ra_prefetched)
log "random: hits $hits prefetched $prefetched wasted $wasted sectors"
[ "$prefetched" -lt $((2000 * 8)) ] ||
	fail "random reads prefetched $prefetched sectors, more than they read"

# Off by message: no hits, and TABLE says so and loads again as printed.
dmsetup message fr 0 readahead off
dmsetup message fr 0 stats reset
dd if=/dev/mapper/fr bs=256k count=64 iflag=direct status=none | sha256sum >/dev/null
assert_eq "$(fanraid_total fr ra_hits)" 0 "hits with readahead off"
dmsetup message fr 0 readahead on
dmsetup message fr 0 ra_window 4
table=$(dmsetup table fr)
assert_contains "$table" " 4 readahead on ra_window 4 " "table after messages"
echo "$table" | dmsetup reload fr
dmsetup resume fr
assert_eq "$(dmsetup table fr)" "$table" "table round trip"
expect_fail dmsetup message fr 0 ra_window 0
expect_fail dmsetup message fr 0 readahead maybe

# A reader with a deep queue keeps every member busy by itself: once a new
# request finds its earlier ones still outstanding, half a stripe or more,
# it is served directly. Members at 6 MiB/s and 2 ms, so that fetching
# cannot stay ahead of 32 requests for long and they queue; 512 KiB chunks.
# Until they do, it is served from the cache like any fast reader.
mapfile -t slow < <(nullb_create_many $n 64 blocksize=4096 irqmode=2 \
	completion_nsec=2000000 mbps=7)
spairs=""
for m in "${slow[@]}"; do spairs="$spairs $m 0"; done
dm_create deep "0 $len fanraid raid0 1024 2 readahead on $n$spairs"
fio --name=deep --filename=/dev/mapper/deep --rw=read --bs=1m --iodepth=32 \
	--ioengine=libaio --direct=1 --size=128M --output=/dev/null
prefetched=$(fanraid_total deep ra_prefetched)
log "deep reader: hits $(fanraid_total deep ra_hits) misses $(fanraid_total deep ra_misses) prefetched $prefetched sectors"
[ "$prefetched" -lt $((40 * 2048)) ] ||
	fail "a qd32 reader of 128 MiB had $prefetched sectors fetched ahead for it"
# A new stream, one request at a time: fetched for again.
dd if=/dev/mapper/deep of=/dev/null bs=1M count=8 skip=300 iflag=direct status=none
[ "$(fanraid_total deep ra_hits)" -gt 64 ] ||
	fail "a qd1 reader after the deep one got $(fanraid_total deep ra_hits) hits"
dm_remove deep

# ra_cache_mb 0: no cache, so readahead cannot be switched on.
dm_remove fr
dm_create fr "0 $len fanraid raid0 128 2 ra_cache_mb 0 $n$pairs"
expect_fail dmsetup message fr 0 readahead on
got=$(dd if=/dev/mapper/fr bs=256k count=128 iflag=direct status=none | sha256sum)
assert_eq "$got" "$want" "read without a cache"
dm_remove fr
