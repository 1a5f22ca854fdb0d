#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# storage.sh fstests|ceph [BUDGET]: one boot of the Debian VM with the
# storage image (image.sh, DEBVM_SET=storage) whose payload runs other
# people's software on fanraid: fstests (tests/fstests/guest.sh, `make
# fstests`) or a one-node Ceph (bench/ceph/guest.sh, `make ceph-bench`).
#
# As in run.sh, fanraid goes in as `make install DESTDIR=<tree> PREFIX=/usr`
# made it, unpacked from a payload disk; unlike run.sh the module is the
# one `make module` built on the host against the same kernel's headers
# (DKMS compiling it under TCG takes 12 minutes, and run.sh proves it).
# Members are sparse files on the host given to QEMU with discard=unmap, so
# write-zeroes and discards punch holes and fanraid create needs no resync.
# Results: the second serial port, in build/debvm/logs/<run>/<mode>.results.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
dir=$build/debvm
mode=${1:?usage: storage.sh fstests|ceph [BUDGET]}
budget=${2:-3600}
KVER=$(cd "$top/tests/vm" && ./initramfs.sh kver)
export KVER
kernel=/boot/vmlinuz-$KVER
run_id=$(date +%Y%m%d-%H%M%S)-$$
logs=$dir/logs/$run_id
work=$dir/run/$run_id
mkdir -p "$logs" "$work"
trap 'rm -rf "$work"' EXIT
t_start=$(date +%s)
# 4 GiB: a mon, a mgr and an OSD (osd_memory_target lowered to 1 GiB by
# bench/ceph/guest.sh) with room for the page cache
mem=${DEBVM_MEM:-4096}

[ -x "$build/fanraid" ] && [ -f "$top/dm-target/dm-fanraid.ko" ] ||
	{ echo "storage: run 'make all module' first" >&2; exit 2; }
DEBVM_SET=storage "$here/image.sh" "$dir/storage.img"

cp --sparse=always "$dir/storage.img" "$work/root.img"
echo "LABEL=debvm / ext4 defaults 0 1" >"$work/fstab"
debugfs -w -f - "$work/root.img" >/dev/null 2>&1 <<EOC
rm /etc/fstab
write $work/fstab /etc/fstab
write $here/payload.service /etc/systemd/system/debvm-payload.service
symlink /etc/systemd/system/multi-user.target.wants/debvm-payload.service /etc/systemd/system/debvm-payload.service
EOC
debugfs -R "dump /boot/initrd.img-$KVER $work/initrd" "$dir/storage.img" 2>/dev/null
[ -s "$work/initrd" ] || { echo "storage: no initrd for $KVER in the image" >&2; exit 2; }

make -s -C "$top" install DESTDIR="$work/stage" PREFIX=/usr >"$logs/install.log"
mkdir -p "$work/stage/debvm"
cp "$top/VERSION" "$top/dm-target/dm-fanraid.ko" "$work/stage/debvm/"
disks=()
# fstests: flushes end in the guest (dm-flakey's crashes are the guest's),
# so the host need not sync them; Ceph: what a flush costs is measured
cache=unsafe
case $mode in
fstests)
	src=$build/fstests/xfstests
	[ -x "$src/check" ] && [ -x "$src/ltp/fsx" ] ||
		{ echo "storage: build fstests first (make fstests FSTESTS_SRC=...)" >&2; exit 2; }
	mkdir -p "$work/stage/opt"
	cp -a "$src" "$work/stage/opt/xfstests"
	cp "$top/tests/fstests/guest.sh" "$work/stage/debvm/boot.sh"
	cp "$top/tests/fstests/xunit2lines.py" "$work/stage/debvm/"
	# FSTESTS_TESTS: a list of its own instead of the subset
	if [ -n "${FSTESTS_TESTS:-}" ]; then
		printf '%s\n' $FSTESTS_TESTS >"$work/stage/debvm/fstests.list"
	else
		grep -v '^#' "$top/tests/fstests/subset.list" | awk 'NF {print $1}' \
			>"$work/stage/debvm/fstests.list"
	fi
	echo "${FSTESTS_CONFIGS:-fanraid-raid0 fanraid-raid6 fanraid-raid6-degraded dm-stripe md-raid6}" \
		>"$work/stage/debvm/fstests.configs"
	echo "${FSTESTS_FS:-xfs ext4}" >"$work/stage/debvm/fstests.fs"
	# seconds one file system on one configuration may take
	echo "${FSTESTS_COMBO_BUDGET:-900}" >"$work/stage/debvm/fstests.budget"
	# TEST_DEV's members t0..t5, SCRATCH_DEV's s0..s5; 384 MiB, so
	# RAID0 of 4 and RAID6 of 6 hold 1.5 GiB (generic/213 wants 1 GiB free)
	for i in 0 1 2 3 4 5; do disks+=("t$i:384M" "s$i:384M"); done
	;;
ceph)
	cp "$top/bench/ceph/guest.sh" "$work/stage/debvm/boot.sh"
	cp "$top/bench/ceph/deploy.sh" "$work/stage/debvm/"
	echo "${CEPH_BENCH_SECONDS:-20}" >"$work/stage/debvm/ceph.seconds"
	# CEPH_SMOKE=1: the smoke test alone, on the first configuration
	[ "${CEPH_SMOKE:-0}" = 1 ] && : >"$work/stage/debvm/ceph.smoke"
	echo "${CEPH_CONFIGS:-fanraid-raid0:passthrough fanraid-raid0:dirty fanraid-raid0:drop fanraid-raid6:passthrough fanraid-raid6:dirty fanraid-raid6:drop md-raid6 dm-stripe fanraid-raid6-fail:dirty}" \
		>"$work/stage/debvm/ceph.configs"
	for i in 0 1 2 3 4 5; do disks+=("m$i:${CEPH_MEMBER_SIZE:-2G}"); done
	cache=writeback
	;;
*) echo "storage: unknown mode '$mode'" >&2; exit 2 ;;
esac
tar -C "$work/stage" -cf "$work/payload.tar" .

# clocksource: the TSC, not the emulated HPET, as in the busybox VM
# (tests/vm/run.sh).
q=(qemu-system-x86_64 -m "$mem" -smp 2 -cpu max -no-reboot
	-nographic -serial "file:$logs/$mode.console"
	-serial "file:$logs/$mode.results"
	-kernel "$kernel" -initrd "$work/initrd"
	-append "root=LABEL=debvm rw console=ttyS0 systemd.show_status=1 panic=-1 clocksource=tsc tsc=reliable"
	-drive "file=$work/root.img,if=virtio,format=raw,cache=unsafe"
	-drive "file=$work/payload.tar,if=none,id=payload,format=raw,readonly=on"
	-device "virtio-blk-pci,drive=payload,serial=payload")
for d in "${disks[@]}"; do
	n=${d%%:*}
	truncate -s "${d#*:}" "$work/$n.img"
	q+=(-drive "file=$work/$n.img,if=none,id=$n,format=raw,cache=$cache,discard=unmap"
		-device "virtio-blk-pci,drive=$n,serial=$n")
done
: >"$logs/$mode.results"
echo "storage: $mode, logs in $logs (budget $budget s)"
timeout "$budget" "${q[@]}" </dev/null >/dev/null 2>&1 || true
echo "# $mode: $(($(date +%s) - t_start)) s"
grep -q '^@@ END pass' "$logs/$mode.results"
