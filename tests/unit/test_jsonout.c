/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/jsonout.c: the json-c helpers every --json document is built
 * with. Strings that need escaping come back from json-c's parser as they
 * went in, slashes stay unescaped, unsigned numbers past INT64_MAX keep
 * their value, and an allocation that failed (a NULL object) makes every
 * later add fail and nothing get printed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fr_testjson.h"

static void test_json_strings_round_trip_through_json_c(void **state)
{
	char odd[64], *text;
	struct json_object *o = json_object_new_object(), *back;
	int i, n = 0;

	(void)state;
	/* every control character, a quote, a backslash, a slash */
	for (i = 1; i < 0x20; i++)
		odd[n++] = (char)i;
	strcpy(odd + n, "\"\\/dev/x");
	assert_int_equal(fr_json_add_str(o, "s", odd), 0);
	assert_int_equal(fr_json_add_str(o, "none", NULL), 0);
	text = t_json_text(o, FR_JSON_ONELINE);
	assert_non_null(strstr(text, "/dev/x"));
	back = t_json_parse(text);
	assert_string_equal(t_json_str(back, "s"), odd);
	assert_true(t_json_is_null(back, "none"));
	json_object_put(back);
	free(text);
}

static void test_json_numbers_keep_their_values_and_types(void **state)
{
	struct json_object *o = json_object_new_object(), *back;
	char *text;

	(void)state;
	assert_int_equal(fr_json_add_u64(o, "max", UINT64_MAX), 0);
	assert_int_equal(fr_json_add_i64(o, "unknown", -1), 0);
	assert_int_equal(fr_json_add_u64_or_null(o, "given", true, 0), 0);
	assert_int_equal(fr_json_add_u64_or_null(o, "default", false, 7), 0);
	assert_int_equal(fr_json_add_bool(o, "yes", true), 0);
	text = t_json_text(o, FR_JSON_ONELINE);
	assert_non_null(strstr(text, "\"max\": 18446744073709551615,"));
	back = t_json_parse(text);
	assert_true(t_json_u64(back, "max") == UINT64_MAX);
	assert_int_equal(json_object_get_int64(t_json_get(back, "unknown")), -1);
	assert_true(t_json_u64(back, "given") == 0);
	assert_true(t_json_is_null(back, "default"));
	assert_true(json_object_is_type(t_json_get(back, "yes"), json_type_boolean));
	json_object_put(back);
	free(text);
}

static void test_json_arrays_doc_prints_when_empty(void **state)
{
	struct json_object *arrays, *doc = fr_json_arrays_doc(&arrays), *back;
	char *text;

	(void)state;
	assert_non_null(arrays);
	text = t_json_text(doc, FR_JSON_MULTILINE);
	back = t_json_parse(text);
	assert_int_equal(json_object_array_length(t_json_get(back, "arrays")), 0);
	json_object_put(back);
	free(text);
}

/* json-c returns NULL when it runs out of memory: it must not print. */
static void test_json_failed_allocation_fails_every_add(void **state)
{
	char buf[16] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(fr_json_add_u64(NULL, "k", 1), -ENOMEM);
	assert_int_equal(fr_json_add_str(NULL, "k", "v"), -ENOMEM);
	assert_int_equal(fr_json_add_null(NULL, "k"), -ENOMEM);
	assert_null(fr_json_add_object(NULL, "k"));
	assert_null(fr_json_add_array(NULL, "k"));
	assert_null(fr_json_push_object(NULL));
	assert_int_equal(fr_json_push(NULL, json_object_new_int64(1)), -ENOMEM);
	assert_int_equal(fr_json_print(f, NULL, FR_JSON_ONELINE), -ENOMEM);
	fclose(f);
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_strings_round_trip_through_json_c),
		cmocka_unit_test(test_json_numbers_keep_their_values_and_types),
		cmocka_unit_test(test_json_arrays_doc_prints_when_empty),
		cmocka_unit_test(test_json_failed_allocation_fails_every_add),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
