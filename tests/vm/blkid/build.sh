#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds blkid, wipefs and libblkid with fanraid's prober
# (packaging/util-linux/*.patch, offered upstream) into OUTDIR (default
# build/blkid): bin/ and lib/. Stock libblkid cannot see a fanraid member,
# so this is how a test shows what the prober does with the real tools;
# the VM keeps the stock ones beside it as the control. The source is
# Debian's own util-linux (apt-get source, deb-src from scripts/deps.sh),
# the release the host's libblkid comes from. Rebuilt only when the patch
# or the source version changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:-${BUILD:-$top/build}/blkid}
patches=("$top"/packaging/util-linux/*.patch)

# The stamp is the patches' hash, then the source version. A build of
# the same patches stands while apt cannot answer (its lists being
# updated by another run).
hash=$(cat "${patches[@]}" | sha256sum | cut -d' ' -f1)
version=$(apt-cache showsrc util-linux 2>/dev/null | awk '/^Version:/ && v == "" { v = $2 } END { print v }')
built=$(cat "$out/stamp" 2>/dev/null || true)
if [ -x "$out/bin/blkid" ] && { [ "$built" = "$hash $version" ] ||
	{ [ -z "$version" ] && [ "${built%% *}" = "$hash" ]; }; }; then
	exit 0
fi
[ -n "$version" ] || { echo "blkid: no util-linux source in apt (deb-src: make deps)" >&2; exit 1; }
stamp="$hash $version"

work=$out/src
rm -rf "$work" "$out/bin" "$out/lib"
mkdir -p "$work"
echo "blkid: util-linux $version from Debian's source, with ${#patches[@]} patch(es)"
(cd "$work" && apt-get source -q util-linux="$version" >apt-source.log 2>&1) ||
	{ tail -5 "$work/apt-source.log" >&2; exit 1; }
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'util-linux-*' | head -n1)
for p in "${patches[@]}"; do
	patch -s -d "$src" -p1 <"$p"
done
# The patch adds a source file to Makemodule.am: the build system is
# regenerated, then only libblkid and the two tools are built.
(
	cd "$src"
	./autogen.sh
	./configure --disable-all-programs --enable-libblkid --enable-libsmartcols \
		--enable-blkid --enable-wipefs --disable-nls --without-python \
		--disable-bash-completion --without-systemd --without-udev
	make -j"$(nproc)" blkid wipefs
) >"$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; exit 1; }

mkdir -p "$out/bin" "$out/lib"
cp "$src/.libs/blkid" "$src/.libs/wipefs" "$out/bin/"
cp -P "$src"/.libs/libblkid.so* "$src"/.libs/libsmartcols.so* "$out/lib/"
rm -rf "$work"
echo "$stamp" >"$out/stamp"
echo "blkid: built $out/bin/blkid and wipefs"
