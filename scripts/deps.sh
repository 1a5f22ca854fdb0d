#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs the Debian packages that the build, the tests, the demo and the
# benchmarks need, and only those that are missing. Safe to run repeatedly.
set -euo pipefail

# Build and unit tests.
pkgs_build="build-essential pkg-config libisal-dev libcmocka-dev libdevmapper-dev libblkid-dev libudev-dev libjson-c-dev uuid-dev"
# make install: dm-fanraid(4) is rendered from docs/fanraid.rst. The .debs
# (tests/pkg, and the Debian VM installs them): dpkg-buildpackage with
# debhelper and dh-dkms.
pkgs_build="$pkgs_build python3-docutils dpkg-dev debhelper dh-dkms"
# The VM that proves the kernel module: a real Debian kernel, its headers,
# and the userspace that runs inside it.
pkgs_vm="qemu-system-x86 linux-image-amd64 linux-headers-amd64 busybox-static kmod cpio dmsetup fio e2fsprogs xfsprogs btrfs-progs mdadm jq"
# dm-dust for the bad-sector scenarios, built from the kernel's own source
# (tests/vm/dust/build.sh): Debian's kernel is built without it.
pkgs_vm="$pkgs_vm linux-source-6.1"
# The Debian-userland VM (make debvm): its root is made by mmdebstrap.
pkgs_vm="$pkgs_vm mmdebstrap"
# blkid and wipefs with fanraid's libblkid prober (tests/vm/blkid/build.sh),
# built from Debian's util-linux source: its build system is regenerated.
pkgs_vm="$pkgs_vm dpkg-dev autoconf automake libtool autopoint gettext bison"
# Benchmark reports.
pkgs_bench="gnuplot-nox jq"
# make fstests: fstests (kdave/xfstests) built on the host; the VM image has
# the run-time half (tests/debvm/pkgs-storage.txt).
pkgs_fstests="autoconf automake libtool-bin make gcc gawk bc xfslibs-dev uuid-dev libattr1-dev libacl1-dev libaio-dev liburing-dev libgdbm-dev libinih-dev libcap-dev"

want="$pkgs_build $pkgs_vm $pkgs_bench"
case "${1:-all}" in
build) want="$pkgs_build" ;;
fstests) want="$pkgs_fstests $pkgs_vm" ;;
all) ;;
*) echo "usage: $0 [build|fstests|all]" >&2; exit 2 ;;
esac

# apt-get source needs deb-src entries: the same archive as the host's
# binary packages (deb822 .sources files), for the VM's util-linux source.
deb_src_wanted() {
	[ "${1:-all}" = all ] && [ "$(id -u)" = 0 ] || return 1
	# No grep -q: it would close the pipe early, and pipefail fail on it.
	case "$(apt-cache showsrc util-linux 2>/dev/null)" in *Version:*) return 1 ;; esac
	ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1
}
if deb_src_wanted "${1:-all}"; then
	echo "deps: adding deb-src entries for apt-get source"
	for f in /etc/apt/sources.list.d/*.sources; do
		case $f in *-src.sources) continue ;; esac
		sed 's/^Types: deb$/Types: deb-src/' "$f" >"${f%.sources}-src.sources"
	done
	apt-get update -q
fi

missing=""
for p in $want; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
