#!/bin/bash
# Exercise the VM itself: the kernel boots with device-mapper, null_blk and raid6_pq loadable and stock dm targets listed.
# group: main
# timeout: 60
. "${0%/*}/lib.sh"

log "kernel $(uname -r)"
[ -d /sys/module/dm_mod ] || fail "dm-mod not loaded"
[ -d /sys/module/null_blk ] || fail "null_blk not loaded"
grep -q ' /sys/kernel/config configfs ' /proc/mounts || fail "configfs not mounted"
[ -d "$NULLB_CFS" ] || fail "null_blk has no configfs directory"

targets=$(dmsetup targets)
echo "$targets"
have_target striped 1 0 0 || fail "dm-stripe missing from: $targets"
have_target linear 1 0 0 || fail "dm-linear missing from: $targets"

modprobe raid6_pq
[ -d /sys/module/raid6_pq ] || fail "raid6_pq did not load"

# Our null_blk helper makes a persistent device of the asked size.
dev=$(nullb_create probe 64)
assert_eq "$(dev_sectors "$dev")" $((64 * 2048)) "null_blk size in sectors"
assert_eq "$(blockdev --getss "$dev")" 512 "null_blk logical block size"
printf 'fanraid-harness' | dd of="$dev" bs=512 seek=100 conv=sync oflag=direct status=none
drop_caches
assert_eq "$(dd if="$dev" bs=512 skip=100 count=1 iflag=direct status=none | head -c 15)" \
	fanraid-harness "null_blk keeps data"

# Every tool the scenarios rely on is in the image.
for c in dmsetup fio mkfs.ext4 e2fsck mkfs.xfs xfs_repair mkfs.btrfs btrfs \
	blockdev cmp sha256sum dd timeout; do
	have_cmd "$c" || fail "$c missing from the initramfs"
done
if [ -f "/usr/lib/modules/$(uname -r)/extra/dm-fanraid.ko" ]; then
	have_target fanraid || fail "dm-fanraid.ko is in the image but target fanraid is not listed"
	log "fanraid target $(dmsetup targets | awk '$1 == "fanraid" { print $2 }')"
fi
