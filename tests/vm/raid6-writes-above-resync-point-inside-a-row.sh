#!/bin/bash
# Exercise a write above the resync checkpoint when the checkpoint stands inside a row: with 2 MiB chunks (16 stripe windows a row) a resync of members full of random bytes, limited from its first moment, stops after its first 1 MiB of each member, half-way through row 0, whose second half raidcalc finds inconsistent; 4 KiB writes into that half of row 0's first chunk must not carry the garbage parity into the new one, so with that chunk's member then failed, every block written reads back exactly through reconstruction.
# group: raid6-resync
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

n=8 chunk=4096 off=2048
rows=4
len=$((rows * (n - 2) * chunk))
member_mb=$(((off + rows * chunk) / 2048 + 1))
mapfile -t devs < <(nullb_create_many "$n" "$member_mb")
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done
for d in "${devs[@]}"; do
	head -c $((member_mb << 20)) /dev/urandom | dd of="$d" bs=1M oflag=direct status=none
done
raidcalc verify -r 0:1 "$table" >/tmp/verify.out 2>&1 &&
	fail "row 0 of members full of random bytes passes raidcalc verify"

# 50 KiB/s per member from the load on: a limited pass does 1 MiB of each
# member, then waits 20 s before the next.
dm_create fr "${table/ 0 $n / 3 max_sync_rate 50 resync $n }"

# The checkpoint, in member sectors (the status counts array sectors).
checkpoint() { dmsetup status fr | awk -v d=$((n - 2)) '{ split($7, r, "/"); print r[1] / d }'; }
for ((i = 0; i < 100; i++)); do
	[ "$(checkpoint)" -ge 2048 ] && break
	sleep 0.1
done
assert_eq "$(checkpoint)" 2048 "checkpoint after the first 1 MiB of each member"

# Logical 1-2 MiB: the second half of row 0's first data chunk, member
# sectors 2048-4095, above the checkpoint in a row it has entered.
fio --name=inrow --filename=/dev/mapper/fr --rw=randwrite --bs=4k \
	--offset=1M --size=1M --direct=1 --ioengine=libaio --iodepth=4 \
	--verify=crc32c --randseed=5 --do_verify=0 --output=/tmp/inrow.out ||
	{ cat /tmp/inrow.out; fail "writes above the checkpoint inside row 0"; }
status=$(dmsetup status fr)
log "status after the writes: $(echo "$status" | cut -d' ' -f1-8)"
assert_contains "$status" " resync "
assert_eq "$(checkpoint)" 2048 "checkpoint while the writes ran"

# The member that holds row 0's first data chunk, from raidcalc's layout.
m=$(raidcalc layout -r 0:1 "$table" | awk 'NR == 2 { for (j = 2; j <= NF; j++) if ($j == "0") print j - 2 }')
[ -n "$m" ] || fail "raidcalc layout gave no member for chunk 0"
dmsetup message fr 0 fail "$m"
fio --name=inrow --filename=/dev/mapper/fr --rw=randwrite --bs=4k \
	--offset=1M --size=1M --direct=1 --ioengine=libaio --iodepth=4 \
	--verify=crc32c --randseed=5 --verify_only --output=/tmp/inrow-v.out ||
	{ tail -n 5 /tmp/inrow-v.out; fail "blocks written inside row 0 above the checkpoint, member $m failed"; }
log "member $m failed: every block written above the checkpoint in row 0 reads back"
dm_remove fr
rm -f /tmp/verify.out /tmp/inrow.out /tmp/inrow-v.out
