/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libdevmapper wrappers, one per verb, in cryptsetup's shape: create task,
 * set name/uuid, add target, set cookie, run, then one `out:` that waits on
 * the cookie if one was set and destroys the task. libdm answers 1/0; each
 * wrapper turns that into 0/-errno on the spot so nothing above this file
 * mixes the two conventions.
 *
 * udev: a cookie is always requested. When udev runs, dm_udev_wait() waits
 * for its rules to create /dev/mapper/<name>. When it does not (the test VM
 * sets DM_DISABLE_UDEV=1), libdm notices, creates the node itself and the
 * wait returns at once, so one code path serves both.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdevmapper.h>

#include "dm.h"

/*
 * libdm's own messages ("remove ioctl on x failed: ...", once per retry)
 * would repeat, less precisely, what the wrappers' callers say with the
 * device name; FANRAID_DEBUG=1 lets them through for debugging.
 */
static void fr_dm_log(int level, const char *file, int line, int dm_errno,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void fr_dm_log(int level, const char *file, int line, int dm_errno,
		      const char *fmt, ...)
{
	va_list ap;

	(void)level;
	(void)file;
	(void)line;
	(void)dm_errno;
	if (!getenv("FANRAID_DEBUG"))
		return;
	va_start(ap, fmt);
	fputs("libdevmapper: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void fr_dm_init(void)
{
	dm_log_with_errno_init(fr_dm_log);
}

/* The kernel's errno for the last ioctl, or @fallback when libdm has none. */
static int task_err(struct dm_task *dmt, int fallback)
{
	int err = dmt ? dm_task_get_errno(dmt) : 0;

	return err > 0 ? -err : -fallback;
}

/*
 * dm_task_create() returns NULL when /dev/mapper/control cannot be opened
 * (no device-mapper in the kernel) far more often than on allocation
 * failure, so that is the error it reports.
 */
#define FR_DM_ENOTASK	ENODEV

int fr_dm_create(const char *name, const char *uuid, uint64_t len,
		 const char *params, uint32_t read_ahead)
{
	struct dm_task *dmt;
	uint32_t cookie = 0;
	bool cookie_set = false;
	int ret = -ENOMEM;

	dmt = dm_task_create(DM_DEVICE_CREATE);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_set_name(dmt, name) || !dm_task_set_uuid(dmt, uuid))
		goto out;
	if (!dm_task_add_target(dmt, 0, len, FR_TARGET_NAME, params))
		goto out;
	/*
	 * Exactly the recorded value (no MINIMUM flag): `fanraid set` may
	 * have chosen less than the kernel's default of two stripes.
	 */
	if (read_ahead && !dm_task_set_read_ahead(dmt, read_ahead, 0))
		goto out;
	if (!dm_task_set_cookie(dmt, &cookie, 0)) {
		ret = -EIO;
		goto out;
	}
	cookie_set = true;
	ret = dm_task_run(dmt) ? 0 : task_err(dmt, EIO);
out:
	if (cookie_set)
		dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ret;
}

/*
 * Loads @params into the inactive table slot of a running device; nothing
 * changes until fr_dm_resume() swaps it in. No cookie: no node changes.
 */
int fr_dm_reload(const char *name, uint64_t len, const char *params)
{
	struct dm_task *dmt;
	int ret = -ENOMEM;

	dmt = dm_task_create(DM_DEVICE_RELOAD);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_set_name(dmt, name))
		goto out;
	if (!dm_task_add_target(dmt, 0, len, FR_TARGET_NAME, params))
		goto out;
	ret = dm_task_run(dmt) ? 0 : task_err(dmt, EIO);
out:
	dm_task_destroy(dmt);
	return ret;
}

/* Swaps in a table loaded by fr_dm_reload(); the kernel suspends first. */
int fr_dm_resume(const char *name)
{
	struct dm_task *dmt;
	uint32_t cookie = 0;
	bool cookie_set = false;
	int ret = -ENOMEM;

	dmt = dm_task_create(DM_DEVICE_RESUME);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_set_name(dmt, name))
		goto out;
	if (!dm_task_set_cookie(dmt, &cookie, 0)) {
		ret = -EIO;
		goto out;
	}
	cookie_set = true;
	ret = dm_task_run(dmt) ? 0 : task_err(dmt, EIO);
out:
	if (cookie_set)
		dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ret;
}

int fr_dm_remove(const char *name)
{
	struct dm_task *dmt;
	uint32_t cookie = 0;
	bool cookie_set = false;
	int ret = -ENOMEM;

	dmt = dm_task_create(DM_DEVICE_REMOVE);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_set_name(dmt, name))
		goto out;
	/* udev's blkid may hold the device open for a moment after a change */
	if (!dm_task_retry_remove(dmt))
		goto out;
	if (!dm_task_set_cookie(dmt, &cookie, 0)) {
		ret = -EIO;
		goto out;
	}
	cookie_set = true;
	ret = dm_task_run(dmt) ? 0 : task_err(dmt, EIO);
out:
	if (cookie_set)
		dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ret;
}

/*
 * Fetches the INFO or TABLE line. -ENXIO when the device does not exist,
 * -EMEDIUMTYPE when it does not hold exactly one fanraid target.
 */
int fr_dm_status(const char *name, enum fr_dm_status_kind kind,
		 struct fr_dm_target *tgt)
{
	struct dm_task *dmt;
	struct dm_info info;
	uint64_t start, len;
	char *type = NULL, *params = NULL;
	void *next;
	int ret = -ENOMEM;

	dmt = dm_task_create(kind == FR_DM_TABLE ? DM_DEVICE_TABLE :
			     DM_DEVICE_STATUS);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_set_name(dmt, name) || !dm_task_no_open_count(dmt))
		goto out;
	if (!dm_task_run(dmt)) {
		ret = task_err(dmt, EIO);
		goto out;
	}
	if (!dm_task_get_info(dmt, &info)) {
		ret = -EIO;
		goto out;
	}
	ret = -ENXIO;
	if (!info.exists)
		goto out;
	ret = -EMEDIUMTYPE;
	next = dm_get_next_target(dmt, NULL, &start, &len, &type, &params);
	if (next || !type || strcmp(type, FR_TARGET_NAME))
		goto out;
	tgt->start = start;
	tgt->len = len;
	snprintf(tgt->type, sizeof(tgt->type), "%s", type);
	ret = -E2BIG;
	if (snprintf(tgt->params, sizeof(tgt->params), "%s",
		     params ? params : "") >= (int)sizeof(tgt->params))
		goto out;
	ret = 0;
out:
	dm_task_destroy(dmt);
	return ret;
}

/* Sends `dmsetup message <name> 0 <msg>`. */
int fr_dm_message(const char *name, const char *msg)
{
	struct dm_task *dmt;
	int ret = -ENOMEM;

	dmt = dm_task_create(DM_DEVICE_TARGET_MSG);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_set_name(dmt, name) || !dm_task_set_sector(dmt, 0) ||
	    !dm_task_set_message(dmt, msg))
		goto out;
	ret = dm_task_run(dmt) ? 0 : task_err(dmt, EIO);
out:
	dm_task_destroy(dmt);
	return ret;
}

/* info->exists is false, and 0 returned, for a name that is not there. */
int fr_dm_info(const char *name, struct fr_dm_info *info)
{
	struct dm_task *dmt;
	struct dm_info dmi;
	const char *uuid;
	int ret = -ENOMEM;

	memset(info, 0, sizeof(*info));
	dmt = dm_task_create(DM_DEVICE_INFO);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_set_name(dmt, name))
		goto out;
	if (!dm_task_run(dmt)) {
		ret = task_err(dmt, EIO);
		goto out;
	}
	if (!dm_task_get_info(dmt, &dmi)) {
		ret = -EIO;
		goto out;
	}
	ret = 0;
	if (!dmi.exists)
		goto out;
	info->exists = true;
	info->major = dmi.major;
	info->minor = dmi.minor;
	info->open_count = dmi.open_count;
	uuid = dm_task_get_uuid(dmt);
	snprintf(info->uuid, sizeof(info->uuid), "%s", uuid ? uuid : "");
out:
	dm_task_destroy(dmt);
	return ret;
}

/* Calls @fn for every device-mapper device; a non-zero return stops the walk. */
int fr_dm_list(fr_dm_list_fn fn, void *arg)
{
	struct dm_task *dmt;
	struct dm_names *names;
	unsigned int next = 0;
	int ret = -ENOMEM;

	dmt = dm_task_create(DM_DEVICE_LIST);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_run(dmt)) {
		ret = task_err(dmt, EIO);
		goto out;
	}
	names = dm_task_get_names(dmt);
	ret = -EIO;
	if (!names)
		goto out;
	ret = 0;
	if (!names->dev)
		goto out;
	do {
		names = (struct dm_names *)((char *)names + next);
		ret = fn(names->name, arg);
		if (ret)
			goto out;
		next = names->next;
	} while (next);
out:
	dm_task_destroy(dmt);
	return ret;
}

/*
 * Version of a loaded target. -ENOENT when the kernel does not list it (the
 * module is not loaded yet; loading a table may still autoload it).
 */
int fr_dm_target_version(const char *target, struct fr_version *v)
{
	struct dm_task *dmt;
	struct dm_versions *ver;
	unsigned int next = 0;
	int ret = -ENOMEM;

	dmt = dm_task_create(DM_DEVICE_LIST_VERSIONS);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (!dm_task_run(dmt)) {
		ret = task_err(dmt, EIO);
		goto out;
	}
	ver = dm_task_get_versions(dmt);
	ret = -ENOENT;
	if (!ver)
		goto out;
	do {
		ver = (struct dm_versions *)((char *)ver + next);
		if (!strcmp(ver->name, target)) {
			v->major = ver->version[0];
			v->minor = ver->version[1];
			v->patch = ver->version[2];
			ret = 0;
			goto out;
		}
		next = ver->next;
	} while (next);
out:
	dm_task_destroy(dmt);
	return ret;
}
