/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid stop NAME: remove the dm device, then mark every member's
 * superblock clean. The table is read first because it is the only record
 * of which devices were members once the device is gone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dm.h"
#include "probe.h"
#include "status.h"
#include "table.h"

static int stop(const struct fr_opts *o)
{
	const char *name = o->argv[0];
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	struct fr_member m[FR_MAX_DEVS], *slots[FR_MAX_DEVS];
	uint8_t uuid[FR_UUID_LEN];
	uint64_t len, failed = 0, newest = 0;
	struct fr_dm_target tgt;
	struct fr_dm_info info;
	struct fr_status st;
	struct fr_table t;
	uint32_t i, expected = 0;
	bool health_known = false, resyncing;
	int ret, opened;

	if (fr_array_open(name, &t, &len, uuid))
		return FR_EXIT_FAIL;
	/* refuse at once rather than let remove retry for seconds */
	if (!fr_dm_info(name, &info) && info.open_count > 0) {
		fr_err("%s: device is busy (mounted or open %d time%s); not stopped",
		       name, info.open_count, info.open_count == 1 ? "" : "s");
		return FR_EXIT_FAIL;
	}
	/*
	 * While the array ran, the target's health chars are the truth:
	 * members it gave up on (D), had not finished rebuilding (a) or never
	 * had (missing) hold stale data and are recorded as failed; members
	 * it had in sync (A) are healthy, even if a replace just rebuilt them.
	 */
	if (!fr_dm_status(name, FR_DM_INFO, &tgt) &&
	    !fr_status_parse(tgt.params, &st) && st.ndevs == t.ndevs) {
		health_known = true;
		for (i = 0; i < t.ndevs; i++)
			if (st.health[i] != 'A')
				failed |= 1ull << i;
	} else {
		fr_warn("%s: cannot read member health; keeping the recorded failures",
			name);
	}
	ret = fr_dm_remove(name);
	if (ret) {
		if (ret == -EBUSY)
			fr_err("%s: device is busy (mounted or open); not stopped",
			       name);
		else
			fr_err("%s: removing the device failed: %s", name,
			       strerror(-ret));
		return FR_EXIT_FAIL;
	}
	opened = fr_members_from_table(&t, uuid, FR_OPEN_EXCL, m, paths);
	/*
	 * The kernel's last update, read now, may name a member that failed
	 * after the health was read (a resync's read, until the removal):
	 * that member must not be written level with the others.
	 */
	for (i = 0; i < t.ndevs; i++) {
		slots[i] = &m[i];
		if (m[i].fd >= 0 && m[i].sb.events > newest)
			newest = m[i].sb.events;
	}
	for (i = 0; i < t.ndevs; i++)
		if (m[i].fd >= 0 && (!health_known || m[i].sb.events == newest))
			failed |= m[i].sb.failed_mask;
	if (t.level == FR_LEVEL_RAID0)
		failed = 0;	/* nothing to record: raid0 has no degraded mode */
	/*
	 * A grow stopped: what its copy completed is recorded, once flushed
	 * on every member, so the next assemble goes on from there.
	 */
	if (t.reshape && health_known && st.reshape &&
	    opened == (int)t.ndevs) {
		bool flushed = true;

		for (i = 0; i < t.ndevs; i++)
			flushed &= !fsync(m[i].fd);
		for (i = 0; flushed && i < t.ndevs; i++)
			if (m[i].sb.reshape_position < st.reshape_done)
				m[i].sb.reshape_position = st.reshape_done;
	}
	/* a failed member keeps its old events, so assemble can spot it */
	for (i = 0; i < t.ndevs; i++) {
		if (failed >> i & 1) {
			if (m[i].fd >= 0)
				opened--;
			fr_member_close(&m[i]);
		} else if (!t.devs[i].missing) {
			expected++;
		}
	}
	/*
	 * parity not fully resynced yet: stay dirty so assemble resyncs again
	 * (a raid6 grow holds its resync back until the copy ends)
	 */
	resyncing = !health_known || !strcmp(st.action, "resync") ||
		    (t.reshape && t.resync);
	if (resyncing && t.level == FR_LEVEL_RAID6)
		fr_warn("%s: stopped before the parity resync finished; the next assemble resyncs again",
			name);
	/* only members in sync are written: none is being rebuilt any more */
	ret = fr_members_write(slots, t.ndevs, 0,
			       (resyncing && t.level == FR_LEVEL_RAID6 ? 0 :
				FR_SB_STATE_DIRTY) | FR_SB_STATE_REBUILDING,
			       failed, health_known ? ~failed : 0);
	for (i = 0; i < t.ndevs; i++)
		fr_member_close(&m[i]);
	if (ret || opened != (int)expected) {
		fr_err("%s: stopped, but %d of %u superblocks could not be marked clean",
		       name, (int)expected - opened, expected);
		return FR_EXIT_FAIL;
	}
	printf("%s: stopped; %u members marked %s\n", name, expected,
	       resyncing && t.level == FR_LEVEL_RAID6 ? "dirty" : "clean");
	return FR_EXIT_OK;
}

/* The array's lock (fr_dm_lock()): no other command's window in between. */
int fr_cmd_stop(const struct fr_opts *o)
{
	int rc;

	fr_dm_lock(o->argv[0]);
	rc = stop(o);
	fr_dm_unlock();
	return rc;
}
