#!/bin/bash
# The largest arrays the target takes: RAID0 and RAID6 of 64 null_blk members. fio verify writes and reads the whole array; on RAID6 P and Q of every row match raidcalc, data sits where md's left-symmetric layout puts it, and the data stays exact with two members failed; a 4 KiB write pins 12 KiB of the stripe cache, not a page per member, and keeps P and Q true; a 65th member is refused by name.
# group: large
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_cmd fio raidcalc || fail "fio or raidcalc not in the image"

n=64 chunk=128
mapfile -t d < <(nullb_create_many $((n + 1)) 2)
member_sectors=$(dev_sectors "${d[0]}")
rows=$((member_sectors / chunk))

# whole_array_verify LABEL: every byte written and read back (fio verify).
whole_array_verify() {
	fio --name="$1" --filename=/dev/mapper/fr --direct=1 --ioengine=libaio --iodepth=16 \
		--rw=write --bs=64k --verify=crc32c --verify_fatal=1 --do_verify=1 >/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "$1: fio verify over the whole array failed"; }
}

dm_create fr "0 $((rows * chunk * n)) fanraid raid0 $chunk 0 $n$(member_pairs "${d[@]:0:n}")"
whole_array_verify raid0
dm_remove fr
log "raid0 of $n members: $((rows * chunk * n / 2048)) MiB written and verified"

# Fresh, zeroed members: P and Q of zeros already match, so partial
# writes (read-modify-write) start from consistent rows, as after create.
nullb_destroy_all
mapfile -t d < <(nullb_create_many $((n + 1)) 2)
len=$((rows * chunk * (n - 2)))
dm_create fr "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]:0:n}")"
whole_array_verify raid6
raidcalc verify "$(dmsetup table fr)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "raid6 of $n members: P/Q mismatch"; }
# md's left-symmetric layout, worked out here: P of row r on member
# n-1-(r mod n), Q after it, data chunk k on the k+2nd member after P.
for s in 0 $((chunk * (n - 2) * (rows - 1) + chunk * 61 + 7)) $((len - 8)); do
	row=$((s / (chunk * (n - 2)))) k=$((s / chunk % (n - 2)))
	p=$((n - 1 - row % n))
	m=$(((p + 2 + k) % n)) msec=$((row * chunk + s % chunk))
	cmp <(dd if=/dev/mapper/fr bs=512 skip="$s" count=8 iflag=direct status=none) \
		<(dd if="${d[m]}" bs=512 skip="$msec" count=8 iflag=direct status=none) ||
		fail "array sector $s is not on member $m at sector $msec"
done
dmsetup message fr 0 fail 5
dmsetup message fr 0 fail 63
drop_caches
fio --name=degraded --filename=/dev/mapper/fr --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=read --bs=64k --verify=crc32c --verify_fatal=1 --verify_only=1 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "raid6 of $n members with 5 and 63 failed: reads other data"; }
dm_remove fr
log "raid6 of $n members: $((len / 2048)) MiB verified, parity clean, layout as md's, exact with two failed"

# The same members whole again: a 4 KiB write read-modify-writes, pinning
# its data page, P and Q (12 KiB) and not a page on each of the 64 members
# (256 KiB), and keeps P and Q true.
dm_create fr "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]:0:n}")"
dmsetup message fr 0 stats reset
fio --name=small --filename=/dev/mapper/fr --direct=1 --ioengine=psync --rw=randwrite \
	--bs=4k --number_ios=200 --verify=crc32c --verify_fatal=1 --do_verify=1 >/tmp/fio.out ||
	{ cat /tmp/fio.out; fail "raid6 of $n members: 4 KiB writes failed verify"; }
assert_eq "$(fanraid_total fr stripe_cache_peak_kib)" 12 \
	"stripe cache peak (KiB) of 4 KiB writes at depth 1 on $n members"
dm_remove fr
drop_caches
raidcalc verify "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${d[@]:0:n}")" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "raid6 of $n members: P/Q mismatch after 4 KiB writes"; }
log "raid6 of $n members: 4 KiB writes pin 12 KiB each, parity clean"

# One member too many: refused, and the message names the member count.
if dmsetup create fr65 --table "0 $((rows * chunk * (n - 1))) fanraid raid6 $chunk 0 $((n + 1))$(member_pairs "${d[@]}")" \
	>/tmp/create.out 2>&1; then
	fail "a table of $((n + 1)) members loaded"
fi
dmesg | grep -i "fanraid.*\(#devs\|members\|devices\)" | tail -n1 | grep -q . ||
	fail "no kernel message names the member count: $(dmesg | tail -n3)"
log "65 members refused: $(dmesg | grep -i 'fanraid' | tail -n1)"
