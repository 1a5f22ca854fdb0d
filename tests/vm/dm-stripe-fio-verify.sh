#!/bin/bash
# Exercise dm-stripe over 4 null_blk devices under fio crc32c verification, proving the harness can carry a data test.
# group: main
# timeout: 240
. "${0%/*}/lib.sh"

have_target striped 1 0 0 || skip "target striped missing"
have_cmd fio || skip "fio missing"

mapfile -t devs < <(nullb_create_many 4 64)
chunk=128
per=$(dev_sectors "${devs[0]}")
per=$((per / chunk * chunk))
table="0 $((per * 4)) striped 4 $chunk"
for d in "${devs[@]}"; do table="$table $d 0"; done
dm_create stripe "$table"
dmsetup table stripe

fio --name=stripe --filename=/dev/mapper/stripe --direct=1 --ioengine=libaio \
	--rw=randwrite --bsrange=4k-256k --iodepth=16 --size=128M \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --randseed=20261129 \
	--output-format=terse --terse-version=3 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio verify failed on dm-stripe"; }
log "fio wrote and verified 128 MiB through dm-stripe"

# Re-read after dropping caches: the members still hold what was verified.
drop_caches
fio --name=stripe --filename=/dev/mapper/stripe --direct=1 --ioengine=libaio \
	--rw=randwrite --bsrange=4k-256k --iodepth=16 --size=128M \
	--verify=crc32c --verify_fatal=1 --verify_only=1 --randseed=20261129 \
	--output-format=terse --terse-version=3 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "verify-only pass failed"; }
dm_remove stripe
