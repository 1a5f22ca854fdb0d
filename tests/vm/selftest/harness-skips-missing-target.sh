#!/bin/bash
# Exercise skip reporting: a missing capability is reported skipped, never passed.
# expect: skip
# may-skip: the planted target does not exist
# group: selftest
# timeout: 30
. "${0%/*}/lib.sh"

have_target no-such-target 1 0 0 || skip "target no-such-target missing"
fail "have_target found a target that does not exist"
