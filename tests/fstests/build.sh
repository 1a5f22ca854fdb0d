#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build.sh SRC: builds fstests from the user's checkout SRC of kdave/xfstests
# in build/fstests/xfstests (fstests builds only in its own tree, so the
# checkout is copied there first and stays untouched; none of its code
# enters this repository). The tag it was tested at is FSTESTS_TAG; a
# checkout at another commit is built all the same, with a warning.
# The tree is built on the host, against the same Debian 12 libraries the
# VM has, and copied into the VM by tests/debvm/storage.sh.
set -euo pipefail

src=${1:?usage: build.sh FSTESTS_SRC}
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${BUILD:-$top/build}/fstests
tag=${FSTESTS_TAG:-v2026.01.27}
[ -x "$src/check" ] && [ -f "$src/configure.ac" ] ||
	{ echo "fstests: $src is not an xfstests checkout" >&2; exit 2; }
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	have=$(git -C "$src" describe --tags --always 2>/dev/null || echo unknown)
	[ "$have" = "$tag" ] ||
		echo "fstests: warning: $src is at $have, tested at $tag" >&2
fi
# Rebuilt only when the checkout changed: a hash of its files' names and times
stamp=$(cd "$src" && find . -path ./.git -prune -o -type f -printf '%p %T@\n' | sort | sha256sum)
if [ -x "$out/xfstests/ltp/fsx" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
rm -rf "$out/xfstests"
mkdir -p "$out"
(cd "$src" && tar --exclude=./.git -cf - .) | tar -C "$out" --one-top-level=xfstests -xf -
echo "fstests: building in $out/xfstests"
make -C "$out/xfstests" -j"$(nproc)" >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log" >&2; exit 1; }
echo "$stamp" >"$out/stamp"
