#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh: `make fstests` after the build: one boot of the storage VM
# (tests/debvm/storage.sh fstests) runs tests/fstests/subset.list on every
# configuration, then table.py turns its results into docs/testing.md's
# table (build/debvm/logs/<run>/fstests.table). It fails when fanraid fails
# a test that its control (dm-stripe for RAID0, md for RAID6) passes.
# FSTESTS_CONFIGS and FSTESTS_FS narrow a run; FSTESTS_BUDGET caps it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dir=${BUILD:-$top/build}/debvm
t0=$(date +%s)
rc=0
"$top/tests/debvm/storage.sh" fstests "${FSTESTS_BUDGET:-5400}" | tee "$dir/fstests.last" || rc=$?
logs=$(sed -n 's/^storage: fstests, logs in \([^ ]*\) .*/\1/p' "$dir/fstests.last")
[ -n "$logs" ] && [ -f "$logs/fstests.results" ] || { echo "fstests: no results" >&2; exit 1; }
python3 "$here/table.py" "$logs/fstests.results" | tee "$logs/fstests.table" || rc=1
grep -q '^@@ END pass' "$logs/fstests.results" || rc=1
echo "# fstests: $(($(date +%s) - t0)) s, table in $logs/fstests.table"
exit $rc
