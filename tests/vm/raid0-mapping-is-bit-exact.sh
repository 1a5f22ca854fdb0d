#!/bin/bash
# Exercise the RAID0 layout: data written through fanraid lands on each member exactly where the geometry says, for many member counts and chunk sizes.
# group: data
# timeout: 600
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"

# Reassemble the logical device from the members with the layout computed
# here, independently of the module: chunk c of the data is chunk c / n of
# member c % n, after that member's data offset.
reassemble() { # OUT LEN_SECTORS CHUNK_SECTORS OFFSETS_NAME MEMBERS...
	local out=$1 len=$2 chunk=$3 c=0 nchunks n row m
	local -n _offs=$4
	shift 4
	n=$#
	local members=("$@")
	nchunks=$(((len + chunk - 1) / chunk))
	: >"$out"
	for ((c = 0; c < nchunks; c++)); do
		m=$((c % n))
		row=$((c / n))
		dd if="${members[$m]}" of="$out" oflag=append conv=notrunc \
			iflag=direct,skip_bytes,count_bytes bs=$((chunk * 512)) \
			skip=$(((_offs[m] + row * chunk) * 512)) \
			count=$((chunk * 512)) status=none
	done
	truncate -s $((len * 512)) "$out"
}

check_layout() { # NDEVS CHUNK_SECTORS [varied]
	local n=$1 chunk=$2 varied=${3:-} len i member_mb area
	local -a devs=() offs=()

	# Three rows, the last cut short mid-chunk: whole stripes, a partial
	# stripe and a partial chunk all get checked.
	len=$((2 * n * chunk + chunk + 8))
	[ "$n" -gt 1 ] || len=$((2 * chunk + 8))
	area=$((3 * chunk))
	for ((i = 0; i < n; i++)); do
		if [ -n "$varied" ]; then
			offs[i]=$((2048 + 8 * i))
		else
			offs[i]=2048
		fi
	done
	member_mb=$(((2048 + 8 * n + area) / 2048 + 1))
	mapfile -t devs < <(nullb_create_many "$n" "$member_mb")

	local table="0 $len fanraid raid0 $chunk 0 $n"
	for ((i = 0; i < n; i++)); do table="$table ${devs[i]} ${offs[i]}"; done
	dm_create fr "$table"

	head -c $((len * 512)) /tmp/pool >/tmp/data
	dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
	drop_caches

	reassemble /tmp/members "$len" "$chunk" offs "${devs[@]}"
	cmp /tmp/data /tmp/members ||
		fail "n=$n chunk=$chunk: members do not hold the data where the layout says"

	# Nothing was written before any member's data offset.
	for ((i = 0; i < n; i++)); do
		cmp -n $((offs[i] * 512)) /dev/zero "${devs[i]}" ||
			fail "n=$n chunk=$chunk: member $i written before its offset ${offs[i]}"
	done

	# raidcalc, when built, reads the same data out of the members, given
	# only the table line the kernel reports.
	if have_cmd raidcalc; then
		raidcalc read -o /tmp/extracted $(dmsetup table fr) ||
			fail "n=$n chunk=$chunk: raidcalc read failed"
		cmp /tmp/data /tmp/extracted ||
			fail "n=$n chunk=$chunk: raidcalc read disagrees with the device"
	fi

	# And the device reads back what was written, cold.
	cmp /tmp/data /dev/mapper/fr ||
		fail "n=$n chunk=$chunk: device reads back different data"

	dm_remove fr
	nullb_destroy_all
	rm -f /tmp/data /tmp/members /tmp/extracted
	# Different bytes for the next case.
	dd if=/tmp/pool of=/tmp/pool bs=4096 count=1 skip=$((RANDOM % 1000 + 1)) \
		conv=notrunc status=none
	log "n=$n chunk=$((chunk / 2))K${varied:+ (offsets differ per member)}: bit-exact$(have_cmd raidcalc && echo ', raidcalc read agrees')"
}

# One pool of random bytes for every case: /dev/urandom is slow under TCG.
# The largest case is 2 * 32 + 1 chunks of 512 KiB plus 4 KiB.
head -c $(((65 * 1024 + 8) * 512)) /dev/urandom >/tmp/pool

for n in 1 2 3 5 8 32; do
	for chunk in 8 128 1024; do
		check_layout "$n" "$chunk"
	done
done
check_layout 3 128 varied
