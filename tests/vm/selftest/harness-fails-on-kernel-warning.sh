#!/bin/bash
# Exercise the kernel log scan: a WARNING line in dmesg fails a scenario that exits 0.
# expect: fail
# group: selftest
# timeout: 30
. "${0%/*}/lib.sh"

echo "WARNING: planted by the runner self-test" >/dev/kmsg
