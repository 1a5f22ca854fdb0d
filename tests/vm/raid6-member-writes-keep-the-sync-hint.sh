#!/bin/bash
# RAID6 member writes keep the hint of the writes they carry: O_DIRECT 4 KiB and whole-stripe writes reach the members as sync writes (rwbs WS in the block layer's own block_rq_issue trace), which the members' writeback throttling (wbt) never holds back as background writeback; buffered writes pushed out by sync_file_range(SYNC_FILE_RANGE_WRITE), which are background writeback, stay plain writes (the negative control).
# group: raid6
# timeout: 240
. "${0%/*}/lib.sh"

have_target fanraid 1 1 0 || skip "target fanraid 1.1.0 missing"
have_cmd fio || skip "fio not in the image"

n=8 chunk=128
len=$((64 * (n - 2) * chunk))		# 24 MiB
mapfile -t devs < <(nullb_create_many "$n" $((len / (n - 2) / 2048 + 1)))
dm_create fr "0 $len fanraid raid6 $chunk 0 $n$(member_pairs "${devs[@]}")"

tracing=/sys/kernel/tracing
[ -e $tracing/trace ] || mount -t tracefs nodev $tracing ||
	skip "no tracefs in this kernel"
[ -d $tracing/events/block/block_rq_issue ] || skip "no block_rq_issue event"
majmin=" "
for d in "${devs[@]}"; do
	majmin="$majmin$(tr : , <"/sys/block/${d##*/}/dev") "
done

# member_writes WHAT FIO_ARGS...: runs fio with the issue trace on; sets
# sync and plain to the member writes issued with and without REQ_SYNC.
member_writes() {
	local what=$1
	shift
	echo 0 >$tracing/tracing_on
	echo >$tracing/trace
	echo 1 >$tracing/events/block/block_rq_issue/enable
	echo 1 >$tracing/tracing_on
	fio --name="$what" --filename=/dev/mapper/fr --rw=randwrite \
		--output-format=terse --terse-version=3 "$@" >/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "$what: fio failed"; }
	echo 0 >$tracing/tracing_on
	echo 0 >$tracing/events/block/block_rq_issue/enable
	read -r sync plain < <(awk -v devs="$majmin" '
		{ for (i = 1; i < NF; i++) if ($i == "block_rq_issue:") break }
		i < NF && index(devs, " " $(i + 1) " ") && $(i + 2) ~ /^W/ {
			if ($(i + 2) ~ /S/) s++; else p++
		}
		END { print s + 0, p + 0 }' $tracing/trace)
	log "$what: member writes $sync sync, $plain plain"
}

member_writes "O_DIRECT 4 KiB" --direct=1 --ioengine=libaio --iodepth=16 \
	--bs=4k --size=16M --number_ios=400
[ "$sync" -ge 400 ] || fail "O_DIRECT 4 KiB: only $sync sync member writes for 400 writes"
assert_eq "$plain" 0 "O_DIRECT 4 KiB: member writes without REQ_SYNC"

member_writes "O_DIRECT whole stripes" --direct=1 --ioengine=libaio \
	--iodepth=4 --bs=$(((n - 2) * chunk * 512)) --size=16M --number_ios=32
[ "$sync" -ge $((32 * n)) ] ||
	fail "O_DIRECT whole stripes: only $sync sync member writes for 32 x $n"
assert_eq "$plain" 0 "O_DIRECT whole stripes: member writes without REQ_SYNC"

# Background writeback: every page pushed out as soon as it is written,
# so none is left for the flush at close (which is a sync one).
member_writes "sync_file_range(WRITE)" --direct=0 --ioengine=psync --bs=4k \
	--size=16M --number_ios=400 --sync_file_range=write:1
[ "$plain" -ge 400 ] ||
	fail "sync_file_range(WRITE): only $plain plain member writes for 400 writes"
[ "$sync" -lt $((plain / 10)) ] ||
	fail "sync_file_range(WRITE): $sync of $((sync + plain)) member writes were sync"
dm_remove fr
