/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/cmd_set.c: the SETTING VALUE pairs of `fanraid set` into struct
 * fr_settings. Every bad word is refused (the verb then exits 2 before it
 * touches the array), several settings go in one call in any order, and
 * auto block readahead is two full stripes of data chunks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"

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
		cmocka_unit_test(test_set_read_ahead_kb_number_or_auto),
		cmocka_unit_test(test_set_rejects_bad_words),
		cmocka_unit_test(test_set_auto_is_two_full_stripes_of_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
