/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/dm.c with libdevmapper replaced by fakes (-Wl,--wrap, see
 * test_dm.mk): each wrapper runs the task steps in R15's order, waits on
 * the cookie on every path once one is set, destroys every task, and turns
 * libdm's 1/0 into 0/-errno.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libdevmapper.h>

#include "dm.h"

/* What the fake libdm does and what it saw. */
static struct {
	char calls[1024];	/* "create(1) name(fr0) uuid ..." */
	int task_type;
	bool create_fails;
	bool run_fails;
	int run_errno;
	bool exists;
	int created;
	int destroyed;
	uint32_t cookie_waited;
	int ntargets;
	const char *target_type;
	const char *params;
	uint64_t len;
	char message[64];
	uint64_t sector;
	unsigned char list[512] __attribute__((aligned(8)));
} fake;

static char fake_task;	/* the one dm_task pointer the fakes hand out */

static void note(const char *fmt, ...)
{
	size_t used = strlen(fake.calls);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fake.calls + used, sizeof(fake.calls) - used, fmt, ap);
	va_end(ap);
}

struct dm_task *__wrap_dm_task_create(int type)
{
	note("create(%d) ", type);
	fake.task_type = type;
	if (fake.create_fails)
		return NULL;
	fake.created++;
	return (struct dm_task *)&fake_task;
}

void __wrap_dm_task_destroy(struct dm_task *dmt)
{
	assert_ptr_equal(dmt, &fake_task);
	note("destroy");
	fake.destroyed++;
}

int __wrap_dm_task_set_name(struct dm_task *dmt, const char *name)
{
	(void)dmt;
	note("name(%s) ", name);
	return 1;
}

int __wrap_dm_task_set_uuid(struct dm_task *dmt, const char *uuid)
{
	(void)dmt;
	note("uuid(%s) ", uuid);
	return 1;
}

int __wrap_dm_task_add_target(struct dm_task *dmt, uint64_t start,
			      uint64_t size, const char *ttype,
			      const char *params)
{
	(void)dmt;
	note("target(%llu %llu %s %s) ", (unsigned long long)start,
	     (unsigned long long)size, ttype, params);
	return 1;
}

int __wrap_dm_task_set_read_ahead(struct dm_task *dmt, uint32_t ra,
				  uint32_t flags)
{
	(void)dmt;
	(void)flags;
	note("readahead(%u) ", ra);
	return 1;
}

int __wrap_dm_task_set_cookie(struct dm_task *dmt, uint32_t *cookie,
			      uint16_t flags)
{
	(void)dmt;
	(void)flags;
	*cookie = 0xc00c1e;
	note("cookie ");
	return 1;
}

int __wrap_dm_task_run(struct dm_task *dmt)
{
	(void)dmt;
	note("run ");
	return !fake.run_fails;
}

int __wrap_dm_udev_wait(uint32_t cookie)
{
	note("wait ");
	fake.cookie_waited = cookie;
	return 1;
}

int __wrap_dm_task_get_errno(struct dm_task *dmt)
{
	(void)dmt;
	return fake.run_errno;
}

int __wrap_dm_task_get_info(struct dm_task *dmt, struct dm_info *info)
{
	(void)dmt;
	memset(info, 0, sizeof(*info));
	info->exists = fake.exists;
	info->major = 253;
	info->minor = 7;
	info->open_count = 2;
	return 1;
}

const char *__wrap_dm_task_get_uuid(const struct dm_task *dmt)
{
	(void)dmt;
	return "FANRAID-00112233-4455-6677-8899-aabbccddeeff";
}

void *__wrap_dm_get_next_target(struct dm_task *dmt, void *next,
				uint64_t *start, uint64_t *length,
				char **target_type, char **params)
{
	intptr_t i = (intptr_t)next;

	(void)dmt;
	*start = 0;
	*length = fake.len;
	*target_type = (char *)fake.target_type;
	*params = (char *)fake.params;
	return i + 1 < fake.ntargets ? (void *)(i + 1) : NULL;
}

int __wrap_dm_task_set_message(struct dm_task *dmt, const char *msg)
{
	(void)dmt;
	snprintf(fake.message, sizeof(fake.message), "%s", msg);
	note("message ");
	return 1;
}

int __wrap_dm_task_set_sector(struct dm_task *dmt, uint64_t sector)
{
	(void)dmt;
	fake.sector = sector;
	return 1;
}

int __wrap_dm_task_no_open_count(struct dm_task *dmt)
{
	(void)dmt;
	return 1;
}

int __wrap_dm_task_retry_remove(struct dm_task *dmt)
{
	(void)dmt;
	note("retry ");
	return 1;
}

struct dm_versions *__wrap_dm_task_get_versions(struct dm_task *dmt)
{
	(void)dmt;
	return (struct dm_versions *)fake.list;
}

struct dm_names *__wrap_dm_task_get_names(struct dm_task *dmt)
{
	(void)dmt;
	return (struct dm_names *)fake.list;
}

/* Lays out libdm's version list: entries linked by byte offsets. */
static void fake_versions(const char *const *names, const uint32_t (*ver)[3],
			  int n)
{
	size_t pos = 0, i;

	memset(fake.list, 0, sizeof(fake.list));
	for (i = 0; i < (size_t)n; i++) {
		struct dm_versions *v = (struct dm_versions *)(fake.list + pos);
		size_t size = (sizeof(*v) + strlen(names[i]) + 1 + 7) & ~7ul;

		memcpy(v->version, ver[i], sizeof(v->version));
		strcpy((char *)v->name, names[i]);
		v->next = i + 1 < (size_t)n ? size : 0;
		pos += size;
	}
}

static void fake_names(const char *const *names, int n)
{
	size_t pos = 0, i;

	memset(fake.list, 0, sizeof(fake.list));
	for (i = 0; i < (size_t)n; i++) {
		struct dm_names *d = (struct dm_names *)(fake.list + pos);
		size_t size = (sizeof(*d) + strlen(names[i]) + 1 + 7) & ~7ul;

		d->dev = 0xfd00 + i;
		strcpy(d->name, names[i]);
		d->next = i + 1 < (size_t)n ? size : 0;
		pos += size;
	}
}

static int reset(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.exists = true;
	fake.ntargets = 1;
	fake.target_type = "fanraid";
	fake.params = "raid0 128 0 1 8:0 2048";
	fake.len = 1024;
	return 0;
}

/* Every task created is destroyed: no leak on any path. */
static int check_balanced(void **state)
{
	(void)state;
	assert_int_equal(fake.created, fake.destroyed);
	return 0;
}

static void test_dm_create_runs_steps_in_order(void **state)
{
	char want[512];

	(void)state;
	assert_int_equal(fr_dm_create("fr0", "FANRAID-x", 4096,
				      "raid0 128 0 1 8:0 2048", 0), 0);
	snprintf(want, sizeof(want), "create(%d) name(fr0) uuid(FANRAID-x) "
		 "target(0 4096 fanraid raid0 128 0 1 8:0 2048) cookie run "
		 "wait destroy", DM_DEVICE_CREATE);
	assert_string_equal(fake.calls, want);
	assert_int_equal(fake.cookie_waited, 0xc00c1e);
}

static void test_dm_create_sets_readahead_when_asked(void **state)
{
	(void)state;
	assert_int_equal(fr_dm_create("fr0", "u", 8, "p", 256), 0);
	assert_non_null(strstr(fake.calls, "readahead(256) cookie run wait"));
}

/* A failed ioctl still waits on the cookie (udev may have seen events). */
static void test_dm_create_failure_returns_errno_and_waits(void **state)
{
	(void)state;
	fake.run_fails = true;
	fake.run_errno = EBUSY;
	assert_int_equal(fr_dm_create("fr0", "u", 8, "p", 0), -EBUSY);
	assert_non_null(strstr(fake.calls, "run wait destroy"));
	fake.calls[0] = '\0';
	fake.run_errno = 0;
	assert_int_equal(fr_dm_create("fr0", "u", 8, "p", 0), -EIO);
}

static void test_dm_no_task_means_no_device_mapper(void **state)
{
	struct fr_dm_target tgt;
	struct fr_dm_info info;
	struct fr_version v;

	(void)state;
	fake.create_fails = true;
	assert_int_equal(fr_dm_create("fr0", "u", 8, "p", 0), -ENODEV);
	assert_int_equal(fr_dm_remove("fr0"), -ENODEV);
	assert_int_equal(fr_dm_reload("fr0", 8, "p"), -ENODEV);
	assert_int_equal(fr_dm_resume("fr0"), -ENODEV);
	assert_int_equal(fr_dm_status("fr0", FR_DM_INFO, &tgt), -ENODEV);
	assert_int_equal(fr_dm_message("fr0", "stats reset"), -ENODEV);
	assert_int_equal(fr_dm_info("fr0", &info), -ENODEV);
	assert_int_equal(fr_dm_target_version("fanraid", &v), -ENODEV);
}

static void test_dm_remove_retries_and_waits(void **state)
{
	char want[256];

	(void)state;
	assert_int_equal(fr_dm_remove("fr0"), 0);
	snprintf(want, sizeof(want), "create(%d) name(fr0) retry cookie run "
		 "wait destroy", DM_DEVICE_REMOVE);
	assert_string_equal(fake.calls, want);
	fake.calls[0] = '\0';
	fake.run_fails = true;
	fake.run_errno = EBUSY;
	assert_int_equal(fr_dm_remove("fr0"), -EBUSY);
}

static void test_dm_reload_then_resume(void **state)
{
	char want[256];

	(void)state;
	assert_int_equal(fr_dm_reload("fr0", 64, "raid6 8 0 4 - - 8:1 8 8:2 8 8:3 8"), 0);
	assert_int_equal(fr_dm_resume("fr0"), 0);
	snprintf(want, sizeof(want), "create(%d) name(fr0) target(0 64 fanraid "
		 "raid6 8 0 4 - - 8:1 8 8:2 8 8:3 8) run destroy"
		 "create(%d) name(fr0) cookie run wait destroy",
		 DM_DEVICE_RELOAD, DM_DEVICE_RESUME);
	assert_string_equal(fake.calls, want);
}

static void test_dm_status_returns_the_fanraid_line(void **state)
{
	struct fr_dm_target tgt;

	(void)state;
	assert_int_equal(fr_dm_status("fr0", FR_DM_TABLE, &tgt), 0);
	assert_int_equal(fake.task_type, DM_DEVICE_TABLE);
	assert_string_equal(tgt.params, "raid0 128 0 1 8:0 2048");
	assert_int_equal(tgt.len, 1024);
	assert_int_equal(fr_dm_status("fr0", FR_DM_INFO, &tgt), 0);
	assert_int_equal(fake.task_type, DM_DEVICE_STATUS);
}

static void test_dm_status_refuses_other_devices(void **state)
{
	struct fr_dm_target tgt;

	(void)state;
	fake.target_type = "linear";
	assert_int_equal(fr_dm_status("fr0", FR_DM_INFO, &tgt), -EMEDIUMTYPE);
	fake.target_type = "fanraid";
	fake.ntargets = 2;
	assert_int_equal(fr_dm_status("fr0", FR_DM_INFO, &tgt), -EMEDIUMTYPE);
	fake.ntargets = 1;
	fake.exists = false;
	assert_int_equal(fr_dm_status("fr0", FR_DM_INFO, &tgt), -ENXIO);
	fake.run_fails = true;
	fake.run_errno = ENXIO;
	assert_int_equal(fr_dm_status("fr0", FR_DM_INFO, &tgt), -ENXIO);
}

static void test_dm_message_targets_sector_zero(void **state)
{
	(void)state;
	fake.sector = 99;
	assert_int_equal(fr_dm_message("fr0", "fail 3"), 0);
	assert_string_equal(fake.message, "fail 3");
	assert_int_equal(fake.sector, 0);
	fake.run_fails = true;
	fake.run_errno = EINVAL;
	assert_int_equal(fr_dm_message("fr0", "frobnicate"), -EINVAL);
}

static void test_dm_info_reports_absence_and_uuid(void **state)
{
	struct fr_dm_info info;

	(void)state;
	assert_int_equal(fr_dm_info("fr0", &info), 0);
	assert_true(info.exists);
	assert_int_equal(info.major, 253);
	assert_int_equal(info.minor, 7);
	assert_string_equal(info.uuid,
			    "FANRAID-00112233-4455-6677-8899-aabbccddeeff");
	fake.exists = false;
	assert_int_equal(fr_dm_info("gone", &info), 0);
	assert_false(info.exists);
}

static void test_dm_target_version_finds_fanraid(void **state)
{
	static const char *const names[] = { "striped", "fanraid", "linear" };
	static const uint32_t ver[][3] = { { 1, 6, 0 }, { 1, 2, 3 }, { 1, 4, 0 } };
	struct fr_version v;

	(void)state;
	fake_versions(names, ver, 3);
	assert_int_equal(fr_dm_target_version("fanraid", &v), 0);
	assert_int_equal(v.major, 1);
	assert_int_equal(v.minor, 2);
	assert_int_equal(v.patch, 3);
	assert_int_equal(fr_dm_target_version("linear", &v), 0);
	assert_int_equal(v.minor, 4);
	assert_int_equal(fr_dm_target_version("raid", &v), -ENOENT);
}

static int collect(const char *name, void *arg)
{
	char *out = arg;

	strcat(out, name);
	strcat(out, " ");
	return !strcmp(name, "stop-here");
}

static void test_dm_list_walks_every_name(void **state)
{
	static const char *const names[] = { "fr0", "vg-root", "stop-here",
					     "never" };
	char seen[128] = "";

	(void)state;
	fake_names(names, 2);
	assert_int_equal(fr_dm_list(collect, seen), 0);
	assert_string_equal(seen, "fr0 vg-root ");
	/* a callback's non-zero return stops the walk and is passed on */
	seen[0] = '\0';
	fake_names(names, 4);
	assert_int_equal(fr_dm_list(collect, seen), 1);
	assert_string_equal(seen, "fr0 vg-root stop-here ");
	/* no devices: dev 0 in the first entry */
	memset(fake.list, 0, sizeof(fake.list));
	seen[0] = '\0';
	assert_int_equal(fr_dm_list(collect, seen), 0);
	assert_string_equal(seen, "");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, reset, check_balanced)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_dm_create_runs_steps_in_order),
		T(test_dm_create_sets_readahead_when_asked),
		T(test_dm_create_failure_returns_errno_and_waits),
		T(test_dm_no_task_means_no_device_mapper),
		T(test_dm_remove_retries_and_waits),
		T(test_dm_reload_then_resume),
		T(test_dm_status_returns_the_fanraid_line),
		T(test_dm_status_refuses_other_devices),
		T(test_dm_message_targets_sector_zero),
		T(test_dm_info_reports_absence_and_uuid),
		T(test_dm_target_version_finds_fanraid),
		T(test_dm_list_walks_every_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
