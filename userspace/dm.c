/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libdevmapper wrappers, one per verb, in cryptsetup's shape: create task,
 * set name/uuid, add target, set cookie, run, wait on the cookie if one was
 * set, destroy the task. The steps every verb shares live in the task_*()
 * helpers below so each wrapper only says what is particular to its verb.
 * libdm answers 1/0; the helpers turn that into 0/-errno on the spot so
 * nothing above this file mixes the two conventions.
 *
 * udev: a cookie is always requested. When udev runs, dm_udev_wait() waits
 * for its rules to create /dev/mapper/<name>. When it does not (the test VM
 * sets DM_DISABLE_UDEV=1), libdm notices, creates the node itself and the
 * wait returns at once, so one code path serves both.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * A task of @type aimed at @name (none for the verbs that list). On failure
 * nothing is left to destroy.
 */
static int task_new(int type, const char *name, struct dm_task **dmtp)
{
	struct dm_task *dmt;

	dmt = dm_task_create(type);
	if (!dmt)
		return -FR_DM_ENOTASK;
	if (name && !dm_task_set_name(dmt, name)) {
		dm_task_destroy(dmt);
		return -ENOMEM;
	}
	*dmtp = dmt;
	return 0;
}

/* For a task whose setup libdm refused; it fails only when out of memory. */
static int task_abandon(struct dm_task *dmt)
{
	dm_task_destroy(dmt);
	return -ENOMEM;
}

/*
 * Runs a task that changes something, then destroys it. @udev: the change
 * adds or removes a node, so wait for /dev/mapper to catch up before the
 * caller uses the name.
 */
static int task_run(struct dm_task *dmt, bool udev)
{
	uint32_t cookie = 0;
	int ret;

	if (udev && !dm_task_set_cookie(dmt, &cookie, 0)) {
		dm_task_destroy(dmt);
		return -EIO;
	}
	ret = dm_task_run(dmt) ? 0 : task_err(dmt, EIO);
	if (udev)
		dm_udev_wait(cookie);
	dm_task_destroy(dmt);
	return ret;
}

/*
 * Runs a task that only asks, and leaves the answered task for the caller
 * to read and destroy. @open_count: the answer must include how often the
 * device is open, which the kernel otherwise need not count.
 */
static int task_query(int type, const char *name, bool open_count,
		      struct dm_task **dmtp)
{
	struct dm_task *dmt;
	int ret;

	ret = task_new(type, name, &dmt);
	if (ret)
		return ret;
	if (!open_count && !dm_task_no_open_count(dmt))
		return task_abandon(dmt);
	if (!dm_task_run(dmt)) {
		ret = task_err(dmt, EIO);
		dm_task_destroy(dmt);
		return ret;
	}
	*dmtp = dmt;
	return 0;
}

static int create_typed(const char *name, const char *uuid, uint64_t len,
			const char *type, const char *params,
			uint32_t read_ahead)
{
	struct dm_task *dmt;
	int ret;

	ret = task_new(DM_DEVICE_CREATE, name, &dmt);
	if (ret)
		return ret;
	if ((uuid && !dm_task_set_uuid(dmt, uuid)) ||
	    !dm_task_add_target(dmt, 0, len, type, params))
		return task_abandon(dmt);
	/*
	 * Exactly the recorded value (no MINIMUM flag): `fanraid set` may
	 * have chosen less than the kernel's default of two stripes.
	 */
	if (read_ahead && !dm_task_set_read_ahead(dmt, read_ahead, 0))
		return task_abandon(dmt);
	return task_run(dmt, true);
}

int fr_dm_create(const char *name, const char *uuid, uint64_t len,
		 const char *params, uint32_t read_ahead)
{
	return create_typed(name, uuid, len, FR_TARGET_NAME, params,
			    read_ahead);
}

/* A device of other targets, one after another from sector 0. */
int fr_dm_create_other(const char *name, const struct fr_dm_seg *segs,
		       unsigned int n)
{
	struct dm_task *dmt;
	uint64_t start = 0;
	unsigned int i;
	int ret;

	ret = task_new(DM_DEVICE_CREATE, name, &dmt);
	if (ret)
		return ret;
	for (i = 0; i < n; start += segs[i++].len)
		if (!dm_task_add_target(dmt, start, segs[i].len, segs[i].type,
					segs[i].params))
			return task_abandon(dmt);
	return task_run(dmt, true);
}

/*
 * Loads @params into the inactive table slot of a running device; nothing
 * changes until fr_dm_resume() swaps it in. No cookie: no node changes.
 */
int fr_dm_reload(const char *name, uint64_t len, const char *params)
{
	struct dm_task *dmt;
	int ret;

	ret = task_new(DM_DEVICE_RELOAD, name, &dmt);
	if (ret)
		return ret;
	if (!dm_task_add_target(dmt, 0, len, FR_TARGET_NAME, params))
		return task_abandon(dmt);
	return task_run(dmt, false);
}

/*
 * A command that changes a running array reads its table, health or
 * blocks, then writes blocks or loads a table built from them. Two such
 * commands at once could undo each other's work, or what the kernel
 * recorded between them: a suspend succeeds at once on a suspended device
 * (dm does nothing), and any process may resume or swap a table in. So
 * each one holds the array's lock in FR_RUN_DIR from its first read to
 * its resume (fr_dm_lock(); fr_dm_suspend() takes it too, held until the
 * resume that ends the suspend), and a second command waits for it.
 *
 * Meanwhile memory stays locked, as LVM locks it: with the array
 * suspended, a page fault that needs I/O from it (the tool's own pages or
 * a swap there, with / on it) would wait for the resume only this process
 * can give. The counts span nested windows of one array.
 */
#define FR_RUN_DIR	"/run/fanraid"

static unsigned int lock_depth, suspend_holds;
static int lock_fd = -1;

void fr_dm_lock(const char *name)
{
	char path[sizeof(FR_RUN_DIR) + 128];

	if (lock_depth++)
		return;
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "warning: locking memory failed: %s\n",
			strerror(errno));
	mkdir("/run", 0755);
	mkdir(FR_RUN_DIR, 0700);
	snprintf(path, sizeof(path), "%s/%s.lock", FR_RUN_DIR, name);
	lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock_fd >= 0 && !flock(lock_fd, LOCK_EX | LOCK_NB))
		return;
	if (lock_fd >= 0 && errno == EWOULDBLOCK) {
		fprintf(stderr, "%s: waiting for another fanraid command on the array\n",
			name);
		if (!flock(lock_fd, LOCK_EX))
			return;
	}
	fprintf(stderr, "warning: %s: cannot lock: %s\n", path,
		strerror(errno));
}

void fr_dm_unlock(void)
{
	if (!lock_depth || --lock_depth)
		return;
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
	munlockall();
}

/*
 * Swaps in a table loaded by fr_dm_reload() (the kernel suspends first),
 * or resumes what fr_dm_suspend() held. A failed resume lets the lock go
 * too: a long-running monitor must not hold it for good.
 */
int fr_dm_resume(const char *name)
{
	struct dm_task *dmt;
	int ret;

	ret = task_new(DM_DEVICE_RESUME, name, &dmt);
	if (!ret)
		ret = task_run(dmt, true);
	if (suspend_holds) {
		suspend_holds--;
		fr_dm_unlock();
	}
	return ret;
}

/*
 * Holds new I/O and waits for what is in flight (a grow's first rows). No
 * udev cookie: a suspend sends no uevent, and a wait for one never ends.
 */
int fr_dm_suspend(const char *name)
{
	struct dm_task *dmt;
	int ret;

	fr_dm_lock(name);
	ret = task_new(DM_DEVICE_SUSPEND, name, &dmt);
	if (!ret)
		ret = task_run(dmt, false);
	if (ret)
		fr_dm_unlock();
	else
		suspend_holds++;
	return ret;
}

int fr_dm_remove(const char *name)
{
	struct dm_task *dmt;
	int ret;

	ret = task_new(DM_DEVICE_REMOVE, name, &dmt);
	if (ret)
		return ret;
	/* udev's blkid may hold the device open for a moment after a change */
	if (!dm_task_retry_remove(dmt))
		return task_abandon(dmt);
	return task_run(dmt, true);
}

/*
 * Fetches the INFO or TABLE line of the first target @want. -ENXIO when
 * the device does not exist, -EMEDIUMTYPE when it holds none, or (@alone)
 * holds anything else too.
 */
static int status_typed(const char *name, enum fr_dm_status_kind kind,
			const char *want, bool alone, struct fr_dm_target *tgt)
{
	struct dm_task *dmt;
	struct dm_info info;
	uint64_t start, len;
	char *type = NULL, *params = NULL;
	void *next;
	int ret;

	ret = task_query(kind == FR_DM_TABLE ? DM_DEVICE_TABLE :
			 DM_DEVICE_STATUS, name, false, &dmt);
	if (ret)
		return ret;
	ret = -EIO;
	if (!dm_task_get_info(dmt, &info))
		goto out;
	ret = -ENXIO;
	if (!info.exists)
		goto out;
	ret = -EMEDIUMTYPE;
	next = dm_get_next_target(dmt, NULL, &start, &len, &type, &params);
	while (!alone && next && (!type || strcmp(type, want)))
		next = dm_get_next_target(dmt, next, &start, &len, &type,
					  &params);
	if ((alone && next) || !type || strcmp(type, want))
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

int fr_dm_status(const char *name, enum fr_dm_status_kind kind,
		 struct fr_dm_target *tgt)
{
	return status_typed(name, kind, FR_TARGET_NAME, true, tgt);
}

/* The same for the first target @type, among any others. */
int fr_dm_status_other(const char *name, enum fr_dm_status_kind kind,
		       const char *type, struct fr_dm_target *tgt)
{
	return status_typed(name, kind, type, false, tgt);
}

/* Sends `dmsetup message <name> 0 <msg>`. */
int fr_dm_message(const char *name, const char *msg)
{
	struct dm_task *dmt;
	int ret;

	ret = task_new(DM_DEVICE_TARGET_MSG, name, &dmt);
	if (ret)
		return ret;
	if (!dm_task_set_sector(dmt, 0) || !dm_task_set_message(dmt, msg))
		return task_abandon(dmt);
	return task_run(dmt, false);
}

/* info->exists is false, and 0 returned, for a name that is not there. */
int fr_dm_info(const char *name, struct fr_dm_info *info)
{
	struct dm_task *dmt;
	struct dm_info dmi;
	const char *uuid;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = task_query(DM_DEVICE_INFO, name, true, &dmt);
	if (ret)
		return ret;
	ret = -EIO;
	if (!dm_task_get_info(dmt, &dmi))
		goto out;
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
	int ret;

	ret = task_query(DM_DEVICE_LIST, NULL, true, &dmt);
	if (ret)
		return ret;
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
	int ret;

	ret = task_query(DM_DEVICE_LIST_VERSIONS, NULL, true, &dmt);
	if (ret)
		return ret;
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
