#!/bin/bash
# Exercise RAID6 durability on volatile caches: every member under dm-log-writes (null_blk cache_size); after an fsync every write a member completed, data and P/Q alike, is in its log ahead of a flush, and after an O_DSYNC write every member write is logged as FUA (or flushed) before the round's mark, never held back to a later round.
# group: main
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_target log-writes 1 0 0 || fail "target log-writes missing"
have_cmd od || fail "od missing"

n=5 chunk=128 rounds=${ROUNDS:-16}
seed=${SEED:-$(date +%s)}
RANDOM=$seed
log "seed $seed (SEED=$seed reproduces the writes), $rounds rounds"

# Each round writes at most 3 x 64 KiB plus parity per member.
logwrites_members $n 64 $((rounds / 2 + 8))
len=$((lw_sectors / chunk * chunk * (n - 2)))
dm_create fr "0 $len fanraid raid6 $chunk 2 flush_policy dirty $n$lw_pairs"
dmsetup message fr 0 stats reset
mark_all() { logwrites_mark $n "$1"; }

# counters: "member writes flushes" per member (a flush counts as a write).
counters() {
	dmsetup status fr | awk -v n=$n '$3 == "fanraid" {
		for (i = 0; i < n; i++) print i, $(9 + 6 * i + 1), $(9 + 6 * i + 4) }'
}

# Odd rounds: O_DIRECT writes, then fsync. Even rounds: O_DIRECT|O_DSYNC
# writes and no fsync. 1-3 writes of 4-64 KiB each, in the first 16 rows.
mark_all 0
: >/tmp/counted
: >/tmp/kind
counters >/tmp/before
for ((k = 1; k <= rounds; k++)); do
	flags=direct
	((k % 2)) || flags=direct,dsync
	for ((w = RANDOM % 3; w >= 0; w--)); do
		c=$((RANDOM % (16 * (n - 2))))
		l=$((RANDOM % 16 + 1))
		o=$((RANDOM % (17 - l)))
		dd if=/dev/urandom of=/dev/mapper/fr bs=$((l * 4096)) count=1 \
			seek=$(((c * 16 + o) * 4096)) iflag=fullblock \
			oflag=$flags,seek_bytes status=none
	done
	((k % 2)) && sync /dev/mapper/fr
	counters >/tmp/after
	awk -v k=$k 'NR == FNR { w[$1] = $2; f[$1] = $3; next }
		{ print $1, k, ($2 - w[$1]) - ($3 - f[$1]) }' /tmp/before /tmp/after >>/tmp/counted
	echo "$k $([ $((k % 2)) = 1 ] && echo fsync || echo dsync)" >>/tmp/kind
	mv /tmp/after /tmp/before
	mark_all "$k"
done

dm_remove fr
logwrites_remove $n

# Per member and round: writes logged, FUA writes among them, flushes, and
# writes logged after the round's first flush.
: >/tmp/summary
for ((i = 0; i < n; i++)); do
	dd if="${lw_logs[i]}" of=/tmp/log bs=1M iflag=direct status=none
	log_entries /tmp/log >/tmp/entries.$i
	awk -v m=$i '
		function out() { print m, r, nw[r] + 0, nfua[r] + 0, nf[r] + 0, late[r] + 0 }
		BEGIN { r = 0 }
		$1 == "M" && $2 ~ /^[0-9]+$/ { out(); r = $2 + 1; next }
		$1 == "W" { nw[r]++; if (int($4 / 2) % 2) nfua[r]++; if (nf[r]) late[r]++; next }
		$1 == "F" { nf[r]++ }
		END { out() }' /tmp/entries.$i >>/tmp/summary
done

awk -v last=$rounds '
	FILENAME == ARGV[1] { kind[$1] = $2; next }
	FILENAME == ARGV[2] { w[$1, $2] = $3; next }
	{
		m = $1; r = $2; what = "member " m " round " r
		if (r == 0 || r > last) {
			if ($3) { print what ": " $3 " writes logged outside the rounds (held back)"; bad = 1 }
			next
		}
		if ($3 != w[m, r]) {
			print what " (" kind[r] "): fanraid completed " w[m, r] " writes, the log holds " $3 " for the round"
			bad = 1
		}
		if (kind[r] == "fsync" && $3 && ($5 < 1 || $6)) {
			print what ": " $3 " writes, " $5 " flushes, " $6 " writes after the flush"
			bad = 1
		}
		if (kind[r] == "dsync" && $3 && $4 != $3 && ($5 < 1 || $6)) {
			print what ": " $3 " O_DSYNC writes, " $4 " FUA, and no flush after the rest"
			bad = 1
		}
		if ($3) { written[kind[r]]++; fua += $4 }
	}
	END {
		printf "# member-rounds written: %d fsync, %d dsync; %d FUA writes logged\n", written["fsync"], written["dsync"], fua
		if (!written["fsync"] || !written["dsync"]) { print "the rounds did not cover both kinds"; bad = 1 }
		exit bad
	}' /tmp/kind /tmp/counted /tmp/summary >&2 || fail "completed writes left uncovered (seed $seed)"
nullb_destroy_all
