#!/bin/bash
# Exercise the dirty flag the kernel keeps: a raid6 array removed without fanraid stop while its resync still runs stays dirty and is resynced at the next assemble; removed once idle it is clean and needs none; a raid0 one (no kernel superblock) is only reported.
# group: tool
# timeout: 180
. "${0%/*}/lib.sh"

have_target fanraid 1 3 0 || skip "target fanraid 1.3.0 missing"
have_cmd fanraid || skip "fanraid missing"

mapfile -t devs < <(nullb_create_many 6 32)
on_exit 'fanraid stop u6 >/dev/null 2>&1 || true; fanraid stop u0 >/dev/null 2>&1 || true'

fanraid create u6 --level 6 --chunk 16K --bitmap none "${devs[0]}" "${devs[1]}" "${devs[2]}" "${devs[3]}"
fanraid_wait_idle u6 120
head -c 8M /dev/urandom >/tmp/data
dd if=/tmp/data of=/dev/mapper/u6 bs=1M oflag=direct status=none
# Restart the resync slowly, so it is still running when the device goes.
table=$(dmsetup table u6)
slow=$(echo "$table" | sed "s/fanraid raid6 32 [0-9]* .*superblock/fanraid raid6 32 4 max_sync_rate 100 resync superblock/")
assert_contains "$slow" "max_sync_rate 100 resync superblock"
dmsetup load u6 --table "$slow"
dmsetup resume u6
assert_contains "$(dmsetup status u6)" " resync "
# Gone without the tool, mid-resync: the kernel must leave it dirty.
dmsetup remove u6
assert_contains "$(fanraid examine "${devs[0]}")" "state: dirty"

out=$(fanraid assemble u6 2>&1)
echo "$out"
assert_contains "$out" "u6: was not stopped cleanly; resyncing parity"
assert_contains "$(dmsetup table u6)" " resync superblock 4 "
fanraid_wait_idle u6 120
cmp <(head -c 8M /dev/mapper/u6) /tmp/data
# Idle for longer than safe_mode_delay: the kernel has marked it clean.
sleep 1
assert_contains "$(dmsetup status u6)" " clean"
table=$(dmsetup table u6)
dmsetup remove u6
assert_contains "$(fanraid examine "${devs[0]}")" "state: clean"
if have_cmd raidcalc; then
	drop_caches
	# shellcheck disable=SC2086
	raidcalc verify $table
fi

# Removed clean: no resync next time, and a clean stop keeps it so.
out=$(fanraid assemble u6 2>&1)
echo "$out"
case "$out" in *"not stopped cleanly"*) fail "clean removal reported unclean: $out" ;; esac
case "$(dmsetup table u6)" in *resync*) fail "resync after a clean removal: $(dmsetup table u6)" ;; esac
fanraid stop u6
assert_contains "$(fanraid examine "${devs[0]}")" "state: clean"

# raid0 has no parity to resync and no kernel superblock: only reported.
fanraid create u0 --level 0 "${devs[4]}" "${devs[5]}"
dmsetup remove u0
out=$(fanraid assemble u0 2>&1)
echo "$out"
assert_contains "$out" "u0: was not stopped cleanly"
fanraid stop u0
