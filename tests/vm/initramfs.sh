#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds the two halves of the test VM's initramfs (the kernel unpacks
# concatenated cpio archives in order, later entries winning):
#
#   initramfs.sh base OUT.cpio      busybox, the dynamic tools with their ldd
#                                   libraries, the stock kernel modules. Slow
#                                   to build, so cached: rebuilt only when the
#                                   fingerprint of its inputs changes.
#   initramfs.sh overlay OUT.cpio PLANFILE
#                                   /init, the harness library, the scenarios,
#                                   the plan of which scenarios to run, our
#                                   userspace (build/raidcalc, build/fanraid)
#                                   and dm-fanraid.ko. Cheap, built per VM.
#
# KVER picks the kernel (default: the newest /boot/vmlinuz-* that has a module
# tree); it is printed by `initramfs.sh kver` for the runner.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}

# Tools the scenarios call. Absent ones are skipped with a note: scenarios
# gate on what they need (R18), the image need not.
tools="bash dmsetup fio mkfs.ext4 mke2fs e2fsck tune2fs dumpe2fs debugfs
mkfs.xfs xfs_repair xfs_db xfs_growfs mkfs.btrfs btrfs mdadm blockdev blkid wipefs
losetup fallocate blkdiscard fstrim mount umount dmesg cmp sha256sum md5sum dd head tail stat timeout
truncate seq sort od cksum sync kmod jq env flock"

# Stock modules, resolved with their dependencies. dm-stripe and dm-linear
# are built into dm-mod.
modules="dm-mod dm-flakey dm-delay dm-log-writes dm-zero dm-snapshot dm-mirror configfs null_blk
raid6_pq md-mod raid0 raid456 loop ext4 xfs btrfs crc32c libcrc32c
virtio_pci virtio_blk dm-thin-pool scsi_debug sd_mod"

latest_kver() {
	local v best=""
	for v in /boot/vmlinuz-*; do
		v=${v#/boot/vmlinuz-}
		[ -d "/usr/lib/modules/$v/kernel" ] || continue
		if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best" "$v" |
			sort -V | tail -n1)" = "$v" ]; then
			best=$v
		fi
	done
	[ -n "$best" ] || { echo "initramfs: no kernel with modules in /boot" >&2; exit 1; }
	echo "$best"
}

KVER=${KVER:-$(latest_kver)}
tmproot=""
trap '[ -z "$tmproot" ] || rm -rf "$tmproot"' EXIT
moddir=/usr/lib/modules/$KVER

# Copy one host file to the same path below $root, keeping symlinks as
# symlinks and following them so the target is copied too.
copy_path() {
	local root=$1 f=$2 t
	[ -e "$root$f" ] || [ -L "$root$f" ] && return 0
	mkdir -p "$root$(dirname "$f")"
	if [ -L "$f" ]; then
		t=$(readlink "$f")
		ln -s "$t" "$root$f"
		case "$t" in
		/*) copy_path "$root" "$t" ;;
		*) copy_path "$root" "$(dirname "$f")/$t" ;;
		esac
	else
		cp -a "$f" "$root$f"
	fi
}

# A dynamic binary and every library ldd names for it.
copy_binary() {
	local root=$1 bin=$2 lib
	copy_path "$root" "$bin"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*'); do
		copy_path "$root" "$lib"
	done
}

tool_path() {
	PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$1" 2>/dev/null || true
}

# The insmod lines modprobe would run, dependencies and softdeps first.
# modprobe --show-depends is `modinfo -F depends` applied recursively plus
# the softdeps (crc32c before ext4/btrfs) that modinfo alone misses.
module_files() {
	local m
	for m in "$@"; do
		modprobe -S "$KVER" --show-depends "$m" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++'
}

# Everything the base image is made of, with sizes and times: the cache key.
base_fingerprint() {
	local t p
	{
		echo "kver $KVER"
		sha256sum "$0"
		for t in $tools busybox; do
			p=$(tool_path "$t")
			[ -n "$p" ] && stat -L -c '%n %s %Y' "$p"
		done
		module_files $modules | xargs -r stat -L -c '%n %s %Y'
	} | sha256sum | cut -d' ' -f1
}

# The merged-/usr layout of the host (Debian 12): both halves of the image
# must carry these symlinks, or an overlay's lib/ directory would replace the
# base's lib -> usr/lib link when the kernel unpacks it.
make_skeleton() {
	local root=$1 d
	mkdir -p "$root"/usr/{bin,sbin,lib,lib64}
	for d in bin sbin lib lib64; do
		ln -s "usr/$d" "$root/$d"
	done
}

build_base() {
	local out=$1 root fp t p f rel
	fp=$(base_fingerprint)
	if [ -f "$out" ] && [ "$(cat "$out.fp" 2>/dev/null)" = "$fp" ]; then
		return 0
	fi
	echo "initramfs: building base image for $KVER"
	root=$(mktemp -d "$(dirname "$out")/base-root.XXXXXX")
	tmproot=$root

	make_skeleton "$root"
	mkdir -p "$root"/{usr/libexec/busybox,etc,proc,sys,dev,tmp,run,mnt,root}

	# busybox applets live apart, last in PATH: real tools win.
	cp /usr/bin/busybox "$root/usr/libexec/busybox/busybox"
	for t in $(/usr/bin/busybox --list); do
		[ "$t" = busybox ] || ln -s busybox "$root/usr/libexec/busybox/$t"
	done

	for t in $tools; do
		p=$(tool_path "$t")
		if [ -z "$p" ]; then
			echo "initramfs: note: $t not installed, left out" >&2
			continue
		fi
		copy_binary "$root" "$p"
	done
	# /sbin/modprobe is what the kernel runs to autoload dm targets.
	for t in modprobe insmod rmmod lsmod modinfo depmod; do
		ln -sf ../bin/kmod "$root/usr/sbin/$t"
	done

	for f in $(module_files $modules); do
		rel=${f#/lib/modules/$KVER/}
		rel=${rel#/usr/lib/modules/$KVER/}
		mkdir -p "$root/usr/lib/modules/$KVER/$(dirname "$rel")"
		case "$f" in
		*.xz) xz -dc "$f" >"$root/usr/lib/modules/$KVER/${rel%.xz}" ;;
		*.zst) zstd -qdc "$f" >"$root/usr/lib/modules/$KVER/${rel%.zst}" ;;
		*) cp "$f" "$root/usr/lib/modules/$KVER/$rel" ;;
		esac
	done
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		[ -f "$moddir/$f" ] && cp "$moddir/$f" "$root/usr/lib/modules/$KVER/"
	done
	depmod -b "$root" "$KVER"

	echo "root:x:0:0:root:/root:/bin/bash" >"$root/etc/passwd"
	echo "root:x:0:" >"$root/etc/group"

	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --quiet -R 0:0) >"$out.tmp.$$"
	mv "$out.tmp.$$" "$out"
	echo "$fp" >"$out.fp"
	echo "initramfs: $(du -h "$out" | cut -f1) base image $out"
}

# The overlay: small and rebuilt for every VM, so editing a scenario or
# rebuilding the module never invalidates the base image.
build_overlay() {
	local out=$1 plan=$2 root f ko lib
	root=$(mktemp -d "$(dirname "$out")/overlay-root.XXXXXX")
	tmproot=$root

	make_skeleton "$root"
	mkdir -p "$root/tests" "$root/etc"
	install -m 0755 "$here/init" "$root/init"
	cp "$here"/lib.sh "$root/tests/"
	for f in "$here"/*.sh; do
		case "${f##*/}" in
		initramfs.sh | run.sh | lib.sh) ;;
		*) cp "$f" "$root/tests/" ;;
		esac
	done
	# Scenarios that only the runner's self-test uses.
	[ -d "$here/selftest" ] && cp "$here"/selftest/*.sh "$root/tests/"
	cp "$plan" "$root/etc/vmtest.plan"

	# Our tools go to /usr/bin with every library ldd names (libisal,
	# libdevmapper, libblkid, libudev, json-c, libuuid); those the base
	# has are copied again, which is harmless: the overlay unpacks last.
	for f in "$build/raidcalc" "$build/fanraid"; do
		[ -x "$f" ] || continue
		cp "$f" "$root/usr/bin/"
		for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
			copy_path "$root" "$lib"
		done
	done

	# The benchmark, so its real-drive mode can run on the VM's devices.
	if [ -d "$top/bench" ]; then
		mkdir -p "$root/bench/lib" "$root/bench/jobs"
		cp "$top"/bench/run.sh "$top"/bench/report.sh "$top"/bench/scenarios \
			"$root/bench/"
		cp "$top"/bench/lib/* "$root/bench/lib/"
		cp "$top"/bench/jobs/*.fio "$root/bench/jobs/"
	fi

	# blkid and wipefs with fanraid's libblkid prober (tests/vm/blkid/build.sh)
	# beside the stock ones, which stay the control.
	if [ -x "$build/blkid/bin/blkid" ]; then
		mkdir -p "$root/opt/fanraid-blkid"
		cp -a "$build/blkid/bin" "$build/blkid/lib" "$root/opt/fanraid-blkid/"
	fi

	# dm-dust.ko (tests/vm/dust/build.sh) is a test tool: bad sectors;
	# null_blk_race.ko and null_blk_fixed.ko (tests/vm/nullb/build.sh)
	# show the throttle stall below every layer, and its fix.
	for ko in "$top"/dm-target/*.ko "$build"/dust/dm-dust.ko "$build"/nullb/null_blk_*.ko; do
		[ -f "$ko" ] || continue
		mkdir -p "$root/usr/lib/modules/$KVER/extra"
		cp "$ko" "$root/usr/lib/modules/$KVER/extra/"
	done

	(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc --quiet -R 0:0) >"$out"
}

case "${1:-}" in
kver) echo "$KVER" ;;
base) mkdir -p "$(dirname "$2")"; build_base "$2" ;;
overlay) mkdir -p "$(dirname "$2")"; build_overlay "$2" "$3" ;;
*) echo "usage: $0 kver | base OUT | overlay OUT PLAN" >&2; exit 2 ;;
esac
