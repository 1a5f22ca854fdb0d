#!/bin/bash
# Exercise the state fanraid keeps per CPU (the RAID6 cache's fronts of parked operations, the superblock's per-CPU count of writes in flight, the readahead's in-flight count) on 8 vCPUs with a writer pinned to each: fio verifies every block and P/Q match raidcalc with the default and the smallest stripe cache, as a member fails through its own I/O errors, and while it is rebuilt onto an empty one; a bitmap array is marked clean, bits and superblocks, once its 8 writers stop and keeps their data across stop and assemble; and 8 sequential readers served by readahead beside 8 random readers get the bytes written.
# group: many-cpus
# cpus: 8
# timeout: 600
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fio raidcalc fanraid || skip "fio, raidcalc or fanraid not in the image"

cpus=$(nproc)
[ "$cpus" -ge 8 ] || fail "the VM has $cpus CPUs, the scenario asked for 8"

# One job per CPU (fio's split policy gives job k CPU k), so every CPU
# takes, parks and gives back operations of its own and of the others'
# completions. Mostly small writes, which go through the fronts (up to 4
# pages a slot), some larger, which take the cache's lock.
writers=(--direct=1 --ioengine=libaio --iodepth=16 --numjobs=8
	--cpus_allowed=0-7 --cpus_allowed_policy=split --rw=randwrite
	--bssplit=4k/50:8k/15:16k/15:64k/10:256k/10 --group_reporting
	--output-format=terse --terse-version=3)

n=8 chunk=256 min_mb=3
region_mb=3
len=$((8 * region_mb * 2048))
mapfile -t devs < <(nullb_create_many "$n" $((len / (n - 2) / 2048 + 2)))
table() { # FEATURE_WORDS...
	echo "0 $len fanraid raid6 $chunk $# $* $n$(member_pairs "${devs[@]}")"
}

# verified_writes WHAT [FAILED]: 8 writers, each in its own region,
# verified; P and Q checked on the members (all but FAILED).
verified_writes() {
	local m
	local -a pq=("$(dmsetup table fr)")
	if [ -n "${2:-}" ]; then
		pq=(--level 6 --chunk $((chunk / 2))K --data-offset 0
			--size $((len / 2048))M)
		for ((m = 0; m < n; m++)); do
			[ "$m" = "$2" ] && pq+=(missing) || pq+=("${devs[m]}")
		done
	fi
	fio --name=percpu --filename=/dev/mapper/fr "${writers[@]}" \
		--size=${region_mb}M --offset_increment=${region_mb}M \
		--verify=crc32c --verify_fatal=1 --do_verify=1 --randseed=31 --loops=3 \
		>/tmp/fio.out || { cat /tmp/fio.out; fail "fio verify failed: $1"; }
	drop_caches
	raidcalc verify "${pq[@]}" >/tmp/verify.out 2>&1 ||
		{ cat /tmp/verify.out; fail "P/Q do not match after $1"; }
	# Idle: operations parked in the fronts are not in use.
	assert_eq "$(fanraid_total fr stripe_cache_kib)" 0 "stripe cache KiB in use when idle, $1"
	log "$1: $(tail -n1 /tmp/verify.out); cache peak $(fanraid_total fr stripe_cache_peak_kib) KiB"
}

# The default cache: a CPU's front holds up to 1/32 of it here.
dm_create fr "$(table ra_cache_mb 0)"
verified_writes "8 writers, default stripe cache"
# A stats reset calls the fronts back; the same writes go on afterwards.
dmsetup message fr 0 stats reset
assert_eq "$(fanraid_total fr stripe_cache_peak_kib)" 0 "peak after stats reset"
verified_writes "8 writers after a stats reset"
dm_remove fr

# The smallest cache: writers wait for operations all the time, and every
# waiter calls the fronts back first; nothing may be held past the limit.
dm_create fr "$(table ra_cache_mb 0 stripe_cache_mb $min_mb)"
verified_writes "8 writers, a $min_mb MiB stripe cache"
peak=$(fanraid_total fr stripe_cache_peak_kib)
[ "$peak" -le $((min_mb * 1024)) ] || fail "stripe cache peak $peak KiB, more than $min_mb MiB"
# Degraded: reconstruct-writes from 8 CPUs.
dmsetup message fr 0 fail 3
verified_writes "8 writers, a $min_mb MiB cache, member 3 failed" 3
dm_remove fr

# A member that fails through real I/O errors while 8 CPUs write to it,
# then is rebuilt onto an empty one while they write again.
spare=$(nullb_create_many 1 $((len / (n - 2) / 2048 + 2)))
dm_create m5 "0 $(dev_sectors "${devs[5]}") linear ${devs[5]} 0"
on_exit 'dmsetup remove fr >/dev/null 2>&1; dmsetup remove m5 >/dev/null 2>&1 || true'
devs[5]=/dev/mapper/m5
dm_create fr "$(table ra_cache_mb 0)"
fio --name=percpu --filename=/dev/mapper/fr "${writers[@]}" \
	--size=${region_mb}M --offset_increment=${region_mb}M --loops=12 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --randseed=43 \
	>/tmp/fio.out &
fio_pid=$!
sleep 2
kill -0 $fio_pid 2>/dev/null || { cat /tmp/fio.out; fail "fio ended before member 5 failed"; }
dm_swap m5 "0 $(dev_sectors /dev/mapper/m5) error"
wait $fio_pid || { cat /tmp/fio.out; fail "fio verify failed as member 5 began to fail its I/O"; }
assert_eq "$(fanraid_health fr 5)" D "member 5 after its I/O errors"
log "member 5 failed by its own I/O errors under 8 writers; every block verified"
dm_remove fr
devs[5]=$spare
dm_create fr "$(table ra_cache_mb 0 max_sync_rate 1024 rebuild 5)"
assert_eq "$(fanraid_health fr 5)" a "member 5 when its rebuild starts"
fio --name=percpu --filename=/dev/mapper/fr "${writers[@]}" \
	--size=${region_mb}M --offset_increment=${region_mb}M --loops=2 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 --randseed=47 \
	>/tmp/fio.out || { cat /tmp/fio.out; fail "fio verify failed during the rebuild"; }
log "8 writers during the rebuild of member 5: verified; status then $(dmsetup status fr | awk '{ print $6, $7, $8 }')"
fanraid_wait_idle fr 120
assert_eq "$(fanraid_health fr 5)" A "member 5 after its rebuild"
drop_caches
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "P/Q do not match after the rebuild under 8 writers"; }
# The rebuilt member now carries data: lose two others and read it all back.
dmsetup message fr 0 fail 0
dmsetup message fr 0 fail 1
fio --name=percpu --filename=/dev/mapper/fr "${writers[@]}" \
	--size=${region_mb}M --offset_increment=${region_mb}M --loops=2 \
	--verify=crc32c --verify_only=1 --verify_fatal=1 --randseed=47 \
	>/tmp/fio.out || { cat /tmp/fio.out; fail "the rebuilt member and parity do not give back the data"; }
log "rebuilt member 5: $(tail -n1 /tmp/verify.out); data read back with members 0 and 1 failed"
dm_remove fr

# The superblock's count of writes in flight and the bitmap's per-region
# counts, written from 8 CPUs: both must come back to idle (DIRTY and the
# bits cleared) once the writers stop, and the data must survive assembly.
nullb_destroy_all
mapfile -t devs < <(nullb_create_many "$n" 16)
on_exit 'fanraid stop fr >/dev/null 2>&1 || true'
fanraid create fr --level 6 --chunk 128K --bitmap 1M "${devs[@]}" >/tmp/create.out ||
	{ cat /tmp/create.out; fail "create"; }
fanraid_wait_idle fr 300
fio --name=percpu --filename=/dev/mapper/fr "${writers[@]}" \
	--size=${region_mb}M --offset_increment=${region_mb}M \
	--verify=crc32c --do_verify=0 --randseed=37 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio writes on the bitmap array"; }
fanraid_wait_bitmap_clean fr 60
fanraid_wait_sb_state fr clean 30 "superblock state once 8 writers stopped"
fanraid stop fr >/tmp/stop.out || { cat /tmp/stop.out; fail "stop"; }
for d in "${devs[@]}"; do
	assert_contains "$(fanraid examine "$d")" "state: clean"
done
fanraid assemble fr "${devs[@]}" >/tmp/assemble.out ||
	{ cat /tmp/assemble.out; fail "assemble"; }
assert_eq "$(fanraid_bitmap fr | cut -d' ' -f2)" 0 "dirty regions after assemble"
fio --name=percpu --filename=/dev/mapper/fr "${writers[@]}" \
	--size=${region_mb}M --offset_increment=${region_mb}M \
	--verify=crc32c --verify_only=1 --verify_fatal=1 --randseed=37 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "fio verify after stop and assemble"; }
log "bitmap array: clean after 8 writers, data verified after assemble"
fanraid stop fr >/dev/null
nullb_destroy_all

# Readahead: 8 sequential readers at queue depth 1 (readahead streams) and
# 8 random readers (whose reads meet only by chance), each
# on its own CPU; the sequential ones must be served from the cache and
# read what was written.
n=8
mapfile -t devs < <(nullb_create_many $n 16)
len=$((n * 14 * 2048))
dm_create fr "0 $len fanraid raid0 256 0 $n$(member_pairs "${devs[@]}")"
fio --name=seq --filename=/dev/mapper/fr --rw=write --bs=64k --direct=1 \
	--size=8M --offset_increment=8M --numjobs=8 --verify=crc32c --do_verify=0 \
	--randseed=41 --output=/tmp/fio.out || { cat /tmp/fio.out; fail "raid0 writes"; }
dmsetup message fr 0 stats reset
fio --name=random --filename=/dev/mapper/fr --rw=randread --bs=4k --direct=1 \
	--offset=64M --size=40M --ioengine=libaio --iodepth=8 --numjobs=8 \
	--cpus_allowed=0-7 --cpus_allowed_policy=split --time_based --runtime=600 \
	--randrepeat=0 --norandommap --output=/tmp/random.out &
random_pid=$!
on_exit "kill $random_pid 2>/dev/null || true"
# fio's 8 jobs take seconds to start on 8 vCPUs under TCG: once, the
# sequential readers ran alone, ahead of their fetches (239 hits of 1024).
for ((i = 0; i < 150; i++)); do
	[ "$(fanraid_total fr ra_misses)" -gt 1000 ] && break
	sleep 0.2
done
[ "$(fanraid_total fr ra_misses)" -gt 1000 ] ||
	{ cat /tmp/random.out; fail "random readers not reading after 30 s"; }
fio --name=seq --filename=/dev/mapper/fr --rw=write --bs=64k --direct=1 \
	--size=8M --offset_increment=8M --numjobs=8 --cpus_allowed=0-7 \
	--cpus_allowed_policy=split --verify=crc32c --verify_only=1 --verify_fatal=1 \
	--randseed=41 --output=/tmp/fio.out || { cat /tmp/fio.out; fail "sequential readers beside random ones read wrong data"; }
kill -0 "$random_pid" 2>/dev/null || { cat /tmp/random.out; fail "random readers ended before the sequential ones"; }
kill "$random_pid"
wait "$random_pid" 2>/dev/null || true
hits=$(fanraid_total fr ra_hits)
misses=$(fanraid_total fr ra_misses)
log "readahead on 8 CPUs: hits $hits misses $misses prefetched $(fanraid_total fr ra_prefetched) sectors"
# 64 MiB read sequentially in 64 KiB pieces: 1024 reads.
[ "$hits" -ge 512 ] || fail "only $hits readahead hits for 8 sequential readers"
[ "$misses" -gt 1000 ] || fail "only $misses misses: the random readers did not run"
dm_remove fr
