#!/bin/bash
# fanraid members are visible to blkid and wipefs built with fanraid's libblkid prober (packaging/util-linux, Debian's util-linux source plus the patch): blkid -p reports TYPE fanraid_member with the UUID, UUID_SUB, LABEL, version, level and slot that fanraid examine --export gives; a superblock with one byte changed is not reported; wipefs lists the signature at 0x1000 and erases it on request, after which fanraid no longer finds the member. The stock blkid of the same release sees none of it (the control).
# group: tool
# timeout: 120
. "${0%/*}/lib.sh"

have_cmd fanraid blkid wipefs || fail "fanraid, blkid or wipefs not in the image"
ul=/opt/fanraid-blkid
[ -x $ul/bin/blkid ] && [ -x $ul/bin/wipefs ] ||
	fail "blkid with the fanraid prober not in the image (tests/vm/blkid/build.sh)"
prober_blkid() { LD_LIBRARY_PATH=$ul/lib $ul/bin/blkid "$@"; }
prober_wipefs() { LD_LIBRARY_PATH=$ul/lib $ul/bin/wipefs "$@"; }

mapfile -t d < <(nullb_create_many 4 16)
fanraid create fx --level 6 "${d[@]}" >/dev/null
fanraid stop fx

# The control: the stock libblkid has no prober for fanraid.
if blkid -p -o udev "${d[1]}" >/tmp/stock.out 2>&1; then
	grep -q fanraid /tmp/stock.out && fail "stock blkid already knows fanraid: $(cat /tmp/stock.out)"
fi

for i in 0 1 2 3; do
	prober_blkid -p -o udev "${d[i]}" >/tmp/probe.out ||
		fail "${d[i]}: blkid with the prober finds nothing"
	fanraid examine --export "${d[i]}" >/tmp/export.out
	for key in ID_FS_TYPE ID_FS_USAGE ID_FS_VERSION ID_FS_UUID ID_FS_UUID_SUB ID_FS_LABEL; do
		assert_eq "$(grep "^$key=" /tmp/probe.out)" "$(grep "^$key=" /tmp/export.out)" "${d[i]}: $key"
	done
	assert_eq "$(sed -n 's/^ID_FS_FANRAID_LEVEL=//p' /tmp/probe.out)" raid6 "${d[i]}: level"
	assert_eq "$(sed -n 's/^ID_FS_FANRAID_SLOT=//p' /tmp/probe.out)" \
		"$(sed -n 's/^FANRAID_SLOT=//p' /tmp/export.out)" "${d[i]}: slot"
done
assert_eq "$(sed -n 's/^ID_FS_TYPE=//p' /tmp/probe.out)" fanraid_member "type"
log "blkid -p: $(tr '\n' ' ' </tmp/probe.out)"

# One byte of the array's size changed: the CRC no longer matches, and a
# torn or foreign block is not called a member.
printf '\x5a' | dd of="${d[0]}" bs=1 seek=$((4096 + 152)) conv=notrunc status=none
if prober_blkid -p -o udev "${d[0]}" >/tmp/probe.out 2>&1 && grep -q fanraid /tmp/probe.out; then
	fail "a superblock with a bad CRC is reported: $(cat /tmp/probe.out)"
fi

# wipefs lists what it would erase, then erases it.
prober_wipefs "${d[2]}" >/tmp/wipefs.out
grep -q "0x1000 *fanraid_member" /tmp/wipefs.out || fail "wipefs does not list the member: $(cat /tmp/wipefs.out)"
prober_wipefs -q -a -t fanraid_member "${d[2]}"
if fanraid examine "${d[2]}" >/tmp/examine.out 2>&1; then
	fail "fanraid still finds a member wipefs erased: $(cat /tmp/examine.out)"
fi
grep -q "bad magic" /tmp/examine.out || fail "examine after wipefs: $(cat /tmp/examine.out)"
log "wipefs: $(tr -s ' ' </tmp/wipefs.out | tail -n1); erased, examine says: $(head -n1 /tmp/examine.out)"
nullb_destroy_all
