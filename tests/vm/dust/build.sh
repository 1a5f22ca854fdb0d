#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds dm-dust.ko for the VM's kernel into OUTDIR (default build/dust).
# dm-dust makes chosen blocks of a device fail their reads until they are
# written, the way a drive remaps a bad sector on write: the real fault the
# read-repair scenarios need. Debian's kernel is built without it
# (CONFIG_DM_DUST), so its source comes out of Debian's linux-source-6.1,
# the same kernel release as linux-image-amd64; it is a test tool only,
# never part of fanraid. Rebuilt only when the source tarball changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:-${BUILD:-$top/build}/dust}
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "dust: /usr/src/linux-source-6.1.tar.* missing (make deps)" >&2; exit 1; }
kdir=${KDIR:-$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1)}
[ -d "$kdir" ] || { echo "dust: no kernel build tree (linux-headers-amd64)" >&2; exit 1; }

mkdir -p "$out"
stamp="$(stat -L -c '%n %s %Y' "$tarball") $kdir"
if [ -f "$out/dm-dust.ko" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
if [ ! -f "$out/dm-dust.c" ] || [ "$(cat "$out/stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "dust: extracting drivers/md/dm-dust.c from $tarball"
	src=$(tar -tf "$tarball" 2>/dev/null | grep -m1 '/drivers/md/dm-dust\.c$' || true)
	[ -n "$src" ] || { echo "dust: dm-dust.c not in $tarball" >&2; exit 1; }
	tar -xf "$tarball" -O "$src" >"$out/dm-dust.c.tmp"
	mv "$out/dm-dust.c.tmp" "$out/dm-dust.c"
fi
cp "$here/Kbuild" "$out/Kbuild"
make -s -C "$kdir" M="$out" modules
echo "$stamp" >"$out/stamp"
