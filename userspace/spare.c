// SPDX-License-Identifier: GPL-2.0-only
/* Finding an array's hot spares (spare.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "config.h"
#include "scan.h"
#include "spare.h"

struct spare_ctx {
	const uint8_t *uuid;
	const struct fr_table *t;
	char (*paths)[FR_PATH_MAX];
	int n;
};

static int spare_one(const struct fr_member *m, void *arg)
{
	struct spare_ctx *c = arg;
	uint32_t i;

	if (!fr_sb_is_spare(&m->sb) ||
	    memcmp(m->sb.array_uuid, c->uuid, FR_UUID_LEN))
		return 0;
	/* a spare the array took over is rewritten first, but be sure */
	for (i = 0; i < c->t->ndevs; i++)
		if (!c->t->devs[i].missing &&
		    makedev(c->t->devs[i].major, c->t->devs[i].minor) == m->rdev)
			return 0;
	/* the same disk through two nodes (a /dev/disk/ link): once */
	for (i = 0; i < (uint32_t)c->n; i++)
		if (!strcmp(c->paths[i], m->path))
			return 0;
	if (c->n < FR_MAX_SPARES)
		snprintf(c->paths[c->n++], FR_PATH_MAX, "%s", m->path);
	return 0;
}

int fr_spares_find(const uint8_t *uuid, const struct fr_table *t,
		   char (*paths)[FR_PATH_MAX])
{
	struct spare_ctx c = { .uuid = uuid, .t = t, .paths = paths };
	const struct fr_conf *conf = fr_conf_get();
	int ret;

	if (!conf)
		return -EINVAL;
	ret = fr_scan_members(conf, spare_one, &c);
	return ret < 0 ? ret : c.n;
}
