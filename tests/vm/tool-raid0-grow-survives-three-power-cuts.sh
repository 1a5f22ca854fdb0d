#!/bin/bash
# Exercise a raid0 grow (4 -> 6 members under a mounted xfs) cut by the power three times, across four boots: in the critical section with only its backup written, at about a third of the copy and at about two thirds with files written during it; each boot assembles, resumes and finds every synced file intact, and the last finishes the grow, xfs_growfs takes the space and xfs_repair finds nothing.
# group: reboot-grow
# timeout: 420
# boots: 4
# disks: 6x96
. "${0%/*}/lib.sh"

have_target fanraid 1 7 0 || skip "target fanraid 1.7.0 missing"
have_cmd fanraid mkfs.xfs xfs_growfs xfs_repair sha256sum || skip "fanraid, xfsprogs or sha256sum missing"
have_fs xfs || skip "xfs missing"

mapfile -t devs < <(vm_disks 6)
mkdir -p /mnt/g

# A new file of MiB random bytes, recorded in SHA256SUMS and synced.
add_file() { # NAME MIB
	head -c "$2M" /dev/urandom >"/mnt/g/$1"
	(cd /mnt/g && sha256sum "$1" >>SHA256SUMS)
	sync
}

check_files() {
	(cd /mnt/g && sha256sum -c --quiet SHA256SUMS) ||
		fail "boot $VMTEST_BOOT: files differ after the power cut"
	log "boot $VMTEST_BOOT: $(wc -l </mnt/g/SHA256SUMS) files intact"
}

# The copy's progress: the last two INFO words, and the table length.
copy_done() { dmsetup status g0 | awk '{ print $(NF - 1) }'; }
copy_safe() { dmsetup status g0 | awk '{ print $NF }'; }
old_len() { dmsetup table g0 | awk '{ print $2 }'; }

# Until the copy has passed PERCENT of the old array.
wait_copy() { # PERCENT
	local i len done
	len=$(old_len)
	for ((i = 0; i < 1200; i++)); do
		done=$(copy_done)
		[ "$done" != - ] && [ $((done * 100)) -ge $(($1 * len)) ] && return 0
		sleep 0.05
	done
	fail "the copy never reached $1%: $(dmsetup status g0)"
}

# Resume the grow, let it pass PERCENT, write a file while it runs, then
# freeze the tool so no more is recorded, and cut the power.
cut_at() { # PERCENT FILE
	local pid
	fanraid grow g0 --continue >/tmp/grow.out 2>&1 &
	pid=$!
	wait_copy "$1"
	add_file "$2" 6
	kill -STOP $pid
	sleep 0.5
	[ "$(copy_safe)" -lt "$(old_len)" ] || fail "the grow finished before the cut"
	log "cut at $(copy_done) copied, $(copy_safe) recorded, of $(old_len)"
	vm_crash
}

assemble_and_mount() {
	local out
	out=$(fanraid assemble g0 2>&1) || { echo "$out"; fail "assemble after the power cut"; }
	echo "$out"
	assert_contains "$out" "grow"
	assert_contains "$(dmsetup table g0)" "reshape 4 "
	mount /dev/mapper/g0 /mnt/g
	check_files
}

case "$VMTEST_BOOT" in
1)
	fanraid create g0 --level 0 --chunk 64K "${devs[@]:0:4}"
	mkfs.xfs -q -f /dev/mapper/g0
	mount /dev/mapper/g0 /mnt/g
	add_file a 40
	add_file b 40
	# Halted by a test hook once the backup is recorded and before the
	# first rows are rewritten: the cut lands in the critical section.
	FANRAID_TEST_HALT=backup fanraid grow g0 --add "${devs[4]}" "${devs[5]}" >/tmp/grow.out 2>&1 &
	for ((i = 0; i < 600; i++)); do
		grep -q "halted" /tmp/grow.out && break
		sleep 0.1
	done
	cat /tmp/grow.out
	assert_contains "$(cat /tmp/grow.out)" "halted"
	assert_contains "$(fanraid examine "${devs[0]}")" "backup"
	vm_crash
	;;
2)
	assemble_and_mount
	add_file c 10
	cut_at 30 d
	;;
3)
	assemble_and_mount
	add_file e 10
	cut_at 65 f
	;;
4)
	assemble_and_mount
	old_bytes=$(blockdev --getsize64 /dev/mapper/g0)
	fanraid grow g0 --continue
	new_bytes=$(blockdev --getsize64 /dev/mapper/g0)
	assert_eq "$new_bytes" $((old_bytes / 4 * 6)) "array size after the grow"
	xfs_growfs /mnt/g >/dev/null
	add_file g 100
	check_files
	umount /mnt/g
	drop_caches
	xfs_repair -n /dev/mapper/g0 >/tmp/repair.out 2>&1 ||
		{ cat /tmp/repair.out; fail "xfs_repair -n found problems"; }
	mount /dev/mapper/g0 /mnt/g
	check_files
	umount /mnt/g
	fanraid stop g0
	log "grown 4 -> 6 through three power cuts: $old_bytes -> $new_bytes bytes"
	;;
esac
