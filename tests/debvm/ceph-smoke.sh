#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ceph-smoke.sh: `make ceph-smoke`, part of `make check`. One boot of the
# storage VM (storage.sh ceph) with bench/ceph/guest.sh in smoke mode: a
# mon, a mgr and one BlueStore OSD on a fanraid RAID6 of six members,
# `rados put`/`get` of 64 MiB byte-exact and HEALTH_OK. The benches are
# `make ceph-bench`'s. CEPH_SMOKE_BUDGET caps the boot (seconds).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=${BUILD:-$(cd "$here/../.." && pwd)/build}/debvm
mkdir -p "$dir"
t0=$(date +%s)
rc=0
CEPH_SMOKE=1 CEPH_CONFIGS=${CEPH_CONFIGS:-fanraid-raid6:passthrough} \
	"$here/storage.sh" ceph "${CEPH_SMOKE_BUDGET:-1500}" | tee "$dir/ceph-smoke.last" || rc=$?
logs=$(sed -n 's/^storage: ceph, logs in \([^ ]*\) .*/\1/p' "$dir/ceph-smoke.last")
res=${logs:+$logs/ceph.results}
if [ -n "$res" ] && [ -f "$res" ]; then
	grep -E '^(ok|not ok) - |^# (mon and mgr|smoke|fanraid)' "$res" || true
	# both checks must have run and passed, not only no failure seen
	[ "$(grep -c '^ok - ' "$res")" -ge 2 ] || rc=1
	if [ $rc != 0 ]; then
		echo "ceph-smoke: failed; the guest's last lines:"
		tail -n 25 "$res" | sed 's/^/  | /'
		[ -f "$logs/ceph.console" ] && tail -n 25 "$logs/ceph.console" | sed 's/^/  console | /'
	fi
else
	echo "ceph-smoke: no results" >&2
	rc=1
fi
echo "# ceph-smoke: $(($(date +%s) - t0)) s, $([ $rc = 0 ] && echo pass || echo FAIL)"
exit $rc
