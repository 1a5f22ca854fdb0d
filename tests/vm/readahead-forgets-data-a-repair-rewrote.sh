#!/bin/bash
# A RAID6 repair that corrects a data block (silent corruption, named by P and Q together) drops it from the readahead cache too: a stream that had fetched the corrupt block before the repair reads the corrected one after it. The repair's write is a write like any other, so the cache forgets it after the write completes, as it does for a bio's.
# group: readahead
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

n=6 chunk=128
rows=32
len=$((rows * (n - 2) * chunk))
mapfile -t dev < <(nullb_create_many $n 8)
table="0 $len fanraid raid6 $chunk 2 readahead on $n$(member_pairs "${dev[@]}")"
dm_create fr "$table"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
drop_caches

# 640 KiB in, 128 KiB past where the reader below stops: the stream has
# fetched it by then. Its member's copy changes behind the target's back.
at=1280
m=$(raidcalc_field "$table" $at member) s=$(raidcalc_field "$table" $at sector)
head -c 4096 /dev/urandom | dd of="${dev[$m]}" bs=512 seek="$s" oflag=direct status=none

hits() { fanraid_total fr ra_hits; }
dd if=/dev/mapper/fr of=/dev/null bs=64k count=8 iflag=direct status=none
[ "$(hits)" -gt 0 ] || fail "the stream made no readahead hits: the test proves nothing"
dmsetup message fr 0 repair
fanraid_wait_idle fr 120
[ "$(fanraid_blamed fr "$m")" -gt 0 ] || fail "the repair did not name member $m's block"
before=$(hits)
cmp <(dd if=/dev/mapper/fr bs=4k skip=$((at / 8)) count=32 iflag=direct status=none) \
	<(dd if=/tmp/ref bs=4k skip=$((at / 8)) count=32 status=none) ||
	fail "after the repair the array returned the corrupt block (readahead hits $before -> $(hits))"
log "member $m sector $s: corrected by the repair and read back right (readahead hits $before -> $(hits))"
dm_remove fr
