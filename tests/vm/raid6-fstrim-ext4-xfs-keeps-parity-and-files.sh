#!/bin/bash
# Exercise fstrim on ext4 and xfs over RAID6: after half the files are deleted, fstrim trims, every member's file gives back blocks (the rows' write-zeroes reached data, P and Q), fsck is clean, raidcalc verify finds P and Q right, and the files left keep their checksums.
# group: raid6
# may-skip: a kernel without ext4 or xfs
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 5 0 || fail "target fanraid 1.5.0 missing"
have_cmd raidcalc fstrim mkfs.ext4 e2fsck mkfs.xfs xfs_repair sha256sum stat ||
	fail "raidcalc, fstrim, mkfs.ext4, e2fsck, mkfs.xfs, xfs_repair, sha256sum or stat missing"
have_fs ext4 && have_fs xfs || skip "ext4 or xfs not available"

n=6 chunk=128
mkdir -p /tmp/src /mnt/r6
for ((i = 0; i < 24; i++)); do
	head -c $(((i * 7919 % 61 + 8) * 16384 + i * 511)) /dev/urandom >/tmp/src/f$i
done
(cd /tmp/src && sha256sum f*[13579]) >/tmp/kept

blocks() { local i; for ((i = 0; i < n; i++)); do printf '%s ' "$(loop_blocks $i)"; done; }

trim() { # FS MEMBER_MB: mkfs on RAID6 over sparse loop members, files, fstrim
	local fs=$1 i freed out table len
	mapfile -t devs < <(loop_members "$n" "$2")
	len=$(((n - 2) * $(dev_sectors "${devs[0]}") / chunk * chunk))
	table="0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"
	dm_create fr "$table"
	# mkfs discards the whole device first: that goes through fanraid too.
	case $fs in
	ext4) mkfs.ext4 -q -F -b 4096 -E stride=16,stripe_width=$((16 * (n - 2))) /dev/mapper/fr ;;
	xfs) mkfs.xfs -q -f -d su=64k,sw=$((n - 2)) /dev/mapper/fr ;;
	esac
	mount /dev/mapper/fr /mnt/r6
	cp /tmp/src/f* /mnt/r6/
	sync
	rm /mnt/r6/f*[02468]
	sync
	b0=($(blocks))
	out=$(fstrim -v /mnt/r6) || fail "$fs: fstrim: $out"
	log "$fs: $out"
	sync
	b1=($(blocks))
	freed=0
	for ((i = 0; i < n; i++)); do
		[ "${b1[i]}" -lt "${b0[i]}" ] ||
			fail "$fs: member $i's file kept all its ${b0[i]} blocks through fstrim"
		freed=$((freed + b0[i] - b1[i]))
	done
	log "$fs: the members' files gave back $((freed / 2)) KiB in all"
	umount /mnt/r6
	case $fs in
	ext4) e2fsck -fn /dev/mapper/fr >/tmp/fsck.out 2>&1 ;;
	xfs) xfs_repair -n /dev/mapper/fr >/tmp/fsck.out 2>&1 ;;
	esac || { cat /tmp/fsck.out; fail "$fs: fsck after fstrim"; }
	dm_remove fr
	drop_caches
	raidcalc verify "$table" >/tmp/verify.out 2>&1 ||
		{ cat /tmp/verify.out; fail "$fs: raidcalc verify after fstrim"; }
	log "$fs: $(tail -n 1 /tmp/verify.out)"
	dm_create fr "$table"
	mount -o ro /dev/mapper/fr /mnt/r6
	(cd /mnt/r6 && sha256sum -c --quiet /tmp/kept) || fail "$fs: kept files differ after fstrim"
	umount /mnt/r6
	dm_remove fr
	losetup -D
	rm -rf /tmp/lm
}

trim ext4 24
# mkfs.xfs wants some 600 MB with a stripe unit; the files stay sparse.
trim xfs 160
