#!/bin/bash
# Exercise the runner's handling of a dead VM: a kernel crash mid-scenario is reported as a failure, not lost.
# expect: fail
# group: selftest-crash
# timeout: 30
. "${0%/*}/lib.sh"

echo c >/proc/sysrq-trigger
sleep 30
