/* SPDX-License-Identifier: GPL-2.0-only */
/* fanraid list [--json]: one line (or one JSON object) per running array. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dm.h"
#include "jsonout.h"
#include "table.h"
#include "util.h"

struct list_ctx {
	bool json;
	struct json_object *arrays;	/* --json: the document's list */
	int err;			/* --json: -ENOMEM building it */
};

/* One array as list --json prints it; @uuid NULL: not one of ours. */
struct json_object *fr_list_json(const char *name, const struct fr_table *t,
				 uint64_t len, const char *uuid)
{
	struct json_object *o = json_object_new_object();

	if (fr_json_add_str(o, "name", name) ||
	    fr_json_add_str(o, "level", fr_level_name(t->level)) ||
	    fr_json_add_u64(o, "members", t->ndevs) ||
	    fr_json_add_u64(o, "size_bytes", len << 9) ||
	    fr_json_add_str(o, "uuid", uuid)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Skips every device that is not a single fanraid target. */
static int list_one(const char *name, void *arg)
{
	struct list_ctx *ctx = arg;
	struct fr_dm_target tgt;
	struct fr_dm_info info;
	struct fr_table t;
	const char *uuid;
	char size[32];

	if (fr_dm_status(name, FR_DM_TABLE, &tgt) ||
	    fr_table_parse(tgt.params, &t) || fr_dm_info(name, &info))
		return 0;
	uuid = strncmp(info.uuid, FR_DM_UUID_PREFIX,
		       strlen(FR_DM_UUID_PREFIX)) ? NULL :
	       info.uuid + strlen(FR_DM_UUID_PREFIX);
	if (ctx->json) {
		if (fr_json_push(ctx->arrays,
				 fr_list_json(name, &t, tgt.len, uuid)))
			ctx->err = -ENOMEM;
	} else {
		fr_format_size(tgt.len << 9, size, sizeof(size));
		printf("%s\t%s\t%u members\t%s\t%s\n", name,
		       fr_level_name(t.level), t.ndevs, size, uuid ? uuid : "-");
	}
	return 0;
}

int fr_cmd_list(const struct fr_opts *o)
{
	struct list_ctx ctx = { .json = o->json };
	struct json_object *doc = NULL;
	int ret;

	/* a failed allocation leaves ctx.arrays NULL, and every push fails */
	if (ctx.json)
		doc = fr_json_arrays_doc(&ctx.arrays);
	ret = fr_dm_list(list_one, &ctx);
	if (ctx.json) {
		/* a list short of a running array misleads: print none */
		if (ctx.err)
			json_object_put(doc);
		else
			ctx.err = fr_json_print(stdout, doc, FR_JSON_MULTILINE);
		if (ctx.err)
			fr_err("list: printing JSON failed: %s",
			       strerror(-ctx.err));
	}
	if (ret) {
		fr_err("device-mapper: listing devices failed: %s (is dm_mod loaded?)",
		       strerror(-ret));
		return FR_EXIT_FAIL;
	}
	return ctx.err ? FR_EXIT_FAIL : FR_EXIT_OK;
}
