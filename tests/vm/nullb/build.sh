#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Builds two variants of null_blk for the VM's kernel into OUTDIR (default
# build/nullb), from Debian's linux-source-6.1 (the release of
# linux-image-amd64), as test tools for the scenario that explains the old
# bench hang (nullb-throttle-stall-is-below-fanraid):
# - null_blk_race.ko: the stock driver plus 0001, a test-only parameter
#   (race_window_us) that widens the window in which the mbps throttle
#   stops its queue for good;
# - null_blk_fixed.ko: the same plus 0002, the fix (the bandwidth timer
#   never stops), 0003 (the budget carries across ticks, so the cap
#   holds whatever the request sizes) and 0004 (each tick runs the queues
#   that hold work: 6.1's blk-mq can leave a request on a software queue
#   when the timer starts a stopped queue), which the bench and demo
#   members load instead of the stock driver.
# Rebuilt only when the source tarball or a patch changes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:-${BUILD:-$top/build}/nullb}
tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "nullb: /usr/src/linux-source-6.1.tar.* missing (make deps)" >&2; exit 1; }
kdir=${KDIR:-$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1)}
[ -d "$kdir" ] || { echo "nullb: no kernel build tree (linux-headers-amd64)" >&2; exit 1; }

mkdir -p "$out"
stamp="$(stat -L -c '%n %s %Y' "$tarball") $kdir $(cat "$here"/*.patch | cksum)"
if [ -f "$out/null_blk_race.ko" ] && [ -f "$out/null_blk_fixed.ko" ] &&
	[ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
echo "nullb: extracting drivers/block/null_blk from $tarball"
rm -rf "$out/src"
mkdir -p "$out/src"
tar -xf "$tarball" -C "$out/src" --strip-components=1 --wildcards '*/drivers/block/null_blk/*'

# variant NAME PATCH...: the driver with PATCHes, built as NAME.ko
variant() {
	local name=$1 d=$out/$1 p
	shift
	rm -rf "$d"
	cp -r "$out/src" "$d"
	for p in "$@"; do
		patch -s -d "$d" -p1 <"$here/$p"
	done
	# The in-tree Makefile names the module null_blk; each variant gets
	# its own name so both can sit in the VM's modules directory.
	printf 'ccflags-y += -I$(src)\nobj-m := %s.o\n%s-y := main.o trace.o zoned.o\n' \
		"$name" "$name" >"$d/drivers/block/null_blk/Kbuild"
	make -s -C "$kdir" M="$d/drivers/block/null_blk" modules
	cp "$d/drivers/block/null_blk/$name.ko" "$out/"
}
variant null_blk_race 0001-null_blk-test-only-widen-the-bandwidth-timer-race.patch
variant null_blk_fixed 0001-null_blk-test-only-widen-the-bandwidth-timer-race.patch \
	0002-null_blk-keep-the-bandwidth-timer-ticking.patch \
	0003-null_blk-carry-the-bandwidth-budget-across-ticks.patch \
	0004-null_blk-run-queues-that-hold-work-on-every-tick.patch
echo "$stamp" >"$out/stamp"
