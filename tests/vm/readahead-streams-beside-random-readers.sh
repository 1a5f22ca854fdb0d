#!/bin/bash
# Exercise readahead beside random readers: two sequential readers at queue depth 1 keep their streams and are served from the cache while two fio jobs keep 64 random 4 KiB reads in flight elsewhere on the array (none continuing another, so none makes a stream), nothing is fetched for the random readers, and every reader gets the bytes written.
# group: readahead
# timeout: 400
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio || skip "fio not in the image"

n=8 chunk=1024
mapfile -t d < <(nullb_create_many $n 32)
len=$((n * 30 * 2048))
dm_create fr "0 $len fanraid raid0 $chunk 0 $n$(member_pairs "${d[@]}")"

head -c 112M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none

# Reader: NAME BS SKIP COUNT (in BS units), O_DIRECT at queue depth 1.
reader() { sha_reader "$1" /dev/mapper/fr /tmp/data "$2" "$3" "$4"; }

# The random readers stay past the streams' 112 MiB, and none of their
# 4 KiB reads starts where another ended (8 KiB aligned): none continues a
# stream, nothing is fetched for them, and every hit is the sequential
# readers'.
fio --name=random --filename=/dev/mapper/fr --rw=randread --bs=4k --direct=1 \
	--blockalign=8k --offset=128M --size=100M --ioengine=libaio --iodepth=32 --numjobs=2 \
	--time_based --runtime=300 --randrepeat=0 --norandommap \
	--output=/tmp/fio.out &
fio_pid=$!
sleep 2
dmsetup message fr 0 stats reset
reader a 128k 0 512 &
pa=$!
reader b 1M 64 48 &
pb=$!
wait "$pa" "$pb"
kill -0 "$fio_pid" 2>/dev/null || { cat /tmp/fio.out; fail "fio ended before the readers"; }
kill "$fio_pid"
wait "$fio_pid" 2>/dev/null || true
for r in a b; do
	assert_eq "$(cat /tmp/got.$r)" "$(cat /tmp/want.$r)" "reader $r beside random readers"
done

hits=$(fanraid_total fr ra_hits)
misses=$(fanraid_total fr ra_misses)
log "beside random readers: hits $hits misses $misses prefetched $(fanraid_total fr ra_prefetched) wasted $(fanraid_total fr ra_wasted) sectors"
# The readers read 112 MiB in 896 segments of 128 KiB; a stream the random
# readers took over starts again from nothing.
[ "$hits" -ge 600 ] ||
	fail "only $hits hits: the sequential readers' 896 segments did not come from the cache"
# Fetched for the readers alone: their 112 MiB, the windows past their
# ends, and some refetched under cache pressure; not for random readers.
prefetched=$(fanraid_total fr ra_prefetched)
[ "$prefetched" -le $((192 * 2048)) ] ||
	fail "$prefetched sectors fetched: streams were made of random reads"

[ "$misses" -gt 1000 ] || fail "only $misses misses: the random readers did not run"
dm_remove fr
