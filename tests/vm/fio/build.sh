#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds fio from Debian's own source (apt-get source, deb-src from
# scripts/deps.sh), the release the host's fio package is, into OUTDIR
# (default build/fio), with only the engines the VM tests and benchmarks
# use. Debian's fio links 64 libraries (Ceph's librbd and librados,
# glusterfs, ICU, boost, gnutls); under TCG loading and relocating them
# and running their constructors takes about 1 s (3 s under load) before
# fio does anything, once per fio run, and the suite and the demo start
# fio hundreds of times. The code and version are fio's own; the overlay
# (initramfs.sh) puts it at /usr/bin/fio. Rebuilt only when the version
# changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:-${BUILD:-$top/build}/fio}

version=$(apt-cache showsrc fio 2>/dev/null | awk '/^Version:/ && v == "" { v = $2 } END { print v }')
built=$(cat "$out/stamp" 2>/dev/null || true)
if [ -x "$out/fio" ] && { [ "$built" = "$version" ] || [ -z "$version" ]; }; then
	exit 0
fi
[ -n "$version" ] || { echo "fio: no fio source in apt (deb-src: make deps)" >&2; exit 1; }

work=$out/src
rm -rf "$work" "$out/fio"
mkdir -p "$work"
echo "fio: $version from Debian's source, without the engines that need other libraries"
(cd "$work" && apt-get source -q fio="$version" >apt-source.log 2>&1) ||
	{ tail -5 "$work/apt-source.log" >&2; exit 1; }
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'fio-*' | head -n1)
(
	cd "$src"
	./configure --disable-native --disable-numa --disable-rdma --disable-rados \
		--disable-rbd --disable-http --disable-gfapi --disable-libnfs \
		--disable-pmem --disable-xnvme --disable-libzbc --disable-dfs \
		--disable-tcmalloc
	make -j"$(nproc)" fio
) >"$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; exit 1; }
cp "$src/fio" "$out/fio"
rm -rf "$work"
echo "$version" >"$out/stamp"
echo "fio: built $out/fio"
