#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the Debian VM (tests/debvm/run.sh) once systemd is up, then
# powers off. Which boot this is comes from the kernel command line
# (debvm.stage=N); results go to the second serial port as
#   ok - <what>  |  not ok - <what>  |  @@ END pass|fail
# Members are the virtio disks with serials m0..m3.
set -uo pipefail
exec 3>/dev/ttyS1
stage=$(sed -n 's/.*debvm\.stage=\([0-9a-z]*\).*/\1/p' /proc/cmdline)
failed=0
V=$(cat /debvm/VERSION)
m=(/dev/disk/by-id/virtio-m0 /dev/disk/by-id/virtio-m1 /dev/disk/by-id/virtio-m2 /dev/disk/by-id/virtio-m3)

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
finish() {
	say "@@ END $([ $failed = 0 ] && echo pass || echo fail)"
	sync
	systemctl poweroff
	exit 0
}

say "@@ BOOTED stage $stage $(uname -r) in $(cut -d' ' -f1 /proc/uptime) s"
case $stage in
1)
	# the module from the installed source, by DKMS, for this kernel
	t0=$(date +%s)
	check "dkms builds and installs fanraid/$V for $(uname -r)" \
		dkms install "fanraid/$V" -k "$(uname -r)"
	say "# dkms install took $(($(date +%s) - t0)) s"
	check "dkms status lists it installed" bash -c "dkms status | grep -q 'fanraid/$V, $(uname -r), x86_64: installed'"
	check "modprobe dm-fanraid loads the DKMS module" bash -c \
		"modprobe dm-fanraid && modinfo -n dm-fanraid | grep -q updates/dkms && dmsetup targets | grep -q '^fanraid'"
	udevadm control --reload
	check "create a raid6 on four disks" fanraid create data --level 6 --chunk 64K "${m[@]}"
	check "resync finishes" wait_for 300 bash -c "dmsetup status data | grep -q ' idle '"
	# ext4, not xfs: xfs wants 300 MB, and bigger members resync for
	# minutes under TCG
	check "mkfs.ext4" mkfs.ext4 -q /dev/mapper/data
	mkdir -p /srv
	mount /dev/mapper/data /srv && head -c 4M /dev/urandom >/srv/data && sha256sum /srv/data >/root/data.sha && umount /srv
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
	echo "/dev/mapper/data /srv ext4 defaults,x-systemd.device-timeout=180 0 0" >>/etc/fstab
	check "enable fanraid-monitor.service" systemctl enable fanraid-monitor.service
	check "stop the array cleanly" fanraid stop data
	finish
	;;
2)
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
	umount /srv
	check "stop cleanly" fanraid stop data
	check "no slot is left failed" bash -c \
		"fanraid examine --json ${m[3]} | jq -e '.failed_mask == 0 and .state == \"clean\"'"
	finish
	;;
3)
	# assembled at boot by udev + incremental, mounted by fstab
	check "/srv is the array's ext4, mounted at boot" bash -c \
		"findmnt -n -o SOURCE,FSTYPE /srv | grep -Eq '^/dev/mapper/data +ext4'"
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
	# a member fails: the monitor runs PROGRAM
	t0=$(date +%s)
	check "fanraid fail data 1" fanraid fail data 1
	check "PROGRAM ran with Fail data slot 1" wait_for 20 grep -q " Fail data slot 1 " /var/log/fr-events
	say "# PROGRAM ran within $(($(date +%s) - t0)) s"
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
*)
	bad "unknown stage '$stage'"
	finish
	;;
esac
