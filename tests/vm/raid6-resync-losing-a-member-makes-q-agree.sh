#!/bin/bash
# Exercise a resync that loses a member: on members full of random bytes (parity that disagrees with the data everywhere), member 0 starts returning EIO early in the pass. The pass goes on degraded as md's does: each lost data block is taken from P and Q is rewritten to agree, so what the array reads with member 0 gone (from P) is what it reads once member 1 is gone too (from P and Q, or Q alone). A pass that skipped those rows would leave their Q random and the second read different.
# group: raid6
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=6 chunk=128 off=2048
rows=64
len=$((rows * (n - 2) * chunk))
member_mb=$(((off + rows * chunk) / 2048 + 1))
mapfile -t devs < <(nullb_create_many "$n" "$member_mb")
on_exit 'dmsetup remove fr >/dev/null 2>&1; for k in 0 1 2 3 4 5; do dmsetup remove sl$k >/dev/null 2>&1; done; true'
for k in "${!devs[@]}"; do
	head -c $((member_mb << 20)) /dev/urandom | dd of="${devs[k]}" bs=1M oflag=direct status=none
	dm_create "sl$k" "0 $(dev_sectors "${devs[k]}") linear ${devs[k]} 0"
done
table="0 $len fanraid raid6 $chunk 5 max_sync_rate 256 resync readahead off $n"
for k in "${!devs[@]}"; do table="$table /dev/mapper/sl$k $off"; done

action() { dmsetup status fr | awk '{ print $8 }'; }

# 4 MiB a member at 256 KiB/s: some 16 s, so member 0 fails early in it.
dm_create fr "$table"
assert_eq "$(action)" resync "sync action right after the load"
sleep 1.5
dm_swap sl0 "0 $(dev_sectors "${devs[0]}") error"
log "member 0 returns EIO from $(dmsetup status fr | awk '{ print $7 }')"
for ((i = 0; i < 600; i++)); do
	[ "$(action)" = idle ] && break
	sleep 0.2
done
assert_eq "$(action)" idle "resync did not finish in 120 s"
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" DAAAAA "health after the resync"

dd if=/dev/mapper/fr iflag=direct bs=1M status=none >/tmp/one-lost ||
	fail "reads with member 0 failed"
dmsetup message fr 0 fail 1
dd if=/dev/mapper/fr iflag=direct bs=1M status=none >/tmp/two-lost ||
	fail "reads with members 0 and 1 failed"
assert_eq "$(stat -c %s /tmp/two-lost)" $((len * 512)) "bytes read"
cmp /tmp/one-lost /tmp/two-lost ||
	fail "rows the resync passed degraded read differently once a second member is gone: their Q disagrees"
dm_remove fr
for k in "${!devs[@]}"; do dm_remove "sl$k"; done
