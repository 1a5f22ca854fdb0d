#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# image.sh OUT.img | --fingerprint: a Debian 12 root (systemd, udev, DKMS, the kernel the
# busybox VM boots and its headers) made by mmdebstrap from the host's own
# package archive, written into an ext4 image with mke2fs -d. Cached: it is
# rebuilt only when the fingerprint of its inputs (this script, the
# package list, the kernel version, the archive's sources) changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$1
KVER=${KVER:-$(cd "$here/../vm" && ./initramfs.sh kver)}

# What the scenarios need: boot (systemd, udev, initramfs-tools and zstd,
# its default compressor, the kernel), DKMS and a compiler for the module,
# the tool's libraries, the tools the checks call, and an MTA (exim4, with
# Debian's default of local delivery) for the monitor's mail.
pkgs="systemd systemd-sysv udev dbus kmod initramfs-tools
linux-image-$KVER linux-headers-$KVER dkms make gcc libc6-dev
libisal2 libdevmapper1.02.1 libblkid1 libudev1 libjson-c5 libuuid1 dmsetup
xfsprogs util-linux procps jq exim4-daemon-light zstd"
size=3G

# DEBVM_SET=storage: the same root plus what fstests needs at run time (its
# tree is built on the host: building it under TCG takes far longer) and a
# one-node Ceph (tests/fstests, bench/ceph). A set of its own, so the plain
# image of `make debvm` stays as small and as cached as it was.
set=${DEBVM_SET:-}
case $set in
"") ;;
storage)
	pkgs="$pkgs $(grep -v '^#' "$here/pkgs-storage.txt" | tr '\n' ' ')"
	size=8G
	;;
*) echo "debvm: unknown DEBVM_SET '$set'" >&2; exit 2 ;;
esac

fingerprint() {
	{
		echo "kver $KVER"
		echo "pkgs $pkgs size $size set $set"
		sha256sum <"$0"
		[ -z "$set" ] || sha256sum <"$here/customize-$set.sh"
		# the sources mmdebstrap is given, not whatever else is there
		# (a deb-src entry added by someone else must not rebuild it)
		cat /etc/apt/sources.list.d/debian.sources 2>/dev/null || true
	} | sha256sum | cut -d' ' -f1
}

fp=$(fingerprint)
# --fingerprint: only print the cache key
[ "$out" = --fingerprint ] && { echo "$fp"; exit 0; }
if [ -f "$out" ] && [ "$(cat "$out.fp" 2>/dev/null)" = "$fp" ]; then
	exit 0
fi
command -v mmdebstrap >/dev/null || { echo "debvm: mmdebstrap missing (make deps)" >&2; exit 2; }
echo "debvm: building $out for $KVER"
root=$(mktemp -d "$(dirname "$out")/debroot.XXXXXX")
trap 'rm -rf "$root"' EXIT

# The host's apt sources: the same archive, mirror and security suite.
mmdebstrap --variant=minbase --include="$(echo $pkgs | tr ' ' ,)" \
	--customize-hook='echo debvm >"$1/etc/hostname"' \
	--customize-hook='chroot "$1" passwd -d root' \
	--customize-hook='chroot "$1" systemctl mask systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service man-db.timer 2>/dev/null || true' \
	${set:+--customize-hook="$here/customize-$set.sh"} \
	bookworm "$root" /etc/apt/sources.list.d/debian.sources

# The kernel comes from the host's /boot (the busybox VM's); the image's own
# copy of it and its initrd are what its boot uses.
mke2fs -q -t ext4 -L debvm -d "$root" "$out.tmp" "$size"
mv "$out.tmp" "$out"
echo "$fp" >"$out.fp"
echo "debvm: $(du -h --apparent-size "$out" | cut -f1) image $out"
