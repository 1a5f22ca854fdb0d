#!/bin/bash
# Exercise the dirty flag: a raid6 array that went away without fanraid stop is reported unclean at the next assemble and loaded with resync; a raid0 one is only reported.
# group: tool
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(nullb_create_many 6 32)
on_exit 'fanraid stop u6 >/dev/null 2>&1 || true; fanraid stop u0 >/dev/null 2>&1 || true'

fanraid create u6 --level 6 --chunk 16K "${devs[0]}" "${devs[1]}" "${devs[2]}" "${devs[3]}"
fanraid_wait_idle u6 120
head -c 8M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/u6 bs=1M oflag=direct status=none
# Gone without the tool, as after a crash: the superblocks stay dirty.
dmsetup remove u6
assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty"

out=$(fanraid assemble u6 2>&1)
echo "$out"
assert_contains "$out" "u6: was not stopped cleanly; resyncing parity"
assert_contains "$(dmsetup table u6)" " resync 4 "
fanraid_wait_idle u6 120
cmp <(head -c 8M /dev/mapper/u6) /tmp/data
table=$(dmsetup table u6)
fanraid stop u6
assert_contains "$(fanraid examine "${devs[0]}")" "state: clean"
if have_cmd raidcalc; then
	drop_caches
	# shellcheck disable=SC2086
	raidcalc verify $table
fi

# A clean stop means no resync next time.
fanraid assemble u6
case "$(dmsetup table u6)" in *resync*) fail "resync after a clean stop: $(dmsetup table u6)" ;; esac
fanraid stop u6

# raid0 has no parity to resync: the unclean stop is only reported.
fanraid create u0 --level 0 "${devs[4]}" "${devs[5]}"
dmsetup remove u0
out=$(fanraid assemble u0 2>&1)
echo "$out"
assert_contains "$out" "u0: was not stopped cleanly"
fanraid stop u0
