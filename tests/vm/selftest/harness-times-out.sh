#!/bin/bash
# Exercise the per-scenario time limit: a scenario that hangs is killed and failed.
# expect: fail
# group: selftest
# timeout: 5
. "${0%/*}/lib.sh"

sleep 60
