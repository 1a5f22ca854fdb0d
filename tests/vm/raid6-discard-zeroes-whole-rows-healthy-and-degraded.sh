#!/bin/bash
# Exercise RAID6 discard and write-zeroes: a discard zeroes the rows it covers whole on every member (their files lose those blocks, their /sys/block stat counts the zeroes) and leaves partial rows as they were; a write-zeroes zeroes exactly its range at 512-byte edges, partial rows through the parity path; raidcalc read and verify agree, healthy and with a member failed, which gets nothing; over members without write-zeroes discard is refused and zero-out still exact.
# group: raid6
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_cmd raidcalc blkdiscard cmp stat losetup || fail "raidcalc, blkdiscard, cmp, stat or losetup missing"

# 6 members, 4 data: a row is 4 chunks of 32 KiB = 128 KiB, a power of two,
# so the block layer splits discards on row edges. 128 rows.
n=6 chunk=64 rows=128
row=$(((n - 2) * chunk))
mapfile -t devs < <(loop_members "$n" 4)
len=$((rows * row))
table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"
dm_create fr "$table"
q=/sys/block/$(dmsetup info -c --noheadings -o blkdevname fr)/queue
assert_eq "$(cat $q/discard_granularity)" $((row * 512)) "discard_granularity: one row"
assert_ne "$(cat $q/discard_max_bytes)" 0 "RAID6 discard_max_bytes"
assert_ne "$(cat $q/write_zeroes_max_bytes)" 0 "RAID6 write_zeroes_max_bytes"

head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
sync

# zero_ref START_SECTOR SECTORS: the same range of /tmp/ref becomes zeroes.
zero_ref() {
	dd if=/dev/zero of=/tmp/ref bs=512 seek="$1" count="$2" conv=notrunc status=none
}
# check WHAT [MISSING]: see ref_check in lib.sh.
check() { ref_check fr "$table" "$@"; }
blocks() { local i; for ((i = 0; i < n; i++)); do printf '%s ' "$(loop_blocks $i)"; done; }
wsect() { local d; for d in "${devs[@]}"; do printf '%s ' "$(blk_stat "$d" 7)"; done; }

# A discard from 12 KiB into row 2 to 12 KiB into row 12: rows 3..11 are
# whole, zeroed on every member, data, P and Q; the rest is kept.
b0=($(blocks)) w0=($(wsect))
blkdiscard -o $(((2 * row + 24) * 512)) -l $((10 * row * 512)) /dev/mapper/fr
zero_ref $((3 * row)) $((9 * row))
b1=($(blocks)) w1=($(wsect))
for ((i = 0; i < n; i++)); do
	# 9 rows of 32 KiB chunks on each member: 576 sectors.
	[ $((b0[i] - b1[i])) -ge 576 ] ||
		fail "member $i: its file lost $((b0[i] - b1[i])) blocks, not the 9 rows' 576"
	[ $((w1[i] - w0[i])) -ge 576 ] ||
		fail "member $i: /sys/block stat counts $((w1[i] - w0[i])) sectors written, not the 9 rows' 576"
done
check "discard of rows 3..11 with partial rows on both sides"

# Discards inside one row, and of every row of a span at odd edges.
blkdiscard -o $(((20 * row + 7) * 512)) -l $(((row - 9) * 512)) /dev/mapper/fr
blkdiscard -o $(((40 * row - 1) * 512)) -l $(((3 * row + 2) * 512)) /dev/mapper/fr
zero_ref $((40 * row)) $((3 * row))
check "discards inside a row and of rows 40..42 at odd edges"

# Write-zeroes must zero all of its range: whole rows on the members,
# partial rows through the stripe cache with parity updated.
for r in "$((60 * row + 1)) 1" "$((61 * row + 31)) $((chunk + 3))" \
	"$((70 * row - 5)) $((5 * row + 11))" "$((90 * row)) $((row / 2))"; do
	set -- $r
	blkdiscard -z -o $(($1 * 512)) -l $(($2 * 512)) /dev/mapper/fr
	zero_ref "$1" "$2"
done
check "write-zeroes at 512-byte edges"

# Degraded: member 1 fails and gets nothing; its chunks of the zeroed rows
# read back as zeroes, rebuilt from the others.
dmsetup message fr 0 fail 1
assert_eq "$(fanraid_health fr 1)" D "member 1 after fail"
w_failed=$(blk_stat "${devs[1]}" 7) b_failed=$(loop_blocks 1)
blkdiscard -o $((98 * row * 512)) -l $((12 * row * 512)) /dev/mapper/fr
zero_ref $((98 * row)) $((12 * row))
blkdiscard -z -o $(((112 * row + 3) * 512)) -l $(((2 * row + 100) * 512)) /dev/mapper/fr
zero_ref $((112 * row + 3)) $((2 * row + 100))
dd if=/dev/urandom of=/tmp/ref bs=512 seek=$((120 * row)) count=$((4 * row)) conv=notrunc status=none
dd if=/tmp/ref of=/dev/mapper/fr bs=512 skip=$((120 * row)) seek=$((120 * row)) count=$((4 * row)) \
	oflag=direct status=none
blkdiscard -o $(((121 * row) * 512)) -l $((2 * row * 512)) /dev/mapper/fr
zero_ref $((121 * row)) $((2 * row))
assert_eq "$(blk_stat "${devs[1]}" 7)" "$w_failed" "sectors written to failed member 1"
assert_eq "$(loop_blocks 1)" "$b_failed" "blocks of failed member 1"
check "degraded discards and write-zeroes, member 1 failed" 1
for ((i = 0; i < n; i++)); do
	assert_eq "$(fanraid_counter fr $i errors)" 0 "member $i errors"
done
dm_remove fr

# Members without write-zeroes (null_blk, which only discards): whole rows
# cannot be zeroed, so RAID6 advertises neither and the block layer refuses
# discards; a zero-out falls back to zero pages through the write path.
mapfile -t nb < <(nullb_create_many 4 4 discard=1)
dm_create fz "0 $((2 * 8192 / chunk * chunk)) fanraid raid6 $chunk 0 4$(member_pairs "${nb[@]}")"
qz=/sys/block/$(dmsetup info -c --noheadings -o blkdevname fz)/queue
assert_eq "$(cat $qz/discard_max_bytes) $(cat $qz/write_zeroes_max_bytes)" "0 0" \
	"RAID6 over members without write-zeroes: discard and write-zeroes limits"
head -c $((1024 * 1024)) /dev/urandom >/tmp/refz
dd if=/tmp/refz of=/dev/mapper/fz bs=1M oflag=direct status=none
out=$(blkdiscard -o 0 -l 262144 /dev/mapper/fz 2>&1) && fail "discard on RAID6 over null_blk succeeded"
assert_contains "$out" "Operation not supported"
blkdiscard -z -o 4096 -l 131072 /dev/mapper/fz
dd if=/dev/zero of=/tmp/refz bs=4096 seek=1 count=32 conv=notrunc status=none
drop_caches
cmp /tmp/refz <(head -c $((1024 * 1024)) /dev/mapper/fz) || fail "zero-out on RAID6 over null_blk"
dm_remove fz
log "members without write-zeroes: discard refused (EOPNOTSUPP), zero-out through the write path exact"
