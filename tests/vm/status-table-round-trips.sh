#!/bin/bash
# Exercise TABLE status: the line dmsetup table prints re-creates the same device, byte for byte, with features in canonical order and explicit defaults kept.
# group: main
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

mapfile -t d < <(nullb_create_many 3 16)
len=$((3 * 128 * 10 + 8))
pairs="${d[0]} 2048 ${d[1]} 2056 ${d[2]} 2048"
majmin() { cat "/sys/class/block/${1#/dev/}/dev"; }
mm_pairs="$(majmin "${d[0]}") 2048 $(majmin "${d[1]}") 2056 $(majmin "${d[2]}") 2048"

# round_trip FEATURES EXPECTED_FEATURES: create with FEATURES, the table
# shows EXPECTED_FEATURES, and a device made from that output shows it too.
round_trip() {
	local given=$1 want=$2 first second
	dm_create rt "0 $len fanraid raid0 128 $given 3 $pairs"
	first=$(dmsetup table rt)
	assert_eq "$first" "0 $len fanraid raid0 128 $want 3 $mm_pairs" "TABLE for '$given'"
	dm_remove rt
	dm_create rt "$first"
	second=$(dmsetup table rt)
	assert_eq "$second" "$first" "TABLE after re-creating from its own output"
	dm_remove rt
	log "'$given' -> '$want': round-trips"
}

round_trip "0" "0"
round_trip "2 flush_policy passthrough" "2 flush_policy passthrough"
round_trip "2 flush_policy drop" "2 flush_policy drop"
round_trip "4 readahead off flush_policy dirty" "4 flush_policy dirty readahead off"
round_trip "4 ra_window 4 readahead on" "4 readahead on ra_window 4"
