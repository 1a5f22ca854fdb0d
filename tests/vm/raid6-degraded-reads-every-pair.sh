#!/bin/bash
# Exercise RAID6 degraded reads: with every single and every pair of members missing or failed (data, P and Q of each row, as parity rotates), on 4 and 6 members, the device reads back exactly what was written, also after writes made while degraded, and a replacement and a stale member rebuilt from the others are in sync.
# group: raid6-degraded
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc not in the image"

off=2048
chunk=128

# table FEATURE_WORDS MISSING...: the table line with the MISSING member
# indexes given as "- -"; FEATURE_WORDS is "<#features> [words]".
table() {
	local feat=$1 i t
	shift
	t="0 $len fanraid raid6 $chunk $feat $n"
	for ((i = 0; i < n; i++)); do
		case " $* " in
		*" $i "*) t="$t - -" ;;
		*) t="$t ${devs[i]} $off" ;;
		esac
	done
	echo "$t"
}

# Fields of `dmsetup status`: 6 health characters, 8 sync action.
health() {
	set -- $(dmsetup status fr)
	echo "$6"
}

action() {
	set -- $(dmsetup status fr)
	echo "$8"
}

wait_idle() { # SECONDS
	local i
	for ((i = 0; i < $1 * 5; i++)); do
		[ "$(action)" = idle ] && return 0
		sleep 0.2
	done
	fail "sync still running after $1s: $(dmsetup status fr)"
}

# The whole device, read with O_DIRECT in chunk-sized requests, and a
# sub-page read at an odd sector (a different one each time), equal the
# model /tmp/data.
reads=0
read_back() { # WHAT
	local s c
	dd if=/dev/mapper/fr iflag=direct bs=$((chunk * 512)) status=none |
		cmp /tmp/data - || fail "n=$n $1: device reads back different data"
	reads=$((reads + 1))
	s=$(((reads * 997 % len) | 1))
	c=$((reads % 7 + 1))
	[ $((s + c)) -le "$len" ] || s=$((len - c))
	dd if=/dev/mapper/fr of=/tmp/got iflag=direct,skip_bytes bs=$((c * 512)) skip=$((s * 512)) count=1 status=none
	cmp -n $((c * 512)) -i 0:$((s * 512)) /tmp/got /tmp/data ||
		fail "n=$n $1: $c sectors at sector $s read back different data"
}

# New random bytes on the device (one direct write() call) and in the model.
write_at() { # OFFSET_SECTORS LEN_SECTORS
	head -c $(($2 * 512)) /dev/urandom >/tmp/piece
	dd if=/tmp/piece of=/tmp/data bs=$(($2 * 512)) seek=$(($1 * 512)) oflag=seek_bytes conv=notrunc status=none
	dd if=/tmp/piece of=/dev/mapper/fr bs=$(($2 * 512)) seek=$(($1 * 512)) oflag=seek_bytes,direct status=none
}

degraded() { # METHOD A [B]: read back with members A and B lost
	local method=$1 want i
	shift
	if [ "$method" = missing ]; then
		dm_create fr "$(table 0 "$@")"
	else
		dm_create fr "$(table 0)"
		for i in "$@"; do dmsetup message fr 0 fail "$i"; done
	fi
	want=""
	for ((i = 0; i < n; i++)); do
		case " $* " in *" $i "*) want="${want}D" ;; *) want="${want}A" ;; esac
	done
	assert_eq "$(health)" "$want" "n=$n members $* $method: health"
	read_back "members $* $method"
	dm_remove fr
}

check_n() { # NDEVS A B: every single and pair, then writes with A and B missing
	local a=$2 b=$3 i j method
	n=$1
	# Two rows per member, so each member is data, P and Q in some rows;
	# the last chunk is cut short.
	len=$((2 * n * (n - 2) * chunk - 24))
	mapfile -t devs < <(nullb_create_many "$n" $(((off + 2 * n * chunk) / 2048 + 1)))

	dm_create fr "$(table 0)"
	head -c $((len * 512)) /dev/urandom >/tmp/data
	dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
	drop_caches
	raidcalc verify "$(dmsetup table fr)" >/dev/null
	dm_remove fr

	for ((i = 0; i < n; i++)); do
		degraded missing "$i"
	done
	for ((i = 0; i < n; i++)); do
		for ((j = i + 1; j < n; j++)); do
			method=missing
			[ $(((i + j) % 2)) = 1 ] && method=fail
			degraded "$method" "$i" "$j"
		done
	done
	log "n=$n: every single and pair of lost members reads back exact data"

	# Writes with two members missing: whole rows, partial chunks, single
	# sectors; then read back while still degraded.
	dm_create fr "$(table 0 "$a" "$b")"
	write_at 0 $(((n - 2) * chunk))
	write_at $(((n - 2) * chunk + 8)) $((chunk + 16))
	write_at $((len / 2 + 3)) 5
	write_at $((len - 40)) 40
	write_at $((3 * (n - 2) * chunk - 1)) $((2 * (n - 2) * chunk + 2))
	read_back "degraded writes, members $a $b missing"
	dm_remove fr

	# Member A is replaced by a new, empty device; B comes back stale.
	# Both are rebuilt.
	devs[a]=$(nullb_create spare $(((off + 2 * n * chunk) / 2048 + 1)))
	dm_create fr "$(table "4 rebuild $a rebuild $b")"
	wait_idle 120
	assert_eq "$(health)" "$(printf 'A%.0s' $(seq "$n"))" "n=$n after rebuild: health"
	dm_remove fr
	drop_caches
	raidcalc verify "$(table 0)" >/tmp/verify.out 2>&1 ||
		{ cat /tmp/verify.out; fail "n=$n: parity wrong after rebuilding $a and $b"; }
	raidcalc read -s 0 -n "$len" -o /tmp/members "$(table 0)"
	cmp /tmp/data /tmp/members || fail "n=$n: rebuilt members hold different data"
	dm_create fr "$(table 0)"
	read_back "after rebuild of $a $b"
	dm_remove fr
	log "n=$n: writes with $a and $b missing, rebuild onto a new $a and a stale $b, verify: clean"

	nullb_destroy_all
	rm -f /tmp/data /tmp/members /tmp/piece /tmp/got /tmp/verify.out
}

check_n 4 0 3
check_n 6 1 4

# A lost data block is rebuilt from P and the other data alone: Q is not
# read. On 4 members, over one full turn of the parity rotation (4 rows),
# member 0 holds data in 2 rows: each costs the other data chunk (read by
# the reader) plus the other data and P (read to rebuild); the 2 rows where
# it holds P or Q cost their 2 data chunks. 10 chunks, 12 if Q were read.
n=4 len=$((4 * (4 - 2) * chunk))
mapfile -t devs < <(nullb_create_many "$n" $(((off + 4 * chunk) / 2048 + 1)))
dm_create fr "$(table 0)"
head -c $((len * 512)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr
dm_create fr "$(table "2 readahead off" 0)"
dd if=/dev/mapper/fr iflag=direct bs=$((chunk * 512)) status=none |
	cmp /tmp/data - || fail "member 0 missing: device reads back different data"
got=0
for ((i = 1; i < n; i++)); do
	got=$((got + $(fanraid_counter fr "$i" read_sectors)))
done
assert_eq "$got" $((10 * chunk)) "member sectors read with member 0 missing"
log "member 0 missing: the whole device read with $((got / chunk)) chunks from the survivors"
dm_remove fr
