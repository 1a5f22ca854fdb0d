#!/bin/bash
# Exercise the RAID6 layout against md: a fanraid RAID6 made with the tool and filled with random data is stopped, md is created over dm snapshots of its members (mdadm --create --assume-clean --readonly: level 6, left-symmetric, same chunk, data offset and member order), and md returns the same bytes for the whole array, healthy, with one member missing and with two (so it rebuilds from fanraid's P and Q), also after fanraid wrote degraded; the members themselves are never written.
# group: md
# timeout: 600
. "${0%/*}/lib.sh"

# raidcalc compiles the kernel's own geom.h, so a mistake the two share
# would pass raid6-parity-matches-raidcalc. md's raid5_compute_sector and
# its syndrome code are written by other people: they are the reference.

have_target fanraid 1 3 0 || fail "target fanraid 1.3.0 missing"
have_cmd fanraid mdadm cmp || fail "fanraid, mdadm or cmp not in the image"
modprobe raid456
modprobe dm-snapshot
have_target snapshot || fail "dm-snapshot missing"

mdname=/dev/md/frmd
on_exit 'mdadm --stop /dev/md/frmd >/dev/null 2>&1; fanraid stop f6 >/dev/null 2>&1'

# write_at OFFSET_BYTES LEN_BYTES: new random bytes at OFFSET on the array
# and in the reference file /tmp/data, as one direct write: a partial stripe
# that fanraid writes by read-modify-write or reconstruct-write.
write_at() {
	head -c "$2" /dev/urandom >/tmp/piece
	dd if=/tmp/piece of=/tmp/data bs="$2" seek="$1" oflag=seek_bytes conv=notrunc status=none
	dd if=/tmp/piece of=/dev/mapper/f6 bs="$2" seek="$1" oflag=seek_bytes,direct status=none
}

# md_over_snapshots MISSING...: md RAID6 over the snapshots, the members
# whose indices are given left out ("missing"); compares the whole array,
# as far as both are long, with the reference, then stops md.
md_over_snapshots() {
	local -a list=("${snaps[@]}")
	local i md md_sectors cmp_sectors state what=healthy
	for i in "$@"; do list[i]=missing; done
	[ $# -gt 0 ] && what="members $* missing"
	# --run: no question about the superblock the previous md left on the
	# snapshots; --bitmap=none: nothing but the superblock is written.
	mdadm --create "$mdname" --run --readonly --assume-clean --metadata=1.2 \
		--level=6 --layout=left-symmetric --raid-devices="$n" \
		--chunk=$((chunk / 2))K --data-offset=$((off / 2))K --bitmap=none \
		"${list[@]}" </dev/null >/tmp/mdadm.out 2>&1 ||
		{ cat /tmp/mdadm.out; fail "mdadm --create ($what) failed"; }
	md=$(readlink -f "$mdname")
	state=$(cat "/sys/block/${md##*/}/md/array_state")
	case $state in readonly | read-auto) ;; *) fail "md array_state $state, not read-only" ;; esac
	# md must use the same geometry, or a pass would mean nothing.
	mdadm --examine "${snaps[0]}" >/tmp/examine.out
	grep -q "Data Offset : $off sectors" /tmp/examine.out ||
		{ cat /tmp/examine.out; fail "md data offset is not $off sectors"; }
	grep -q "Layout : left-symmetric" /tmp/examine.out ||
		{ cat /tmp/examine.out; fail "md layout is not left-symmetric"; }
	assert_eq "$(cat "/sys/block/${md##*/}/md/chunk_size")" $((chunk * 512)) "md chunk size"
	assert_eq "$(cat "/sys/block/${md##*/}/md/degraded")" $# "md missing members"
	# md sizes members as fanraid does (whole chunks past the offset); if
	# it ever took less, the comparison still covers all but a stripe.
	md_sectors=$(dev_sectors "$md")
	cmp_sectors=$((md_sectors < len ? md_sectors : len))
	[ "$cmp_sectors" -gt $((len - (n - 2) * chunk)) ] ||
		fail "md is $md_sectors sectors, fanraid $len: too different to compare"
	cmp -n $((cmp_sectors * 512)) /tmp/data "$md" ||
		fail "n=$n chunk=$((chunk / 2))K, $what: md reads other bytes than fanraid wrote"
	log "n=$n chunk=$((chunk / 2))K offset $off, $what: md returns the same $((cmp_sectors / 2048)) MiB (md $md_sectors, fanraid $len sectors)"
	mdadm --stop "$mdname" >/dev/null
}

# md_control: the comparison can fail. md with right-symmetric parity (P
# moves one member right per row instead of left) must read other bytes
# from the same members; cmp says "differ" (1), not "trouble" (2).
md_control() {
	local md rc=0
	mdadm --create "$mdname" --run --readonly --assume-clean --metadata=1.2 \
		--level=6 --layout=right-symmetric --raid-devices="$n" \
		--chunk=$((chunk / 2))K --data-offset=$((off / 2))K --bitmap=none \
		"${snaps[@]}" </dev/null >/tmp/mdadm.out 2>&1 ||
		{ cat /tmp/mdadm.out; fail "mdadm --create (right-symmetric) failed"; }
	md=$(readlink -f "$mdname")
	cmp -s -n $((len * 512)) /tmp/data "$md" || rc=$?
	assert_eq "$rc" 1 "cmp of a right-symmetric md with fanraid's data"
	log "n=$n: md with right-symmetric parity reads other bytes, as it must"
	mdadm --stop "$mdname" >/dev/null
}

# [fail_member=M] check_geometry N CHUNK_SECTORS MEMBER_MB DATA_OFFSET "MISSING"...
# With fail_member, member M is failed in fanraid before the later writes.
check_geometry() {
	local i k o l missing
	n=$1 chunk=$2
	local mb=$3 data_off=$4
	shift 4
	mapfile -t devs < <(nullb_create_many "$n" "$mb")
	fanraid create f6 --level 6 --chunk $((chunk / 2))K --data-offset "$data_off" "${devs[@]}" >/dev/null
	off=$(dmsetup table f6 | awk '{ print $NF }')
	len=$(dev_sectors /dev/mapper/f6)
	fanraid_wait_idle f6

	# The whole array in full stripes, then partial-stripe and sub-page
	# writes, so P and Q come from every write path fanraid has.
	head -c $((len * 512)) /dev/urandom >/tmp/data
	dd if=/tmp/data of=/dev/mapper/f6 bs=$(((n - 2) * chunk * 512)) oflag=direct status=none
	RANDOM=$((n * 1000 + chunk))
	if [ -n "${fail_member:-}" ]; then
		# Degraded writes: fanraid computes P and Q without one member
		# (data, P or Q, row by row), which md must then make sense of
		# without it. Full stripes too, not only partial ones.
		fanraid fail f6 "$fail_member" >/dev/null
		for ((k = 0; k < 4; k++)); do
			write_at $(((RANDOM % (len / ((n - 2) * chunk) - 2)) * (n - 2) * chunk * 512)) \
				$((2 * (n - 2) * chunk * 512))
		done
	fi
	for ((k = 0; k < 12; k++)); do
		o=$(((RANDOM * 32768 + RANDOM) % (len - 4 * chunk) * 512))
		l=$(((RANDOM % (3 * chunk) + 1) * 512))
		write_at "$o" "$l"
	done
	drop_caches
	cmp /tmp/data /dev/mapper/f6 || fail "n=$n: fanraid does not read back what it wrote"
	fanraid_wait_idle f6
	fanraid stop f6

	# A throwaway store for each member's copy-on-write: md's superblock
	# (at 4 KiB, over fanraid's own there) lands in it, not on the member.
	mapfile -t cows < <(nullb_create_many "$n" 4)
	snaps=()
	for ((i = 0; i < n; i++)); do
		dm_create "snap$i" "0 $(dev_sectors "${devs[i]}") snapshot ${devs[i]} ${cows[i]} N 8"
		snaps+=("/dev/mapper/snap$i")
	done

	# With a member failed only md's degraded reads can match.
	[ -n "${fail_member:-}" ] || md_over_snapshots
	for missing in "$@"; do
		# shellcheck disable=SC2086 # a list of indices
		md_over_snapshots $missing
	done
	[ "$n" != 5 ] || md_control

	for ((i = 0; i < n; i++)); do dm_remove "snap$i"; done
	# The members were only read: no md superblock on them, and fanraid
	# assembles them as it left them.
	for i in "${devs[@]}"; do
		if mdadm --examine "$i" >/dev/null 2>&1; then fail "$i: md superblock on a member"; fi
	done
	fanraid assemble f6 "${devs[@]}" >/tmp/assemble.out
	if [ -n "${fail_member:-}" ]; then
		# The failed member is re-added from the bitmap: its recovery
		# runs for as long as the host takes, so wait for it.
		assert_contains "$(cat /tmp/assemble.out)" "re-adding ${devs[fail_member]} as slot $fail_member" \
			"assemble re-adds the member failed before the degraded writes"
		fanraid_wait_idle f6
		assert_eq "$(fanraid_health f6 "$fail_member")" A "member $fail_member after its re-add"
	fi
	assert_contains "$(dmsetup status f6)" " idle " "assembled with no resync or rebuild left"
	cmp /tmp/data /dev/mapper/f6 || fail "n=$n: fanraid reads other data after md ran on the snapshots"
	fanraid stop f6
	nullb_destroy_all
	rm -f /tmp/data /tmp/piece
}

# Six members with 64 KiB chunks: pairs missing that are adjacent and not,
# which over the rows lose every combination of data, P and Q (data with P
# lost is rebuilt from Q alone, data with Q lost from P alone). One member
# missing is the degraded case below.
check_geometry 6 128 12 1M "0 1" "2 5"
# The smallest chunk over five members, at an offset that is not the
# tool's default.
check_geometry 5 8 8 3M "1 2"
# fanraid's degraded writes, member 3 failed, against md without member 3
# and without it and one more (a data member, P or Q by the row).
fail_member=3 check_geometry 6 128 8 1M "3" "3 0" "3 4"
# Chunks larger than fanraid's 128 KiB operation window: every chunk is
# written, read and rebuilt in several windows. Four members, the fewest.
check_geometry 4 2048 6 1M "0 3"
