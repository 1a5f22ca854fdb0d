#!/bin/bash
# fanraid.conf and what other programs read: examine --export prints the udev keys (fanraid_member, array UUID, label) and nothing on a non-member; examine --scan prints ARRAY lines; assemble --scan honours ARRAY with AUTO no and the DEVICE filter; --version.
# group: tool
# timeout: 300
. "${0%/*}/lib.sh"

have_target fanraid 1 0 0 || skip "target fanraid missing"
have_cmd fanraid || skip "fanraid missing"

assert_contains "$(fanraid --version)" "fanraid "

mapfile -t a < <(nullb_create_many 3 16)
mapfile -t b < <(nullb_create_many 2 16)
other=$(nullb_create_many 1 16)
on_exit 'fanraid stop ca >/dev/null 2>&1; fanraid stop cb >/dev/null 2>&1; true'
fanraid create ca --level 0 --chunk 16K "${a[@]}"
fanraid create cb --level 0 --chunk 16K "${b[@]}"
ua=$(fanraid examine --json "${a[0]}" | jq -r .array_uuid)
mu=$(fanraid examine --json "${a[1]}" | jq -r .member_uuid)

# udev keys: md's shape, so lsblk -f shows a RAID member
out=$(fanraid examine --export "${a[1]}")
echo "$out"
assert_contains "$out" "ID_FS_TYPE=fanraid_member"
assert_contains "$out" "ID_FS_USAGE=raid"
assert_contains "$out" "ID_FS_UUID=$ua"
assert_contains "$out" "ID_FS_UUID_SUB=$mu"
assert_contains "$out" "ID_FS_LABEL=ca"
assert_contains "$out" "FANRAID_SLOT=1"
assert_contains "$out" "FANRAID_DEVICES=3"
assert_contains "$out" "FANRAID_LEVEL=raid0"
# every line is KEY=value, as udev's IMPORT{program} reads them
echo "$out" | grep -qv '^[A-Z_][A-Z0-9_]*=[^ ]*$' && fail "a line is not KEY=value: $out"
# a blank device: nothing to import, and no error for udev to log
out=$(fanraid examine --export "$other")
assert_eq "$out" "" "export of a non-member"

# examine --scan: one ARRAY line per array, whichever member it met first
fanraid examine --scan | tee /tmp/scan
assert_eq "$(grep -c '^ARRAY ' /tmp/scan)" 2 "ARRAY lines"
grep -qx "ARRAY ca UUID=$ua level=raid0 devices=3" /tmp/scan || fail "no ARRAY line for ca"
fanraid stop ca
fanraid stop cb

# ARRAY names ca only, AUTO no: cb is found but left alone
{ grep '^ARRAY ca ' /tmp/scan; echo "AUTO no"; } >/tmp/only-ca.conf
out=$(fanraid assemble --scan --config /tmp/only-ca.conf)
echo "$out"
assert_contains "$out" "ca: assembled raid0"
assert_contains "$out" "cb: not in /tmp/only-ca.conf (AUTO no), skipped"
dmsetup info cb >/dev/null 2>&1 && fail "cb assembled although AUTO no"
fanraid stop ca

# the same through FANRAID_CONF; a broken file stops the scan
printf 'ARRAY ca UUID=not-a-uuid\n' >/tmp/bad.conf
rc=0
out=$(FANRAID_CONF=/tmp/bad.conf fanraid assemble --scan 2>&1) || rc=$?
echo "$out"
assert_eq "$rc" 1 "exit code with a broken fanraid.conf"
assert_contains "$out" "/tmp/bad.conf:1: ARRAY: invalid word"

# DEVICE: only two of ca's members may be looked at, so ca cannot start;
# cb's devices are globbed in and it starts
printf 'DEVICE %s %s\nDEVICE /dev/nullb[%s%s]\n' "${a[0]}" "${a[1]}" \
	"${b[0]#/dev/nullb}" "${b[1]#/dev/nullb}" >/tmp/dev.conf
cat /tmp/dev.conf
rc=0
out=$(fanraid assemble --scan --config /tmp/dev.conf 2>&1) || rc=$?
echo "$out"
assert_contains "$out" "cb: assembled raid0"
dmsetup info ca >/dev/null 2>&1 && fail "ca assembled from two of three members"
assert_eq "$rc" 1 "exit code when ca cannot assemble"
fanraid stop cb
