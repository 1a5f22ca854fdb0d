#!/bin/bash
# Exercise the per-CPU member counters: under fio randrw verify from four jobs on both vCPUs, plus a sequential reader the readahead cache serves, every member's read and write sectors in the fanraid status equal what the member's own /sys/block stat counted, RAID0 and RAID6.
# group: main
# timeout: 400
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio || skip "fio not in the image"
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs, the VM has $(nproc)"

# Counters are per CPU and summed at status time; the block layer counts
# the same member bios at completion, one sector field each way
# (Documentation/block/stat.rst fields 3 and 7). No superblock, no bitmap
# and no sync pass, so every member sector moved is one fanraid sent for a
# read or write (readahead fetches and RAID6 parity included) and counted
# both places. Flushes carry no sectors; fio sends none here.

# check_case NAME LEVEL CHUNK MEMBERS DATA_DEVS: one array, one fio run, then
# the comparison.
check_case() {
	local name=$1 level=$2 chunk=$3 n=$4 ndata=$5 len i m
	local -a devs r0 w0
	local fr fw br bw reads=0 writes=0
	mapfile -t devs < <(nullb_create_many "$n" 40)
	len=$((ndata * 32 * 2048))
	dm_create "$name" "0 $len fanraid $level $chunk 0 $n$(member_pairs "${devs[@]}")"

	dmsetup message "$name" 0 stats reset
	for ((i = 0; i < n; i++)); do
		r0[i]=$(blk_stat "${devs[i]}" 3)
		w0[i]=$(blk_stat "${devs[i]}" 7)
	done

	# Four random read/write jobs, each verifying its own 8 MiB region,
	# jobs split over both CPUs; a fifth reads the same 32 MiB in order
	# one request at a time, so the readahead cache holds segments the
	# writers then overwrite.
	fio --output=/tmp/fio.out --filename=/dev/mapper/"$name" --direct=1 \
		--cpus_allowed=0-1 --cpus_allowed_policy=split \
		--name=rw --rw=randrw --numjobs=4 --ioengine=libaio --iodepth=4 \
		--bssplit=4k/40:16k/30:64k/20:128k/10 --size=8M --offset_increment=8M \
		--verify=crc32c --verify_fatal=1 --do_verify=1 \
		--randrepeat=0 \
		--name=seq --rw=read --bs=64k --size=32M --offset=0 \
		--time_based --runtime=10 --ioengine=psync ||
		{ cat /tmp/fio.out; fail "$name: fio failed"; }
	grep -q "err= 0" /tmp/fio.out || { cat /tmp/fio.out; fail "$name: fio reported errors"; }
	# And one reader alone, so fetches are sure to be counted too.
	dd if=/dev/mapper/"$name" of=/dev/null bs=64k count=128 iflag=direct status=none
	# Suspend drains the readahead queues: no fetch is left in flight.
	dmsetup suspend "$name"
	dmsetup resume "$name"
	log "$name: ra hits $(fanraid_total "$name" ra_hits) misses $(fanraid_total "$name" ra_misses) prefetched $(fanraid_total "$name" ra_prefetched) wasted $(fanraid_total "$name" ra_wasted)"
	[ "$(fanraid_total "$name" ra_prefetched)" -gt 0 ] ||
		fail "$name: nothing fetched ahead: the fetch counters went untested"

	for ((i = 0; i < n; i++)); do
		m=${devs[i]}
		fr=$(fanraid_counter "$name" $i read_sectors)
		fw=$(fanraid_counter "$name" $i write_sectors)
		br=$(($(blk_stat "$m" 3) - r0[i]))
		bw=$(($(blk_stat "$m" 7) - w0[i]))
		log "$name member $i ($m): read $fr / $br, written $fw / $bw sectors (fanraid / block layer)"
		assert_eq "$fr" "$br" "$name member $i read sectors, fanraid against $m's stat"
		assert_eq "$fw" "$bw" "$name member $i written sectors, fanraid against $m's stat"
		assert_eq "$(fanraid_counter "$name" $i errors)" 0 "$name member $i errors"
		reads=$((reads + fr))
		writes=$((writes + fw))
	done
	# fio moved 32 MiB at random, about half of it written, then read what
	# it wrote back: both ways must show, or the comparison proves nothing.
	[ "$reads" -gt $((16 * 2048)) ] || fail "$name: only $reads sectors read in all"
	[ "$writes" -gt $((8 * 2048)) ] || fail "$name: only $writes sectors written in all"
	dm_remove "$name"
	for m in "${devs[@]}"; do nullb_destroy "${m#/dev/}"; done
}

check_case fr0 raid0 128 5 5
check_case fr6 raid6 128 6 4
