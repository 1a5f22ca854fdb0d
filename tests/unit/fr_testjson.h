/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Checks for the tool's JSON, made with json-c's parser rather than with
 * anything of ours: a document is printed through fr_json_print, parsed
 * back, and compared with a golden file or read key by key. Include after
 * cmocka.h.
 */
#ifndef FR_TESTJSON_H
#define FR_TESTJSON_H

#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "jsonout.h"

/* What the tool would print for @doc (which this frees); free() the text. */
static inline char *t_json_text(struct json_object *doc, int flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_non_null(doc);
	assert_int_equal(fr_json_print(f, doc, flags), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

/* @text parsed by json-c; json_object_put() it. */
static inline struct json_object *t_json_parse(const char *text)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *doc;

	assert_non_null(tok);
	doc = json_tokener_parse_ex(tok, text, (int)strlen(text));
	if (json_tokener_get_error(tok) != json_tokener_success)
		fail_msg("not JSON (%s): %s",
			 json_tokener_error_desc(json_tokener_get_error(tok)),
			 text);
	json_tokener_free(tok);
	return doc;
}

/*
 * @text holds the same keys in the same order, with the same nesting,
 * types and values, as the golden file @path: both are parsed and printed
 * again the one way, so only whitespace and escape spelling may differ.
 */
static inline void t_json_assert_golden(const char *text, const char *path)
{
	const int flags = JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE;
	struct json_object *want = json_object_from_file(path);
	struct json_object *got = t_json_parse(text);

	if (!want)
		fail_msg("%s: %s", path, json_util_get_last_err());
	assert_string_equal(json_object_to_json_string_ext(got, flags),
			    json_object_to_json_string_ext(want, flags));
	json_object_put(want);
	json_object_put(got);
}

/* The value under @key, which must be there (a JSON null is NULL). */
static inline struct json_object *t_json_get(struct json_object *o,
					     const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no key \"%s\" in %s", key, json_object_to_json_string(o));
	return v;
}

static inline const char *t_json_str(struct json_object *o, const char *key)
{
	struct json_object *v = t_json_get(o, key);

	assert_true(json_object_is_type(v, json_type_string));
	return json_object_get_string(v);
}

static inline uint64_t t_json_u64(struct json_object *o, const char *key)
{
	struct json_object *v = t_json_get(o, key);

	assert_true(json_object_is_type(v, json_type_int));
	return json_object_get_uint64(v);
}

static inline bool t_json_is_null(struct json_object *o, const char *key)
{
	return t_json_get(o, key) == NULL;
}

static inline struct json_object *t_json_at(struct json_object *a, size_t i)
{
	assert_true(json_object_is_type(a, json_type_array));
	assert_true(i < json_object_array_length(a));
	return json_object_array_get_idx(a, i);
}

#endif /* FR_TESTJSON_H */
