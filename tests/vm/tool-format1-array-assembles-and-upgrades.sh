#!/bin/bash
# Exercise format 1 compatibility: members whose superblocks an older tool wrote (format 1) assemble with their data intact, raid6 with the kernel superblock feature, and every member is upgraded to format 2.
# group: tool
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || skip "target fanraid 1.3.0 missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(nullb_create_many 6 32)
on_exit 'fanraid stop v6 >/dev/null 2>&1 || true; fanraid stop v0 >/dev/null 2>&1 || true'

# Format 1 has format 2's bytes with 1 at byte 8 of the block. CRC32C is
# affine, so flipping that byte (2 xor 1 = 3) changes the CRC by the CRC
# of the difference alone: 0x95b65b14 (computed once, the unit test
# test_sb_decodes_format1_blocks pins the codec side).
to_format1() { # DEV
	local crc
	printf '\001' | dd of="$1" bs=1 seek=$((4096 + 8)) conv=notrunc,fsync status=none
	crc=$(od -An -tu4 -j $((4096 + 4092)) -N4 "$1" | tr -d ' ')
	crc=$((crc ^ 0x95b65b14))
	printf '%b' "$(printf '\\%03o\\%03o\\%03o\\%03o' $((crc & 255)) \
		$((crc >> 8 & 255)) $((crc >> 16 & 255)) $((crc >> 24 & 255)))" |
		dd of="$1" bs=1 seek=$((4096 + 4092)) conv=notrunc,fsync status=none
}

fanraid create v6 --level 6 --chunk 16K --bitmap none "${devs[0]}" "${devs[1]}" "${devs[2]}" "${devs[3]}"
fanraid create v0 --level 0 --chunk 16K "${devs[4]}" "${devs[5]}"
fanraid_wait_idle v6 120
head -c 6M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/v6 bs=1M oflag=direct status=none
dd if=/tmp/data of=/dev/mapper/v0 bs=1M oflag=direct status=none
fanraid stop v6
fanraid stop v0
for d in "${devs[@]}"; do
	to_format1 "$d"
done
drop_caches
for d in "${devs[@]}"; do
	out=$(fanraid examine "$d")
	assert_contains "$out" "version: format 1, layout 1"
	assert_contains "$out" "state: clean"
done

out=$(fanraid assemble v6 2>&1)
echo "$out"
assert_contains "$out" "from 4 of 4 members"
assert_contains "$(dmsetup table v6)" " superblock 4 "
fanraid assemble v0
for d in "${devs[@]}"; do
	assert_contains "$(fanraid examine "$d")" "version: format 2, layout 1"
done
cmp <(head -c 6M /dev/mapper/v6) /tmp/data
cmp <(head -c 6M /dev/mapper/v0) /tmp/data
fanraid stop v6
fanraid stop v0
assert_contains "$(fanraid examine "${devs[0]}")" "state: clean"
