/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid check [NAME] | repair NAME | idle NAME: scrub raid6 parity with
 * the target's check/repair/idle messages. check and repair wait for the
 * scrub to end, showing percent, speed and time left, and print the
 * mismatch count; check without NAME scrubs every raid6 array in turn
 * (fanraid-scrub.service). Exit 1 when a scrub could not run or was
 * stopped before the end; mismatches found are reported, not an error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dm.h"
#include "progress.h"
#include "status.h"
#include "table.h"

/* How often a scrub reports its progress when stdout is a log, not a terminal. */
#define FR_CHECK_LOG_INTERVAL	60.0

static int read_status(const char *name, struct fr_status *st)
{
	struct fr_dm_target info;
	int ret;

	ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret)
		return ret;
	return fr_status_parse(info.params, st) ? -EINVAL : 0;
}

static int scrub_wait(const char *name, const char *verb)
{
	bool tty = isatty(STDOUT_FILENO);
	struct fr_progress p = { 0 };
	double last = fr_now();
	struct fr_status st;
	char line[160];
	int ret;

	for (;;) {
		ret = read_status(name, &st);
		if (ret) {
			fr_err("%s: reading status failed: %s", name,
			       strerror(-ret));
			return FR_EXIT_FAIL;
		}
		if (strcmp(st.action, verb))
			break;
		fr_progress_sample(&p, st.sync_cur, st.sync_total, fr_now());
		fr_progress_format(&p, verb, line, sizeof(line));
		if (tty) {
			printf("\r%s: %s\033[K", name, line);
			fflush(stdout);
		} else if (p.t - last >= FR_CHECK_LOG_INTERVAL) {
			printf("%s: %s\n", name, line);
			fflush(stdout);
			last = p.t;
		}
		sleep(1);
	}
	if (tty)
		printf("\r\033[K");
	if (strcmp(st.action, "idle") || st.sync_cur != st.sync_total) {
		printf("%s: %s stopped at %llu/%llu sectors (now %s)\n", name,
		       verb, (unsigned long long)st.sync_cur,
		       (unsigned long long)st.sync_total, st.action);
		return FR_EXIT_FAIL;
	}
	printf("%s: %s finished: %llu mismatched sectors%s\n", name, verb,
	       (unsigned long long)st.mismatch_cnt,
	       st.mismatch_cnt && !strcmp(verb, "check") ?
	       " (run 'fanraid repair' to rewrite parity)" : "");
	return FR_EXIT_OK;
}

/* @quiet: walking every array, raid0 and foreign devices are skipped silently. */
static int scrub(const char *name, const char *verb, bool quiet)
{
	struct fr_dm_target table;
	struct fr_table t;
	int ret;

	ret = fr_dm_status(name, FR_DM_TABLE, &table);
	if (ret == -EMEDIUMTYPE && quiet)
		return FR_EXIT_OK;
	if (ret == -ENXIO || ret == -EMEDIUMTYPE) {
		fr_err("%s: %s", name, ret == -ENXIO ? "no such array (not running)" :
		       "not a fanraid array");
		return FR_EXIT_FAIL;
	}
	if (ret || fr_table_parse(table.params, &t)) {
		fr_err("%s: reading the table failed", name);
		return FR_EXIT_FAIL;
	}
	if (t.level != FR_LEVEL_RAID6) {
		if (quiet)
			return FR_EXIT_OK;
		fr_err("%s: %s has no parity to %s", name,
		       fr_level_name(t.level), verb);
		return FR_EXIT_FAIL;
	}
	ret = fr_dm_message(name, verb);
	if (ret == -EBUSY) {
		fr_err("%s: busy with a resync, rebuild or scrub; not started",
		       name);
		return FR_EXIT_FAIL;
	}
	if (ret) {
		fr_err("%s: message '%s' failed: %s", name, verb, strerror(-ret));
		return FR_EXIT_FAIL;
	}
	printf("%s: %s started\n", name, verb);
	fflush(stdout);
	return scrub_wait(name, verb);
}

static int check_each(const char *name, void *arg)
{
	int *rc = arg;

	if (scrub(name, "check", true))
		*rc = FR_EXIT_FAIL;
	return 0;
}

int fr_cmd_check(const struct fr_opts *o)
{
	int rc = FR_EXIT_OK, ret;

	if (o->argc)
		return scrub(o->argv[0], "check", false);
	ret = fr_dm_list(check_each, &rc);
	if (ret) {
		fr_err("device-mapper: listing devices failed: %s", strerror(-ret));
		return FR_EXIT_FAIL;
	}
	return rc;
}

int fr_cmd_repair(const struct fr_opts *o)
{
	return scrub(o->argv[0], "repair", false);
}

int fr_cmd_idle(const struct fr_opts *o)
{
	return fr_dm_message_or_err(o->argv[0], "idle") ? FR_EXIT_FAIL :
	       FR_EXIT_OK;
}
