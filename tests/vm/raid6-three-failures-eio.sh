#!/bin/bash
# Exercise RAID6 with three members failed: every read that needs a failed member ends in EIO, reads served by the survivors return exactly what was written, writes fail, and the kernel log stays free of warnings.
# group: raid6-degraded
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

n=6 chunk=128 off=2048
rows=$((2 * n))
len=$((rows * (n - 2) * chunk))
nchunks=$((len / chunk))
mapfile -t devs < <(nullb_create_many "$n" $(((off + rows * chunk) / 2048 + 1)))
table="0 $len fanraid raid6 $chunk 0 $n"
for d in "${devs[@]}"; do table="$table $d $off"; done
dm_create fr "$table"

head -c $((len * 512)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none

# Two failures are survivable: everything reads back.
dmsetup message fr 0 fail 0
dmsetup message fr 0 fail 3
dd if=/dev/mapper/fr iflag=direct bs=1M status=none | cmp /tmp/data - ||
	fail "two members failed: device reads back different data"

dmesg_mark
dmsetup message fr 0 fail 4
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" DAADDA "health after three failures"

# Which member holds each data chunk, from raidcalc's layout drawing.
mapfile -t member_of < <(raidcalc layout -r 0:$rows "$table" | awk '
	NR > 1 { for (j = 2; j <= NF; j++) if ($j ~ /^[0-9]+$/) m[$j] = j - 2 }
	END { for (c = 0; c < '$nchunks'; c++) print m[c] }')
assert_eq "${#member_of[@]}" "$nchunks" "chunks in raidcalc's layout"

# Chunk by chunk: on a failed member, EIO; on a survivor, the exact data.
cb=$((chunk * 512))
eio=0 good=0
for ((c = 0; c < nchunks; c++)); do
	m=${member_of[c]}
	[ -n "$m" ] || fail "raidcalc layout gave no member for chunk $c"
	if dd if=/dev/mapper/fr of=/tmp/got iflag=direct bs=$cb \
		skip=$c count=1 status=none 2>/tmp/dd.err; then
		case $m in 0 | 3 | 4) fail "chunk $c on failed member $m read without error" ;; esac
		cmp -n $cb -i 0:$((c * cb)) /tmp/got /tmp/data ||
			fail "chunk $c on surviving member $m returned wrong data"
		good=$((good + 1))
	else
		case $m in
		0 | 3 | 4) ;;
		*) fail "chunk $c on surviving member $m failed: $(cat /tmp/dd.err)" ;;
		esac
		grep -q "Input/output error" /tmp/dd.err ||
			fail "chunk $c: expected EIO, got: $(cat /tmp/dd.err)"
		eio=$((eio + 1))
	fi
done
[ $eio -gt 0 ] && [ $good -gt 0 ] || fail "expected both EIO and good chunks: $eio EIO, $good good"
log "three failed: $eio chunks EIO, $good chunks exact from the survivors"

# A sub-page read inside a lost chunk fails too, through the page cache as well.
for ((c = 0; c < nchunks; c++)); do
	[ "${member_of[c]}" = 0 ] && break
done
expect_fail dd if=/dev/mapper/fr of=/dev/null iflag=direct bs=512 skip=$((c * chunk + 3)) count=1 status=none
drop_caches
rc=0
cmp /tmp/data /dev/mapper/fr 2>/tmp/cmp.err || rc=$?
assert_eq "$rc" 2 "buffered cmp of the whole device (must hit EIO, never differ): $(cat /tmp/cmp.err)"

# Writes cannot keep P and Q: they fail, and survivors still hold either
# the old or the new data, nothing else.
for ((c = 0; c < nchunks; c++)); do
	[ "${member_of[c]}" = 1 ] && break
done
head -c $cb /dev/urandom >/tmp/new
expect_fail dd if=/tmp/new of=/dev/mapper/fr oflag=direct bs=$cb seek=$c count=1 status=none
dd if=/dev/mapper/fr of=/tmp/got iflag=direct bs=$cb skip=$c count=1 status=none
cmp -s /tmp/got /tmp/new ||
	cmp -n $cb -i 0:$((c * cb)) /tmp/got /tmp/data ||
	fail "chunk $c on member 1 after a failed write holds neither old nor new data"

dm_remove fr
dmesg_since | grep -E "fanraid" | head -n 5
