#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Exercise the raidcalc command end to end on member image files: build an
# array from a random image, verify it, read it back (also degraded),
# corrupt one parity byte and see verify name it, rebuild, and check the
# exit codes the house style promises (0 ok, 1 failure, 2 usage).
set -euo pipefail

rc=${1:?usage: cli.sh <path to raidcalc>}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fails=0

ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
# expect <exit code> <description> <command...>
# flip_byte FILE OFFSET: damage one byte for sure. Writing a fixed value
# left the random images undamaged whenever the byte already held it.
flip_byte() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "\\$(printf %o $((255 - b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

expect() {
	local want=$1 what=$2 got=0
	shift 2
	"$@" >out 2>err || got=$?
	if [ "$got" = "$want" ]; then ok "$what"; else bad "$what (exit $got, want $want)"; cat err; fi
}

len=3000
head -c $((len * 512)) /dev/urandom >img
t6="0 $len fanraid raid6 16 0 6 m0 8 m1 8 m2 8 m3 8 m4 8 m5 8"
t0="fanraid raid0 8 2 flush_policy passthrough 3 z0 0 z1 0 z2 0"

expect 0 "build raid6" "$rc" build -i img $t6
expect 0 "verify a built raid6" "$rc" verify "$t6"
grep -q ' 0 bad block' out && ok "verify reports no bad block" || bad "verify summary: $(cat out)"
"$rc" read $t6 >back && cmp -s back img && ok "read returns the image" || bad "read returns the image"
"$rc" read -s 17 -n 100 $t6 >part && cmp -s part <(tail -c +$((17 * 512 + 1)) img | head -c $((100 * 512))) &&
	ok "read of an unaligned range" || bad "read of an unaligned range"

# P of row 2 sits on member 6-1-2 = 3; ask map rather than hard-code it,
# then damage member sector 2*16+3 = 35 of that P block
pdev=$("$rc" map -s $((2 * 4 * 16)) $t6 | sed -n 's/.* p_member \([0-9]*\).*/\1/p')
flip_byte "m$pdev" $(((8 + 2 * 16 + 3) * 512 + 9))
expect 1 "verify fails on a damaged P" "$rc" verify $t6
grep -q "^m$pdev: row 2: P mismatch on member $pdev at sector 35$" out &&
	ok "verify names member, row, P and sector" || bad "verify line: $(cat out)"
expect 0 "verify of rows that skip the damage" "$rc" verify -r 3:5 $t6

cp "m$pdev" keep
head -c $(($(stat -c %s keep))) /dev/zero >"m$pdev"
"$rc" read -m "$pdev" $t6 | cmp -s - img && ok "degraded read without member $pdev" ||
	bad "degraded read without member $pdev"
expect 0 "rebuild member $pdev" "$rc" rebuild -m "$pdev" $t6
expect 0 "verify after rebuild" "$rc" verify $t6

# the same array with member 2 written "- -", as dm-raid and the target do
t6m="0 $len fanraid raid6 16 0 6 m0 8 m1 8 - - m3 8 m4 8 m5 8"
"$rc" read "$t6m" | cmp -s - img && ok "read with a missing member" || bad "read with a missing member"
"$rc" read -m 5 "$t6m" | cmp -s - img && ok "read with two members lost" || bad "read with two members lost"
expect 0 "verify checks what it can with a missing member" "$rc" verify "$t6m"
t6r="0 $len fanraid raid6 16 2 rebuild 4 6 m0 8 m1 8 m2 8 m3 8 m4 8 m5 8"
expect 0 "verify warns about a member being rebuilt" "$rc" verify "$t6r"
grep -q "^m4: member 4 is being rebuilt" err && ok "rebuild warning names the member" || bad "rebuild warning: $(cat err)"

# what the fanraid tool writes: readahead and stripe cache features change
# no geometry, so the same images verify and read the same
t6f="0 $len fanraid raid6 16 10 flush_policy dirty readahead on ra_window 8 ra_cache_mb 32 stripe_cache_mb 16 6 m0 8 m1 8 m2 8 m3 8 m4 8 m5 8"
expect 0 "verify a table with readahead and stripe_cache_mb" "$rc" verify "$t6f"
grep -q ' 0 bad block' out && ok "  and finds no bad block" || bad "verify with features: $(cat out)"
"$rc" read "$t6f" | cmp -s - img && ok "read a table with readahead and stripe_cache_mb" ||
	bad "read a table with readahead and stripe_cache_mb"
expect 0 "geom of a table with readahead and stripe_cache_mb" "$rc" geom "$t6f"
grep -qx "table ${t6f#0 $len }" out && ok "  prints the table back as given" || bad "geom table: $(grep table out)"
expect 2 "verify refuses a stripe cache on raid0" "$rc" verify -L 500 "fanraid raid0 8 2 stripe_cache_mb 16 3 z0 0 z1 0 z2 0"
grep -q ": Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6$" err &&
	ok "  with the target's message" || bad "stripe cache on raid0: $(cat err)"

expect 0 "build raid0" "$rc" build -L 500 -i img $t0
"$rc" read -L 500 $t0 | cmp -s - <(head -c $((500 * 512)) img) && ok "raid0 read" || bad "raid0 read"
expect 2 "verify refuses raid0" "$rc" verify -L 500 $t0
expect 0 "geom" "$rc" geom -L 500 $t0
grep -qx "io_opt_bytes 12288" out && ok "geom io_opt is chunk x data members" || bad "geom: $(cat out)"
grep -qx "table $t0" out && ok "geom prints the canonical table" || bad "geom table: $(grep table out)"

# --- the option form (issue 2): same images, same answers as the table ---
# Members with a 1 MiB data offset, exactly offset + data area long, so the
# option form's "smallest member minus offset" is the table's data area.
mkdir opt
(
cd opt
t="0 $len fanraid raid6 16 0 6 m0 2048 m1 2048 m2 2048 m3 2048 m4 2048 m5 2048"
o="--level 6 --chunk 8K --data-offset 1M m0 m1 m2 m3 m4 m5"
"$rc" build -i ../img $t
for i in 0 1 2 3 4 5; do cp "m$i" "orig$i"; done
expect 0 "option verify of a built raid6" "$rc" verify $o
cp out opt.out
expect 0 "table verify of the same images" "$rc" verify "$t"
cmp -s out opt.out && ok "option and table verify print the same" || bad "verify forms differ: $(cat opt.out out)"
expect 0 "option verify with --size and -j 1" "$rc" verify --size $((len * 512)) -j 1 $o
cmp -s out opt.out && ok "--size (kernel rule) and -j 1 print the same" || bad "verify --size: $(cat out)"

# a bad data byte in row 13, data index 2 (member from map, not hard-coded)
# "offset O member M member_offset X device_offset D row ..."
set -- $("$rc" map --level 6 --devices 6 --chunk 8K --data-offset 1M $(((13 * 4 + 2) * 8192 + 100)))
dev=$4 devoff=$8
flip_byte "m$dev" "$devoff"
cmp -s "m$dev" "orig$dev" && bad "corruption did not land"
expect 1 "option verify finds the bad data byte" "$rc" verify $o
# P and Q together name the data block, instead of both being blamed
grep -q "^m$dev: row 13: data mismatch on member $dev at sector [0-9]* (named by P and Q together)$" out &&
	! grep -q ": row 13: [PQ] mismatch" out &&
	ok "option verify names row 13's data member $dev" || bad "option verify: $(cat out)"
grep -q " 1 bad block(s)$" out && ok "option verify counts 1" || bad "count: $(cat out)"
cp out opt.out
expect 1 "table verify finds it too" "$rc" verify "$t"
cmp -s out opt.out && ok "both forms report the same mismatches" || bad "forms differ: $(cat opt.out out)"
expect 1 "verify with a missing member still sees row 13" "$rc" verify --level 6 --chunk 8K --data-offset 1M \
	$(for i in 0 1 2 3 4 5; do [ $i = $(((dev + 1) % 6)) ] && echo missing || echo m$i; done)
grep -q ": row 13: . mismatch" out && ok "partial verify names row 13" || bad "partial verify: $(cat out)"
grep -q "member $(((dev + 1) % 6)) is missing" err && ok "partial verify says what it skips" || bad "partial note: $(cat err)"
cp "orig$dev" "m$dev"

# damage many rows: verify lists the first 16, then says how many more
for r in $(seq 1 2 45); do
	flip_byte "m$(((5 - r % 6 + 6) % 6))" $((1048576 + r * 8192 + 7))
done
expect 1 "verify of 23 bad P blocks" "$rc" verify $o
[ "$(grep -c 'mismatch on member' out)" = 16 ] && grep -q "^verify: 7 more bad block(s) not listed$" out &&
	head -1 out | grep -q ": row 1: P mismatch" && ok "verify lists the first 16 rows in order" || bad "list: $(cat out)"
for i in 0 1 2 3 4 5; do cp "orig$i" "m$i"; done

# recover two members: output files are the members, byte for byte
expect 0 "option recover of members 2 and 4" "$rc" recover --level 6 --chunk 8K --data-offset 1M \
	m0 m1 missing m3 m4 m5 --missing 4 --out rec
cmp -s rec/member2.img orig2 && cmp -s rec/member4.img orig4 && ok "recovered images equal the members" ||
	bad "recovered images differ"
[ "$(ls rec)" = "member2.img
member4.img" ] && ok "recover writes only the lost members" || bad "recover wrote: $(ls rec)"
expect 0 "table recover of the same members" "$rc" recover --missing 4 --out rect \
	"0 $len fanraid raid6 16 0 6 m0 2048 m1 2048 - - m3 2048 m4 2048 m5 2048"
cmp -s rect/member2.img rec/member2.img && cmp -s rect/member4.img rec/member4.img &&
	ok "option and table recover give the same images" || bad "recover forms differ"
flip_byte m0 $((1048576 + 5 * 8192))
expect 0 "recover from a damaged member" "$rc" recover --missing 2,4 --out bad $o
cmp -s bad/member2.img orig2 && bad "recover used damaged data yet matched" || ok "recover is only as good as its sources"
cp orig0 m0
expect 2 "recover of three members" "$rc" recover --missing 1,2,4 --out x $o
grep -qx "raidcalc recover: Too many members missing for raid6 (max 2)" err && ok "recover refuses three" || bad "three: $(cat err)"
expect 2 "recover with nothing missing" "$rc" recover --out x $o
expect 2 "recover without --out" "$rc" recover --missing 1 $o
grep -qx "raidcalc recover: --out DIR is required" err && ok "recover names --out" || bad "out: $(cat err)"

# layout and map
expect 0 "option layout" "$rc" layout --level 6 --devices 16 --chunk 512K --member-size 1T
grep -qx "data_devices 14" out && grep -qx "full_stripe 7M" out && grep -qx "capacity 14T" out &&
	grep -qx "mkfs.xfs -d su=512k,sw=14" out && grep -qx "mkfs.ext4 -b 4096 -E stride=128,stripe_width=1792" out &&
	ok "layout sizes and mkfs hints" || bad "layout: $(cat out)"
grep -q "^      16      Q    224 " out && ok "layout draws n+1 rows" || bad "layout picture: $(tail -3 out)"
expect 0 "option layout of raid0, no member size" "$rc" layout --level 0 --devices 4 --chunk 64K -r 0:3
"$rc" layout -r 0:3 -L 1536 fanraid raid0 128 0 4 a 0 b 0 c 0 d 0 >tab
tail -4 out | cmp -s - tab && ok "option layout draws what the table layout draws" || bad "layout picture differs"
expect 0 "option map" "$rc" map --level 6 --devices 5 --chunk 64K 512000
grep -qx "offset 512000 member 0 member_offset 184320 device_offset 184320 row 2 data_idx 1 p_member 2 q_member 3" out &&
	ok "map of a byte matches docs/geometry.md (sector 1000)" || bad "map: $(cat out)"
)

# --- every bad argument: its own one-line message, exit 2 ---
# badarg <message> <args...>
badarg() {
	local want=$1
	shift
	expect 2 "bad argument: $*" "$rc" "$@"
	[ "$(wc -l <err)" = 1 ] && grep -qxF "$want" err && ok "  says: $want" || bad "  message: $(cat err)"
}
L="--devices 6 --chunk 64K"
badarg "raidcalc layout: --level '5': must be 0 or 6" layout --level 5 $L
badarg "raidcalc layout: --chunk '3K': Invalid chunk size: not a power of two" layout --level 6 --devices 6 --chunk 3K
badarg "raidcalc layout: --chunk '2K': Invalid chunk size: smaller than 4 KiB (8 sectors)" layout --level 6 --devices 6 --chunk 2K
badarg "raidcalc layout: --chunk '32M': Invalid chunk size: larger than 16 MiB (32768 sectors)" layout --level 6 --devices 6 --chunk 32M
badarg "raidcalc layout: --chunk '64Q': not a size (digits, then K, M, G, T or s for sectors)" layout --level 6 --devices 6 --chunk 64Q
badarg "raidcalc layout: --devices 'six': not a number" layout --level 6 --devices six --chunk 64K
badarg "raidcalc layout: --devices '65': Too many devices (max 64)" layout --level 6 --devices 65 --chunk 64K
badarg "raidcalc layout: Too few devices for the RAID level (raid0 needs 1, raid6 needs 4)" layout --level 6 --devices 3 --chunk 64K
badarg "raidcalc layout: --member-size '1000': not a multiple of 512 bytes" layout --level 6 $L --member-size 1000
badarg "raidcalc layout: --member-size '0': must not be 0" layout --level 6 $L --member-size 0
badarg "raidcalc layout: Member data area smaller than one chunk" layout --level 6 $L --member-size 64K --data-offset 4K
badarg "raidcalc layout: Member not larger than the data offset" layout --level 6 $L --member-size 1M --data-offset 1M
badarg "raidcalc layout: --devices is required in the option form" layout --level 6 --chunk 64K
badarg "raidcalc layout: --level is required in the option form" layout $L
badarg "raidcalc layout: unexpected argument 'extra'" layout --level 6 $L extra
badarg "raidcalc map: OFFSET '1Z': not a byte offset (digits, then K, M, G, T or s for sectors)" map --level 6 $L 1Z
badarg "raidcalc map: OFFSET (a logical byte) is required" map --level 6 $L
badarg "raidcalc map: OFFSET '1G': past the end of the array (1048576 bytes)" map --level 6 $L --member-size 256K 1G
badarg "raidcalc verify: --data-offset is required in the option form" verify --level 6 --chunk 8K m0 m1 m2 m3
badarg "raidcalc verify: --data-offset '100': not a multiple of 512 bytes" verify --level 6 --chunk 8K --data-offset 100 m0 m1 m2 m3
badarg "raidcalc verify: --size '0': must not be 0" verify --level 6 --chunk 8K --data-offset 0 --size 0 m0 m1 m2 m3
badarg "raidcalc verify: --jobs '0': must be a number from 1 to 64" verify --jobs 0 --level 6 --chunk 8K --data-offset 0 m0 m1 m2 m3
badarg "raidcalc verify: raid0 has no parity to verify" verify --level 0 --chunk 8K --data-offset 0 --size 64K m0 m1 m2 m3
badarg "raidcalc verify: no members given" verify --level 6 --chunk 8K --data-offset 0
badarg "raidcalc verify: --devices 5 but 4 members given" verify --level 6 --devices 5 --chunk 8K --data-offset 0 m0 m1 m2 m3
badarg "raidcalc verify: Cannot verify parity with two members missing" verify --level 6 --chunk 8K --data-offset 0 --size 64K m0 missing missing m3
badarg "raidcalc recover: --missing '3,x': not a list of member numbers (like 3,7)" recover --missing 3,x
badarg "raidcalc recover: --missing '3,3': member named twice" recover --missing 3,3
badarg "raidcalc recover: --missing names member 7, but members are 0..3" recover --missing 7 --out d --level 6 --chunk 8K --data-offset 0 m0 m1 m2 m3
badarg "raidcalc geom: takes a table line; the option form is for layout, map, verify and recover" geom --level 6 --chunk 8K
expect 2 "verify of a member that does not exist" "$rc" verify --level 6 --chunk 8K --data-offset 0 nope m1 m2 m3
grep -q "^nope: Cannot open member: No such file or directory" err &&
	ok "option form names the member it cannot open" || bad "open error: $(cat err)"

expect 2 "unknown verb" "$rc" frobnicate
expect 2 "bad chunk size" "$rc" geom -L 8 fanraid raid0 12 0 1 a 0
grep -q "table word 3 '12': Invalid chunk size: not a power of two" err &&
	ok "parse error names the word" || bad "parse error: $(cat err)"
expect 2 "missing length" "$rc" geom fanraid raid0 8 0 1 a 0
# the longest valid table: 24 feature words (of the 33 the count may
# claim: only two of rebuild and readd together, reshape only on raid0)
# and 64 members, as one word
long="0 1048576 fanraid raid6 8 24 flush_policy drop max_sync_rate 1 rebuild 0 resync readahead on ra_window 2 ra_cache_mb 3 stripe_cache_mb 4096 max_read_errors 20 superblock safe_mode_delay 200 bitmap 8 readd 63 64$(for i in $(seq 0 63); do printf ' /dev/disk/by-id/nvme-long-serial-name-%02d 2048' "$i"; done)"
expect 0 "geom of the longest table" "$rc" geom "$long"
grep -qx "table ${long#0 1048576 }" out && ok "  prints all of it back" || bad "long table: $(grep table out)"
expect 2 "a line longer than any table" "$rc" geom "$long x x x x x x x x x x"
grep -qx "raidcalc geom: table: more than the 168 words of the longest fanraid table" err &&
	ok "  says so" || bad "long line: $(cat err)"
expect 2 "missing member file: an I/O error, not a mismatch" "$rc" verify -L 64 fanraid raid6 8 0 4 nope 0 m1 0 m2 0 m3 0
grep -q "^nope: Cannot open member: No such file or directory" err &&
	ok "open error starts with the member" || bad "open error: $(cat err)"

echo "cli: $fails failure(s)"
[ "$fails" -eq 0 ]
