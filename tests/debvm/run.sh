#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Debian-userland VM test (issue 14): a real Debian 12 with systemd and
# udev (image.sh), booted under QEMU TCG with the kernel the busybox VM
# uses, proves what only a real userland can: DKMS builds the installed
# module source, udev marks members fanraid_member and assembles the array
# at boot, fstab mounts it, the monitor runs PROGRAM on a failure and the
# scrub unit's result lands in the journal.
#
# fanraid goes in as a user installs it: the fanraid-dkms and fanraid-tools
# .debs that dpkg-buildpackage makes of this tree (tests/pkg/debs.sh), on a
# payload disk with boot.sh, which runs each boot's checks. Boot 1 installs
# them (fanraid-dkms's postinst builds the module with DKMS), installs a
# second kernel package (DKMS must build the module for it), makes the
# array, and a RAID6 "root" on four more disks with a copy of the root
# filesystem and an initrd of its own; boot 2 runs the second kernel (the
# array must assemble with its module); boot 3 has member m3 withheld (the
# array must start degraded after the last-resort timeout, then take m3
# back when it is plugged in through the QEMU monitor); boot 4 has every
# member, checks what the boot did, and kills m1's backend so the kernel
# fails it on a real I/O error and the monitor reports it; boots 5 and 6
# boot from the root array alone, through the initramfs hook, healthy and
# then with r3 withheld until the system is up. Each boot reports on the
# second serial port; logs in build/debvm/logs/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
dir=$build/debvm
KVER=$(cd "$top/tests/vm" && ./initramfs.sh kver)
export KVER
kernel=/boot/vmlinuz-$KVER
run_id=$(date +%Y%m%d-%H%M%S)-$$
logs=$dir/logs/$run_id
work=$dir/run/$run_id
mkdir -p "$logs" "$work"
# DEBVM_KEEP=1 keeps this run's disks, to look at after a failure
[ -n "${DEBVM_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
t_start=$(date +%s)

"$here/image.sh" "$dir/root.img"

# This run's root: a sparse copy of the cached image, its fstab (the root
# by label: the disks' order on the PCI bus is QEMU's) and the payload unit.
cp --sparse=always "$dir/root.img" "$work/root.img"
echo "LABEL=debvm / ext4 defaults 0 1" >"$work/fstab"
debugfs -w -f - "$work/root.img" >/dev/null 2>&1 <<EOC
rm /etc/fstab
write $work/fstab /etc/fstab
write $here/payload.service /etc/systemd/system/debvm-payload.service
symlink /etc/systemd/system/multi-user.target.wants/debvm-payload.service /etc/systemd/system/debvm-payload.service
EOC
debugfs -R "dump /boot/initrd.img-$KVER $work/initrd" "$dir/root.img" 2>/dev/null
[ -s "$work/initrd" ] || { echo "debvm: no initrd for $KVER in the image" >&2; exit 2; }

# The payload: the .debs, built from the tracked files, and the checks.
mkdir -p "$work/stage/debvm"
"$top/tests/pkg/debs.sh" "$work/stage/debvm/pkgs" || exit 2
mv "$work/stage/debvm/pkgs/dpkg-buildpackage.log" "$logs/"
cp "$here/boot.sh" "$top/VERSION" "$work/stage/debvm/"
# The kernel upgrade's package: the same release's cloud flavour, a kernel
# of another name with its headers, from the same archive (cached).
kver2=${KVER%-amd64}-cloud-amd64
mkdir -p "$dir/debs" "$work/stage/debvm/debs"
if ! ls "$dir/debs/linux-image-${kver2}_"*.deb "$dir/debs/linux-headers-${kver2}_"*.deb >/dev/null 2>&1; then
	(cd "$dir/debs" && apt-get download -q "linux-image-$kver2" "linux-headers-$kver2") >"$logs/debs.log" 2>&1 ||
		{ echo "debvm: cannot download linux-image-$kver2 (log: $logs/debs.log)" >&2; exit 2; }
fi
cp "$dir/debs/linux-image-${kver2}_"*.deb "$dir/debs/linux-headers-${kver2}_"*.deb "$work/stage/debvm/debs/"
echo "$kver2" >"$work/stage/debvm/kver-second"
tar -C "$work/stage" -cf "$work/payload.tar" .
for i in 0 1 2 3; do
	# the data array's: xfs wants 300 MB on two data members
	truncate -s 192M "$work/m$i.img"
	# the root array's: room for a copy of the image's files
	truncate -s 768M "$work/r$i.img"
done
# the array grown across a power cut (boots 1-3)
for i in 0 1 2; do
	truncate -s 128M "$work/g$i.img"
done

# The TSC, not the emulated HPET, as in the busybox VM (tests/vm/run.sh).
clock="clocksource=tsc tsc=reliable"

# boot STAGE BUDGET DISKS [WITHHELD]: one boot with the DISKS named
# (root is the image; m0-m3 and r0-r3 the members) but WITHHELD, until
# boot.sh powers off (or the budget ends). BOOT_KERNEL and BOOT_INITRD
# boot another kernel than the busybox VM's. Without the image disk the
# root is the fanraid array "root", started by the initrd boot 1 made.
boot() {
	local stage=$1 budget=$2 disks=$3 held=${4:-} d
	local root="root=LABEL=debvm rw" initrd=${BOOT_INITRD:-$work/initrd}
	local vmlinuz=${BOOT_KERNEL:-$kernel}
	case " $disks " in
	*" root "*) ;;
	*)
		root="root=/dev/mapper/root ro"
		initrd=$work/initrd-fanroot
		;;
	esac
	local -a q=(qemu-system-x86_64 -m 2048 -smp 2 -cpu max -no-reboot
		-nographic -serial "file:$logs/boot$stage.console"
		-serial "file:$logs/boot$stage.results"
		-monitor "unix:$work/monitor.sock,server,nowait"
		-kernel "$vmlinuz" -initrd "$initrd"
		-append "$root console=ttyS0 debvm.stage=$stage systemd.show_status=1 panic=-1 $clock"
		-drive "file=$work/payload.tar,if=none,id=payload,format=raw,readonly=on"
		-device "virtio-blk-pci,drive=payload,serial=payload")
	for d in $disks; do
		[ "$d" = "$held" ] && continue
		if [ "$d" = root ]; then
			q+=(-drive "file=$work/root.img,if=virtio,format=raw,cache=unsafe")
			continue
		fi
		# discard=unmap: create's write-zeroes leaves the files sparse
		q+=(-drive "file=$work/$d.img,if=none,id=$d,format=raw,cache=writeback,discard=unmap"
			-device "virtio-blk-pci,drive=$d,serial=$d")
	done
	local t0 pid
	t0=$(date +%s)
	: >"$logs/boot$stage.results"
	timeout "$budget" "${q[@]}" </dev/null >/dev/null 2>&1 &
	pid=$!
	# what boot.sh asks for: "@@ HOTPLUG NAME" plugs a withheld member
	# in, "@@ UNPLUG NAME" takes a disk's backend away (its I/O fails)
	local handled=0 n line
	while kill -0 $pid 2>/dev/null; do
		n=0
		while read -r line; do
			n=$((n + 1))
			[ $n -le $handled ] && continue
			handled=$n
			set -- $line
			case $2 in
			HOTPLUG) monitor_cmd "drive_add 0 file=$work/$3.img,if=none,id=$3,format=raw,cache=writeback,discard=unmap" \
				"device_add virtio-blk-pci,drive=$3,serial=$3" ;;
			UNPLUG) monitor_cmd "drive_del $3" ;;
			esac >>"$logs/monitor$stage.log" 2>&1
		done < <(tr -d '\r' <"$logs/boot$stage.results" | grep -E '^@@ (HOTPLUG|UNPLUG) ')
		sleep 1
	done
	wait $pid || true
	echo "# boot $stage: $(($(date +%s) - t0)) s"
	sed 's/^/# /' "$logs/boot$stage.results" | grep -v '^# @@ END' || true
	grep -q '^@@ END pass' "$logs/boot$stage.results"
}

# monitor_cmd CMD...: QEMU monitor commands, one second apart
monitor_cmd() {
	python3 - "$work/monitor.sock" "$@" <<'EOP'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
for cmd in sys.argv[2:]:
    s.sendall((cmd + "\n").encode())
    time.sleep(1)
print(s.recv(65536).decode(errors="replace"))
EOP
}

# dump FILE OUT: a file of the image (what boot 1 installed), for QEMU
dump() {
	debugfs -R "dump $1 $2" "$work/root.img" 2>/dev/null
	[ -s "$2" ] || { echo "# boot 1 left no $1"; return 1; }
}

rc=0
boot 1 3600 "root m0 m1 m2 m3 r0 r1 r2 r3 g0 g1 g2" || rc=1
[ $rc = 0 ] && { dump "/boot/vmlinuz-$kver2" "$work/vmlinuz2" &&
	dump "/boot/initrd.img-$kver2" "$work/initrd2" || rc=1; }
[ $rc = 0 ] && { BOOT_KERNEL=$work/vmlinuz2 BOOT_INITRD=$work/initrd2 \
	boot 2 600 "root m0 m1 m2 m3 g0 g1 g2" || rc=1; }
[ $rc = 0 ] && { boot 3 600 "root m0 m1 m2 m3 g0 g1 g2" m3 || rc=1; }
[ $rc = 0 ] && { boot 4 600 "root m0 m1 m2 m3" || rc=1; }
[ $rc = 0 ] && { dump /boot/initrd-fanroot.img "$work/initrd-fanroot" || rc=1; }
[ $rc = 0 ] && { boot 5 600 "r0 r1 r2 r3" || rc=1; }
[ $rc = 0 ] && { boot 6 900 "r0 r1 r2 r3" r3 || rc=1; }
passed=$(cat "$logs"/boot*.results 2>/dev/null | grep -c '^ok - ' || true)
failed=$(cat "$logs"/boot*.results 2>/dev/null | grep -c '^not ok - ' || true)
[ $rc = 0 ] || [ "$failed" -gt 0 ] || failed=1	# a boot that never reported
echo "# logs: $logs ($(($(date +%s) - t_start)) s)"
echo "debvm: $passed passed, $failed failed"
[ $rc = 0 ] && [ "$failed" = 0 ]
