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
grep -q ' 0 bad parity' out && ok "verify reports no bad parity" || bad "verify summary: $(cat out)"
"$rc" read $t6 >back && cmp -s back img && ok "read returns the image" || bad "read returns the image"
"$rc" read -s 17 -n 100 $t6 >part && cmp -s part <(tail -c +$((17 * 512 + 1)) img | head -c $((100 * 512))) &&
	ok "read of an unaligned range" || bad "read of an unaligned range"

# P of row 2 sits on member 6-1-2 = 3; ask map rather than hard-code it,
# then damage member sector 2*16+3 = 35 of that P block
pdev=$("$rc" map -s $((2 * 4 * 16)) $t6 | sed -n 's/.* p_member \([0-9]*\).*/\1/p')
printf '\xff' | dd of="m$pdev" bs=1 seek=$(((8 + 2 * 16 + 3) * 512 + 9)) conv=notrunc status=none
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

expect 0 "build raid0" "$rc" build -L 500 -i img $t0
"$rc" read -L 500 $t0 | cmp -s - <(head -c $((500 * 512)) img) && ok "raid0 read" || bad "raid0 read"
expect 2 "verify refuses raid0" "$rc" verify -L 500 $t0
expect 0 "geom" "$rc" geom -L 500 $t0
grep -qx "io_opt_bytes 12288" out && ok "geom io_opt is chunk x data members" || bad "geom: $(cat out)"
grep -qx "table $t0" out && ok "geom prints the canonical table" || bad "geom table: $(grep table out)"

expect 2 "unknown verb" "$rc" frobnicate
expect 2 "bad chunk size" "$rc" geom -L 8 fanraid raid0 12 0 1 a 0
grep -q "table word 3 '12': Invalid chunk size: not a power of two" err &&
	ok "parse error names the word" || bad "parse error: $(cat err)"
expect 2 "missing length" "$rc" geom fanraid raid0 8 0 1 a 0
expect 1 "missing member file" "$rc" verify -L 64 fanraid raid6 8 0 4 nope 0 m1 0 m2 0 m3 0
grep -q "^nope: Cannot open member: No such file or directory" err &&
	ok "open error starts with the member" || bad "open error: $(cat err)"

echo "cli: $fails failure(s)"
[ "$fails" -eq 0 ]
