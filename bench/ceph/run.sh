#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run.sh: `make ceph-bench`: one boot of the storage VM (tests/debvm/storage.sh
# ceph) runs bench/ceph/guest.sh (a one-node Ceph 16, its OSD on each array
# in turn, rados bench write/seq/rand at 16 x 4 MiB), then table.py makes
# docs/benchmarking.md's table (build/debvm/logs/<run>/ceph.table) and
# plot.sh the per-second plots (ceph-write.png, ceph-seq.png, ceph-rand.png).
# CEPH_CONFIGS narrows the run, CEPH_BENCH_SECONDS sets each bench's length
# (default 20), CEPH_BUDGET caps the boot.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dir=${BUILD:-$top/build}/debvm
mkdir -p "$dir"
t0=$(date +%s)
rc=0
"$top/tests/debvm/storage.sh" ceph "${CEPH_BUDGET:-3600}" | tee "$dir/ceph.last" || rc=$?
logs=$(sed -n 's/^storage: ceph, logs in \([^ ]*\) .*/\1/p' "$dir/ceph.last")
[ -n "$logs" ] && [ -f "$logs/ceph.results" ] || { echo "ceph-bench: no results" >&2; exit 1; }
grep -E '^(ok|not ok) - ' "$logs/ceph.results" || true
python3 "$here/table.py" "$logs/ceph.results" | tee "$logs/ceph.table" || rc=1
"$here/plot.sh" "$logs/ceph.results" "$logs" || echo "ceph-bench: no plot" >&2
echo "# ceph-bench: $(($(date +%s) - t0)) s, table in $logs/ceph.table"
exit $rc
