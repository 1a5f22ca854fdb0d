#!/bin/bash
# A RAID6 read that fails at one 4 KiB page of a member (a bad sector, dm-dust) is read again page by page, and only the page that fails again is rebuilt from parity and written back, on the read path, in a repair and in a resync. Rebuilt whole from P, the pages around it took what P said: beside a P silently corrupted at another page of the window, a read returned wrong data and wrote it to the member, and a repair made Q agree with it; in a row torn by a crash, a resync overwrote good data with what the stale P gave.
# group: faults
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"
have_cmd raidcalc || fail "raidcalc not in the image"

# 128 KiB chunks: one stripe window (32 pages) a chunk, read in one bio.
n=6 chunk=256
rows=16
len=$((rows * (n - 2) * chunk))
mapfile -t dev < <(dust_members $n 8 max_sectors=4096)
table() { # FEATURE_WORDS
	echo "0 $len fanraid raid6 $chunk $1 $n$(member_pairs "${dev[@]}")"
}
dm_create fr "$(table 0)"
head -c $((len * 512)) /dev/urandom >/tmp/ref
dd if=/tmp/ref of=/dev/mapper/fr bs=1M oflag=direct status=none
dm_remove fr

field() { raidcalc_field "$(table 0)" "$1" "$2"; } # LOGICAL FIELD
# scribble MEMBER SECTOR: 4 KiB of random bytes there, behind the target's back.
scribble() {
	head -c 4096 /dev/urandom |
		dd of="${dev[$1]}" bs=512 seek="$2" oflag=direct status=none
}
# chunk_of ROW K: the K-th data chunk of ROW, from the array as it reads now.
chunk_of() {
	dd if=/dev/mapper/fr bs=128K skip=$(($1 * (n - 2) + $2)) count=1 \
		iflag=direct status=none
}
ref_chunk() { dd if=/tmp/ref bs=128K skip=$(($1 * (n - 2) + $2)) count=1 status=none; }
same_chunk() { # ROW K WHAT
	drop_caches
	cmp <(chunk_of "$1" "$2") <(ref_chunk "$1" "$2") >/tmp/cmp.out 2>&1 ||
		fail "$3: $(cat /tmp/cmp.out) (bad pages from byte 12288, page 10 at 40960)"
}

# Row R's data chunk K: a bad page 3 on its member, P wrong at page 10.
setup_row() { # ROW K
	local logical=$((($1 * (n - 2) + $2) * chunk))
	m=$(field $logical member) pm=$(field $logical p_member)
	dust_bad "dust$m" $(($1 * chunk + 24))
	scribble "$pm" $(($1 * chunk + 80))
}

# 1. The read path: one 128 KiB read of the chunk fails at page 3.
setup_row 3 1
dm_create fr "$(table 0)"
same_chunk 3 1 "read of a chunk with a bad page, P wrong elsewhere"
assert_eq "$(dust_count "dust$m")" 0 "member $m's bad page left after the read"
[ "$(fanraid_corrected fr "$m")" -gt 0 ] || fail "no read error corrected on member $m"
dmsetup message fr 0 repair
fanraid_wait_idle fr 120
same_chunk 3 1 "after a repair"
dm_remove fr
dust_verify $n "$(table 0)" "read path"
log "read path: page 3 of member $m rebuilt alone; $(tail -n1 /tmp/verify.out)"

# 2. A repair meets the bad page; P is wrong at page 10 of the same window.
setup_row 5 2
dm_create fr "$(table 0)"
dmsetup message fr 0 repair
fanraid_wait_idle fr 120
assert_eq "$(dust_count "dust$m")" 0 "member $m's bad page left after the repair"
[ "$(fanraid_blamed fr "$pm")" -gt 0 ] || fail "the repair did not blame P's member $pm"
same_chunk 5 2 "repair over a bad page beside a wrong P"
dm_remove fr
dust_verify $n "$(table 0)" "repair"
log "repair: P's member $pm blamed, data kept; $(tail -n1 /tmp/verify.out)"

# 3. A resync after a crash: another data chunk of row 9 took a write at
# page 10 that P and Q never saw (a torn write), and the chunk under test
# has bad pages 3 to 7. Only those may come from the stale P, however
# many there are.
r=9 k=0 other=2
logical=$(((r * (n - 2) + k) * chunk))
m=$(field $logical member)
torn=$(field $(((r * (n - 2) + other) * chunk)) member)
for p in 3 4 5 6 7; do dust_bad "dust$m" $((r * chunk + p * 8)); done
scribble "$torn" $((r * chunk + 80))
dm_create fr "$(table "1 resync")"
fanraid_wait_idle fr 120
assert_eq "$(dust_count "dust$m")" 0 "member $m's bad page left after the resync"
same_chunk $r $k "resync over five bad pages in a torn row"
dm_remove fr
dust_verify $n "$(table 0)" "resync"
log "resync: row $r's chunk on member $m kept beside the torn write on member $torn; $(tail -n1 /tmp/verify.out)"

# 4. Degraded: member c failed, and two more members each unreadable at a
# different page of one window. No page has more than two blocks lost, so
# a read of c's chunk and a write across the bad pages of another row both
# succeed; counted whole slots, three are lost (EIO).
dm_create fr "$(table 0)"
data_members() { # ROW: the members of its data chunks, in order
	local k
	for ((k = 0; k < n - 2; k++)); do field $((($1 * (n - 2) + k) * chunk)) member; done
}
r=12
mapfile -t dmem < <(data_members $r)
c=${dmem[0]} a=${dmem[1]} b=${dmem[2]}
dust_bad "dust$a" $((r * chunk + 24))
dust_bad "dust$b" $((r * chunk + 80))
dmsetup message fr 0 fail "$c"
same_chunk $r 0 "degraded read, members $a and $b bad at pages 3 and 10"
r=13
mapfile -t dmem < <(data_members $r)
rest=()
for ((k = 0; k < n - 2; k++)); do [ "${dmem[k]}" = "$c" ] || rest+=("$k"); done
a=${dmem[${rest[0]}]} b=${dmem[${rest[1]}]} kw=${rest[2]}
dust_bad "dust$a" $((r * chunk + 24))
dust_bad "dust$b" $((r * chunk + 80))
head -c 65536 /dev/urandom >/tmp/piece
at=$(((r * (n - 2) + kw) * chunk * 512))
dd if=/tmp/piece of=/tmp/ref bs=64K seek=$((at / 65536)) conv=notrunc status=none
dd if=/tmp/piece of=/dev/mapper/fr bs=64K seek=$((at / 65536)) oflag=direct status=none ||
	fail "degraded write across pages 3 and 10 of members $a and $b failed: $(dmesg | tail -n 3)"
for ((k = 0; k < n - 2; k++)); do
	same_chunk $r $k "row $r after the degraded write"
done
dm_remove fr
dust_verify $n "$(table 0)" "degraded" --missing "$c"
log "degraded, member $c failed: read and write over two more bad pages; $(tail -n1 /tmp/verify.out)"
