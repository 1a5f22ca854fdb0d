#!/bin/bash
# Exercise the skip rule: a scenario that skips without a may-skip line fails the run.
# expect: fail
# group: selftest
# timeout: 30
. "${0%/*}/lib.sh"

skip "pretending the module is missing"
