#!/bin/bash
# Exercise the RAID6 stripe cache (stripe_cache_mb): a table takes the memory it names when loaded and gives it back when removed; with the smallest cache its geometry allows, concurrent mixed-size writes, a scrub, degraded reads and degraded writes keep data and P/Q exact while status never shows more of the cache in use than it holds, and small writes pin only their pages (data, P and Q; every slot when degraded); a bigger cache runs more operations at once.
# group: raid6-cache
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 1 0 || skip "target fanraid 1.1.0 missing"
have_cmd fio raidcalc || skip "fio or raidcalc not in the image"

# 8 members, 128 KiB chunks: one operation holds 10 x 128 KiB (members and
# two scratch windows), so the smallest cache is 2 x 1.25 MiB, rounded: 3.
n=8 chunk=256 min_mb=3
len=$((32 * (n - 2) * chunk))		# 24 MiB
region_mb=6
mapfile -t devs < <(nullb_create_many "$n" $((len / (n - 2) / 2048 + 1)))
table() { # FEATURE_WORDS... (raidcalc gets the geometry alone)
	echo "0 $len fanraid raid6 $chunk $# $* $n$(member_pairs "${devs[@]}")"
}

# Free memory, with the pages on the per-CPU free lists: those are free but
# not in MemFree, and after a 256 MiB table is removed up to 20 MiB of its
# pages can sit there (MemFree alone then showed 228 MiB of 248 given back;
# with the lists counted, 248).
memfree_mb() {
	drop_caches
	awk '$1 == "MemFree:" { kib += $2 }
	     $1 == "count:" { kib += $2 * 4 }
	     END { print int(kib / 1024) }' /proc/meminfo /proc/zoneinfo
}

# Memory: taken whole at load, given back at remove. Readahead off, so its
# cache does not count.
load_cost() { # MIB: sets cost to the MiB a table with that cache took
	local before loaded after
	before=$(memfree_mb)
	dm_create mem "$(table ra_cache_mb 0 stripe_cache_mb "$1")"
	loaded=$(memfree_mb)
	dm_remove mem
	after=$(memfree_mb)
	[ $((after - loaded)) -ge $((before - loaded - 8)) ] ||
		fail "stripe_cache_mb $1: $((before - loaded)) MiB taken at load, only $((after - loaded)) given back"
	cost=$((before - loaded))
}
load_cost 256
big=$cost
load_cost $min_mb
small=$cost
log "load took $big MiB with stripe_cache_mb 256, $small MiB with $min_mb"
[ "$big" -ge 192 ] && [ "$big" -le 288 ] ||
	fail "stripe_cache_mb 256 took $big MiB at load"
[ "$small" -le $((min_mb + 12)) ] || fail "stripe_cache_mb $min_mb took $small MiB at load"

fio_common=(--filename=/dev/mapper/fr --direct=1 --ioengine=libaio
	--iodepth=32 --numjobs=4 --rw=randwrite --blockalign=512
	--bssplit=512/10:1536/5:4k/25:12k/15:64k/20:200k/10:1m/15
	--output-format=terse --terse-version=3 --group_reporting)
regions=(--size=${region_mb}M --offset_increment=${region_mb}M)

# peak_within LIMIT_KIB WHAT: the cache's peak use so far fits in it.
peak_within() {
	local peak now
	peak=$(fanraid_total fr stripe_cache_peak_kib)
	now=$(fanraid_total fr stripe_cache_kib)
	[ "$peak" -gt 0 ] || fail "$2: stripe cache peak is $peak, nothing counted"
	[ "$peak" -le "$1" ] || fail "$2: stripe cache peak $peak KiB, more than $1 KiB"
	assert_eq "$now" 0 "$2: stripe cache KiB in use when idle"
	log "$2: stripe cache peak $peak KiB of $1 KiB"
}

# The smallest cache under 4 writers x 32 requests of up to 1 MiB.
dm_create fr "$(table stripe_cache_mb $min_mb)"
assert_contains "$(dmsetup table fr)" "stripe_cache_mb $min_mb $n" "table"
fio --name=regions "${fio_common[@]}" "${regions[@]}" --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --randseed=11 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio verify failed with a $min_mb MiB stripe cache"; }
peak_within $((min_mb * 1024)) "concurrent writes"

# A scrub works in the same cache.
dmsetup message fr 0 stats reset
assert_eq "$(fanraid_total fr stripe_cache_peak_kib)" 0 "peak after stats reset"
dmsetup message fr 0 check
fanraid_wait_idle fr 240
assert_eq "$(fanraid_total fr mismatch_cnt)" 0 "mismatch_cnt after check"
peak_within $((min_mb * 1024)) "check"
dm_remove fr
drop_caches
raidcalc verify "$(table)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q do not match after writes through a $min_mb MiB cache"; }
log "$(tail -n1 /tmp/verify.out)"

# Two members failed: every read of theirs is rebuilt in the cache, and
# writes keep going to the survivors.
dm_create fr "$(table stripe_cache_mb $min_mb)"
dmsetup message fr 0 fail 1
dmsetup message fr 0 fail 6
dmsetup message fr 0 stats reset
fio --name=regions "${fio_common[@]}" "${regions[@]}" --verify=crc32c \
	--verify_fatal=1 --verify_only=1 --randseed=11 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "degraded reads through a $min_mb MiB cache returned wrong data"; }
peak_within $((min_mb * 1024)) "degraded reads"
fio --name=regions "${fio_common[@]}" "${regions[@]}" --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --randseed=12 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "degraded writes through a $min_mb MiB cache failed verify"; }
peak_within $((min_mb * 1024)) "degraded writes"
dm_remove fr

# A bigger cache is really used: the same writers keep more operations
# busy. New members: 1 and 6 missed the degraded writes.
nullb_destroy_all
mapfile -t devs < <(nullb_create_many "$n" $((len / (n - 2) / 2048 + 1)))
dm_create fr "$(table stripe_cache_mb 64)"
fio --name=overlap "${fio_common[@]}" --size=24M --offset=0 --randrepeat=0 \
	--norandommap >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "writes through a 64 MiB cache failed"; }
peak=$(fanraid_total fr stripe_cache_peak_kib)
# Sized operations (a read-modify-write holds data, P and Q alone) keep
# this load below 3 MiB now: more than the two whole-window operations
# the smallest cache is sized for is what must show.
[ "$peak" -gt 1280 ] ||
	fail "64 MiB cache: peak $peak KiB, two whole-window operations (1280 KiB) or less"
[ "$peak" -le $((64 * 1024)) ] || fail "64 MiB cache: peak $peak KiB"
log "64 MiB cache: peak $peak KiB in use"
dm_remove fr
drop_caches
raidcalc verify "$(table)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q do not match after writes through a 64 MiB cache"; }

# Operations take the pages their I/O needs. One 4 KiB write at a time,
# a read-modify-write, pins its data page, P and Q: not a whole window of
# every slot and scratch (1280 KiB here), nor a page on every member
# (32 KiB); 4 x 32 of them keep more operations in flight than the two
# whole windows this cache holds. Operations' own structures are sized to
# the 8 members, not 64: the smallest cache has 128 (20 when each took
# 18 KiB), and the writes keep more than 20 busy at once.
dmesg_mark
dm_create fr "$(table stripe_cache_mb $min_mb)"
nops=$(dmesg_since | sed -n "s/.*stripe cache $min_mb MiB: [0-9]* pages, \([0-9]*\) ops.*/\1/p" | tail -n 1)
[ -n "$nops" ] || fail "no stripe cache line in the kernel log"
[ "$nops" -ge 96 ] || fail "a $min_mb MiB stripe cache has $nops operations, fewer than 96"
log "a $min_mb MiB stripe cache has $nops operations"
small_fio=(--name=small --filename=/dev/mapper/fr --direct=1 --rw=randwrite
	--bs=4k --size=16M --output-format=terse --terse-version=3)
dmsetup message fr 0 stats reset
fio "${small_fio[@]}" --ioengine=psync --number_ios=300 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "4 KiB writes at depth 1 failed"; }
assert_eq "$(fanraid_total fr stripe_cache_peak_kib)" $((3 * 4)) \
	"stripe cache peak (KiB) of 4 KiB writes at depth 1"
dmsetup message fr 0 stats reset
fio "${small_fio[@]}" --ioengine=libaio --iodepth=32 --numjobs=4 \
	--number_ios=2000 --group_reporting >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "4 KiB writes at depth 4 x 32 failed"; }
peak=$(fanraid_total fr stripe_cache_peak_kib)
[ "$peak" -gt $((20 * 3 * 4)) ] ||
	fail "4 KiB writes at depth 4 x 32: stripe cache peak $peak KiB, 20 operations or fewer at once"
log "4 KiB writes at depth 4 x 32: stripe cache peak $peak KiB"
dm_remove fr
drop_caches
raidcalc verify "$(table)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q do not match after 4 KiB writes"; }

# With a member failed the same writes reconstruct: a page on every slot.
dm_create fr "$(table stripe_cache_mb $min_mb)"
dmsetup message fr 0 fail 1
dmsetup message fr 0 stats reset
fio "${small_fio[@]}" --ioengine=psync --number_ios=100 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "degraded 4 KiB writes at depth 1 failed"; }
assert_eq "$(fanraid_total fr stripe_cache_peak_kib)" $((n * 4)) \
	"stripe cache peak (KiB) of degraded 4 KiB writes at depth 1"
dm_remove fr
