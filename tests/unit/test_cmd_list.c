/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/cmd_list.c: list --json, parsed back with json-c. It holds
 * what the printf code printed (tests/unit/golden); an array under a dm
 * uuid that is not ours has a null uuid, and a name that needs escaping
 * comes back intact.
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

/* list --json with the first @n test arrays running; the raid0 is not ours. */
static char *t_list(int n)
{
	struct json_object *arrays, *doc = fr_json_arrays_doc(&arrays);
	int i;

	for (i = 0; i < n; i++) {
		struct t_report_array *a = &t_arrays[i];

		assert_int_equal(fr_json_push(arrays,
					      fr_list_json(a->name, &a->t, a->len,
							   i ? NULL : a->uuid)), 0);
	}
	return t_json_text(doc, FR_JSON_MULTILINE);
}

static void test_list_json_matches_printf_golden(void **state)
{
	char *text;

	(void)state;
	text = t_list(2);
	t_json_assert_golden(text, "tests/unit/golden/list.json");
	free(text);
	text = t_list(0);
	t_json_assert_golden(text, "tests/unit/golden/list-empty.json");
	free(text);
}

static void test_list_json_round_trips(void **state)
{
	char *text = t_list(2);
	struct json_object *doc = t_json_parse(text);
	struct json_object *a = t_json_get(doc, "arrays");

	(void)state;
	assert_int_equal(json_object_array_length(a), 2);
	assert_string_equal(t_json_str(t_json_at(a, 0), "name"), "r6" T_ODD);
	assert_string_equal(t_json_str(t_json_at(a, 0), "uuid"),
			    "42424242-4242-4242-4242-424242424242");
	assert_true(t_json_u64(t_json_at(a, 0), "size_bytes") == 3ull << 42);
	assert_true(t_json_u64(t_json_at(a, 0), "members") == 4);
	assert_true(t_json_is_null(t_json_at(a, 1), "uuid"));
	json_object_put(doc);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_json_matches_printf_golden),
		cmocka_unit_test(test_list_json_round_trips),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
