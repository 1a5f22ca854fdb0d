#!/bin/bash
# Exercise nothing: scratch probe (not for commit).
# group: zzprobe
# timeout: 300
. "${0%/*}/lib.sh"
have_target fanraid 1 0 0 || skip "no fanraid"
lsmod | grep -E "raid6|fanraid" || true
mapfile -t devs < <(nullb_create_many 4 64)
t="0 65536 fanraid raid6 128 0 4"
for d in "${devs[@]}"; do t="$t $d 2048"; done
dm_create fr "$t"
dmsetup table fr; dmsetup status fr
head -c 4M /dev/urandom > /tmp/d
s=$(date +%s.%N)
dd if=/tmp/d of=/dev/mapper/fr bs=1M oflag=direct status=none
e=$(date +%s.%N); echo "write 4M direct: $s $e"
s=$(date +%s.%N)
dd if=/tmp/d of=/dev/mapper/fr bs=4k seek=2048 oflag=direct status=none
e=$(date +%s.%N); echo "write 4M 4k direct: $s $e"
drop_caches
s=$(date +%s.%N)
raidcalc verify "$(dmsetup table fr)"; echo rc=$?
e=$(date +%s.%N); echo "verify: $s $e"
raidcalc read -s 0 -n 8192 -o /tmp/r "$(dmsetup table fr)"; cmp /tmp/r /tmp/d && echo readok
raidcalc read -s 0 -n 8192 -m 1 -o /tmp/r2 $(dmsetup table fr); cmp /tmp/r2 /tmp/d && echo readok2
dmsetup message fr 0 check
s=$(date +%s.%N)
while [ "$(dmsetup status fr | awk '{print $7}')" != idle ]; do sleep 0.2; done
e=$(date +%s.%N); echo "check: $s $e"; dmsetup status fr
dmsetup message fr 0 fail 1; dmsetup status fr
s=$(date +%s.%N)
cmp -n 4194304 /tmp/d /dev/mapper/fr && echo degraded-ok
e=$(date +%s.%N); echo "degr read: $s $e"
which fio mkfs.ext4 e2fsck sha256sum
