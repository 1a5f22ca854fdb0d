#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/pkg/check.sh: the packaging, on the host. `make install` into a
# DESTDIR puts in every file a system needs, `make uninstall` takes every
# one out again, and `dpkg-buildpackage -us -uc -b` on a clean copy of the
# tree builds fanraid-tools and fanraid-dkms with the same files. The
# Debian VM (tests/debvm) installs those .debs on a real Debian.
# Output is TAP-like; exit 1 on any failure.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
t=$build/pkg-test
V=$(cat "$top/VERSION")
failed=0
ok() { echo "ok - $*"; }
bad() { echo "not ok - $*"; failed=1; }
check() {
	local what=$1
	shift
	if out=$("$@" 2>&1); then ok "$what"; else bad "$what"; printf '%s\n' "$out" | sed 's/^/  | /'; fi
}
# files under a tree, as absolute paths of the installed system
files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's/^\.//' | sort); }

rm -rf "$t"
mkdir -p "$t"
# a tree built for the default PREFIX first, as `make all` and a user's
# habits leave it: install for /usr must still call /usr/sbin/fanraid
make -s -C "$top/packaging" all PREFIX=/usr/local >/dev/null
check "make install DESTDIR PREFIX=/usr" make -s -C "$top" install DESTDIR="$t/root" PREFIX=/usr
files "$t/root" >"$t/installed"
for f in /usr/sbin/fanraid /usr/bin/raidcalc /usr/src/fanraid-$V/dkms.conf \
	/usr/src/fanraid-$V/dm-target/Kbuild /usr/src/fanraid-$V/raidcalc/include/fanraid/geom.h \
	/usr/lib/udev/rules.d/69-fanraid.rules \
	/usr/lib/systemd/system/fanraid-monitor.service \
	/usr/lib/systemd/system/fanraid-scrub.timer \
	/usr/lib/systemd/system/fanraid-last-resort@.timer \
	/usr/lib/systemd/system-shutdown/fanraid.shutdown \
	/usr/share/initramfs-tools/hooks/fanraid \
	/usr/share/initramfs-tools/scripts/local-block/fanraid \
	/usr/share/man/man8/fanraid.8 /usr/share/man/man4/dm-fanraid.4 /usr/share/man/man1/raidcalc.1; do
	check "installed: $f" grep -qx "$f" "$t/installed"
done
check "the installed tool runs: fanraid --version says $V" bash -c \
	"'$t/root/usr/sbin/fanraid' --version | grep -qw '$V'"
check "the udev rule calls the installed tool" grep -q '/usr/sbin/fanraid' \
	"$t/root/usr/lib/udev/rules.d/69-fanraid.rules"
check "the units and the hook call the installed tool" bash -c \
	"grep -l '/usr/sbin/fanraid' '$t/root/usr/lib/systemd/system/fanraid-monitor.service' \
		'$t/root/usr/lib/systemd/system/fanraid-last-resort@.service' \
		'$t/root/usr/share/initramfs-tools/hooks/fanraid' | wc -l | grep -qx 3"
check "no installed file names /usr/local" bash -c "! grep -rl /usr/local '$t/root' --exclude=fanraid.conf.example --exclude='*.[1-8]'"
check "dkms.conf names version $V" grep -q "^PACKAGE_VERSION=\"\\?$V\"\\?" \
	"$t/root/usr/src/fanraid-$V/dkms.conf"

cp -a "$t/root" "$t/again"
check "make uninstall DESTDIR PREFIX=/usr" make -s -C "$top" uninstall DESTDIR="$t/again" PREFIX=/usr
check "make uninstall leaves no file behind" bash -c "[ -z \"\$(cd '$t/again' && find . ! -type d)\" ] || { cd '$t/again' && find . ! -type d; false; }"

# The Debian packages, as the Debian VM installs them.
check "dpkg-buildpackage -us -uc -b" "$top/tests/pkg/debs.sh" "$t/debs-out"
tools=$(ls "$t"/debs-out/fanraid-tools_"$V"_*.deb 2>/dev/null)
dkms=$(ls "$t"/debs-out/fanraid-dkms_"$V"_all.deb 2>/dev/null)
check "it built fanraid-tools and fanraid-dkms" test -n "$tools" -a -n "$dkms"
if [ -n "$tools" ] && [ -n "$dkms" ]; then
	# what the packages hold, with the man pages' .gz and Debian's own
	# docs set aside, against what make install put in less what
	# debian/not-installed leaves out (headers and the static library)
	for d in "$tools" "$dkms"; do dpkg-deb -x "$d" "$t/debs"; done
	files "$t/debs" | grep -v '^/usr/share/doc/fanraid-' | sed 's/\.gz$//' >"$t/packaged"
	grep -v -e '^/usr/include/' -e '^/usr/lib/libraidcalc.a$' "$t/installed" >"$t/wanted"
	check "the .debs hold what make install puts in" diff -u "$t/wanted" "$t/packaged"
	check "with the same contents" bash -c "
		while read -r f; do
			case \$f in
			*/sbin/*|*/bin/*) continue ;;	# dh_strip strips them
			esac
			if [ -e '$t/debs'\$f.gz ]; then zcat '$t/debs'\$f.gz | cmp - '$t/root'\$f
			else cmp '$t/debs'\$f '$t/root'\$f; fi || exit 1
		done <'$t/wanted'"
	check "fanraid-dkms holds the module source" bash -c \
		"dpkg-deb -c '$dkms' | grep -q './usr/src/fanraid-$V/dm-target/fanraid-target.c'"
	check "fanraid-dkms runs dkms when installed" bash -c \
		"dpkg-deb -I '$dkms' postinst | grep -q dkms && dpkg-deb -f '$dkms' Depends | grep -q dkms"
	check "fanraid-tools remakes the initrds when installed" bash -c \
		"dpkg-deb --ctrl-tarfile '$tools' | tar -xOf - ./triggers | grep -qx 'activate-noawait update-initramfs'"
	check "fanraid-tools depends on the libraries it links" bash -c \
		"dpkg-deb -f '$tools' Depends | grep -q libdevmapper && dpkg-deb -f '$tools' Depends | grep -q libblkid &&
		 dpkg-deb -f '$tools' Depends | grep -q libjson-c && dpkg-deb -f '$tools' Depends | grep -q libuuid"
fi
echo "pkg: $([ $failed = 0 ] && echo pass || echo FAIL)"
exit $failed
