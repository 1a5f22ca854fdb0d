#!/bin/bash
# Exercise the fanraid constructor: every malformed table line is refused with the ti->error that names the bad argument, and the kernel log stays clean.
# group: main
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

mapfile -t d < <(nullb_create_many 4 16)
size=$(dev_sectors "${d[0]}")	# 32768
pairs="${d[0]} 0 ${d[1]} 0 ${d[2]} 0 ${d[3]} 0"
len=$((4 * 128 * 8))
cases=0

# refuse MESSAGE LEN ARGS...: creating "bad" with this fanraid line fails,
# the kernel names MESSAGE for it, and no device is left behind.
refuse() {
	local msg=$1 l=$2 out
	shift 2
	dmesg_mark
	if out=$(dmsetup create bad --table "0 $l fanraid $*" 2>&1); then
		dmsetup remove bad
		fail "accepted: fanraid $* (expected: $msg)"
	fi
	dmesg_since | grep -qF "fanraid: $msg" ||
		fail "fanraid $*: kernel did not say '$msg'; it said: $(dmesg_since | grep -i fanraid)"
	if dmsetup info bad >/dev/null 2>&1; then
		fail "fanraid $*: refused table left device 'bad' behind"
	fi
	cases=$((cases + 1))
}

# The line the bad ones are variations of is good.
dm_create good "0 $len fanraid raid0 128 0 4 $pairs"
dm_remove good

# Level and chunk size.
refuse "Invalid RAID level: must be raid0 or raid6" $len raid5 128 0 4 $pairs
refuse "Invalid RAID level: must be raid0 or raid6" $len RAID0 128 0 4 $pairs
refuse "Invalid chunk size: not a power of two" $len raid0 96 0 4 $pairs
refuse "Invalid chunk size: smaller than 4 KiB (8 sectors)" $len raid0 4 0 4 $pairs
refuse "Invalid chunk size: not a power of two" $len raid0 0 0 4 $pairs
refuse "Invalid chunk size: larger than 16 MiB (32768 sectors)" $len raid0 65536 0 4 $pairs
refuse "Invalid chunk size: not a number" $len raid0 128k 0 4 $pairs
refuse "Invalid chunk size: not a number" $len raid0 -128 0 4 $pairs
refuse "Invalid chunk size: not a number" $len raid0 4294967424 0 4 $pairs
refuse "Not enough arguments" $len raid0

# Device count against the level, the limit and the pairs given.
refuse "Missing device count" $len raid0 128 0
refuse "Too few devices for the RAID level (raid0 needs 1, raid6 needs 4)" $len raid0 128 0 0
refuse "Too few devices for the RAID level (raid0 needs 1, raid6 needs 4)" $len raid6 128 0 3 \
	"${d[0]}" 0 "${d[1]}" 0 "${d[2]}" 0
refuse "Too many devices (max 64)" $len raid0 128 0 65 $pairs
refuse "Invalid device count: not a number" $len raid0 128 0 4x $pairs
refuse "Invalid device count: not a number" $len raid0 128 0 4294967300 $pairs
refuse "Device count larger than the <dev> <offset> pairs given" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 0 "${d[2]}" 0
refuse "Device count larger than the <dev> <offset> pairs given" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 0 "${d[2]}" 0 "${d[3]}"
refuse "Trailing arguments after the device list" $len raid0 128 0 3 $pairs
refuse "Trailing arguments after the device list" $len raid0 128 0 4 $pairs garbage

# Members.
refuse "Duplicate member device" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 0 "${d[0]}" 0 "${d[3]}" 0
refuse "Device lookup failed" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 0 /dev/no-such-device 0 "${d[3]}" 0
refuse "Member too small for its offset plus one chunk" 512 raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 0 "${d[2]}" $((size - 64)) "${d[3]}" 0
refuse "Member too small for its offset plus one chunk" 512 raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" $size "${d[2]}" 0 "${d[3]}" 0
refuse "Target length exceeds the capacity of the members" $((4 * size + 8)) raid0 128 0 4 $pairs
refuse "Target length exceeds the capacity of the members" $((4 * size)) raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 8 "${d[2]}" 0 "${d[3]}" 0
refuse "Invalid device offset: not a number or out of range" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 18446744073709551616 "${d[2]}" 0 "${d[3]}" 0
refuse "Invalid device offset: not a number or out of range" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" -8 "${d[2]}" 0 "${d[3]}" 0
refuse "Invalid device offset: not a number or out of range" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 8s "${d[2]}" 0 "${d[3]}" 0
refuse "Device offset plus member data area overflows" $len raid0 128 0 4 \
	"${d[0]}" 0 "${d[1]}" 18446744073709551615 "${d[2]}" 0 "${d[3]}" 0

# Features: the count counts words.
refuse "Unrecognised feature argument" $len raid0 128 1 discard_passdown 4 $pairs
refuse "Invalid flush_policy: must be passthrough, dirty or drop" $len raid0 128 2 flush_policy sometimes 4 $pairs
refuse "Feature argument requires a value" $len raid0 128 1 flush_policy 4 $pairs
refuse "Feature flush_policy duplicated" $len raid0 128 4 flush_policy drop flush_policy drop 4 $pairs
refuse "Feature max_sync_rate duplicated" $len raid0 128 4 max_sync_rate 10 max_sync_rate 10 4 $pairs
refuse "Invalid max_sync_rate: not a number of KiB/s" $len raid0 128 2 max_sync_rate fast 4 $pairs
refuse "Feature min_sync_rate duplicated" $len raid6 128 4 min_sync_rate 10 min_sync_rate 10 4 $pairs
refuse "Invalid min_sync_rate: not a number of KiB/s" $len raid6 128 2 min_sync_rate 1k 4 $pairs
refuse "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" $len raid0 128 2 min_sync_rate 1 4 $pairs
refuse "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" $len raid0 128 1 resync 4 $pairs
refuse "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" $len raid0 128 2 stripe_cache_mb 64 4 $pairs
refuse "Feature readahead duplicated" $len raid0 128 4 readahead on readahead off 4 $pairs
refuse "Invalid readahead: must be on or off" $len raid0 128 2 readahead yes 4 $pairs
refuse "Invalid ra_window: must be 1-64 stripes" $len raid0 128 2 ra_window 0 4 $pairs
refuse "Invalid ra_window: must be 1-64 stripes" $len raid0 128 2 ra_window 65 4 $pairs
refuse "Feature ra_window duplicated" $len raid0 128 4 ra_window 2 ra_window 2 4 $pairs
refuse "Invalid ra_cache_mb: must be 0-4096 MiB" $len raid0 128 2 ra_cache_mb 4097 4 $pairs
refuse "Feature ra_cache_mb duplicated" $len raid0 128 4 ra_cache_mb 8 ra_cache_mb 8 4 $pairs
refuse "Readahead on needs a cache (ra_cache_mb > 0)" $len raid0 128 4 readahead on ra_cache_mb 0 4 $pairs
refuse "Invalid stripe_cache_mb: must be 1-4096 MiB" $len raid6 128 2 stripe_cache_mb 0 4 $pairs
refuse "Invalid stripe_cache_mb: must be 1-4096 MiB" $len raid6 128 2 stripe_cache_mb 4097 4 $pairs
refuse "Invalid stripe_cache_mb: must be 1-4096 MiB" $len raid6 128 2 stripe_cache_mb 8M 4 $pairs
refuse "Feature stripe_cache_mb duplicated" $len raid6 128 4 stripe_cache_mb 8 stripe_cache_mb 8 4 $pairs
# 4 members with 128 KiB chunks need two windows of 6 x 128 KiB: 2 MiB.
refuse "Invalid stripe_cache_mb: below the minimum for this raid6 geometry" $len raid6 256 2 stripe_cache_mb 1 4 $pairs
dmesg_since | grep -qF "needs at least 2 MiB" ||
	fail "the kernel log does not give the smallest stripe_cache_mb: $(dmesg_since | grep -i fanraid)"
refuse "Invalid number of feature arguments" $len raid0 128 18 flush_policy drop 4 $pairs
refuse "Invalid number of feature arguments" $len raid0 128 x 4 $pairs
# A count larger than the words present eats the device list.
refuse "Unrecognised feature argument" $len raid0 128 3 flush_policy drop 4 $pairs

# After all of that the module still takes a good line.
dm_create good "0 $len fanraid raid0 128 2 flush_policy drop 4 $pairs"
dmsetup table good
dm_remove good
log "$cases malformed lines refused, each with its own message"
