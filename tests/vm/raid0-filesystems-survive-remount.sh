#!/bin/bash
# Exercise RAID0 under real filesystems: ext4, xfs and btrfs made with the stripe hints hold a tree of files through unmount, fsck, table re-creation and remount.
# group: fs
# timeout: 900
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

n=4
chunk=128			# 64 KiB
# xfs wants 300 MiB and a 64 MiB log; members are sparse in memory.
mapfile -t d < <(nullb_create_many $n 256)
pairs=$(member_pairs "${d[@]}")
len=$(($(dev_sectors "${d[0]}") * n))
mkdir -p /mnt/fr

# The device advertises one chunk as minimum and a full stripe as optimal
# I/O size, which is what mkfs reads to align.
dm_create fr "0 $len fanraid raid0 $chunk 0 $n$pairs"
assert_eq "$(blockdev --getiomin /dev/mapper/fr)" $((chunk * 512)) "io_min"
assert_eq "$(blockdev --getioopt /dev/mapper/fr)" $((chunk * 512 * n)) "io_opt"
dm_remove fr

# A tree of files: nested directories, sizes from empty to 1 MiB, each a
# different slice of a random pool (/dev/urandom is slow under TCG).
head -c 16M /dev/urandom >/tmp/pool
write_tree() {
	local root=$1 i j k size
	for ((i = 0; i < 8; i++)); do
		mkdir -p "$root/d$i/sub"
		for ((j = 0; j < 12; j++)); do
			k=$((i * 12 + j))
			size=$((k * k * 113 % (1024 * 1024) + j))
			dd if=/tmp/pool of="$root/d$i/f$j" iflag=skip_bytes,count_bytes \
				skip=$((k * 65537)) count=$size bs=64k status=none
		done
		head -c 1 /dev/urandom >"$root/d$i/sub/one-byte"
		: >"$root/d$i/sub/empty"
	done
	cp /tmp/pool "$root/large"
	ln -s d0/f1 "$root/link"
}

sums() { # ROOT
	(cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum)
}

fsck_clean() { # FS DEV
	case $1 in
	ext4) e2fsck -fn "$2" ;;
	xfs) xfs_repair -n "$2" ;;
	btrfs) btrfs check --readonly "$2" ;;
	esac
}

check_fs() { # FS
	local fs=$1 table
	if ! have_fs "$fs"; then
		log "$fs: kernel support missing, not tested"
		return 0
	fi
	dm_create fr "0 $len fanraid raid0 $chunk 0 $n$pairs"
	case $fs in
	ext4)
		mkfs.ext4 -q -F -E stride=16,stripe_width=$((16 * n)) /dev/mapper/fr
		dumpe2fs -h /dev/mapper/fr 2>/dev/null | grep -q "RAID stripe width: *$((16 * n))" ||
			fail "ext4: stripe width not recorded"
		;;
	xfs)
		mkfs.xfs -q -f -d su=64k,sw=$n /dev/mapper/fr
		assert_eq "$(xfs_db -r -c 'sb 0' -c 'print width' /dev/mapper/fr)" \
			"width = $((16 * n))" "xfs stripe width in blocks"
		;;
	btrfs)
		mkfs.btrfs -q -f /dev/mapper/fr
		;;
	esac
	mount -t "$fs" /dev/mapper/fr /mnt/fr
	write_tree /mnt/fr
	sums /mnt/fr >/tmp/sums.$fs
	umount /mnt/fr

	# Re-create the device from the table it reports, then check and remount.
	table=$(dmsetup table fr)
	dm_remove fr
	drop_caches
	dm_create fr "$table"
	fsck_clean "$fs" /dev/mapper/fr >/tmp/fsck.$fs 2>&1 ||
		{ cat /tmp/fsck.$fs; fail "$fs: fsck found problems"; }
	mount -t "$fs" /dev/mapper/fr /mnt/fr
	sums /mnt/fr >/tmp/sums2.$fs
	if ! cmp -s /tmp/sums.$fs /tmp/sums2.$fs; then
		diff /tmp/sums.$fs /tmp/sums2.$fs || true
		# Tell a stale read from data really wrong on the members.
		drop_caches
		sums /mnt/fr | diff /tmp/sums.$fs - &&
			log "$fs: checksums right after drop_caches: a stale read"
		dmsetup table fr
		dmsetup status fr
		fail "$fs: checksums differ after remount"
	fi
	[ "$(readlink /mnt/fr/link)" = d0/f1 ] || fail "$fs: symlink lost"
	umount /mnt/fr
	dm_remove fr
	log "$fs: $(wc -l </tmp/sums.$fs) files survived unmount, fsck, table re-creation and remount"
}

for fs in ext4 xfs btrfs; do
	check_fs $fs
done
