#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# deploy.sh: a one-node Ceph 16 cluster by hand, with Debian's own units and
# tools (no cephadm: it wants containers). Sourced by bench/ceph/guest.sh;
# also the recipe docs/ceph.md follows on a real machine.
#
#   ceph_conf            /etc/ceph/ceph.conf for one host: pool size 1,
#                        failure domain osd, OSD memory target 1 GiB
#   ceph_mon_mgr         bootstraps mon.$HOST and mgr.$HOST, starts both
#   ceph_osd_create DEV  a BlueStore OSD on DEV with ceph-volume (raw
#                        prepare + activate; lvm create if raw refuses),
#                        started by ceph-osd@ID; prints ID
#   ceph_osd_destroy ID  stops and purges it, zaps its device
#   ceph_pool NAME       (re)creates a replicated pool of size 1
# Every step logs to stderr; a failure returns non-zero.

HOST=${HOST:-$(hostname -s)}
MON_IP=${MON_IP:-127.0.0.1}

ceph_conf() {
	local fsid
	fsid=$(uuidgen)
	mkdir -p /etc/ceph
	cat >/etc/ceph/ceph.conf <<EOC
[global]
fsid = $fsid
mon initial members = $HOST
mon host = [v2:$MON_IP:3300,v1:$MON_IP:6789]
public network = $MON_IP/32
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
# 16.2.15 warns of it until every client is new; these are
auth allow insecure global id reclaim = false
# one host, one OSD: replicas of 1, and nothing to warn about that
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 16
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
# a VM of 4 GiB holds the mon, the mgr and the OSD
osd memory target = 1073741824
# the OSD must not be marked down while the VM is slow (TCG): the mon
# learns of a dead OSD from its peers, of which there are none here
osd heartbeat grace = 60
mon osd report timeout = 900
[osd]
osd objectstore = bluestore
EOC
}

ceph_mon_mgr() {
	local k=/tmp/ceph.mon.keyring
	ceph-authtool --create-keyring $k --gen-key -n mon. --cap mon 'allow *' >&2 || return 1
	ceph-authtool --create-keyring /etc/ceph/ceph.client.admin.keyring --gen-key -n client.admin \
		--cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *' >&2 || return 1
	mkdir -p /var/lib/ceph/bootstrap-osd
	ceph-authtool --create-keyring /var/lib/ceph/bootstrap-osd/ceph.keyring --gen-key \
		-n client.bootstrap-osd --cap mon 'profile bootstrap-osd' --cap mgr 'allow r' >&2 || return 1
	ceph-authtool $k --import-keyring /etc/ceph/ceph.client.admin.keyring >&2
	ceph-authtool $k --import-keyring /var/lib/ceph/bootstrap-osd/ceph.keyring >&2
	chown ceph:ceph $k /var/lib/ceph/bootstrap-osd/ceph.keyring
	monmaptool --create --clobber --addv "$HOST" "[v2:$MON_IP:3300,v1:$MON_IP:6789]" \
		--fsid "$(ceph-conf --lookup fsid)" /tmp/monmap >&2 || return 1
	chown ceph:ceph /tmp/monmap
	install -d -o ceph -g ceph "/var/lib/ceph/mon/ceph-$HOST"
	runuser -u ceph -- ceph-mon --mkfs -i "$HOST" --monmap /tmp/monmap --keyring $k >&2 || return 1
	systemctl start "ceph-mon@$HOST" || return 1
	# the mgr's key comes from the running mon
	install -d -o ceph -g ceph "/var/lib/ceph/mgr/ceph-$HOST"
	ceph --connect-timeout 120 auth get-or-create "mgr.$HOST" mon 'allow profile mgr' osd 'allow *' mds 'allow *' \
		>"/var/lib/ceph/mgr/ceph-$HOST/keyring" || return 1
	chown ceph:ceph "/var/lib/ceph/mgr/ceph-$HOST/keyring"
	systemctl start "ceph-mgr@$HOST" || return 1
}

ceph_osd_create() {
	local dev=$1 id how=raw o
	# one OSD at a time here: any OSD still in the map is a half-made
	# one of a failed attempt, which would show as down
	for o in $(ceph osd ls); do
		ceph osd purge "$o" --yes-i-really-mean-it >&2
		umount "/var/lib/ceph/osd/ceph-$o" 2>/dev/null
		rm -rf "/var/lib/ceph/osd/ceph-$o"
	done
	if ceph-volume raw prepare --bluestore --data "$dev" >&2 &&
		ceph-volume raw activate --device "$dev" --no-systemd >&2; then
		:
	else
		# raw activate found no OSD on dm-stripe once ("did not find
		# any matching OSD to activate"): LVM on the device instead
		how=lvm
		for o in $(ceph osd ls); do
			ceph osd purge "$o" --yes-i-really-mean-it >&2
			umount "/var/lib/ceph/osd/ceph-$o" 2>/dev/null
			rm -rf "/var/lib/ceph/osd/ceph-$o"
		done
		ceph-volume lvm zap "$dev" >&2 || true
		ceph-volume lvm create --bluestore --data "$dev" --no-systemd >&2 || return 1
	fi
	id=$(ceph osd ls | tail -n1)
	[ -n "$id" ] || return 1
	systemctl start "ceph-osd@$id" >&2 || return 1
	echo "# osd.$id on $dev by ceph-volume $how" >&2
	echo "$id"
}

ceph_osd_destroy() {
	local id=$1 dev=$2
	ceph osd out "$id" >&2
	systemctl stop "ceph-osd@$id"
	ceph osd purge "$id" --yes-i-really-mean-it >&2
	umount "/var/lib/ceph/osd/ceph-$id" 2>/dev/null
	rm -rf "/var/lib/ceph/osd/ceph-$id"
	# lvm create's volume group goes before the device under it
	vgs --noheadings -o vg_name 2>/dev/null | awk '/ceph-/ {print $1}' |
		xargs -r vgremove -f >&2
	pvremove -ff -y "$dev" >/dev/null 2>&1
	wipefs -a "$dev" >/dev/null 2>&1
	dd if=/dev/zero of="$dev" bs=1M count=16 oflag=direct status=none
}

ceph_pool() {
	local p=$1
	ceph osd pool rm "$p" "$p" --yes-i-really-really-mean-it >/dev/null 2>&1
	ceph osd pool create "$p" 16 16 replicated >&2 || return 1
	ceph osd pool set "$p" size 1 --yes-i-really-mean-it >&2
	ceph osd pool application enable "$p" rados >/dev/null 2>&1
}
