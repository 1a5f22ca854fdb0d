/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/cmd_set.c: the SETTING VALUE pairs of `fanraid set` into struct
 * fr_settings. Every bad word is refused (the verb then exits 2 before it
 * touches the array), several settings go in one call in any order, auto
 * block readahead is two full stripes of data chunks, and the table
 * reloaded for a new stripe cache keeps only the work still running and
 * never revives a member the target failed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "status.h"
#include "table.h"

#define T_ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static void test_set_parses_one_setting(void **state)
{
	char *off[] = { "readahead", "off", NULL };
	char *on[] = { "readahead", "on", NULL };
	struct fr_settings s;

	(void)state;
	assert_int_equal(fr_set_parse(T_ARGC(off), off, &s), 0);
	assert_true(s.readahead_given);
	assert_false(s.readahead_on);
	assert_false(s.ra_window_given);
	assert_false(s.read_ahead_kb_given);
	assert_int_equal(fr_set_parse(T_ARGC(on), on, &s), 0);
	assert_true(s.readahead_given && s.readahead_on);
}

static void test_set_parses_several_settings_in_any_order(void **state)
{
	char *argv[] = { "read-ahead-kb", "auto", "ra-window", "8",
			 "readahead", "on", NULL };
	struct fr_settings s;

	(void)state;
	assert_int_equal(fr_set_parse(T_ARGC(argv), argv, &s), 0);
	assert_true(s.readahead_given && s.readahead_on);
	assert_true(s.ra_window_given);
	assert_int_equal(s.ra_window, 8);
	assert_true(s.read_ahead_kb_given && s.read_ahead_kb_auto);
}

static void test_set_window_bounds(void **state)
{
	char *lo[] = { "ra-window", "1", NULL };
	char *hi[] = { "ra-window", "64", NULL };
	char *bad[][3] = {
		{ "ra-window", "0", NULL }, { "ra-window", "65", NULL },
		{ "ra-window", "-1", NULL }, { "ra-window", "8x", NULL },
		{ "ra-window", "", NULL }, { "ra-window", "4294967304", NULL },
	};
	struct fr_settings s;
	size_t i;

	(void)state;
	assert_int_equal(fr_set_parse(2, lo, &s), 0);
	assert_int_equal(s.ra_window, 1);
	assert_int_equal(fr_set_parse(2, hi, &s), 0);
	assert_int_equal(s.ra_window, 64);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(fr_set_parse(2, bad[i], &s), -EINVAL);
}

static void test_set_read_ahead_kb_number_or_auto(void **state)
{
	char *kb[] = { "read-ahead-kb", "4096", NULL };
	char *max[] = { "read-ahead-kb", "32768", NULL };
	char *bad[][3] = {
		{ "read-ahead-kb", "0", NULL }, { "read-ahead-kb", "32769", NULL },
		{ "read-ahead-kb", "AUTO", NULL }, { "read-ahead-kb", "4K", NULL },
		{ "read-ahead-kb", "-4", NULL },
	};
	struct fr_settings s;
	size_t i;

	(void)state;
	assert_int_equal(fr_set_parse(2, kb, &s), 0);
	assert_true(s.read_ahead_kb_given);
	assert_false(s.read_ahead_kb_auto);
	assert_int_equal(s.read_ahead_kb, 4096);
	assert_int_equal(fr_set_parse(2, max, &s), 0);
	assert_int_equal(s.read_ahead_kb, FR_SET_READ_AHEAD_KB_MAX);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(fr_set_parse(2, bad[i], &s), -EINVAL);
}

static void test_set_stripe_cache_bounds(void **state)
{
	char *lo[] = { "stripe-cache-mb", "1", NULL };
	char *hi[] = { "stripe-cache-mb", "4096", "readahead", "on", NULL };
	char *bad[][3] = {
		{ "stripe-cache-mb", "0", NULL },
		{ "stripe-cache-mb", "4097", NULL },
		{ "stripe-cache-mb", "-1", NULL },
		{ "stripe-cache-mb", "64M", NULL },
		{ "stripe-cache-mb", "auto", NULL },
		{ "stripe_cache_mb", "64", NULL },
	};
	char *twice[] = { "stripe-cache-mb", "64", "stripe-cache-mb", "128",
			  NULL };
	struct fr_settings s;
	size_t i;

	(void)state;
	assert_int_equal(fr_set_parse(T_ARGC(lo), lo, &s), 0);
	assert_true(s.stripe_cache_given);
	assert_int_equal(s.stripe_cache_mb, 1);
	assert_false(s.readahead_given);
	assert_int_equal(fr_set_parse(T_ARGC(hi), hi, &s), 0);
	assert_int_equal(s.stripe_cache_mb, FR_R6_STRIPE_CACHE_MAX_MB);
	assert_true(s.readahead_given && s.readahead_on);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(fr_set_parse(2, bad[i], &s), -EINVAL);
	assert_int_equal(fr_set_parse(T_ARGC(twice), twice, &s), -EINVAL);
}

/* A six-member raid6 table with every member present, as the kernel echoes it. */
static void t_running(struct fr_table *t, const char *features)
{
	char line[FR_TABLE_MAX];

	snprintf(line, sizeof(line), "raid6 1024 %s 6 8:0 2048 8:16 2048 "
		 "8:32 2048 8:48 2048 8:64 2048 8:80 2048", features);
	assert_int_equal(fr_table_parse(line, t), 0);
}

static void t_health(struct fr_status *st, const char *health,
		     const char *action)
{
	memset(st, 0, sizeof(*st));
	st->level = FR_LEVEL_RAID6;
	st->ndevs = 6;
	strcpy(st->health, health);
	strcpy(st->action, action);
}

static void test_set_reload_table_keeps_what_still_runs(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_status st;
	struct fr_table t;

	(void)state;
	/* finished resync and rebuild are not redone; the features stay */
	t_running(&t, "9 flush_policy dirty rebuild 2 resync readahead off "
		  "ra_window 8");
	t_health(&st, "AAAAAA", "idle");
	fr_set_reload_table(&t, &st, 128);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 8 flush_policy dirty readahead off "
			    "ra_window 8 stripe_cache_mb 128 6 8:0 2048 8:16 2048 "
			    "8:32 2048 8:48 2048 8:64 2048 8:80 2048");
	/* a running resync and a running rebuild go on, from the start */
	t_running(&t, "5 rebuild 2 resync stripe_cache_mb 64");
	t_health(&st, "AAaAAA", "resync");
	fr_set_reload_table(&t, &st, 32);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 5 rebuild 2 resync stripe_cache_mb 32 "
			    "6 8:0 2048 8:16 2048 8:32 2048 8:48 2048 8:64 2048 "
			    "8:80 2048");
}

/* A member the target failed must stay out: the new table names it missing. */
static void test_set_reload_table_keeps_failed_members_out(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_status st;
	struct fr_table t;

	(void)state;
	t_running(&t, "0");
	t_health(&st, "ADAAaA", "recover");
	t.rebuild_mask = 1u << 4;
	fr_set_reload_table(&t, &st, 64);
	assert_true(t.devs[1].missing);
	assert_int_equal(t.devs[1].major, 0);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 4 rebuild 4 stripe_cache_mb 64 6 "
			    "8:0 2048 - - 8:32 2048 8:48 2048 8:64 2048 "
			    "8:80 2048");
	/* three lost is more than raid6 survives: the build refuses it */
	t_running(&t, "0");
	t_health(&st, "DDaAAA", "recover");
	fr_set_reload_table(&t, &st, 64);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
}

static void test_set_rejects_bad_words(void **state)
{
	char *unknown[] = { "ra_window", "8", NULL };
	char *missing[] = { "readahead", "on", "ra-window", NULL };
	char *twice[] = { "readahead", "on", "readahead", "off", NULL };
	char *onoff[] = { "readahead", "yes", NULL };
	char *none[] = { NULL };
	struct fr_settings s;

	(void)state;
	/* the kernel's spelling is not the tool's */
	assert_int_equal(fr_set_parse(T_ARGC(unknown), unknown, &s), -EINVAL);
	assert_int_equal(fr_set_parse(T_ARGC(missing), missing, &s), -EINVAL);
	assert_int_equal(fr_set_parse(T_ARGC(twice), twice, &s), -EINVAL);
	assert_int_equal(fr_set_parse(T_ARGC(onoff), onoff, &s), -EINVAL);
	assert_int_equal(fr_set_parse(0, none, &s), -EINVAL);
}

/*
 * A sync speed is a size with a unit per second, in whole KiB, up to what
 * a u32 of KiB/s holds, or off; a bare number is refused, as it would be
 * KiB/s to an md user and bytes to the size syntax.
 */
static void test_set_sync_speeds(void **state)
{
	static const struct {
		const char *v;
		int ret;
		uint32_t kib;
	} c[] = {
		{ "200M", 0, 200 * 1024 }, { "1K", 0, 1 }, { "512K", 0, 512 },
		{ "off", 0, 0 }, { "4194303M", 0, 4194303u * 1024 },
		{ "4294967295K", 0, UINT32_MAX }, { "4T", -EINVAL, 0 },
		{ "4294967296K", -EINVAL, 0 }, { "1000", -EINVAL, 0 },
		{ "0K", -EINVAL, 0 }, { "1536", -EINVAL, 0 },
		{ "1.5K", -EINVAL, 0 }, { "-1K", -EINVAL, 0 }, { "", -EINVAL, 0 },
		{ "fast", -EINVAL, 0 }, { "0", -EINVAL, 0 },
	};
	char *both[] = { "sync-speed-max", "1G", "sync-speed-min", "10M",
			 NULL };
	char *twice[] = { "sync-speed-min", "1M", "sync-speed-min", "2M",
			  NULL };
	char *one[] = { "sync-speed-max", NULL, NULL };
	struct fr_settings s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		one[1] = (char *)c[i].v;
		assert_int_equal(fr_set_parse(2, one, &s), c[i].ret);
		if (c[i].ret)
			continue;
		assert_true(s.sync_max_given);
		assert_false(s.sync_min_given);
		assert_int_equal(s.sync_max_kib, c[i].kib);
	}
	assert_int_equal(fr_set_parse(T_ARGC(both), both, &s), 0);
	assert_true(s.sync_max_given && s.sync_min_given);
	assert_int_equal(s.sync_max_kib, 1024 * 1024);
	assert_int_equal(s.sync_min_kib, 10 * 1024);
	assert_int_equal(fr_set_parse(T_ARGC(twice), twice, &s), -EINVAL);
}

static void test_set_auto_is_two_full_stripes_of_data(void **state)
{
	(void)state;
	/* raid0, 4 x 64 KiB: stripe 256 KiB, twice that */
	assert_int_equal(fr_set_auto_kb(FR_LEVEL_RAID0, 4, 128), 512);
	/* raid6, 6 members of 512 KiB: 4 data chunks, stripe 2 MiB */
	assert_int_equal(fr_set_auto_kb(FR_LEVEL_RAID6, 6, 1024), 4096);
	/* one 4 KiB chunk: 8 KiB, below the kernel's 128 KiB floor */
	assert_int_equal(fr_set_auto_kb(FR_LEVEL_RAID0, 1, 8), 8);
	/* 64 members of 16 MiB: beyond what a superblock records */
	assert_true(fr_set_auto_kb(FR_LEVEL_RAID0, 64, 32768) == 2ull << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_parses_one_setting),
		cmocka_unit_test(test_set_parses_several_settings_in_any_order),
		cmocka_unit_test(test_set_window_bounds),
		cmocka_unit_test(test_set_stripe_cache_bounds),
		cmocka_unit_test(test_set_reload_table_keeps_what_still_runs),
		cmocka_unit_test(test_set_reload_table_keeps_failed_members_out),
		cmocka_unit_test(test_set_read_ahead_kb_number_or_auto),
		cmocka_unit_test(test_set_rejects_bad_words),
		cmocka_unit_test(test_set_auto_is_two_full_stripes_of_data),
		cmocka_unit_test(test_set_sync_speeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
