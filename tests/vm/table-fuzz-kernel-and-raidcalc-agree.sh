#!/bin/bash
# Fuzz the table parsers against each other: mutated table lines go to the kernel (dmsetup create) and to raidcalc geom; both accept or both refuse with the same message (raidcalc cannot see members, so member checks are the kernel's alone), an accepted line reads back as raidcalc formats it, and the kernel log stays clean.
# group: fuzz
# timeout: 900
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd raidcalc || skip "raidcalc missing"

seed=${FUZZ_SEED:-$(($(date +%s) % 32768))}
cases=${FUZZ_CASES:-300}
log "seed $seed (FUZZ_SEED=$seed reproduces), $cases lines"
RANDOM=$seed

mapfile -t d < <(nullb_create_many 5 16)
pairs="${d[0]} 0 ${d[1]} 0 ${d[2]} 0 ${d[3]} 0"
len=$((4 * 128 * 8))
len6=$((2 * 128 * 8))

# Good lines of every shape; each case mutates one of them.
bases=(
	"0 $len fanraid raid0 128 0 4 $pairs"
	"0 $len6 fanraid raid6 128 4 stripe_cache_mb 8 flush_policy dirty 4 $pairs"
	"0 $len fanraid raid0 256 6 readahead on ra_window 8 ra_cache_mb 32 4 $pairs"
	"0 $len6 fanraid raid6 128 5 rebuild 1 resync max_sync_rate 1000 4 $pairs"
	"0 $len6 fanraid raid6 128 4 max_sync_rate 0 min_sync_rate 4294967295 4 $pairs"
	"0 $len6 fanraid raid6 128 2 max_read_errors 20 4 $pairs"
	"0 $len6 fanraid raid6 128 5 superblock bitmap 2048 readd 1 4 $pairs"
	"0 $len6 fanraid raid6 128 2 readahead off 4 ${d[0]} 0 - - ${d[2]} 0 ${d[3]} 0"
	"0 3072 fanraid raid0 128 3 reshape 3 1536 4 $pairs"
)
# Values that sit on and around every limit, words of the grammar in the
# wrong place, numbers that overflow. No cache size that a 2 GiB VM could
# not allocate: 4096 MiB is legal and would be tried.
tokens=(0 1 2 3 4 5 8 16 17 64 65 127 128 256 4097 32768 65536 -1 -8 - x 8s
	on off raid0 raid6 readahead ra_window ra_cache_mb stripe_cache_mb
	flush_policy dirty drop passthrough rebuild resync max_sync_rate min_sync_rate max_read_errors
	superblock safe_mode_delay bitmap readd reshape 1536 3072 2048 131072 2147483649
	2147483647 2147483648 4294967295
	4294967296 4294967297 18446744073709551615 18446744073709551616 +0 +4 +8
	"${d[0]}" "${d[4]}")
# Refusals that depend on the members or the allocator, which raidcalc
# geom never sees.
# The DM core's own checks of the target's place in the table.
core_errors='^(Gap in table|zero-length target|couldn.t split parameters)'
member_errors='Device lookup failed|Duplicate member device|Member too small|Target length exceeds|Cannot set max I/O|Cannot allocate|[Ss]uperblock|No member with a superblock'

# mutate LINE: one or two changes to LINE, left in $mutated. Not run as
# $(mutate ...): bash reseeds RANDOM in a subshell, and the seed would no
# longer reproduce the lines.
mutate() {
	local -a w=($1)
	local k i op t
	for ((k = 0; k <= RANDOM % 2; k++)); do
		i=$((RANDOM % ${#w[@]}))
		t=${tokens[RANDOM % ${#tokens[@]}]}
		op=$((RANDOM % 5))
		case $op in
		0) w[i]=$t ;;
		1) w=("${w[@]:0:i}" "${w[@]:i+1}") ;;
		2) w=("${w[@]:0:i+1}" "${w[@]:i}") ;;
		3) w=("${w[@]:0:i}" "$t" "${w[@]:i}") ;;
		4) [ $((i + 1)) -lt ${#w[@]} ] &&
			w=("${w[@]:0:i}" "${w[i+1]}" "${w[i]}" "${w[@]:i+2}") ;;
		esac
	done
	mutated="${w[*]}"
}

accepted=0 refused=0 members=0 outside=0
for ((c = 0; c < cases; c++)); do
	# The good lines themselves first: their round trip is checked too.
	if [ $c -lt ${#bases[@]} ]; then
		line=${bases[c]}
	else
		mutate "${bases[RANDOM % ${#bases[@]}]}"
		line=$mutated
	fi
	dmesg_mark
	if dmsetup create fz --table "$line" >/dev/null 2>&1; then
		ktable=$(dmsetup table fz)
		dmsetup remove fz
		rc_out=$(raidcalc geom -- $line 2>&1) ||
			fail "kernel took '$line', raidcalc refused: $rc_out"
		# The kernel's own line, devices as major:minor, is a fixed point.
		want="table ${ktable#* * }"
		got=$(raidcalc geom -- $ktable 2>&1 | grep '^table ') ||
			fail "raidcalc refused the kernel's table '$ktable'"
		assert_eq "$got" "$want" "raidcalc's form of '$ktable'"
		accepted=$((accepted + 1))
		continue
	fi
	dmsetup info fz >/dev/null 2>&1 && fail "refused '$line' left device fz behind"
	# "device-mapper: table: 253:0: fanraid: <ti->error> (-EINVAL)"
	kerr=$(dmesg_since | sed -n 's/.*device-mapper: table: [0-9:]*: fanraid: \(.*\) (-E[A-Z0-9]*)$/\1/p' |
		head -n 1)
	if [ -z "$kerr" ] || [[ $kerr =~ $core_errors ]]; then
		# dmsetup or the DM core refused it before fanraid saw it.
		outside=$((outside + 1))
		continue
	fi
	# The kernel checks each member as it parses its pair, so a later
	# pair's syntax may be wrong too: raidcalc may then say either.
	if [[ $kerr =~ $member_errors ]]; then
		members=$((members + 1))
		continue
	fi
	rc_out=$(raidcalc geom -- $line 2>&1) &&
		fail "kernel refused '$line' ($kerr), raidcalc took it"
	[[ $rc_out == *"$kerr"* ]] ||
		fail "'$line': kernel said '$kerr', raidcalc said '$rc_out'"
	refused=$((refused + 1))
done
log "$accepted taken by both, $refused refused by both with one message," \
	"$members refused for their members, $outside refused before fanraid"
[ $accepted -ge ${#bases[@]} ] && [ $refused -gt $((cases / 4)) ] ||
	fail "the mutations stopped exercising the parser"

# After all of that the module still takes a good line and moves data.
dm_create good "${bases[0]}"
head -c 1M /dev/urandom >/tmp/fz
dd if=/tmp/fz of=/dev/mapper/good bs=64k oflag=direct status=none
assert_eq "$(head -c 1M /dev/mapper/good | sha256sum)" "$(sha256sum </tmp/fz)" "data after fuzzing"
dm_remove good
