#!/bin/bash
# Exercise RAID6 resync: on members full of random bytes (as after an unclean shutdown), a table with the resync feature recomputes P and Q while writes continue, leaves the data alone, and ends with raidcalc verify clean; a rebuild given with resync makes parity agree too.
# group: raid6
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

n=5 chunk=128 off=2048
rows=32
len=$((rows * (n - 2) * chunk))
member_mb=$(((off + rows * chunk) / 2048 + 1))
mapfile -t devs < <(nullb_create_many "$n" "$member_mb")
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done

for d in "${devs[@]}"; do
	head -c $((member_mb << 20)) /dev/urandom | dd of="$d" bs=1M oflag=direct status=none
done
raidcalc verify "$table" >/tmp/verify.out 2>&1 &&
	fail "members full of random bytes pass raidcalc verify: $(tail -n1 /tmp/verify.out)"
log "before: $(tail -n1 /tmp/verify.out)"
# What the data chunks hold before the resync: it must not change them.
raidcalc read -s 0 -n "$len" -o /tmp/data "$table"

action() { dmsetup status fr | awk '{ print $8 }'; }

# Rate-limited (2 MiB a member at 64 KiB/s), so the writes below meet a
# running resync.
dm_create fr "${table/ 0 $n / 3 max_sync_rate 64 resync $n }"
dmsetup table fr
assert_eq "$(action)" resync "sync action right after the load"

# New random bytes on the device (one direct write() call) and in the model.
write_at() { # OFFSET_SECTORS LEN_SECTORS
	head -c $(($2 * 512)) /dev/urandom >/tmp/piece
	dd if=/tmp/piece of=/tmp/data bs=$(($2 * 512)) seek=$(($1 * 512)) oflag=seek_bytes conv=notrunc status=none
	dd if=/tmp/piece of=/dev/mapper/fr bs=$(($2 * 512)) seek=$(($1 * 512)) oflag=seek_bytes,direct status=none
}
write_at 8 24
assert_eq "$(action)" resync "sync action after the first write"
write_at $((len / 2 + 5)) 300
write_at $((len - 3 * chunk)) $((2 * chunk))
sleep 0.5
write_at $((len / 3)) 8
log "writes during resync done at $(dmsetup status fr | awk '{ print $7, $8 }')"

for ((i = 0; i < 600; i++)); do
	[ "$(action)" = idle ] && break
	sleep 0.2
done
assert_eq "$(action)" idle "resync did not finish in 120s"
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" AAAAA "health after resync"

dd if=/dev/mapper/fr iflag=direct bs=1M status=none | cmp /tmp/data - ||
	fail "resync changed the data"
dm_remove fr
drop_caches
raidcalc verify "$table" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q inconsistent after resync"; }
log "after resync: $(tail -n1 /tmp/verify.out)"

# A member replaced while a resync was due (fanraid replace during a
# resync keeps both features): the rebuild pass also makes P and Q agree,
# or the rows the resync had not reached stay inconsistent behind an idle,
# clean-looking array.
for d in "${devs[@]}"; do
	head -c $((member_mb << 20)) /dev/urandom | dd of="$d" bs=1M oflag=direct status=none
done
dm_create fr "${table/ 0 $n / 3 rebuild 1 resync $n }"
for ((i = 0; i < 600; i++)); do
	[ "$(action)" = idle ] && break
	sleep 0.2
done
assert_eq "$(action)" idle "rebuild with resync did not finish in 120s"
dm_remove fr
drop_caches
raidcalc verify "$table" >/tmp/verify.out 2>&1 ||
	{ tail -n 3 /tmp/verify.out; fail "P/Q inconsistent after a rebuild that also owed a resync"; }
log "after rebuild with resync: $(tail -n1 /tmp/verify.out)"
