#!/bin/bash
# Exercise readahead coherence under concurrency: a writer verifying its own data while two readers stream the same range never reads an older block.
# group: readahead
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=5
mapfile -t d < <(nullb_create_many $n 64 blocksize=4096)
pairs=$(member_pairs "${d[@]}")
len=$((n * 48 * 2048))
dm_create fr "0 $len fanraid raid0 64 4 readahead on ra_window 8 $n$pairs"

# A writer verifying its own data while two readers stream the same range
# (filling the cache with what the writer is about to overwrite). fio's
# verify header carries the write's seed, so an older block fails it.
fio --output=/tmp/fio.out --filename=/dev/mapper/fr --size=16M --direct=1 \
	--name=writer --rw=write --bs=64k --loops=6 --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --randrepeat=0 --refill_buffers \
	--name=reader1 --rw=read --bs=128k --time_based --runtime=20 \
	--name=reader2 --rw=read --bs=32k --offset=4M --time_based --runtime=20 ||
	{ cat /tmp/fio.out; fail "fio verify failed"; }
grep -q "err= 0" /tmp/fio.out || { cat /tmp/fio.out; fail "fio reported errors"; }
log "after fio: hits $(fanraid_total fr ra_hits) wasted $(fanraid_total fr ra_wasted)"
dm_remove fr
