#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the Debian VM (tests/debvm/run.sh) once systemd is up, then
# powers off. Which boot this is comes from the kernel command line
# (debvm.stage=N); results go to the second serial port as
#   ok - <what>  |  not ok - <what>  |  @@ END pass|fail
# Members are the virtio disks with serials m0..m3 (the array "data") and
# r0..r3 (the array "root").
set -uo pipefail
exec 3>/dev/ttyS1
stage=$(sed -n 's/.*debvm\.stage=\([0-9a-z]*\).*/\1/p' /proc/cmdline)
failed=0
V=$(cat /debvm/VERSION)
# the second kernel package (a kernel upgrade), on the payload with its headers
KVER_CLOUD=$(cat /debvm/kver-second)
m=(/dev/disk/by-id/virtio-m0 /dev/disk/by-id/virtio-m1 /dev/disk/by-id/virtio-m2 /dev/disk/by-id/virtio-m3)
# the root array's members (boots 1, 5 and 6)
r=(/dev/disk/by-id/virtio-r0 /dev/disk/by-id/virtio-r1 /dev/disk/by-id/virtio-r2 /dev/disk/by-id/virtio-r3)
# the raid0 "wide", grown from two members to three across a power cut
# (boots 1-3)
g=(/dev/disk/by-id/virtio-g0 /dev/disk/by-id/virtio-g1 /dev/disk/by-id/virtio-g2)

say() { echo "$*" >&3; echo "debvm: $*"; }
ok() { say "ok - $*"; }
bad() { say "not ok - $*"; failed=1; }
# check WHAT CMD...: one assertion; the command's output goes to the log
check() {
	local what=$1
	shift
	if out=$("$@" 2>&1); then ok "$what"; else bad "$what"; fi
	printf '%s\n' "$out" | sed 's/^/  | /' >&3
}
# wait_for SECONDS CMD...: CMD succeeds within SECONDS
wait_for() {
	local t=$1 i
	shift
	for ((i = 0; i < t * 2; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	return 1
}
# finish [crash]: report, then power off, or cut the power (no sync, no
# unmount, nothing stopped)
finish() {
	check "no oops, BUG or WARNING in the kernel log" bash -c \
		"! dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace'"
	say "@@ END $([ $failed = 0 ] && echo pass || echo fail)"
	if [ "${1:-}" = crash ]; then
		echo 1 >/proc/sys/kernel/sysrq
		echo b >/proc/sysrq-trigger
		sleep 60
	fi
	sync
	systemctl poweroff
	exit 0
}

# The root on fanraid (boot 1): a RAID6 on r0-r3 gets a copy of this
# root, an fstab that mounts it as /, and an initrd of its own that the
# copy makes for itself in a chroot, as a system installed onto the array
# would. run.sh boots that initrd in boots 5 and 6.
make_root_array() {
	local t0 k
	k=$(uname -r)
	check "create a raid6 for the root" fanraid create root --level 6 --chunk 64K "${r[@]}"
	check "the root array is redundant at once: no resync" bash -c "dmsetup status root | grep -q ' idle '"
	check "mkfs.ext4 on it" mkfs.ext4 -q -L fanroot /dev/mapper/root
	mkdir -p /mnt/root
	check "mount it" mount /dev/mapper/root /mnt/root || return
	t0=$(date +%s)
	# what a root needs to boot and run the checks, not the toolchain,
	# the second kernel, docs, or drivers for hardware the VM lacks: the
	# copy is a third of the image, and quick
	check "copy the root onto it" bash -c "tar -C / --one-file-system --xattrs \
		--exclude=./usr/lib/modules/$KVER_CLOUD --exclude='./boot/*-$KVER_CLOUD' \
		--exclude=./usr/src --exclude=./var/lib/dkms --exclude=./usr/lib/gcc \
		--exclude=./usr/share/doc --exclude=./usr/share/man --exclude=./usr/share/locale \
		--exclude=./var/cache/apt --exclude=./debvm/debs --exclude=./debvm/pkgs \
		$(printf -- '--exclude=./usr/lib/modules/%s/kernel/%s ' "$k" \
			drivers/net drivers/gpu drivers/media drivers/scsi drivers/usb \
			drivers/infiniband drivers/iio sound net) \
		-cf - . | tar -C /mnt/root --xattrs -xpf -"
	say "# copy took $(($(date +%s) - t0)) s: $(du -sh /mnt/root | cut -f1)"
	echo "/dev/mapper/root / ext4 defaults 0 1" >/mnt/root/etc/fstab
	# the copy names both arrays; the monitor's lines stay
	{ grep -v '^ARRAY' /etc/fanraid.conf; fanraid examine --scan; } >/mnt/root/etc/fanraid.conf
	check "the copy's fanraid.conf names the root array" grep -q "^ARRAY root UUID=" /mnt/root/etc/fanraid.conf
	for d in dev proc sys run; do mount --bind /$d /mnt/root/$d; done
	t0=$(date +%s)
	check "update-initramfs in the copy" chroot /mnt/root update-initramfs -c -k "$k"
	say "# update-initramfs took $(($(date +%s) - t0)) s"
	check "its initrd has the module, the tool, the rule and the conf" bash -c \
		"lsinitramfs /mnt/root/boot/initrd.img-$k | grep -E 'dm-fanraid.ko|sbin/fanraid\$|69-fanraid.rules|etc/fanraid.conf|local-block/fanraid\$' | sort | tee /dev/stderr | wc -l | grep -qx 5"
	cp /mnt/root/boot/initrd.img-"$k" /boot/initrd-fanroot.img
	for d in run sys proc dev; do umount /mnt/root/$d; done
	umount /mnt/root
	check "stop the root array cleanly" fanraid stop root
}

say "@@ BOOTED stage $stage $(uname -r) in $(cut -d' ' -f1 /proc/uptime) s"
case $stage in
1)
	# MODULES=list, not most: the hook must add dm-fanraid whatever
	# MODULES says, and a list initrd is made in a third of the time
	# under TCG (the three that boot 1 makes)
	mkdir -p /etc/initramfs-tools/conf.d
	echo MODULES=list >/etc/initramfs-tools/conf.d/debvm-modules
	printf '%s\n' virtio_pci virtio_blk ext4 xfs crc32c_generic >>/etc/initramfs-tools/modules
	# the packages as a user installs them: fanraid-dkms's postinst
	# builds the module for this kernel, fanraid-tools's trigger remakes
	# its initrd with the hook
	t0=$(date +%s)
	check "dpkg -i fanraid-dkms and fanraid-tools $V" dpkg -i \
		/debvm/pkgs/fanraid-dkms_"$V"_all.deb /debvm/pkgs/fanraid-tools_"$V"_*.deb
	say "# dpkg -i of fanraid took $(($(date +%s) - t0)) s"
	check "fanraid --version is $V" bash -c "fanraid --version | grep -qw '$V'"
	check "dkms status lists it installed" bash -c "dkms status | grep -q 'fanraid/$V, $(uname -r), x86_64: installed'"
	check "modprobe dm-fanraid loads the DKMS module" bash -c \
		"modprobe dm-fanraid && modinfo -n dm-fanraid | grep -q updates/dkms && dmsetup targets | grep -q '^fanraid'"
	check "the trigger remade this kernel's initrd with the hook" bash -c \
		"lsinitramfs /boot/initrd.img-$(uname -r) | grep -q 'scripts/local-block/fanraid\$'"
	# a kernel upgrade: a second kernel package, installed with dpkg as
	# apt would; its postinst runs DKMS, which must build fanraid for it
	# before its initrd is made (boot 2 boots it)
	ck=$KVER_CLOUD
	t0=$(date +%s)
	check "a second kernel installs: $ck" dpkg -i /debvm/debs/linux-image-"$ck"_*.deb \
		/debvm/debs/linux-headers-"$ck"_*.deb
	say "# dpkg -i of the second kernel took $(($(date +%s) - t0)) s"
	check "dkms status lists fanraid/$V installed for $ck" bash -c \
		"dkms status | grep -q 'fanraid/$V, $ck, x86_64: installed'"
	check "its module is built for $ck" bash -c \
		"modinfo -F vermagic /lib/modules/$ck/updates/dkms/dm-fanraid.ko | grep -q '^$ck '"
	check "its initrd carries it" bash -c "lsinitramfs /boot/initrd.img-$ck | grep -q 'updates/dkms/dm-fanraid.ko'"
	udevadm control --reload
	check "create a raid6 on four disks" fanraid create data --level 6 --chunk 64K "${m[@]}"
	# virtio's write-zeroes: create zeroes the members, no resync
	check "it is redundant at once: no resync" bash -c "dmsetup status data | grep -q ' idle '"
	check "mkfs.xfs" mkfs.xfs -q /dev/mapper/data
	mkdir -p /srv
	mount /dev/mapper/data /srv && head -c 4M /dev/urandom >/srv/data && sha256sum /srv/data >/root/data.sha && umount /srv
	# a raid0 that boot 2 grows and cuts off mid-copy
	check "create a raid0 on two disks" fanraid create wide --level 0 --chunk 64K "${g[0]}" "${g[1]}"
	head -c 96M /dev/urandom >/root/wide.data
	dd if=/root/wide.data of=/dev/mapper/wide bs=1M oflag=direct status=none
	sha256sum </root/wide.data >/root/wide.sha
	rm /root/wide.data
	fanraid examine --scan >/etc/fanraid.conf
	cat >>/etc/fanraid.conf <<EOC
PROGRAM /usr/local/sbin/fr-event
MAILADDR root
EOC
	check "examine --scan wrote an ARRAY line" grep -q "^ARRAY data UUID=" /etc/fanraid.conf
	cat >/usr/local/sbin/fr-event <<'EOC'
#!/bin/sh
echo "$(date +%s) $*" >>/var/log/fr-events
EOC
	chmod +x /usr/local/sbin/fr-event
	echo "/dev/mapper/data /srv xfs defaults,x-systemd.device-timeout=180 0 0" >>/etc/fstab
	check "enable fanraid-monitor.service" systemctl enable fanraid-monitor.service
	check "stop the array cleanly" fanraid stop data
	make_root_array
	finish
	;;
2)
	# the second kernel: udev assembles the array with the module DKMS
	# built for it, and fstab mounts it
	check "booted the second kernel" test "$(uname -r)" = "$KVER_CLOUD"
	check "dm-fanraid comes from its updates/dkms" bash -c \
		"modinfo -n dm-fanraid | grep -q '^/lib/modules/$KVER_CLOUD/updates/dkms/'"
	check "/srv mounted from the array" wait_for 150 bash -c \
		"findmnt -n -o SOURCE /srv | grep -q '^/dev/mapper/data'"
	check "data intact" sha256sum -c /root/data.sha
	check "healthy: status exit 0" fanraid status data
	# the grow, cut off by the power a third of the way through: the tool
	# is frozen first, so the copy is ahead of what is recorded
	check "udev assembled the raid0 wide" wait_for 150 test -b /dev/mapper/wide
	fanraid grow wide --add "${g[2]}" >/root/grow.out 2>&1 &
	gpid=$!
	check "the grow's copy passes a third" wait_for 300 bash -c \
		"dmsetup status wide | awk '\$(NF - 1) != \"-\" && \$(NF - 1) * 3 >= \$2 + 0 { ok = 1 } END { exit !ok }'"
	kill -STOP $gpid
	dmsetup status wide | awk '{ print "  | copied", $(NF - 1), "recorded", $NF }' >&3
	check "still mid-copy at the cut" bash -c "dmsetup table wide | grep -q ' reshape 2 '"
	# only wide is cut off: boot 3 needs data clean (it starts degraded)
	umount /srv
	check "stop data cleanly before the cut" fanraid stop data
	finish crash
	;;
3)
	# booted without m3: the last-resort timer starts the array degraded
	# after 30 s and fstab mounts it; then m3 is plugged in and re-added
	check "m3 is absent this boot" test ! -e "${m[3]}"
	check "/srv mounted from the degraded array" wait_for 150 bash -c \
		"findmnt -n -o SOURCE /srv | grep -q '^/dev/mapper/data'"
	say "# /srv mounted $(cut -d' ' -f1 /proc/uptime) s after boot"
	check "data intact, degraded" sha256sum -c /root/data.sha
	rc=0; fanraid status data >/dev/null || rc=$?
	check "degraded: status exit 1" test "$rc" = 1
	check "fanraid-last-resort@ started it" bash -c \
		"journalctl -b -u 'fanraid-last-resort@*' | grep -q 'from 3 of 4 members'"
	journalctl -b -u 'fanraid-last-resort@*' | sed 's/^/  | /' >&3
	say "@@ HOTPLUG m3"
	check "m3 appears" wait_for 60 test -e "${m[3]}"
	check "udev re-adds m3 and it is rebuilt" wait_for 180 bash -c \
		"dmsetup status data | grep -q ' AAAA .* idle '"
	dmsetup status data | cut -c1-80 | sed 's/^/  | /' >&3
	journalctl -b -t systemd-udevd | grep -i fanraid | tail -5 | sed 's/^/  | /' >&3
	check "data intact after the rebuild" sha256sum -c /root/data.sha
	check "healthy again: status exit 0" fanraid status data
	# udev assembled wide in its reshape and fanraid-grow@wide finished it
	check "fanraid-grow@wide finished the grow cut off in boot 2" wait_for 300 bash -c \
		"dmsetup table wide | grep -q ' 3 ' && ! dmsetup table wide | grep -q reshape"
	journalctl -b -u fanraid-grow@wide | tail -5 | sed 's/^/  | /' >&3
	check "wide is three members' size" test "$(blockdev --getsz /dev/mapper/wide)" = \
		"$(($(fanraid examine --json "${g[2]}" | jq -r .array_sectors)))"
	check "wide's data intact after the cut and the resumed grow" bash -c \
		"head -c 96M /dev/mapper/wide | sha256sum | cmp - /root/wide.sha"
	umount /srv
	check "stop cleanly" fanraid stop data
	check "no slot is left failed" bash -c \
		"fanraid examine --json ${m[3]} | jq -e '.failed_mask == 0 and .state == \"clean\"'"
	finish
	;;
4)
	# assembled at boot by udev + incremental, mounted by fstab
	check "/srv is the array's xfs, mounted at boot" bash -c \
		"findmnt -n -o SOURCE,FSTYPE /srv | grep -Eq '^/dev/mapper/data +xfs'"
	check "data intact" sha256sum -c /root/data.sha
	check "healthy: status exit 0" fanraid status data
	for d in "${m[@]}"; do
		k=$(readlink -f "$d")
		check "lsblk -f: ${k#/dev/} is fanraid_member" bash -c \
			"lsblk -n -o FSTYPE $k | grep -qx fanraid_member"
	done
	lsblk -f | sed 's/^/  | /' >&3
	check "the udev database holds the array UUID" bash -c \
		"udevadm info -q property ${m[0]} | grep -q \"^ID_FS_UUID=\$(fanraid examine --json ${m[0]} | jq -r .array_uuid)\$\""
	check "fanraid-monitor.service is running" systemctl is-active fanraid-monitor.service
	# a member dies: QEMU drops m1's backend (drive_del), so every I/O the
	# guest sends it fails with EIO, and the kernel must fail it on its
	# own; the monitor runs PROGRAM and mails root through the MTA
	say "@@ UNPLUG m1"
	check "m1 fails I/O once its backend is gone" wait_for 30 bash -c \
		"! dd if=${m[1]} of=/dev/null bs=4k count=1 iflag=direct"
	t0=$(date +%s)
	head -c 1M /dev/urandom >/srv/after-fail && sync
	check "the kernel fails m1 on the write's error" wait_for 30 bash -c \
		"dmsetup status data | grep -q ' ADAA '"
	dmsetup status data | cut -c1-60 | sed 's/^/  | /' >&3
	check "PROGRAM ran with Fail data slot 1" wait_for 20 grep -q " Fail data slot 1 " /var/log/fr-events
	say "# PROGRAM ran within $(($(date +%s) - t0)) s"
	# Debian's exim4 delivers root's mail to the mailbox of "mail" while
	# /etc/aliases names nobody for root (its mail4root router)
	check "a mail about it reached root's mailbox" wait_for 30 \
		grep -q "^Subject: Fail event on data:" /var/mail/mail
	grep -E "^(Subject|To):" /var/mail/mail | sed 's/^/  | /' >&3
	check "PROGRAM ran with DegradedArray" grep -q " DegradedArray data " /var/log/fr-events
	check "the journal has the monitor's Fail line" bash -c \
		"journalctl -u fanraid-monitor.service | grep -q 'Fail data slot 1'"
	rc=0; fanraid status data >/dev/null || rc=$?
	check "degraded: status exit 1" test "$rc" = 1
	# the monthly scrub, started by hand: its result lands in the journal
	check "fanraid-scrub.service runs check" systemctl start fanraid-scrub.service
	check "the journal has the scrub's result" bash -c \
		"journalctl -u fanraid-scrub.service | grep -q 'data: check finished: 0 mismatched sectors'"
	check "systemd knows fanraid-scrub.timer" systemctl cat fanraid-scrub.timer
	cat /var/log/fr-events | sed 's/^/  | /' >&3
	finish
	;;
5)
	# the root on fanraid, through the initrd's hook, every member there
	check "/ is the root array" bash -c "findmnt -n -o SOURCE / | grep -qx /dev/mapper/root"
	check "the image's disk is not here" test ! -e /dev/disk/by-label/debvm
	check "the root array is healthy" bash -c "dmsetup status root | grep -q ' AAAA .* idle '"
	check "healthy: status exit 0" fanraid status root
	head -c 4M /dev/urandom >/root/fanroot.data
	sha256sum /root/fanroot.data >/root/fanroot.sha
	sync
	finish
	;;
6)
	# r3 withheld: the initramfs starts the root array degraded after
	# its wait, and the real root's udev takes r3 back when it comes
	say "# / mounted by $(cut -d' ' -f1 /proc/uptime) s"
	check "r3 is absent this boot" test ! -e "${r[3]}"
	check "/ is the root array, degraded" bash -c \
		"findmnt -n -o SOURCE / | grep -qx /dev/mapper/root && dmsetup status root | grep -Eq ' AAA[D_-] '"
	dmsetup status root | cut -c1-60 | sed 's/^/  | /' >&3
	check "boot 5's shutdown left it clean: no resync" bash -c "dmsetup status root | grep -q ' idle '"
	check "the file boot 5 wrote is intact" sha256sum -c /root/fanroot.sha
	rc=0; fanraid status root >/dev/null || rc=$?
	check "degraded: status exit 1" test "$rc" = 1
	echo "written while r3 was away" >/root/while-degraded
	sync
	say "@@ HOTPLUG r3"
	check "r3 appears" wait_for 60 test -e "${r[3]}"
	check "udev re-adds r3 and it is recovered" wait_for 600 bash -c \
		"dmsetup status root | grep -q ' AAAA .* idle '"
	dmsetup status root | cut -c1-60 | sed 's/^/  | /' >&3
	check "healthy again: status exit 0" fanraid status root
	check "what was written degraded is there" grep -q "while r3 was away" /root/while-degraded
	finish
	;;
*)
	bad "unknown stage '$stage'"
	finish
	;;
esac
