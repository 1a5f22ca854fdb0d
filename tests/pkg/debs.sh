#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/pkg/debs.sh OUTDIR: fanraid-tools and fanraid-dkms built by
# `dpkg-buildpackage -us -uc -b` from the tracked files of this tree (what
# a source package would carry, with what is uncommitted), into OUTDIR.
# Its log is OUTDIR/dpkg-buildpackage.log.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
V=$(cat "$top/VERSION")
src=$(mktemp -d "${TMPDIR:-/tmp}/fanraid-deb.XXXXXX")
trap 'rm -rf "$src"' EXIT

mkdir -p "$out" "$src/fanraid-$V"
git -C "$top" ls-files -z | (cd "$top" && xargs -0 cp --parents -t "$src/fanraid-$V")
(cd "$src/fanraid-$V" && dpkg-buildpackage -us -uc -b) >"$out/dpkg-buildpackage.log" 2>&1 ||
	{ echo "debs: dpkg-buildpackage failed (log: $out/dpkg-buildpackage.log)" >&2; exit 1; }
rm -f "$out"/fanraid-*.deb
cp "$src"/fanraid-tools_"$V"_*.deb "$src"/fanraid-dkms_"$V"_all.deb "$out/"
