#!/bin/bash
# Exercise the harness's happy path: a null_blk device under dm-linear reads back what was written.
# expect: pass
# group: selftest
# timeout: 60
. "${0%/*}/lib.sh"

dev=$(nullb_create a 16)
assert_eq "$(dev_sectors "$dev")" 32768 "null_blk size"
dm_create lin "0 32768 linear $dev 0"
head -c 1M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/lin bs=64k oflag=direct status=none
drop_caches
cmp -n 1048576 /tmp/data "$dev"
