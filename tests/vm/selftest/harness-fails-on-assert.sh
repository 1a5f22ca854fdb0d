#!/bin/bash
# Exercise the runner's failure report: an assertion that cannot hold fails the scenario.
# expect: fail
# group: selftest
# timeout: 30
. "${0%/*}/lib.sh"

assert_eq 1 2 "planted by the runner self-test"
