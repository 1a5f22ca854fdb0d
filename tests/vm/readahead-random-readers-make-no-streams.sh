#!/bin/bash
# Exercise stream detection under random reads that meet by chance: 64 random 4 KiB reads in flight over 256 MiB (where now and then one starts exactly where another ended) fetch nothing ahead in 10 s, while a sequential reader afterwards is still found and served from the cache.
# group: readahead
# timeout: 200
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio || skip "fio not in the image"

# No data is checked here: members without memory.
n=8 chunk=256
mapfile -t d < <(nullb_create_many $n 64 memory_backed=0)
len=$((n * 64 * 2048))
dm_create fr "0 $len fanraid raid0 $chunk 0 $n$(member_pairs "${d[@]}")"

# 4 KiB aligned, unlike readahead-streams-beside-random-readers: of 65536
# blocks, a read starts where one of the last few hundred ended about once
# in a few hundred reads. Such pairs, made streams, were continued by
# chance too: 25-35 MiB fetched in 6 s at 47k reads/s (docs/design.md).
fio --name=random --filename=/dev/mapper/fr --rw=randread --bs=4k --direct=1 \
	--size=256M --ioengine=libaio --iodepth=32 --numjobs=2 --time_based \
	--runtime=10 --randrepeat=0 --norandommap --group_reporting \
	--output-format=terse --terse-version=3 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "random readers"; }
reads=$(($(awk -F';' '{ print $6 }' /tmp/fio.out) / 4))
prefetched=$(fanraid_total fr ra_prefetched)
log "random readers: $reads reads, misses $(fanraid_total fr ra_misses), hits $(fanraid_total fr ra_hits), prefetched $prefetched sectors"
[ "$reads" -gt 20000 ] || fail "only $reads random reads"
# A stream made by chance fetches one stripe (2048 sectors) first.
[ "$prefetched" -lt 2048 ] ||
	fail "$prefetched sectors fetched for random readers"

# Streams are still made: one reader at queue depth 1 is fetched for.
dmsetup message fr 0 stats reset
dd if=/dev/mapper/fr of=/dev/null bs=128k count=512 iflag=direct status=none
hits=$(fanraid_total fr ra_hits)
misses=$(fanraid_total fr ra_misses)
log "sequential reader after them: hits $hits misses $misses"
# Its first few reads make the stream; the rest come from the cache.
[ $((hits * 10)) -ge $(((hits + misses) * 9)) ] ||
	fail "only $hits of $((hits + misses)) sequential reads served from the cache"
dm_remove fr
