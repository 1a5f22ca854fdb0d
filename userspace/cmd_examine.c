/* SPDX-License-Identifier: GPL-2.0-only */
/* fanraid examine DEV [--json]: decode one member's superblock, read-only. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <fanraid/bitmap.h>

#include "bitmap_io.h"
#include "cli.h"
#include "config.h"
#include "export.h"
#include "probe.h"
#include "table.h"
#include "util.h"

static void state_string(uint32_t state, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", state & FR_SB_STATE_DIRTY ? "dirty" : "clean",
		 state & FR_SB_STATE_DEGRADED ? ",degraded" : "",
		 state & FR_SB_STATE_REBUILDING ? ",rebuilding" : "");
}

static const char *ra_mode_name(uint32_t mode)
{
	return mode == FR_RA_ON ? "on" : mode == FR_RA_OFF ? "off" : "default";
}

static void time_string(uint64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%llu", (unsigned long long)t);
}

static void print_json(const char *path, const struct fr_sb *sb,
		       uint64_t dirty)
{
	char au[FR_UUID_STR_LEN + 1], mu[FR_UUID_STR_LEN + 1];
	char state[32], ct[32], ut[32];

	fr_uuid_format(sb->array_uuid, au);
	fr_uuid_format(sb->member_uuid, mu);
	state_string(sb->state, state, sizeof(state));
	time_string(sb->ctime, ct, sizeof(ct));
	time_string(sb->utime, ut, sizeof(ut));
	printf("{\"device\": ");
	fr_json_string(stdout, path);
	printf(", \"format_version\": %u, \"layout_version\": %u, "
	       "\"array_uuid\": \"%s\", \"member_uuid\": \"%s\", \"name\": ",
	       sb->format_version, sb->layout_version, au, mu);
	fr_json_string(stdout, sb->name);
	if (fr_sb_is_spare(sb))
		printf(", \"role\": \"spare\", \"slot\": null");
	else
		printf(", \"role\": \"member\", \"slot\": %u", sb->slot);
	printf(", \"level\": \"%s\", \"chunk_sectors\": %u, \"devices\": %u, "
	       "\"data_offset_sectors\": %llu, "
	       "\"member_data_sectors\": %llu, \"array_sectors\": %llu, "
	       "\"events\": %llu, \"state\": \"%s\", \"failed_mask\": %llu, "
	       "\"flush_policy\": \"%s\", \"readahead_sectors\": %u, "
	       "\"ctime\": \"%s\", \"utime\": \"%s\", "
	       "\"target_readahead\": \"%s\", \"ra_window\": %u, ",
	       fr_level_name(sb->level), sb->chunk_sectors, sb->ndevs,
	       (unsigned long long)sb->data_offset,
	       (unsigned long long)sb->member_sectors,
	       (unsigned long long)sb->array_sectors,
	       (unsigned long long)sb->events, state,
	       (unsigned long long)sb->failed_mask,
	       fr_flush_name(sb->flush_policy), sb->readahead_sectors, ct, ut,
	       ra_mode_name(sb->ra_mode), sb->ra_window);
	if (sb->ra_cache_mb == FR_RA_CACHE_DEFAULT)
		printf("\"ra_cache_mb\": null, ");
	else
		printf("\"ra_cache_mb\": %u, ", sb->ra_cache_mb);
	/* null: not given (0 in a block from before the field) */
	if (fr_sb_stripe_cache_given(sb))
		printf("\"stripe_cache_mb\": %u, ", sb->stripe_cache_mb);
	else
		printf("\"stripe_cache_mb\": null, ");
	printf("\"bitmap_region_sectors\": %u, \"bitmap_sectors\": %u, "
	       "\"bitmap_dirty_regions\": %llu, \"events_cleared\": %llu}\n",
	       sb->bitmap_region_sectors, sb->bitmap_sectors,
	       (unsigned long long)dirty,
	       (unsigned long long)sb->events_cleared);
}

/* The sync pass's limits per member; 0 is not set. */
static void print_sync_speeds(const struct fr_sb *sb)
{
	char min[32] = "none", max[32] = "unlimited";

	if (sb->sync_speed_min)
		fr_format_size((uint64_t)sb->sync_speed_min << 10, min,
			       sizeof(min));
	if (sb->sync_speed_max)
		fr_format_size((uint64_t)sb->sync_speed_max << 10, max,
			       sizeof(max));
	printf("       sync speed: minimum %s%s, maximum %s%s per member\n",
	       min, sb->sync_speed_min ? "/s" : "", max,
	       sb->sync_speed_max ? "/s" : "");
}

static void print_human(const char *path, const struct fr_sb *sb,
			uint64_t dirty)
{
	char au[FR_UUID_STR_LEN + 1], mu[FR_UUID_STR_LEN + 1];
	char state[32], ct[32], ut[32], size[32], chunk[32], msize[32];

	fr_uuid_format(sb->array_uuid, au);
	fr_uuid_format(sb->member_uuid, mu);
	state_string(sb->state, state, sizeof(state));
	time_string(sb->ctime, ct, sizeof(ct));
	time_string(sb->utime, ut, sizeof(ut));
	fr_format_size(sb->array_sectors << 9, size, sizeof(size));
	fr_format_size((uint64_t)sb->chunk_sectors << 9, chunk, sizeof(chunk));
	fr_format_size(sb->member_sectors << 9, msize, sizeof(msize));
	printf("%s:\n", path);
	printf("            array: %s (UUID %s)\n", sb->name, au);
	if (fr_sb_is_spare(sb))
		printf("           member: spare of %u members (UUID %s)\n",
		       sb->ndevs, mu);
	else
		printf("           member: slot %u of %u (UUID %s)\n", sb->slot,
		       sb->ndevs, mu);
	printf("            level: %s, chunk %s (%u sectors)\n",
	       fr_level_name(sb->level), chunk, sb->chunk_sectors);
	printf("       array size: %s (%llu sectors)\n", size,
	       (unsigned long long)sb->array_sectors);
	printf("      data offset: %llu sectors\n",
	       (unsigned long long)sb->data_offset);
	printf("        data size: %s per member (%llu sectors)\n", msize,
	       (unsigned long long)sb->member_sectors);
	printf("            state: %s, events %llu, failed mask 0x%llx\n", state,
	       (unsigned long long)sb->events,
	       (unsigned long long)sb->failed_mask);
	printf("            flush: %s\n", fr_flush_name(sb->flush_policy));
	if (sb->readahead_sectors)
		printf("  block readahead: %u sectors\n", sb->readahead_sectors);
	else
		printf("  block readahead: kernel default\n");
	printf(" target readahead: %s", ra_mode_name(sb->ra_mode));
	if (sb->ra_window)
		printf(", window %u stripes", sb->ra_window);
	if (sb->ra_cache_mb != FR_RA_CACHE_DEFAULT)
		printf(", cache %u MiB", sb->ra_cache_mb);
	printf("\n");
	if (fr_sb_stripe_cache_given(sb))
		printf("     stripe cache: %u MiB\n", sb->stripe_cache_mb);
	else if (sb->level == FR_LEVEL_RAID6)
		printf("     stripe cache: %u MiB (default)\n",
		       fr_stripe_cache_default_mb(sb->ndevs, sb->chunk_sectors));
	if (sb->level == FR_LEVEL_RAID6)
		print_sync_speeds(sb);
	if (sb->bitmap_region_sectors && !fr_sb_is_spare(sb)) {
		char region[32];

		fr_format_size((uint64_t)sb->bitmap_region_sectors << 9, region,
			       sizeof(region));
		printf("           bitmap: %llu of %llu regions of %s dirty, cleared at events %llu\n",
		       (unsigned long long)dirty,
		       (unsigned long long)fr_bitmap_regions(sb->member_sectors,
							     sb->bitmap_region_sectors),
		       region, (unsigned long long)sb->events_cleared);
	} else if (sb->level == FR_LEVEL_RAID6) {
		printf("           bitmap: none\n");
	}
	printf("%17s: %s\n%17s: %s\n", "created", ct, "updated", ut);
	printf("          version: format %u, layout %u\n", sb->format_version,
	       sb->layout_version);
}

int fr_cmd_examine(const struct fr_opts *o)
{
	struct fr_member m;
	uint64_t dirty = 0;
	int ret;

	/* --scan and --export: export.c */
	fr_conf_set_path(o->config);
	if (o->scan && !o->argc && !o->json && !o->export_vars)
		return fr_examine_scan();
	if (o->scan || o->argc != 1 || (o->json && o->export_vars)) {
		fr_err("examine: give DEV [--json|--export], or --scan alone");
		return FR_EXIT_USAGE;
	}
	if (o->export_vars)
		return fr_examine_export(o->argv[0]);
	fr_member_init(&m, o->argv[0]);
	ret = fr_member_open(&m, FR_OPEN_READ);
	if (ret) {
		fr_open_error(m.path, ret);
		return FR_EXIT_FAIL;
	}
	ret = fr_sb_read(&m);
	/* a spare has no bitmap of its own yet */
	if (!ret && !m.sb_err && !fr_sb_is_spare(&m.sb))
		ret = fr_bitmap_count(&m, &m.sb, &dirty);
	fr_member_close(&m);
	if (ret) {
		fr_err("%s: reading the superblock failed: %s", m.path,
		       strerror(-ret));
		return FR_EXIT_FAIL;
	}
	if (m.sb_err) {
		fr_err("%s: %s", m.path, fr_sb_strerror(m.sb_err));
		return FR_EXIT_FAIL;
	}
	if (o->json)
		print_json(m.path, &m.sb, dirty);
	else
		print_human(m.path, &m.sb, dirty);
	return FR_EXIT_OK;
}
