/* SPDX-License-Identifier: GPL-2.0-only */
/* fanraid list [--json]: one line (or one JSON object) per running array. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dm.h"
#include "table.h"
#include "util.h"

struct list_ctx {
	bool json;
	int count;
};

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
		printf("%s\n  {\"name\": ", ctx->count ? "," : "");
		fr_json_string(stdout, name);
		printf(", \"level\": \"%s\", \"members\": %u, \"size_bytes\": %llu, \"uuid\": ",
		       fr_level_name(t.level), t.ndevs,
		       (unsigned long long)tgt.len << 9);
		if (uuid)
			fr_json_string(stdout, uuid);
		else
			printf("null");
		printf("}");
	} else {
		fr_format_size(tgt.len << 9, size, sizeof(size));
		printf("%s\t%s\t%u members\t%s\t%s\n", name,
		       fr_level_name(t.level), t.ndevs, size, uuid ? uuid : "-");
	}
	ctx->count++;
	return 0;
}

int fr_cmd_list(const struct fr_opts *o)
{
	struct list_ctx ctx = { .json = o->json };
	int ret;

	if (ctx.json)
		printf("{\"arrays\": [");
	ret = fr_dm_list(list_one, &ctx);
	if (ctx.json)
		printf("%s]}\n", ctx.count ? "\n" : "");
	if (ret) {
		fr_err("device-mapper: listing devices failed: %s (is dm_mod loaded?)",
		       strerror(-ret));
		return FR_EXIT_FAIL;
	}
	return FR_EXIT_OK;
}
