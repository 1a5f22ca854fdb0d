#!/bin/bash
# Exercise RAID6 check on a degraded array: with one member failed, parity that matches the data is never counted as a mismatch (rows where the failed member holds P or Q included).
# group: raid6
# timeout: 120
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

n=5 chunk=128 off=2048 rows=10
len=$((rows * (n - 2) * chunk))
mapfile -t devs < <(nullb_create_many "$n" 3)
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done
dm_create fr "$table"

mismatches() { set -- $(dmsetup status fr); eval echo "\${$((9 + 6 * $5))}"; }
run_pass() {
	local i
	dmsetup message fr 0 "$1"
	for ((i = 0; i < 600; i++)); do
		set -- $(dmsetup status fr)
		[ "$8" = idle ] && return 0
		sleep 0.2
	done
	fail "pass still running after 120s"
}

head -c $((len * 512)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
run_pass check
assert_eq "$(mismatches)" 0 "healthy check"
for m in 0 2; do
	dmsetup message fr 0 fail $m
	run_pass check
	assert_eq "$(mismatches)" 0 "check with member(s) up to $m failed"
done
drop_caches
raidcalc verify "$table" >/tmp/verify.out 2>&1 || { cat /tmp/verify.out; fail "raidcalc verify"; }
dm_remove fr
