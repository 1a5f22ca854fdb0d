#!/bin/bash
# A deep reader that the cache serves from the start shows no queue (hits complete at once), so a stream is probed now and then: fetching pauses, a few requests go to the members, and a queue marks it deep. A one-at-a-time reader keeps its bytes and its hits across probes.
# group: readahead
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio || skip "fio missing"

# 16 members at 75 MiB/s with 2 ms completions, 64 KiB chunks: 1 MiB stripes.
# The members are larger than what is written: null_blk keeps only that.
n=16
mapfile -t d < <(nullb_create_many $n 256 blocksize=4096 irqmode=2 \
	completion_nsec=2000000 mbps=76)
len=$((n * 256 * 2048))
dm_create fr "0 $len fanraid raid0 128 4 readahead on ra_cache_mb 256 $n$(member_pairs "${d[@]}")"

# One request at a time over 64 stripes with the default 4-stripe window:
# probes at about 16 and 48 stripes cost four direct requests each, and
# every byte still comes back right.
head -c 64M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
want=$(sha256sum </tmp/data)
rm /tmp/data
dmsetup message fr 0 stats reset
got=$(dd if=/dev/mapper/fr bs=256k count=256 iflag=direct status=none | sha256sum)
assert_eq "$got" "$want" "a qd1 stream read across probes"
hits=$(fanraid_total fr ra_hits)
misses=$(fanraid_total fr ra_misses)
log "qd1 reader: hits $hits misses $misses"
[ "$misses" -ge 16 ] || fail "a qd1 reader of 64 stripes was never probed ($misses direct reads)"
[ "$hits" -gt $((misses * 8)) ] || fail "a qd1 reader across probes: $hits hits, $misses misses"

# A stream warmed by a qd1 reader, then continued by 32 requests in flight
# at 600 MiB/s with a 64-stripe window: fetching (1200 MiB/s) stays ahead
# of the reader and of fio's catch-up bursts, so without probes every read
# would be a hit and all 2 GiB fetched ahead for it. Direct, a request takes
# 2.8 ms and a new one comes every 1.7 ms, so a queue shows.
dmsetup message fr 0 ra_window 64
dmsetup message fr 0 stats reset
dd if=/dev/mapper/fr of=/dev/null bs=1M count=16 skip=512 iflag=direct status=none
fio --name=deep --filename=/dev/mapper/fr --rw=read --bs=1m --iodepth=32 \
	--ioengine=libaio --direct=1 --offset=528M --size=2G --rate=600m \
	--output=/dev/null
hits=$(fanraid_total fr ra_hits)
misses=$(fanraid_total fr ra_misses)
prefetched=$(fanraid_total fr ra_prefetched)
log "deep reader behind the cache: hits $hits misses $misses prefetched $prefetched sectors"
[ "$prefetched" -lt $((2048 * 2048 * 15 / 100)) ] ||
	fail "a qd32 reader of 2 GiB behind a warm stream had $prefetched sectors fetched ahead"
[ "$misses" -gt $((hits * 4)) ] ||
	fail "a qd32 reader behind a warm stream: $hits hits, $misses direct"
dm_remove fr
