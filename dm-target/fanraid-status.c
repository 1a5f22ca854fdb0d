// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid status and messages.
 */
#include <linux/string.h>

#include "fanraid.h"

/* Health of a member: 'A' alive, 'D' failed or returned I/O errors since load. */
static char fanraid_dev_health(struct fanraid_c *fc, u32 i)
{
	if (fanraid_is_failed(fc, i) || atomic64_read(&fc->devs[i].stats.errors))
		return 'D';
	return 'A';
}

#define DMEMIT_FANRAID_STATS(s)						\
	DMEMIT(" %lld %lld %lld %lld %lld %lld",			\
	       (long long)atomic64_read(&(s)->reads),			\
	       (long long)atomic64_read(&(s)->writes),			\
	       (long long)atomic64_read(&(s)->read_sectors),		\
	       (long long)atomic64_read(&(s)->write_sectors),		\
	       (long long)atomic64_read(&(s)->flushes),			\
	       (long long)atomic64_read(&(s)->errors))

/*
 * INFO:  <level> <#devs> <health chars> <sync_ratio> <action>
 *        then per member: <reads> <writes> <read_sectors> <write_sectors>
 *        <flushes> <errors>
 * TABLE: the constructor line, features in canonical order:
 *        <level> <chunk_sectors> <#feature_args> [<feature> [<value>]]*
 *        <#devs> <dev> <offset> [<dev> <offset>]*
 * IMA:   target name and version, then ,key=value pairs, then ;
 */
void fanraid_status(struct dm_target *ti, status_type_t type,
		    unsigned int status_flags, char *result, unsigned int maxlen)
{
	struct fanraid_c *fc = ti->private;
	const struct fanraid_features *f = &fc->features;
	unsigned int sz = 0;
	u32 i;

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("raid%u %u ", fc->geom.level, fc->ndevs);
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT("%c", fanraid_dev_health(fc, i));
		/* No resync exists yet: the array counts as in sync. */
		DMEMIT(" %llu/%llu idle", (unsigned long long)ti->len,
		       (unsigned long long)ti->len);
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT_FANRAID_STATS(&fc->devs[i].stats);
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("raid%u %u %u", fc->geom.level, fc->geom.chunk_sectors,
		       f->flush_policy_set ? 2 : 0);
		if (f->flush_policy_set)
			DMEMIT(" flush_policy %s",
			       fanraid_flush_policy_name(f->flush_policy));
		DMEMIT(" %u", fc->ndevs);
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT(" %s %llu", fc->devs[i].dm_dev->name,
			       (unsigned long long)fc->devs[i].offset);
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",level=raid%u,chunk_sectors=%u,flush_policy=%s,num_devs=%u",
		       fc->geom.level, fc->geom.chunk_sectors,
		       fanraid_flush_policy_name(f->flush_policy), fc->ndevs);
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT(",dev_%u=%s,offset_%u=%llu", i,
			       fc->devs[i].dm_dev->name, i,
			       (unsigned long long)fc->devs[i].offset);
		DMEMIT(";");
		break;
	}
}

static void fanraid_stats_reset(struct fanraid_stats *s)
{
	atomic64_set(&s->reads, 0);
	atomic64_set(&s->writes, 0);
	atomic64_set(&s->read_sectors, 0);
	atomic64_set(&s->write_sectors, 0);
	atomic64_set(&s->flushes, 0);
	atomic64_set(&s->errors, 0);
}

/* "fail <idx>": take a RAID6 member out of service, as an I/O error would. */
static int fanraid_message_fail(struct fanraid_c *fc, const char *arg)
{
	u32 idx;

	if (!fc->r6) {
		DMWARN("fail: raid0 has no redundancy; refusing");
		return -EINVAL;
	}
	if (kstrtou32(arg, 10, &idx) || idx >= fc->ndevs) {
		DMWARN("fail: invalid member index %s", arg);
		return -EINVAL;
	}
	if (!test_and_set_bit(idx, fc->failed)) {
		DMWARN("%s: member %u failed by message",
		       dm_table_device_name(fc->ti->table), idx);
		if (bitmap_weight(fc->failed, fc->ndevs) > 2)
			DMERR("%s: more than two members failed: I/O will fail",
			      dm_table_device_name(fc->ti->table));
		dm_table_event(fc->ti->table);
	}
	return 0;
}

/* Messages: "stats reset", "fail <idx>". */
int fanraid_message(struct dm_target *ti, unsigned int argc, char **argv,
		    char *result, unsigned int maxlen)
{
	struct fanraid_c *fc = ti->private;
	u32 i;

	if (argc == 2 && !strcasecmp(argv[0], "stats") &&
	    !strcasecmp(argv[1], "reset")) {
		for (i = 0; i < fc->ndevs; i++)
			fanraid_stats_reset(&fc->devs[i].stats);
		return 0;
	}
	if (argc == 2 && !strcasecmp(argv[0], "fail"))
		return fanraid_message_fail(fc, argv[1]);
	DMWARN("Unrecognised message received");
	return -EINVAL;
}
