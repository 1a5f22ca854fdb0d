/* SPDX-License-Identifier: GPL-2.0-only */
/* fanraid list: one line per running array. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dm.h"
#include "table.h"
#include "util.h"

/* Skips every device that is not a single fanraid target. */
static int list_one(const char *name, void *arg)
{
	struct fr_dm_target tgt;
	struct fr_dm_info info;
	struct fr_table t;
	char size[32];
	int *count = arg;

	if (fr_dm_status(name, FR_DM_TABLE, &tgt) ||
	    fr_table_parse(tgt.params, &t) || fr_dm_info(name, &info))
		return 0;
	fr_format_size(tgt.len << 9, size, sizeof(size));
	printf("%s\t%s\t%u members\t%s\t%s\n", name, fr_level_name(t.level),
	       t.ndevs, size,
	       strncmp(info.uuid, FR_DM_UUID_PREFIX,
		       strlen(FR_DM_UUID_PREFIX)) ? "-" :
		       info.uuid + strlen(FR_DM_UUID_PREFIX));
	(*count)++;
	return 0;
}

int fr_cmd_list(const struct fr_opts *o)
{
	int count = 0, ret;

	(void)o;
	ret = fr_dm_list(list_one, &count);
	if (ret) {
		fr_err("device-mapper: listing devices failed: %s (is dm_mod loaded?)",
		       strerror(-ret));
		return FR_EXIT_FAIL;
	}
	return FR_EXIT_OK;
}
