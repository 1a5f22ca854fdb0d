#!/bin/bash
# Exercise ext4 and xfs on RAID6 through two member failures in the middle of writing files: fsck (e2fsck, xfs_repair -n) stays clean, every file keeps its checksum, and after rebuilding both members raidcalc verify is clean and the files are still whole.
# group: raid6-degraded
# may-skip: a kernel without ext4 or xfs
# timeout: 720
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc mkfs.ext4 e2fsck mkfs.xfs xfs_repair sha256sum ||
	skip "raidcalc, mkfs.ext4, e2fsck, mkfs.xfs, xfs_repair or sha256sum missing"
have_fs ext4 && have_fs xfs || skip "ext4 or xfs not available"

n=6 off=2048

# Source files with known checksums, made before anything runs.
mkdir -p /tmp/src /mnt/r6
for ((i = 0; i < 40; i++)); do
	head -c $(((i * 7919 % 97 + 1) * 4096 + i * 511)) /dev/urandom >/tmp/src/f$i
done
(cd /tmp/src && sha256sum f*) >/tmp/sums

table() { # FEATURE_WORDS
	local t="0 $len fanraid raid6 $chunk $1 $n" d
	for d in "${devs[@]}"; do t="$t $d $off"; done
	echo "$t"
}

fsck_clean() { # FS WHAT
	case $1 in
	ext4) e2fsck -fn /dev/mapper/fr >/tmp/fsck.out 2>&1 ;;
	xfs) xfs_repair -n /dev/mapper/fr >/tmp/fsck.out 2>&1 ;;
	esac || { cat /tmp/fsck.out; fail "$1: fsck $2"; }
}

files_intact() { # FS WHAT
	mount -o ro /dev/mapper/fr /mnt/r6
	(cd /mnt/r6 && sha256sum -c --quiet /tmp/sums) || fail "$1: files differ $2"
	umount /mnt/r6
}

survive() { # FS CHUNK ROWS (mkfs.xfs wants some 600 MB with a stripe unit)
	local fs=$1 rows=$3 writer i
	chunk=$2
	len=$((rows * (n - 2) * chunk))
	mapfile -t devs < <(nullb_create_many "$n" $(((off + rows * chunk) / 2048 + 1)))
	dm_create fr "$(table 0)"
	# The layer's stripe: chunk and data members, as the tool's hints say.
	case $fs in
	ext4)
		mkfs.ext4 -q -F -b 4096 \
			-E stride=$((chunk / 8)),stripe_width=$((chunk / 8 * (n - 2))),lazy_itable_init=1,lazy_journal_init=1 \
			/dev/mapper/fr
		mount -o noinit_itable /dev/mapper/fr /mnt/r6 ;;
	xfs)
		mkfs.xfs -q -f -d su=$((chunk / 2))k,sw=$((n - 2)) /dev/mapper/fr
		mount /dev/mapper/fr /mnt/r6 ;;
	esac

	# A writer copies the files in, fsyncing each; two members fail meanwhile.
	(
		for ((i = 0; i < 40; i++)); do
			dd if=/tmp/src/f$i of=/mnt/r6/f$i bs=64k conv=fsync status=none
		done
	) &
	writer=$!
	on_exit "kill $writer 2>/dev/null"
	sleep 1
	dmsetup message fr 0 fail 1
	log "$fs: member 1 failed with $(ls /mnt/r6 | wc -l) files written"
	sleep 1
	dmsetup message fr 0 fail 4
	log "$fs: member 4 failed with $(ls /mnt/r6 | wc -l) files written"
	wait $writer || fail "$fs: writing files failed after two member failures"
	sync
	assert_eq "$(dmsetup status fr | awk '{ print $6 }')" ADAADA "$fs: health"
	umount /mnt/r6
	fsck_clean "$fs" "with two members failed"
	files_intact "$fs" "with two members failed"
	dm_remove fr
	log "$fs: two members failed mid-write: fsck clean, 40 files intact"

	# Both come back stale and are rebuilt; then parity and data are whole.
	dm_create fr "$(table "4 rebuild 1 rebuild 4")"
	fanraid_wait_idle fr 400
	dm_remove fr
	drop_caches
	raidcalc verify "$(table 0)" >/tmp/verify.out 2>&1 ||
		{ cat /tmp/verify.out; fail "$fs: parity wrong after rebuilding 1 and 4"; }
	dm_create fr "$(table 0)"
	fsck_clean "$fs" "after rebuild"
	files_intact "$fs" "after rebuild"
	dm_remove fr
	log "$fs: rebuilt: $(tail -n1 /tmp/verify.out); fsck clean, files intact"
	nullb_destroy_all
}

survive ext4 128 160
survive xfs 256 1200
