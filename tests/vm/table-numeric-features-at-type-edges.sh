#!/bin/bash
# Exercise every numeric table value at the edges of its type (0, 1, 2^31-1, 2^31, 2^32-1, 2^32, 2^64): each is refused with a message naming the argument, or loads and then serves exact I/O and a resync, with the kernel log clean (max_sync_rate 2^31 divided by zero; min_sync_rate 2^31 above a 1 KiB/s cap under reads); bitmap and readd values too.
# group: main
# timeout: 420
. "${0%/*}/lib.sh"

have_target fanraid 1 2 0 || fail "target fanraid 1.2.0 missing"

n=4 chunk=128
mapfile -t d < <(nullb_create_many $n 4)
len=$(($(dev_sectors "${d[0]}") / chunk * chunk * (n - 2)))
pairs="$n$(member_pairs "${d[@]}")"
head -c 1048576 /dev/urandom >/tmp/piece
edges="0 1 2147483647 2147483648 4294967295 4294967296 18446744073709551615"

# try LABEL MUST ARGS...: load "fanraid ARGS"; MUST is load, refuse or
# either. A loaded table must serve a write and read it back, and run its
# resync (if it has one) while doing so; a refused one must say why.
try() {
	local label=$1 must=$2 err
	shift 2
	dmesg_mark
	if dmsetup create fe --table "0 $len fanraid $*" 2>/dev/null; then
		[ "$must" = refuse ] && fail "$label: loaded, but must be refused"
		dmsetup mknodes fe
		dd if=/tmp/piece of=/dev/mapper/fe bs=64k seek=3 oflag=direct status=none ||
			fail "$label: write failed"
		dd if=/dev/mapper/fe bs=64k skip=3 count=16 iflag=direct status=none | cmp - /tmp/piece ||
			fail "$label: read back different data"
		dmsetup status fe >/dev/null || fail "$label: no status"
		dmsetup table fe | grep -q "fanraid" || fail "$label: no table"
		dmsetup remove fe || fail "$label: remove failed"
		echo "$label: loaded" >>/tmp/edges
	else
		[ "$must" = load ] && fail "$label: refused, but must load: $(dmesg_since | tail -n 2)"
		err=$(dmesg_since | grep -o 'fanraid: [A-Z][^:]*\(: .*\)\?$' | tail -n 1)
		[ -n "$err" ] || fail "$label: refused with no fanraid error in the kernel log: $(dmesg_since | tail -n 3)"
		echo "$label: refused ($err)" >>/tmp/edges
	fi
}

: >/tmp/edges
for v in $edges; do
	case $v in 4294967296 | 18446744073709551615) u32=refuse ;; *) u32=load ;; esac
	# Plain u32 features: every u32 loads, anything wider is refused.
	try "max_sync_rate $v" $u32 raid6 $chunk 3 resync max_sync_rate $v $pairs
	try "min_sync_rate $v" $u32 raid6 $chunk 3 resync min_sync_rate $v $pairs
	try "max_read_errors $v" $u32 raid6 $chunk 3 resync max_read_errors $v $pairs
	# Bounded ones: inside their range or refused.
	try "ra_window $v" either raid0 $chunk 2 ra_window $v $pairs
	try "ra_cache_mb $v" either raid0 $chunk 2 ra_cache_mb $v $pairs
	try "stripe_cache_mb $v" either raid6 $chunk 2 stripe_cache_mb $v $pairs
	try "rebuild $v" either raid6 $chunk 2 rebuild $v $pairs
	# Members without superblocks: refused either way, by the value or by
	# the superblock the bitmap needs.
	try "bitmap $v" refuse raid6 $chunk 3 superblock bitmap $v $pairs
	try "readd $v" refuse raid6 $chunk 5 superblock bitmap 2048 readd $v $pairs
	try "chunk_sectors $v" refuse raid6 $v 0 $pairs
	# A count of 0 words is a valid table; any other edge count is not.
	[ "$v" = 0 ] && must=load || must=refuse
	try "feature count $v" $must raid6 $chunk $v $pairs
	try "device count $v" refuse raid0 $chunk 0 $v$(member_pairs "${d[@]}")
	try "offset $v" either raid0 $chunk 0 $n ${d[0]} $v$(member_pairs "${d[@]:1}")
done
cat /tmp/edges

# The value that crashed: a resync at max_sync_rate 2^31 runs to the end.
dm_create fe "0 $len fanraid raid6 $chunk 3 resync max_sync_rate 2147483648 $pairs"
fanraid_wait_idle fe 120
dm_remove fe
# The floor at 2^31 under reads, above a cap of 1 KiB/s: the floor wins,
# as in md, or the resync would take weeks.
dm_create fe "0 $len fanraid raid6 $chunk 5 resync max_sync_rate 1 min_sync_rate 2147483648 $pairs"
dd if=/dev/mapper/fe of=/dev/null bs=64k iflag=direct status=none &
fanraid_wait_idle fe 120
wait $! || fail "reads during the resync at min_sync_rate 2^31"
dm_remove fe
nullb_destroy_all
