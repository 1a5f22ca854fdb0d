/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/cmd_examine.c: examine --json, parsed back with json-c. It
 * holds what the printf code printed (tests/unit/golden), stays one line
 * of "key": value for the scripts that cut it with sed, and carries a
 * device path and a name with quotes, backslashes and control characters
 * through intact. A member of a grow shows the grow in --json and in
 * --export.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "export.h"
#include "fr_testjson.h"
#include "fr_testreport.h"

/* What examine --json prints for the test member, or the test spare. */
static char *t_examine(bool spare)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct fr_sb sb;

	assert_non_null(f);
	if (spare)
		t_report_sb_spare(&sb);
	else
		t_report_sb_member(&sb);
	assert_int_equal(fr_examine_print_json(f, spare ? "/dev/nullb7" :
					       T_EXAMINE_PATH, &sb,
					       spare ? 0 : 3), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_examine_json_matches_printf_golden(void **state)
{
	char *text;

	(void)state;
	text = t_examine(false);
	t_json_assert_golden(text, "tests/unit/golden/examine-member.json");
	free(text);
	text = t_examine(true);
	t_json_assert_golden(text, "tests/unit/golden/examine-spare.json");
	free(text);
}

/* tests/vm and bench/lib/bitmap.sh: sed 's/.*"bitmap_dirty_regions": \(...' */
static void test_examine_json_is_one_line_for_sed(void **state)
{
	char *text = t_examine(false);

	(void)state;
	assert_int_equal(strchr(text, '\n') - text, strlen(text) - 1);
	assert_non_null(strstr(text, "\"bitmap_dirty_regions\": 3,"));
	assert_non_null(strstr(text, "\"array_uuid\": \"42424242-4242-4242-4242-424242424242\""));
	free(text);
}

static void test_examine_json_round_trips_odd_strings(void **state)
{
	char *text = t_examine(false);
	struct json_object *doc = t_json_parse(text);

	(void)state;
	assert_string_equal(t_json_str(doc, "device"), T_EXAMINE_PATH);
	assert_string_equal(t_json_str(doc, "name"), "arr" T_ODD);
	assert_string_equal(t_json_str(doc, "role"), "member");
	assert_true(t_json_u64(doc, "slot") == 2);
	assert_true(t_json_u64(doc, "failed_mask") == (1ull << 63 | 1u << 4));
	assert_string_equal(t_json_str(doc, "state"), "dirty,degraded");
	assert_true(t_json_u64(doc, "stripe_cache_mb") == 32);
	json_object_put(doc);
	free(text);
}

static void test_examine_json_spare_has_no_slot(void **state)
{
	char *text = t_examine(true);
	struct json_object *doc = t_json_parse(text);

	(void)state;
	assert_string_equal(t_json_str(doc, "role"), "spare");
	assert_true(t_json_is_null(doc, "slot"));
	assert_true(t_json_is_null(doc, "ra_cache_mb"));
	assert_true(t_json_is_null(doc, "stripe_cache_mb"));
	json_object_put(doc);
	free(text);
}

/* Member 5 of a raid0 grown from 4 to 6, ten new rows recorded. */
static void t_grow_sb(struct fr_sb *sb)
{
	fr_t_sb(sb, "grow", FR_LEVEL_RAID0, 6, 5, 128, 128 * 64);
	sb->state |= FR_SB_STATE_RESHAPE;
	sb->reshape_old_ndevs = 4;
	sb->reshape_position = 10 * 6 * 128;
}

static void test_examine_json_shows_a_grow(void **state)
{
	struct json_object *doc;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct fr_sb sb;

	(void)state;
	assert_non_null(f);
	t_grow_sb(&sb);
	assert_int_equal(fr_examine_print_json(f, "/dev/vdf", &sb, 0), 0);
	assert_int_equal(fclose(f), 0);
	doc = t_json_parse(text);
	assert_string_equal(t_json_str(doc, "state"), "clean,growing");
	assert_int_equal(t_json_u64(doc, "grow_old_devices"), 4);
	assert_int_equal(t_json_u64(doc, "grow_position_sectors"), 7680);
	assert_int_equal(t_json_u64(doc, "devices"), 6);
	json_object_put(doc);
	free(text);
}

/* udev's keys: the state names the grow, and its two numbers follow. */
static void test_examine_export_shows_a_grow(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct fr_sb sb;

	(void)state;
	assert_non_null(f);
	t_grow_sb(&sb);
	fr_export_member(f, &sb);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "\nFANRAID_STATE=clean,growing\n"));
	assert_non_null(strstr(text, "\nFANRAID_GROW_OLD_DEVICES=4\n"));
	assert_non_null(strstr(text, "\nFANRAID_GROW_POSITION=7680\n"));
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	t_report_sb_member(&sb);
	fr_export_member(f, &sb);
	assert_int_equal(fclose(f), 0);
	assert_null(strstr(text, "FANRAID_GROW_"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examine_json_matches_printf_golden),
		cmocka_unit_test(test_examine_json_is_one_line_for_sed),
		cmocka_unit_test(test_examine_json_round_trips_odd_strings),
		cmocka_unit_test(test_examine_json_spare_has_no_slot),
		cmocka_unit_test(test_examine_json_shows_a_grow),
		cmocka_unit_test(test_examine_export_shows_a_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
