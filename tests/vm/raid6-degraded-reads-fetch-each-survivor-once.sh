#!/bin/bash
# A degraded RAID6 reads each survivor's block once: with one and with two of 8 members lost, the whole device read in 1 MiB O_DIRECT requests, by buffered readers and in 300 KiB requests reads back exact data, and for the 1 MiB reads the survivors' own /sys/block stat counts at most 1.25 sectors read per sector delivered (a lost block rebuilt per request read its row twice: 1.6 here).
# group: raid6-degraded
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=8
off=2048
chunk=128
rows=96
len=$((rows * (n - 2) * chunk))
mapfile -t devs < <(nullb_create_many "$n" $(((off + rows * chunk) / 2048 + 1)))

dm_create fr "$(lost_table)"
head -c $((len * 512)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

for lost in "3" "0 5"; do
	# shellcheck disable=SC2086 # member indexes, one word each
	dm_create fr "$(lost_table $lost)"
	# shellcheck disable=SC2086
	before=$(survivor_reads $lost)
	dd if=/dev/mapper/fr iflag=direct bs=1M status=none |
		cmp /tmp/data - || fail "members $lost lost: 1 MiB reads differ from what was written"
	# shellcheck disable=SC2086
	read=$(($(survivor_reads $lost) - before))
	ratio=$(awk -v r="$read" -v l="$len" 'BEGIN { printf "%.3f", r / l }')
	log "members $lost lost: survivors read $read sectors for $len delivered ($ratio per sector)"
	awk -v r="$ratio" 'BEGIN { exit !(r <= 1.25) }' ||
		fail "members $lost lost: $ratio sectors read per sector delivered (at most 1.25)"
	# Reads that end inside rows, and the page cache's own readahead.
	dd if=/dev/mapper/fr iflag=direct bs=300K status=none |
		cmp /tmp/data - || fail "members $lost lost: 300 KiB reads differ from what was written"
	drop_caches
	for part in 0 1; do
		dd if=/dev/mapper/fr bs=64K skip=$((part * len / 256)) count=$((len / 256)) status=none >/tmp/part$part &
	done
	wait
	cat /tmp/part0 /tmp/part1 | cmp /tmp/data - ||
		fail "members $lost lost: two buffered readers got different data"
	rm -f /tmp/part0 /tmp/part1
	dm_remove fr
done
rm -f /tmp/data
