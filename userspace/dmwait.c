/* SPDX-License-Identifier: GPL-2.0-only */
/* DM_DEVICE_WAITEVENT through libdevmapper (dmwait.h). */
#include <errno.h>

#include <libdevmapper.h>

#include "dmwait.h"

static int run(int type, const char *name, uint32_t event_nr,
	       uint32_t *out_nr)
{
	struct dm_task *dmt = dm_task_create(type);
	struct dm_info info;
	int ret = -ENOMEM;

	if (!dmt)
		return ret;
	ret = -EINVAL;
	if (!dm_task_set_name(dmt, name) ||
	    (type == DM_DEVICE_WAITEVENT && !dm_task_set_event_nr(dmt, event_nr)))
		goto out;
	if (!dm_task_run(dmt)) {
		ret = dm_task_get_errno(dmt) ? -dm_task_get_errno(dmt) : -EIO;
		goto out;
	}
	ret = -ENXIO;
	if (!dm_task_get_info(dmt, &info) || !info.exists)
		goto out;
	if (out_nr)
		*out_nr = info.event_nr;
	ret = 0;
out:
	dm_task_destroy(dmt);
	return ret;
}

int fr_dm_event_nr(const char *name, uint32_t *event_nr)
{
	return run(DM_DEVICE_INFO, name, 0, event_nr);
}

/*
 * Returns once the device's event counter has moved past @event_nr (at
 * once if it already has), or -ENXIO when the device is gone: removal
 * raises an event after the name is unhashed, so a waiter never holds a
 * removal up.
 */
int fr_dm_wait_event(const char *name, uint32_t event_nr)
{
	return run(DM_DEVICE_WAITEVENT, name, event_nr, NULL);
}
