/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/cmd_status.c: status --json, parsed back with json-c. The
 * document holds what the printf code printed (tests/unit/golden), for
 * a raid6 with every optional field and a raid0 from a target that
 * reports none; a missing member's device is null, strings that need
 * escaping and counters past INT64_MAX come back intact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fr_testjson.h"
#include "fr_testreport.h"

static struct t_report_array t_arrays[2];

static int setup(void **state)
{
	(void)state;
	return t_report_raid6(&t_arrays[0]) || t_report_raid0(&t_arrays[1]);
}

/* The document of status --json with the first @n test arrays running. */
static char *t_status(int n)
{
	struct json_object *arrays, *doc = fr_json_arrays_doc(&arrays);
	int i;

	for (i = 0; i < n; i++) {
		struct t_report_array *a = &t_arrays[i];

		assert_int_equal(fr_json_push(arrays,
					      fr_status_json(a->name, a->uuid,
							     a->len, &a->t,
							     &a->st, a->paths,
							     a->ra, a->spares,
							     a->nspares)), 0);
	}
	return t_json_text(doc, FR_JSON_MULTILINE);
}

static void test_status_json_matches_printf_golden(void **state)
{
	char *text;

	(void)state;
	text = t_status(2);
	t_json_assert_golden(text, "tests/unit/golden/status.json");
	free(text);
	text = t_status(0);
	t_json_assert_golden(text, "tests/unit/golden/status-empty.json");
	free(text);
}

static void test_status_json_raid6_round_trips(void **state)
{
	char *text = t_status(2);
	struct json_object *doc = t_json_parse(text);
	struct json_object *a = t_json_at(t_json_get(doc, "arrays"), 0);
	struct json_object *m = t_json_get(a, "members");

	(void)state;
	assert_string_equal(t_json_str(a, "name"), "r6" T_ODD);
	assert_true(t_json_u64(a, "sync_total") == 8589934592ull);
	assert_true(t_json_u64(t_json_get(a, "superblock"), "events") == UINT64_MAX);
	assert_true(json_object_get_boolean(t_json_get(t_json_get(a, "stripe_cache"),
						       "default")));
	assert_true(t_json_u64(a, "rebuild_lost_row") == 1234);
	assert_string_equal(json_object_get_string(t_json_at(t_json_get(a, "spares"), 0)),
			    "/dev/sp" T_ODD);
	assert_int_equal(json_object_array_length(m), 4);
	assert_true(t_json_is_null(t_json_at(m, 1), "device"));
	assert_true(t_json_is_null(t_json_at(m, 1), "devno"));
	assert_true(t_json_is_null(t_json_at(m, 1), "offset_sectors"));
	assert_string_equal(t_json_str(t_json_at(m, 2), "health"), "dead");
	assert_string_equal(t_json_str(t_json_at(m, 3), "device"),
			    "/dev/mapper/m" T_ODD);
	assert_string_equal(t_json_str(t_json_at(m, 3), "devno"), "253:3");
	json_object_put(doc);
	free(text);
}

/* What a 1.0.0 target does not report is null, or (readahead) absent. */
static void test_status_json_raid0_leaves_unknowns_null(void **state)
{
	char *text = t_status(2);
	struct json_object *doc = t_json_parse(text);
	struct json_object *a = t_json_at(t_json_get(doc, "arrays"), 1), *v;

	(void)state;
	assert_string_equal(t_json_str(a, "uuid"), "-");
	assert_int_equal(json_object_get_int64(t_json_get(a, "readahead_kb")), -1);
	assert_true(t_json_is_null(a, "ra_window"));
	assert_true(t_json_is_null(a, "stripe_cache"));
	assert_true(t_json_is_null(a, "superblock"));
	assert_true(t_json_is_null(a, "bitmap"));
	assert_true(t_json_is_null(a, "rebuild_lost_row"));
	assert_false(json_object_object_get_ex(a, "readahead", &v));
	assert_false(json_object_object_get_ex(a, "flushes_elided", &v));
	assert_int_equal(json_object_array_length(t_json_get(a, "spares")), 0);
	json_object_put(doc);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_json_matches_printf_golden),
		cmocka_unit_test(test_status_json_raid6_round_trips),
		cmocka_unit_test(test_status_json_raid0_leaves_unknowns_null),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
