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
# fanraid goes in as `make install DESTDIR=<tree> PREFIX=/usr` produced it,
# unpacked over the VM's root from a payload disk (with boot.sh, which runs
# each boot's checks). Boot 1 installs the module with DKMS and makes the
# array; boot 2 has member m3 withheld (the array must start degraded after
# the last-resort timeout, then take m3 back when it is plugged in through
# the QEMU monitor); boot 3 has every member and checks what the boot
# did. Each boot reports on the second serial port; logs in
# build/debvm/logs/.
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
trap 'rm -rf "$work"' EXIT
t_start=$(date +%s)

[ -x "$build/fanraid" ] && ls "$top"/dm-target/*.c >/dev/null ||
	{ echo "debvm: run 'make all' first" >&2; exit 2; }
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

# The payload: what make install puts in, and the checks.
make -s -C "$top" install DESTDIR="$work/stage" PREFIX=/usr >"$logs/install.log"
mkdir -p "$work/stage/debvm"
cp "$here/boot.sh" "$top/VERSION" "$work/stage/debvm/"
tar -C "$work/stage" -cf "$work/payload.tar" .
for i in 0 1 2 3; do
	truncate -s 64M "$work/m$i.img"
done

# boot STAGE BUDGET [WITHHELD]: one boot, until boot.sh powers off (or
# the budget ends); the WITHHELD member is plugged in when boot.sh asks
boot() {
	local stage=$1 budget=$2 held=${3:-} i
	local -a q=(qemu-system-x86_64 -m 2048 -smp 2 -cpu max -no-reboot
		-nographic -serial "file:$logs/boot$stage.console"
		-serial "file:$logs/boot$stage.results"
		-monitor "unix:$work/monitor.sock,server,nowait"
		-kernel "$kernel" -initrd "$work/initrd"
		-append "root=LABEL=debvm rw console=ttyS0 debvm.stage=$stage systemd.show_status=1 panic=-1"
		-drive "file=$work/root.img,if=virtio,format=raw,cache=unsafe"
		-drive "file=$work/payload.tar,if=none,id=payload,format=raw,readonly=on"
		-device "virtio-blk-pci,drive=payload,serial=payload")
	for i in 0 1 2 3; do
		[ "m$i" = "$held" ] && continue
		q+=(-drive "file=$work/m$i.img,if=none,id=m$i,format=raw,cache=writeback"
			-device "virtio-blk-pci,drive=m$i,serial=m$i")
	done
	local t0 pid
	t0=$(date +%s)
	: >"$logs/boot$stage.results"
	timeout "$budget" "${q[@]}" </dev/null >/dev/null 2>&1 &
	pid=$!
	if [ -n "$held" ]; then
		while kill -0 $pid 2>/dev/null; do
			if grep -q "^@@ HOTPLUG $held" "$logs/boot$stage.results"; then
				hotplug "$held" >"$logs/hotplug.log" 2>&1
				break
			fi
			sleep 1
		done
	fi
	wait $pid || true
	echo "# boot $stage: $(($(date +%s) - t0)) s"
	sed 's/^/# /' "$logs/boot$stage.results" | grep -v '^# @@ END' || true
	grep -q '^@@ END pass' "$logs/boot$stage.results"
}

# hotplug NAME: the disk NAME attached while the VM runs, as a drive
# that was slow to appear
hotplug() {
	python3 - "$work/monitor.sock" "$work/$1.img" "$1" <<'EOP'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
for cmd in ("drive_add 0 file=%s,if=none,id=%s,format=raw" % (sys.argv[2], sys.argv[3]),
            "device_add virtio-blk-pci,drive=%s,serial=%s" % (sys.argv[3], sys.argv[3])):
    s.sendall((cmd + "\n").encode())
    time.sleep(1)
print(s.recv(65536).decode(errors="replace"))
EOP
}

rc=0
boot 1 1800 || rc=1
[ $rc = 0 ] && { boot 2 600 m3 || rc=1; }
[ $rc = 0 ] && { boot 3 600 || rc=1; }
passed=$(cat "$logs"/boot*.results 2>/dev/null | grep -c '^ok - ' || true)
failed=$(cat "$logs"/boot*.results 2>/dev/null | grep -c '^not ok - ' || true)
[ $rc = 0 ] || [ "$failed" -gt 0 ] || failed=1	# a boot that never reported
echo "# logs: $logs ($(($(date +%s) - t_start)) s)"
echo "debvm: $passed passed, $failed failed"
[ $rc = 0 ] && [ "$failed" = 0 ]
