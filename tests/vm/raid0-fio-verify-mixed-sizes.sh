#!/bin/bash
# Exercise RAID0 data integrity under fio: random and sequential writes of mixed sizes from 512 B to 1 MiB, unaligned to chunks, several jobs at iodepth 32, verified at once and again after a cold re-read.
# group: data
# timeout: 600
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio || skip "fio missing"

# Four regions, one job each, so no job overwrites another's verified blocks.
cat >/tmp/mixed.fio <<'JOB'
[global]
filename=/dev/mapper/fr
direct=1
ioengine=libaio
iodepth=32
verify=crc32c
verify_fatal=1
randseed=1129
size=20M

[rand-512b-to-1m]
rw=randwrite
bsrange=512-1m
offset=0

[seq-odd-sizes]
rw=write
bssplit=512/10:3584/20:12k/20:68k/20:1m/30
offset=20M

[rand-odd-sizes]
rw=randwrite
bssplit=512/25:7680/25:132k/25:1m/25
offset=40M

[randrw-small]
rw=randrw
bsrange=512-16k
offset=60M
JOB

# check_fio NDEVS CHUNK_SECTORS
check_fio() {
	local n=$1 chunk=$2 pairs="" m len
	local -a d
	mapfile -t d < <(nullb_create_many "$n" 32)
	for m in "${d[@]}"; do pairs="$pairs $m 0"; done
	len=$(($(dev_sectors "${d[0]}") * n))
	dm_create fr "0 $len fanraid raid0 $chunk 0 $n$pairs"

	fio /tmp/mixed.fio --do_verify=1 --output=/tmp/fio.out ||
		{ tail -n 30 /tmp/fio.out; fail "n=$n chunk=$chunk: fio verify failed"; }
	drop_caches
	fio /tmp/mixed.fio --verify_only=1 --output=/tmp/fio-reread.out ||
		{ tail -n 30 /tmp/fio-reread.out; fail "n=$n chunk=$chunk: cold re-read verify failed"; }
	log "n=$n chunk=$((chunk / 2))K: 80 MiB written by 4 jobs verified, and again cold"

	# The counters saw the traffic on every member.
	for ((m = 0; m < n; m++)); do
		[ "$(fanraid_counter fr $m writes)" -gt 0 ] ||
			fail "n=$n chunk=$chunk: member $m counted no writes"
		assert_eq "$(fanraid_counter fr $m errors)" 0 "member $m errors"
	done
	dm_remove fr
	nullb_destroy_all
}

check_fio 5 16
check_fio 8 128
