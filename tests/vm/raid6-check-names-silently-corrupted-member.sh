#!/bin/bash
# Exercise silent corruption on RAID6: bytes flipped behind the target's back in one data, P or Q chunk are named by check (member and sectors, from P and Q together), repair restores the original bytes rather than rewriting parity from bad data, and two wrong members in one row are reported as undecidable.
# group: raid6
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

n=6 chunk=128
len=$((16 * (n - 2) * chunk))
mapfile -t d < <(nullb_create_many $n 8)
table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]}")"
dm_create fr "$table"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none

# row_members ROW: "P Q D0 D1 ..." members of a row (raidcalc map).
row_members() {
	local k out
	out=$(raidcalc map -L "$len" -s $(($1 * (n - 2) * chunk)) "$table")
	echo "$out" | awk '{ for (i = 1; i < NF; i++) { if ($i == "p_member") p = $(i + 1); if ($i == "q_member") q = $(i + 1) } print p, q }'
	for ((k = 0; k < n - 2; k++)); do
		raidcalc map -L "$len" -s $((($1 * (n - 2) + k) * chunk)) "$table" |
			awk '{ for (i = 1; i < NF; i++) if ($i == "member") print $(i + 1) }'
	done
}

# flip MEMBER SECTOR: 4 KiB of a member changed behind the target's back.
flip() {
	dd if="${d[$1]}" of=/tmp/orig.$1.$2 bs=512 skip="$2" count=8 iflag=direct status=none
	head -c 4096 /dev/urandom >/tmp/bad
	cmp -s /tmp/bad /tmp/orig.$1.$2 && fail "random bytes equal to the original"
	dd if=/tmp/bad of="${d[$1]}" bs=512 seek="$2" count=8 oflag=direct conv=notrunc status=none
}

# scrub VERB: run check or repair to the end.
scrub() {
	dmsetup message fr 0 "$1"
	sleep 0.2
	fanraid_wait_idle fr 120
}

blamed_all() {
	local i out=""
	for ((i = 0; i < n; i++)); do out="$out $(fanraid_blamed fr $i)"; done
	echo "$out"
}

# expect_blame MEMBER SECTORS: only MEMBER blamed, for SECTORS.
expect_blame() {
	local i want=""
	for ((i = 0; i < n; i++)); do
		[ "$i" = "$1" ] && want="$want $2" || want="$want 0"
	done
	assert_eq "$(blamed_all)" "$want" "sectors blamed per member"
}

# case LABEL ROW MEMBER: flip one page of MEMBER in ROW, check, repair.
case_one() {
	local label=$1 row=$2 m=$3 s=$(($2 * chunk + 32))
	flip "$m" "$s"
	dmesg_mark
	scrub check
	expect_blame "$m" 8
	[ "$(fanraid_total fr mismatch_cnt)" -gt 0 ] || fail "$label: check found no mismatch"
	dmesg_since | grep -q "row $row, member $m sectors $s-$((s + 7)): $label block does not match P and Q" ||
		fail "$label: the kernel log does not name member $m: $(dmesg_since | grep fanraid | tail -n 3)"
	scrub repair
	expect_blame "$m" 8
	dd if="${d[$m]}" bs=512 skip="$s" count=8 iflag=direct status=none | cmp - /tmp/orig.$m.$s ||
		fail "$label: repair did not restore member $m's original bytes"
	scrub check
	assert_eq "$(fanraid_total fr mismatch_cnt)" 0 "$label: mismatches after repair"
	log "$label on member $m, row $row: named, restored"
}

set -- $(row_members 3)
case_one data 3 "$4"		# data index 1 of row 3
set -- $(row_members 5)
case_one P 5 "$1"
set -- $(row_members 9)
case_one Q 9 "$2"

# Two data members wrong in one row: no single block explains it.
set -- $(row_members 12)
flip "$3" $((12 * chunk + 64))
flip "$5" $((12 * chunk + 64))
dmesg_mark
scrub check
assert_eq "$(blamed_all)" "$(printf ' 0%.0s' $(seq $n))" "blame with two wrong members"
dmesg_since | grep -q "row 12, member sectors $((12 * chunk + 64))-$((12 * chunk + 71)): P and Q do not name one wrong block" ||
	fail "two wrong members: check did not say it cannot tell: $(dmesg_since | grep fanraid | tail -n 3)"
log "two wrong members in row 12: check says it cannot tell"

# Undo the double flip; the array then reads exactly what was written.
dd if=/tmp/orig.$3.$((12 * chunk + 64)) of="${d[$3]}" bs=512 seek=$((12 * chunk + 64)) oflag=direct conv=notrunc status=none
dd if=/tmp/orig.$5.$((12 * chunk + 64)) of="${d[$5]}" bs=512 seek=$((12 * chunk + 64)) oflag=direct conv=notrunc status=none
dmsetup load fr --table "$table" && dmsetup suspend fr && dmsetup resume fr
drop_caches
cmp /tmp/ref /dev/mapper/fr || fail "the array does not read back what was written"
raidcalc verify "$table" >/tmp/verify.out 2>&1 || { cat /tmp/verify.out; fail "parity mismatches at the end"; }

dm_remove fr
nullb_destroy_all
