#!/bin/bash
# Exercise a fresh RAID6 that is redundant at once: members full of garbage that offer write-zeroes are zeroed at create (with unmap allowed) instead of resynced, so the array starts idle with a clean bitmap and reads zeroes; data written then survives two member failures, and raidcalc verify finds no mismatch. --assume-clean also skips the resync, and a member without write-zeroes falls back to it.
# group: raid6-zeroed
# timeout: 300
# disks: 6x48
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"
have_cmd fanraid || skip "fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

mapfile -t devs < <(vm_disks 6)
on_exit 'fanraid stop z6 >/dev/null 2>&1 || true; fanraid stop n6 >/dev/null 2>&1 || true'
for d in "${devs[@]}"; do
	wz=$(cat "/sys/block/${d#/dev/}/queue/write_zeroes_max_bytes")
	[ "$wz" -gt 0 ] || fail "$d offers no write-zeroes (write_zeroes_max_bytes $wz): the harness's virtio disks should"
	head -c 16M /dev/urandom | dd of="$d" bs=1M seek=1 oflag=direct status=none
done
out=$(fanraid create z6 --level 6 --chunk 64K --force "${devs[@]}")
echo "$out"
assert_contains "$out" "members zeroed by write-zeroes"
status=$(dmsetup status z6)
assert_contains "$status" " idle "
case $(dmsetup table z6) in *resync*) fail "a zeroed array was loaded with resync" ;; esac
assert_eq "$(fanraid_bitmap z6 | cut -d' ' -f2)" 0 "bitmap bits after a zeroed create"
size=$(blockdev --getsize64 /dev/mapper/z6)
cmp -n "$size" /dev/zero /dev/mapper/z6 || fail "a zeroed array does not read zeroes"
fio --name=z --filename=/dev/mapper/z6 --rw=write --bs=64k --size=32M \
	--direct=1 --verify=crc32c --randseed=3 --do_verify=0 --output=/tmp/z.out ||
	{ cat /tmp/z.out; fail "writes"; }
fanraid stop z6
drop_caches
raidcalc verify --level 6 --chunk 64K --data-offset 1M "${devs[@]}" || fail "parity mismatches on a zeroed array"
fanraid assemble z6 "${devs[@]}"
dmsetup message z6 0 fail 2
dmsetup message z6 0 fail 5
drop_caches
fio --name=z --filename=/dev/mapper/z6 --rw=write --bs=64k --size=32M \
	--direct=1 --verify=crc32c --randseed=3 --verify_only --output=/tmp/z.out ||
	{ cat /tmp/z.out; fail "data with members 2 and 5 failed"; }
fanraid stop z6

# null_blk offers no write-zeroes: create resyncs, unless told the parity is clean.
mapfile -t nb < <(nullb_create_many 4 16)
if [ "$(cat "/sys/block/${nb[0]#/dev/}/queue/write_zeroes_max_bytes")" = 0 ]; then
	out=$(fanraid create n6 --level 6 --chunk 16K "${nb[@]}")
	assert_contains "$out" "parity resync is running"
	assert_contains "$(dmsetup table n6)" " resync "
	fanraid_wait_idle n6 120
	fanraid stop n6
fi
out=$(fanraid create n6 --level 6 --chunk 16K --assume-clean --force "${nb[@]}")
echo "$out"
assert_contains "$out" "--assume-clean: no initial resync"
assert_contains "$(dmsetup status n6)" " idle "
fanraid stop n6
expect_fail fanraid create n0 --level 0 --assume-clean "${nb[0]}" "${nb[1]}"
