#!/bin/bash
# A reader 4 deep in 1 MiB requests over a degraded RAID6 of 8 members with 512 KiB chunks (rows of 3 MiB, so it begins each row before the reads ahead of it end): fio checks every block it reads back, with one and with two members lost, and the survivors' own /sys/block stat counts at most 1.15 sectors read per sector delivered (1.02-1.10 here, run to run, with the host to itself or beside another VM; 1.18 with two lost when a row whose windows went before the reader had covered them was read for the rebuild and again for the rest of the row).
# group: raid6-degraded
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio || skip "fio not in the image"

n=8
off=2048
chunk=1024
rows=32
len=$((rows * (n - 2) * chunk))
# Members that take 1 ms, as a drive does: the reader's requests overlap.
mapfile -t devs < <(nullb_create_many "$n" $(((off + rows * chunk) / 2048 + 1)) \
	irqmode=2 completion_nsec=1000000)

# fio's own blocks, each with its checksum, so fio checks what it reads.
fio_blocks=(--name=blocks --filename=/dev/mapper/fr --bs=1M --size=$((len * 512))
	--direct=1 --ioengine=libaio --iodepth=4 --verify=crc32c --verify_fatal=1
	--output-format=terse)
dm_create fr "$(lost_table)"
fio "${fio_blocks[@]}" --rw=write --do_verify=0 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio could not write the healthy array"; }
dm_remove fr

for lost in "3" "0 5"; do
	# shellcheck disable=SC2086 # member indexes, one word each
	dm_create fr "$(lost_table $lost)"
	# shellcheck disable=SC2086
	before=$(survivor_reads $lost)
	fio "${fio_blocks[@]}" --rw=read --do_verify=1 >/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "members $lost lost: fio read blocks that differ from what it wrote"; }
	# shellcheck disable=SC2086
	read=$(($(survivor_reads $lost) - before))
	ratio=$(awk -v r="$read" -v l="$len" 'BEGIN { printf "%.3f", r / l }')
	log "members $lost lost: survivors read $read sectors for $len delivered ($ratio per sector)"
	awk -v r="$ratio" 'BEGIN { exit !(r <= 1.15) }' ||
		fail "members $lost lost: $ratio sectors read per sector delivered (at most 1.15)"
	dm_remove fr
done
rm -f /tmp/fio.out
