/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * examine --export and examine --scan (export.h).
 *
 * The udev keys are the ones blkid's udev builtin sets for md members
 * (ID_FS_TYPE=linux_raid_member, ID_FS_UUID is the array's, _SUB the
 * member's), so lsblk, udisks and the persistent-storage rules treat a
 * fanraid member as a RAID member without knowing fanraid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <blkid/blkid.h>

#include "cli.h"
#include "config.h"
#include "export.h"
#include "scan.h"

/* A value udev's IMPORT reads back unchanged: blkid's safe and encoded forms. */
static void print_name(FILE *f, const char *key, const char *s)
{
	char safe[FR_SB_NAME_LEN], enc[FR_SB_NAME_LEN * 4 + 1];

	snprintf(safe, sizeof(safe), "%s", s);
	blkid_safe_string(s, safe, sizeof(safe));
	if (blkid_encode_string(s, enc, sizeof(enc)))
		snprintf(enc, sizeof(enc), "%s", safe);
	fprintf(f, "%s=%s\n%s_ENC=%s\n", key, safe, key, enc);
}

void fr_export_member(FILE *f, const struct fr_sb *sb)
{
	char au[FR_UUID_STR_LEN + 1], mu[FR_UUID_STR_LEN + 1];

	fr_uuid_format(sb->array_uuid, au);
	fr_uuid_format(sb->member_uuid, mu);
	fprintf(f, "ID_FS_TYPE=fanraid_member\nID_FS_USAGE=raid\n");
	fprintf(f, "ID_FS_VERSION=%u\n", sb->format_version);
	fprintf(f, "ID_FS_UUID=%s\nID_FS_UUID_ENC=%s\n", au, au);
	fprintf(f, "ID_FS_UUID_SUB=%s\nID_FS_UUID_SUB_ENC=%s\n", mu, mu);
	print_name(f, "ID_FS_LABEL", sb->name);
	fprintf(f, "FANRAID_NAME=%s\nFANRAID_UUID=%s\nFANRAID_MEMBER_UUID=%s\n",
		sb->name, au, mu);
	fprintf(f, "FANRAID_LEVEL=%s\nFANRAID_DEVICES=%u\n",
		fr_level_name(sb->level), sb->ndevs);
	if (fr_sb_is_spare(sb))
		fprintf(f, "FANRAID_SLOT=spare\n");
	else
		fprintf(f, "FANRAID_SLOT=%u\n", sb->slot);
	fprintf(f, "FANRAID_EVENTS=%llu\nFANRAID_STATE=%s%s%s\n",
		(unsigned long long)sb->events,
		sb->state & FR_SB_STATE_DIRTY ? "dirty" : "clean",
		sb->state & FR_SB_STATE_DEGRADED ? ",degraded" : "",
		sb->state & FR_SB_STATE_RESHAPE ? ",growing" : "");
	/* a grow's record, for rules or scripts that want to tell */
	if (sb->state & FR_SB_STATE_RESHAPE)
		fprintf(f, "FANRAID_GROW_OLD_DEVICES=%u\nFANRAID_GROW_POSITION=%llu\n",
			sb->reshape_old_ndevs,
			(unsigned long long)sb->reshape_position);
}

/*
 * udev runs this on every block device: a device that is not a member
 * prints nothing and exits 0, so udev has nothing to import and nothing
 * to log; only a member whose superblock is damaged is an error.
 */
int fr_examine_export(const char *path)
{
	struct fr_member m;
	int ret;

	fr_member_init(&m, path);
	ret = fr_member_open(&m, FR_OPEN_READ);
	if (ret)
		return ret == -ENOENT || ret == -ENOTBLK ? FR_EXIT_FAIL : FR_EXIT_OK;
	ret = fr_sb_read(&m);
	fr_member_close(&m);
	if (ret || m.sb_err == FR_SB_EMAGIC)
		return FR_EXIT_OK;
	if (m.sb_err) {
		printf("FANRAID_SB_ERROR=%s\n", fr_sb_strerror(m.sb_err));
		return FR_EXIT_FAIL;
	}
	fr_export_member(stdout, &m.sb);
	return FR_EXIT_OK;
}

struct scan_array {
	struct fr_sb sb;		/* the newest superblock seen */
	uint32_t found;
};

struct scan_ctx {
	struct scan_array *a;
	int n;
};

static int scan_one(const struct fr_member *m, void *arg)
{
	struct scan_ctx *ctx = arg;
	struct scan_array *na;
	int i;

	for (i = 0; i < ctx->n; i++) {
		if (memcmp(ctx->a[i].sb.array_uuid, m->sb.array_uuid,
			   FR_UUID_LEN))
			continue;
		if (m->sb.events > ctx->a[i].sb.events)
			ctx->a[i].sb = m->sb;
		ctx->a[i].found++;
		return 0;
	}
	na = realloc(ctx->a, (ctx->n + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	ctx->a = na;
	na[ctx->n].sb = m->sb;
	na[ctx->n].found = 1;
	ctx->n++;
	return 0;
}

/* One ARRAY line per array found, ready to append to fanraid.conf. */
int fr_examine_scan(void)
{
	const struct fr_conf *c = fr_conf_get();
	struct scan_ctx ctx = { 0 };
	char u[FR_UUID_STR_LEN + 1];
	int i, ret;

	if (!c)
		return FR_EXIT_FAIL;
	ret = fr_scan_members(c, scan_one, &ctx);
	for (i = 0; !ret && i < ctx.n; i++) {
		const struct fr_sb *sb = &ctx.a[i].sb;

		fr_uuid_format(sb->array_uuid, u);
		printf("ARRAY %s UUID=%s level=%s devices=%u\n", sb->name, u,
		       fr_level_name(sb->level), sb->ndevs);
	}
	free(ctx.a);
	return ret ? FR_EXIT_FAIL : FR_EXIT_OK;
}
