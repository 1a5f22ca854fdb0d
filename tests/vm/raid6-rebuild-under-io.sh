#!/bin/bash
# Exercise RAID6 rebuild while I/O continues: two replacement members full of random bytes are rebuilt from the others while reads and writes go on, reads never return their garbage (2 MiB chunks, and reads that straddle the point the rebuild stopped at inside a chunk: from below it, they read the rest as it was, garbage, until reads were judged by their last sector), and at the end parity and data are exact.
# group: raid6-degraded
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

n=6 chunk=4096 off=2048
rows=2
len=$((rows * (n - 2) * chunk))
member_mb=$(((off + rows * chunk) / 2048 + 1))
# Requests up to 2 MiB, as NVMe takes them (null_blk's default is 255
# sectors, and the block layer's split would hide a read that straddles).
mapfile -t devs < <(nullb_create_many "$n" "$member_mb" max_sectors=4096)
table() { # FEATURE_WORDS
	local t="0 $len fanraid raid6 $chunk $1 $n" d
	for d in "${devs[@]}"; do t="$t $d $off"; done
	echo "$t"
}
# Fields of `dmsetup status`: 6 health characters, 7 done/total, 8 action.
field() {
	local i=$1
	set -- $(dmsetup status fr)
	eval echo "\${$i}"
}

dm_create fr "$(table 0)"
head -c $((len * 512)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

# Members 1 and 4 are replaced by devices holding random bytes.
for i in 1 4; do
	head -c $((rows * chunk * 512)) /dev/urandom |
		dd of="${devs[i]}" bs=1M seek=$((off * 512)) oflag=seek_bytes,direct status=none
done

# Rate-limited (4 MiB a member at 128 KiB/s) so the I/O below meets it.
dm_create fr "$(table "6 max_sync_rate 128 rebuild 1 rebuild 4")"
assert_eq "$(field 6)" AaAAaA "health while rebuilding"
assert_eq "$(field 8)" recover "sync action after the load"
log "requests of up to $(cat "/sys/block/dm-$(dmsetup info -c --noheadings -o minor fr)/queue/max_sectors_kb") KiB"

write_at() { # OFFSET_SECTORS LEN_SECTORS
	head -c $(($2 * 512)) /dev/urandom >/tmp/piece
	dd if=/tmp/piece of=/tmp/data bs=$(($2 * 512)) seek=$(($1 * 512)) oflag=seek_bytes conv=notrunc status=none
	dd if=/tmp/piece of=/dev/mapper/fr bs=$(($2 * 512)) seek=$(($1 * 512)) oflag=seek_bytes,direct status=none
}

# The first reads come before any write covers the garbage, once the
# pass has gone past the first point it stops at.
for ((i = 0; i < 100; i++)); do
	[ "$(field 7)" = "0/$len" ] || break
	sleep 0.2
done
passes=0
while :; do
	at=$(field 7)
	[ "$(field 8)" = recover ] || break
	dd if=/dev/mapper/fr iflag=direct bs=1M status=none | cmp /tmp/data - ||
		fail "read during rebuild (at $at) differs"
	# 512 KiB requests from 256 KiB on: one in each chunk straddles the
	# point a rate-limited pass stops at, 1 MiB into the chunk.
	dd if=/dev/mapper/fr iflag=direct,skip_bytes skip=$((256 << 10)) bs=512K status=none |
		cmp -n $((len * 512 - (256 << 10))) -i $((256 << 10)):0 /tmp/data - ||
		fail "read across the rebuild point (at $at) differs"
	# Whole chunks, pieces of chunks and single sectors, all over the rows.
	write_at $((passes * 131 % (len - chunk) / 8 * 8)) $chunk
	write_at $(((passes * 977 + len / 2) % (len - 64) | 1)) 37
	write_at $(((passes * 4099 + len / 3) % (len - 2 * chunk))) $((2 * chunk))
	passes=$((passes + 1))
	log "pass $passes at $at: reads exact, writes done"
	[ $passes -lt 100 ] || fail "rebuild never ended: $(dmsetup status fr)"
done
[ $passes -gt 0 ] || fail "rebuild ended before any I/O met it"
assert_eq "$(field 6)" AAAAAA "health after rebuild"

dd if=/dev/mapper/fr iflag=direct bs=1M status=none | cmp /tmp/data - ||
	fail "device differs after rebuild"
# The rebuilt members now carry the data: lose two of the others.
dmsetup message fr 0 fail 0
dmsetup message fr 0 fail 3
dd if=/dev/mapper/fr iflag=direct bs=1M status=none | cmp /tmp/data - ||
	fail "rebuilt members and parity do not give back the data"
dm_remove fr
drop_caches
raidcalc verify "$(table 0)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "parity wrong after rebuild under I/O"; }
log "after rebuild under I/O ($passes passes): $(tail -n1 /tmp/verify.out)"
