#!/bin/bash
# Exercise the benchmark's real-drive mode (bench/run.sh --devices) on block devices under a real kernel: it refuses to run without --yes-destroy-data and refuses a mounted member, then measures fanraid, dm-stripe and md RAID0 side by side on four null_blk "drives" and leaves fio JSON, .meta files and a report whose table has a figure for every layer; a second run into that results folder is refused and leaves it as it was.
# group: bench
# timeout: 480
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fio mdadm mkfs.ext4 || skip "fio, mdadm or mkfs.ext4 not in the image"
[ -x /bench/run.sh ] || skip "bench/ not in the image"

mapfile -t devs < <(nullb_create_many 4 160 blocksize=4096 irqmode=2 \
	completion_nsec=200000 mbps=26)
list=$(IFS=,; echo "${devs[*]}")

# Destructive, so nothing happens without the explicit flag.
out=$(/bench/run.sh --devices "$list" --suite smoke --only smoke-read \
	--out /tmp/b0 --no-report 2>&1) && fail "ran without --yes-destroy-data: $out"
assert_contains "$out" "--yes-destroy-data" "refusal"
[ ! -e /tmp/b0 ] || fail "a refused run left /tmp/b0 behind"

# A member holding a mounted filesystem is refused, and keeps its files.
mkfs.ext4 -q "${devs[3]}"
mkdir -p /mnt/m
mount "${devs[3]}" /mnt/m
echo keep >/mnt/m/file
out=$(/bench/run.sh --devices "$list" --yes-destroy-data --suite smoke \
	--only smoke-read --out /tmp/b0 --no-report 2>&1) &&
	fail "ran over a mounted member: $out"
assert_contains "$out" "mounted" "refusal"
assert_eq "$(cat /mnt/m/file)" keep "file on the mounted member"
umount /mnt/m

# The smoke read entry sweeps N = 1 and 2 over the first members.
/bench/run.sh --devices "$list" --yes-destroy-data --suite smoke \
	--only smoke-read --out /tmp/b1 --no-report >/tmp/bench.out 2>&1 ||
	{ cat /tmp/bench.out; fail "bench/run.sh --devices failed"; }
for l in fanraid dm-stripe md-raid0; do
	for n in 1 2; do
		f=/tmp/b1/smoke-read/$l-$n
		[ -s "$f.json" ] || { cat /tmp/bench.out; fail "no fio JSON for $l N=$n"; }
		grep -qx "mode=host" "$f.meta" || fail "$l N=$n: .meta does not say mode=host"
		mibs=$(sed -n 's/^read_mibs=//p' "$f.meta")
		awk -v m="$mibs" 'BEGIN { exit !(m > 1) }' ||
			fail "$l N=$n read $mibs MiB/s"
		log "$l N=$n: $mibs MiB/s"
	done
done
grep -q "${devs[1]##*/}" /tmp/b1/smoke-read/fanraid-2.meta ||
	fail "fanraid N=2 did not run on ${devs[1]}: $(cat /tmp/b1/smoke-read/fanraid-2.meta)"

# A second run into the same folder would mix its entries with these.
out=$(/bench/run.sh --devices "$list" --yes-destroy-data --suite smoke \
	--only smoke-read --out /tmp/b1 --no-report 2>&1) &&
	fail "ran into a folder holding results: $out"
echo "$out" | grep -q "holds results already" || fail "unclear refusal: $out"
[ -s /tmp/b1/smoke-read/fanraid-2.json ] || fail "the refused run touched /tmp/b1"

/bench/report.sh /tmp/b1 >/tmp/report.out 2>&1 ||
	{ cat /tmp/report.out; fail "report failed"; }
grep -A12 "smoke-read" /tmp/b1/report.txt | grep -E "^ *2 " >/tmp/row ||
	fail "no N=2 row in the report: $(cat /tmp/b1/report.txt)"
log "report row: $(cat /tmp/row)"
[ "$(grep -o '[0-9]\+\.[0-9]' /tmp/row | wc -l)" -ge 4 ] ||
	fail "N=2 row lacks a figure per layer: $(cat /tmp/row)"
