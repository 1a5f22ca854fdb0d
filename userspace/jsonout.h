/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tool's JSON output (status, examine and list --json), built as
 * json-c object trees: json-c does the quoting and the number formatting.
 * The helpers add one value and turn json-c's NULL or -1 on a failed
 * allocation into -ENOMEM, so no document is printed with a value missing.
 * Given a NULL object (an allocation that failed before) they fail too,
 * so a builder checks once, at the end of its chain of adds.
 */
#ifndef FR_JSONOUT_H
#define FR_JSONOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "cli.h"

/*
 * status and list: indented, "key": value, as the printf code spread them
 * over lines; examine: one line, which scripts cut with sed. Paths keep
 * their slashes unescaped, as they always printed.
 */
#define FR_JSON_MULTILINE	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
				 JSON_C_TO_STRING_NOSLASHESCAPE)
#define FR_JSON_ONELINE		(JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

int fr_json_add_str(struct json_object *o, const char *key, const char *s);
int fr_json_add_u64(struct json_object *o, const char *key, uint64_t v);
int fr_json_add_i64(struct json_object *o, const char *key, int64_t v);
int fr_json_add_bool(struct json_object *o, const char *key, bool v);
int fr_json_add_null(struct json_object *o, const char *key);
int fr_json_add_u64_or_null(struct json_object *o, const char *key, bool given,
			    uint64_t v);
struct json_object *fr_json_add_object(struct json_object *o, const char *key);
struct json_object *fr_json_add_array(struct json_object *o, const char *key);
int fr_json_push(struct json_object *a, struct json_object *val);
struct json_object *fr_json_push_object(struct json_object *a);
struct json_object *fr_json_arrays_doc(struct json_object **arrays);
int fr_json_print(FILE *f, struct json_object *doc, int flags);

struct fr_sb;
struct fr_status;
struct fr_table;

/*
 * What each verb prints (cmd_status.c, cmd_list.c, cmd_examine.c), apart
 * from the verb so a unit test can parse it back: one array of status or
 * list (NULL when memory ran out), and examine's whole output.
 */
struct json_object *fr_status_json(const char *name, const char *uuid,
				   uint64_t len, const struct fr_table *t,
				   const struct fr_status *st,
				   char (*paths)[FR_PATH_MAX], long ra,
				   char (*spares)[FR_PATH_MAX], int nspares);
struct json_object *fr_list_json(const char *name, const struct fr_table *t,
				 uint64_t len, const char *uuid);
int fr_examine_print_json(FILE *f, const char *path, const struct fr_sb *sb,
			  uint64_t dirty);

#endif /* FR_JSONOUT_H */
