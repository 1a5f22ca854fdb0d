#!/bin/bash
# Exercise flush_policy dirty ordering: with every member under dm-log-writes, each write a member completed before an fsync of the array is in that member's log, ahead of a flush, before the mark set after the fsync; a member not written in between gets no flush.
# group: main
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_target log-writes || skip "target log-writes missing"
have_cmd od || skip "od missing"

# dm-log-writes keeps a member's completed writes back until a flush reaches
# that member, then logs them followed by the flush (drivers/md/
# dm-log-writes.c, 6.1). So if the writes a member completed in a round are
# all in its log between the marks set before and after the round's fsync,
# the fsync's flush reached that member after they completed. A write whose
# flush was elided stays back until a later flush, or until the log device is
# removed, and shows up in the wrong round.
n=4 chunk=128 rounds=${ROUNDS:-24}
seed=${SEED:-$(date +%s)}
RANDOM=$seed
log "seed $seed (SEED=$seed reproduces the writes), $rounds rounds"

# A log holds at most rounds x 3 x (64 KiB + 4 KiB) of writes, and marks.
logwrites_members $n 64 $((rounds / 3 + 8))
dm_create fr "0 $((lw_sectors * n)) fanraid raid0 $chunk 2 flush_policy dirty $n$lw_pairs"
dmsetup message fr 0 stats reset
mark_all() { logwrites_mark $n "$1"; }

# counters: "member writes write_sectors flushes" per member, one status.
counters() {
	dmsetup status fr | awk -v n=$n '$3 == "fanraid" {
		for (i = 0; i < n; i++)
			print i, $(9 + 6 * i + 1), $(9 + 6 * i + 3), $(9 + 6 * i + 4) }'
}

# Each round: 1-3 O_DIRECT writes of 4-64 KiB, each inside one chunk of the
# first 64 chunks, so usually some members get none; then fsync the array,
# sample the counters, mark every log. /tmp/expect gets "member round
# 4k-block" for every block a write covered on its member, /tmp/counted
# "member round writes write_sectors flushes" from the counters.
mark_all 0
: >/tmp/expect
: >/tmp/counted
counters >/tmp/before
for ((k = 1; k <= rounds; k++)); do
	for ((w = RANDOM % 3; w >= 0; w--)); do
		c=$((RANDOM % (16 * n)))
		len=$((RANDOM % 16 + 1))
		off=$((RANDOM % (17 - len)))
		dd if=/dev/urandom of=/dev/mapper/fr bs=$((len * 4096)) count=1 \
			seek=$(((c * 16 + off) * 4096)) iflag=fullblock \
			oflag=direct,seek_bytes status=none
		# RAID0: chunk c is on member c mod n at row c div n.
		for ((b = 0; b < len; b++)); do
			echo "$((c % n)) $k $((c / n * 16 + off + b))"
		done >>/tmp/expect
	done
	sync /dev/mapper/fr
	counters >/tmp/after
	awk -v k=$k 'NR == FNR { w[$1] = $2; s[$1] = $3; f[$1] = $4; next }
		{ print $1, k, $2 - w[$1], $3 - s[$1], $4 - f[$1] }' \
		/tmp/before /tmp/after >>/tmp/counted
	mv /tmp/after /tmp/before
	mark_all "$k"
done
log "flushes per member $(awk '{ printf " %d", $4 }' /tmp/before)," \
	"elided $(fanraid_total fr flushes_elided)"

# Removing a log-writes device logs what is still held back and waits for
# its log to be written.
dm_remove fr
logwrites_remove $n

# Per member, each entry goes to the round it was logged in: after mark
# k-1 and before mark k is round k; before mark 0 is round 0 and after the
# last mark round rounds+1, both of which must be empty. /tmp/logged gets
# "member round 4k-block" per written block, /tmp/summary "member round
# writes sectors flushes writes-after-the-flush".
: >/tmp/logged
: >/tmp/summary
for ((i = 0; i < n; i++)); do
	dd if="${lw_logs[i]}" of=/tmp/log bs=1M iflag=direct status=none
	log_entries /tmp/log >/tmp/entries.$i
	bad=$(grep -v '^[WFM] ' /tmp/entries.$i || true)
	[ -z "$bad" ] || fail "member $i: unexpected log entries: $bad"
	awk -v m=$i -v sum=/tmp/summary '
		function out() { print m, r, nw[r] + 0, ns[r] + 0, nf[r] + 0, late[r] + 0 >>sum }
		BEGIN { r = 0 }
		$1 == "M" && $2 ~ /^[0-9]+$/ { out(); r = $2 + 1; next }
		$1 == "M" { next }
		$1 == "W" {
			nw[r]++; ns[r] += $3
			if (nf[r]) late[r]++
			for (s = $2; s < $2 + $3; s += 8) print m, r, int(s / 8)
			next
		}
		$1 == "F" { nf[r]++ }
		END { out() }' /tmp/entries.$i >>/tmp/logged
	log "member $i: $(grep -c '^W' /tmp/entries.$i || true) writes," \
		"$(grep -c '^F' /tmp/entries.$i || true) flushes," \
		"$(grep -c '^M' /tmp/entries.$i || true) marks in its log"
done

sort -u /tmp/expect >/tmp/expect.s
sort -u /tmp/logged >/tmp/logged.s
errors=0
if ! cmp -s /tmp/expect.s /tmp/logged.s; then
	errors=1
	awk 'NR == FNR { e[$0] = 1; ne[$1 " round " $2]++; next }
		{ g[$0] = 1 }
		END {
			for (k in e) if (!(k in g)) { split(k, f, " "); miss[f[1] " round " f[2]]++ }
			for (k in g) if (!(k in e)) { split(k, f, " "); extra[f[1] " round " f[2]]++ }
			for (k in miss) print "member " k ": " miss[k] " of " ne[k] " written 4k blocks missing from its log"
			for (k in extra) print "member " k ": " extra[k] " 4k blocks in its log it did not write"
		}' /tmp/expect.s /tmp/logged.s | sort -k2,2n -k4,4n >&2
fi

# Against the counters: what fanraid sent a member in round k is what its
# log holds for round k; a member written in round k got exactly one flush,
# after the writes; a member not written got none. Rounds 0 and rounds+1
# hold nothing. fanraid counts a flush as a write of no sectors.
awk -v last=$rounds -v n=$n '
	NR == FNR { w[$1, $2] = $3 - $5; s[$1, $2] = $4; f[$1, $2] = $5; next }
	{
		m = $1; r = $2; what = "member " m " round " r
		if (r == 0 || r > last) {
			if ($3 || $5) {
				print "member " m ": " $3 " writes, " $5 " flushes logged " \
					(r ? "after the last mark (held back until the log was removed)" : "before the first mark")
				bad = 1
			}
			next
		}
		rows++
		if ($3 != w[m, r] || $4 != s[m, r]) {
			print what ": fanraid sent " w[m, r] " writes (" s[m, r] " sectors), the log holds " $3 " (" $4 ")"
			bad = 1
		}
		if ($5 != f[m, r]) { print what ": fanraid counted " f[m, r] " flushes, the log holds " $5; bad = 1 }
		if ((w[m, r] || $3) && $5 != 1) {
			print what ": " w[m, r] " writes completed, " $5 " flushes followed them in the log"
			bad = 1
		}
		if (!w[m, r] && !$3 && $5) { print what ": no write, yet " $5 " flushes reached the member"; bad = 1 }
		if ($6) { print what ": " $6 " writes logged after the flush"; bad = 1 }
		if ($3) written++; else idle++
	}
	END {
		printf "# %d member-rounds written and flushed, %d idle and not flushed\n", written, idle
		if (rows != n * last) { print "the logs hold " rows " member-rounds, not " n * last " (marks missing)"; bad = 1 }
		if (!written || !idle) { print "the rounds did not cover both cases"; bad = 1 }
		exit bad
	}' /tmp/counted /tmp/summary >&2 || errors=1
[ $errors = 0 ] || fail "flush_policy dirty left completed writes uncovered (seed $seed)"
