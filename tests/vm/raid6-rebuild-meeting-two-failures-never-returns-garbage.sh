#!/bin/bash
# Exercise RAID6 rebuild that meets two more member failures: the part it could not rebuild must never be read back as data (EIO is fine), the member must not be reported in sync, and status and the kernel log name the row where it stopped.
# group: raid6-degraded
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 4 0 || skip "target fanraid 1.4.0 missing"

n=6 chunk=128 off=2048 rows=40
len=$((rows * (n - 2) * chunk))
mapfile -t devs < <(nullb_create_many "$n" 4)
table() { local t="0 $len fanraid raid6 $chunk $1 $n" d; for d in "${devs[@]}"; do t="$t $d $off"; done; echo "$t"; }
field() { local i=$1; set -- $(dmsetup status fr); eval echo "\${$i}"; }

dm_create fr "$(table 0)"
head -c $((len * 512)) /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

# Member 1 is replaced by a device of random bytes and rebuilt slowly
# (the first 1 MiB of it at once, the rest at 64 KiB/s); 0 and 2 then fail.
head -c $((rows * chunk * 512)) /dev/urandom |
	dd of="${devs[1]}" bs=1M seek=$((off * 512)) oflag=seek_bytes,direct status=none
dm_create fr "$(table "4 max_sync_rate 64 rebuild 1")"
dmsetup message fr 0 fail 0
dmsetup message fr 0 fail 2
for ((i = 0; i < 600; i++)); do
	[ "$(field 8)" = idle ] && break
	sleep 0.2
done
log "after the pass: health $(field 6), $(field 8) $(field 7)"
lost=$(fanraid_lost_row fr)
case $lost in ''|-|*[!0-9]*) fail "status names no lost row: '$lost'" ;; esac
[ "$lost" -lt "$rows" ] || fail "lost row $lost beyond the $rows rows"
dmesg | grep -q "rebuild stopped at row $lost " || fail "the kernel log does not name row $lost"

# Every data chunk: EIO or the data written, nothing else.
cb=$((chunk * 512)) bad=0 eio=0
for ((c = 0; c < len / chunk; c++)); do
	if dd if=/dev/mapper/fr of=/tmp/got iflag=direct bs=$cb skip=$c count=1 status=none 2>/dev/null; then
		cmp -s -n $cb -i 0:$((c * cb)) /tmp/got /tmp/data || bad=$((bad + 1))
	else
		eio=$((eio + 1))
	fi
done
log "$eio chunks EIO, $bad chunks wrong"
[ $bad = 0 ] || fail "$bad chunks returned data that was never written (health $(field 6))"
dm_remove fr
