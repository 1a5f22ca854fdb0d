#!/bin/bash
# Exercise the RAID6 layout the other way round: md RAID6 (left-symmetric, known chunk and data offset) is filled with random data through md and stopped, and a raw fanraid raid6 table over dm snapshots of md's members, at md's data offset, returns the same bytes, healthy and with one or two members given as missing (so fanraid rebuilds from md's P and Q), also after md wrote degraded.
# group: md
# timeout: 600
. "${0%/*}/lib.sh"

# The counterpart of raid6-md-reads-what-fanraid-wrote: there md judges
# fanraid's layout and parity, here fanraid must make sense of md's.

have_target fanraid 1 0 0 || fail "target fanraid missing"
have_cmd mdadm cmp || fail "mdadm or cmp not in the image"
modprobe raid456
modprobe dm-snapshot
have_target snapshot || fail "dm-snapshot missing"

mdname=/dev/md/frsrc
on_exit 'mdadm --stop /dev/md/frsrc >/dev/null 2>&1'

# fanraid_over_snapshots MISSING...: a fanraid table of md's geometry over
# the snapshots, the members whose indices are given as "- -"; compares the
# whole array with what md returned, then removes it.
fanraid_over_snapshots() {
	local i table what=healthy
	[ $# -gt 0 ] && what="members $* missing"
	local -a pairs=()
	for ((i = 0; i < n; i++)); do pairs+=("${snaps[i]} $off"); done
	for i in "$@"; do pairs[i]="- -"; done
	table="0 $len fanraid raid6 $chunk 0 $n ${pairs[*]}"
	dm_create fr "$table"
	cmp /tmp/data /dev/mapper/fr ||
		fail "n=$n chunk=$((chunk / 2))K offset $off, $what: fanraid reads other bytes than md wrote"
	# Reads only: no member was written (a degraded read is not repaired
	# onto anything), so the snapshots stayed as md left them.
	for ((i = 0; i < n; i++)); do
		case " $* " in *" $i "*) continue ;; esac
		assert_eq "$(fanraid_counter fr "$i" writes)" 0 "member $i writes"
	done
	log "n=$n chunk=$((chunk / 2))K offset $off, $what: fanraid returns md's $((len / 2048)) MiB"
	dm_remove fr
}

# [fail_member=M] check_geometry N CHUNK_SECTORS MEMBER_MB DATA_OFFSET_SECTORS "MISSING"...
# With fail_member, md fails member M before the later writes.
check_geometry() {
	local i k o l md missing
	n=$1 chunk=$2 off=$4
	local mb=$3
	shift 4
	mapfile -t devs < <(nullb_create_many "$n" "$mb")
	# The members are zeroed null_blk, so P and Q of zeros already match
	# and --assume-clean leaves nothing inconsistent; md computes every
	# parity block fanraid will read from the writes below.
	mdadm --create "$mdname" --run --assume-clean --metadata=1.2 --level=6 \
		--layout=left-symmetric --raid-devices="$n" --chunk=$((chunk / 2))K \
		--data-offset=$((off / 2))K --bitmap=none "${devs[@]}" </dev/null >/tmp/mdadm.out 2>&1 ||
		{ cat /tmp/mdadm.out; fail "mdadm --create failed"; }
	md=$(readlink -f "$mdname")
	mdadm --examine "${devs[0]}" | grep -q "Data Offset : $off sectors" ||
		fail "md data offset is not $off sectors: $(mdadm --examine "${devs[0]}")"
	len=$(dev_sectors "$md")

	# Full stripes over the whole array, then partial ones md writes by
	# read-modify-write or reconstruct-write.
	head -c $((len * 512)) /dev/urandom >/tmp/data
	dd if=/tmp/data of="$md" bs=$(((n - 2) * chunk * 512)) oflag=direct status=none
	RANDOM=$((n * 1000 + chunk))
	if [ -n "${fail_member:-}" ]; then
		# md's degraded writes: P and Q computed without one member,
		# full stripes and partial ones, which fanraid must read without
		# it.
		mdadm "$mdname" --fail "${devs[fail_member]}" >/dev/null 2>&1
		assert_eq "$(cat "/sys/block/${md##*/}/md/degraded")" 1 "md degraded after --fail"
		for ((k = 0; k < 4; k++)); do
			o=$(((RANDOM % (len / ((n - 2) * chunk) - 2)) * (n - 2) * chunk * 512))
			l=$((2 * (n - 2) * chunk * 512))
			head -c "$l" /dev/urandom >/tmp/piece
			dd if=/tmp/piece of=/tmp/data bs="$l" seek="$o" oflag=seek_bytes conv=notrunc status=none
			dd if=/tmp/piece of="$md" bs="$l" seek="$o" oflag=seek_bytes,direct status=none
		done
	fi
	for ((k = 0; k < 12; k++)); do
		o=$(((RANDOM * 32768 + RANDOM) % (len - 4 * chunk) * 512))
		l=$(((RANDOM % (3 * chunk) + 1) * 512))
		head -c "$l" /dev/urandom >/tmp/piece
		dd if=/tmp/piece of=/tmp/data bs="$l" seek="$o" oflag=seek_bytes conv=notrunc status=none
		dd if=/tmp/piece of="$md" bs="$l" seek="$o" oflag=seek_bytes,direct status=none
	done
	cmp /tmp/data "$md" || fail "md does not read back what it wrote"
	mdadm --stop "$mdname" >/dev/null

	mapfile -t cows < <(nullb_create_many "$n" 4)
	snaps=()
	for ((i = 0; i < n; i++)); do
		dm_create "snap$i" "0 $(dev_sectors "${devs[i]}") snapshot ${devs[i]} ${cows[i]} N 8"
		snaps+=("/dev/mapper/snap$i")
	done
	# With a member failed in md only degraded reads can match.
	[ -n "${fail_member:-}" ] || fanraid_over_snapshots
	for missing in "$@"; do
		# shellcheck disable=SC2086 # a list of indices
		fanraid_over_snapshots $missing
	done
	# The comparison can fail: members 0 and 1 swapped read other bytes
	# (cmp says "differ", 1, not "trouble", 2).
	local rc=0
	dm_create fr "0 $len fanraid raid6 $chunk 0 $n ${snaps[1]} $off ${snaps[0]} $off$(
		for ((i = 2; i < n; i++)); do printf ' %s %s' "${snaps[i]}" "$off"; done)"
	cmp -s /tmp/data /dev/mapper/fr || rc=$?
	assert_eq "$rc" 1 "cmp of fanraid over swapped members with md's data"
	dm_remove fr
	for ((i = 0; i < n; i++)); do dm_remove "snap$i"; done

	# md still assembles its members and reads the same bytes.
	mdadm --assemble "$mdname" --run --readonly "${devs[@]}" </dev/null >/tmp/mdadm.out 2>&1 ||
		{ cat /tmp/mdadm.out; fail "md does not assemble its members again"; }
	cmp /tmp/data "$(readlink -f "$mdname")" || fail "md reads other data after fanraid ran on the snapshots"
	mdadm --stop "$mdname" >/dev/null
	nullb_destroy_all
	rm -f /tmp/data /tmp/piece
}

# Six members, 64 KiB chunks, md's usual 1 MiB offset; pairs lost that
# over the rows cover every combination of data, P and Q.
check_geometry 6 128 12 2048 "0 1" "1 4"
# Seven members, 16 KiB chunks, an offset of 3 MiB.
check_geometry 7 32 8 6144 "6" "2 3"
# md's degraded writes, member 2 failed, against fanraid without member 2
# and without it and one more.
fail_member=2 check_geometry 6 128 8 2048 "2" "2 3" "2 5"
# md's 512 KiB chunks, larger than fanraid's 128 KiB operation window, so
# each chunk is read and rebuilt in several windows.
check_geometry 5 1024 6 2048 "3 4"
