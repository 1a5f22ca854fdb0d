/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json-c with the tool's conventions: every adder returns 0 or -ENOMEM,
 * and a failed add frees the value it was given, so callers chain adds
 * with || and free only the document.
 */
#include <errno.h>

#include "jsonout.h"

/*
 * @val belongs to @o afterwards, or is freed: json-c leaves it to the
 * caller when the add fails. A NULL @o or @val is an allocation that
 * failed before, passed on.
 */
static int add(struct json_object *o, const char *key, struct json_object *val)
{
	if (!o || !val || json_object_object_add(o, key, val)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

/* @s NULL: a JSON null, for a value the tool does not have. */
int fr_json_add_str(struct json_object *o, const char *key, const char *s)
{
	return s ? add(o, key, json_object_new_string(s)) :
		   fr_json_add_null(o, key);
}

int fr_json_add_u64(struct json_object *o, const char *key, uint64_t v)
{
	return add(o, key, json_object_new_uint64(v));
}

int fr_json_add_i64(struct json_object *o, const char *key, int64_t v)
{
	return add(o, key, json_object_new_int64(v));
}

int fr_json_add_bool(struct json_object *o, const char *key, bool v)
{
	return add(o, key, json_object_new_boolean(v));
}

/* json-c's null is the NULL object: nothing to allocate but the key. */
int fr_json_add_null(struct json_object *o, const char *key)
{
	if (!o || json_object_object_add(o, key, NULL))
		return -ENOMEM;
	return 0;
}

/* A setting left at its default prints as null, not as a made-up number. */
int fr_json_add_u64_or_null(struct json_object *o, const char *key, bool given,
			    uint64_t v)
{
	return given ? fr_json_add_u64(o, key, v) : fr_json_add_null(o, key);
}

/* The new, empty child, owned by @o; NULL when memory ran out. */
struct json_object *fr_json_add_object(struct json_object *o, const char *key)
{
	struct json_object *c = json_object_new_object();

	return add(o, key, c) ? NULL : c;
}

struct json_object *fr_json_add_array(struct json_object *o, const char *key)
{
	struct json_object *c = json_object_new_array();

	return add(o, key, c) ? NULL : c;
}

/* Appends @val to the array @a; as add(), @val is kept or freed. */
int fr_json_push(struct json_object *a, struct json_object *val)
{
	if (!a || !val || json_object_array_add(a, val)) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

struct json_object *fr_json_push_object(struct json_object *a)
{
	struct json_object *c = json_object_new_object();

	return fr_json_push(a, c) ? NULL : c;
}

/*
 * {"arrays": []}, the document status and list print, even with no array
 * running. *@arrays is the list to push onto; NULL when memory ran out.
 */
struct json_object *fr_json_arrays_doc(struct json_object **arrays)
{
	struct json_object *doc = json_object_new_object();

	*arrays = fr_json_add_array(doc, "arrays");
	if (!*arrays) {
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

/*
 * @doc and a newline on @f, then frees @doc (NULL: an earlier failure).
 * 0, -ENOMEM or -EIO.
 */
int fr_json_print(FILE *f, struct json_object *doc, int flags)
{
	const char *s = doc ? json_object_to_json_string_ext(doc, flags) : NULL;
	int ret = 0;

	if (!s)
		ret = -ENOMEM;
	else if (fprintf(f, "%s\n", s) < 0)
		ret = -EIO;
	json_object_put(doc);
	return ret;
}
