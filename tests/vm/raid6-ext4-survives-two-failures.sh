#!/bin/bash
# Exercise ext4 on RAID6 through two member failures in the middle of writing files: fsck stays clean, every file keeps its checksum, and after rebuilding both members raidcalc verify is clean.
# group: raid6-degraded
# timeout: 360
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc mkfs.ext4 e2fsck sha256sum || skip "raidcalc, mkfs.ext4, e2fsck or sha256sum missing"
have_fs ext4 || skip "ext4 not available"

n=6 chunk=128 off=2048
rows=160
len=$((rows * (n - 2) * chunk))
mapfile -t devs < <(nullb_create_many "$n" $(((off + rows * chunk) / 2048 + 1)))
table() { # FEATURE_WORDS
	local t="0 $len fanraid raid6 $chunk $1 $n" d
	for d in "${devs[@]}"; do t="$t $d $off"; done
	echo "$t"
}
dm_create fr "$(table 0)"

# stride: chunk in 4 KiB blocks; stripe_width: stride times data members.
mkfs.ext4 -q -F -b 4096 \
	-E stride=$((chunk / 8)),stripe_width=$((chunk / 8 * (n - 2))),lazy_itable_init=1,lazy_journal_init=1 \
	/dev/mapper/fr
dumpe2fs -h /dev/mapper/fr 2>/dev/null | grep -E "RAID (stride|stripe width)"
mkdir -p /mnt/r6
mount -o noinit_itable /dev/mapper/fr /mnt/r6

# Source files with known checksums, made before anything is timed.
mkdir -p /tmp/src
for ((i = 0; i < 40; i++)); do
	head -c $(((i * 7919 % 97 + 1) * 4096 + i * 511)) /dev/urandom >/tmp/src/f$i
done
(cd /tmp/src && sha256sum f*) >/tmp/sums

# A writer copies them in, fsyncing each; two members fail while it runs.
(
	for ((i = 0; i < 40; i++)); do
		dd if=/tmp/src/f$i of=/mnt/r6/f$i bs=64k conv=fsync status=none
	done
) &
writer=$!
on_exit "kill $writer 2>/dev/null"
sleep 1
dmsetup message fr 0 fail 1
log "member 1 failed with $(ls /mnt/r6 | wc -l) files written"
sleep 1
dmsetup message fr 0 fail 4
log "member 4 failed with $(ls /mnt/r6 | wc -l) files written"
wait $writer || fail "writing files failed after two member failures"
sync
assert_eq "$(dmsetup status fr | awk '{ print $6 }')" ADAADA "health"

umount /mnt/r6
e2fsck -fn /dev/mapper/fr >/tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "fsck with two members failed"; }
mount -o ro /dev/mapper/fr /mnt/r6
(cd /mnt/r6 && sha256sum -c --quiet /tmp/sums) || fail "files differ with two members failed"
umount /mnt/r6
dm_remove fr
log "two members failed mid-write: fsck clean, 40 files intact"

# Both come back stale and are rebuilt; then parity and data are whole.
dm_create fr "$(table "4 rebuild 1 rebuild 4")"
for ((i = 0; i < 900; i++)); do
	[ "$(dmsetup status fr | awk '{ print $8 }')" = idle ] && break
	sleep 0.2
done
assert_eq "$(dmsetup status fr | awk '{ print $8 }')" idle "rebuild did not end in 180s"
dm_remove fr
drop_caches
raidcalc verify "$(table 0)" >/tmp/verify.out 2>&1 ||
	{ cat /tmp/verify.out; fail "parity wrong after rebuilding 1 and 4"; }
dm_create fr "$(table 0)"
e2fsck -fn /dev/mapper/fr >/tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "fsck after rebuild"; }
mount -o ro /dev/mapper/fr /mnt/r6
(cd /mnt/r6 && sha256sum -c --quiet /tmp/sums) || fail "files differ after rebuild"
umount /mnt/r6
dm_remove fr
log "rebuilt: $(tail -n1 /tmp/verify.out); fsck clean, files intact"
