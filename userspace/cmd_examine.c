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
#include "jsonout.h"
#include "probe.h"
#include "table.h"
#include "util.h"

static void state_string(uint32_t state, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s",
		 state & FR_SB_STATE_DIRTY ? "dirty" : "clean",
		 state & FR_SB_STATE_DEGRADED ? ",degraded" : "",
		 state & FR_SB_STATE_REBUILDING ? ",rebuilding" : "",
		 state & FR_SB_STATE_RESHAPE ? ",growing" : "",
		 state & FR_SB_STATE_RESHAPE_BACKUP ? ",grow-backup" : "");
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

/*
 * The member as examine --json prints it. ra_cache_mb and stripe_cache_mb
 * are null when not given (stripe_cache_mb is 0 in a block from before
 * the field), and so are the sync speeds when 0; a spare has no slot.
 */
static struct json_object *examine_json(const char *path,
					const struct fr_sb *sb, uint64_t dirty)
{
	char au[FR_UUID_STR_LEN + 1], mu[FR_UUID_STR_LEN + 1];
	char state[64], ct[32], ut[32];
	struct json_object *o = json_object_new_object();
	bool spare = fr_sb_is_spare(sb);

	fr_uuid_format(sb->array_uuid, au);
	fr_uuid_format(sb->member_uuid, mu);
	state_string(sb->state, state, sizeof(state));
	time_string(sb->ctime, ct, sizeof(ct));
	time_string(sb->utime, ut, sizeof(ut));
	if (fr_json_add_str(o, "device", path) ||
	    fr_json_add_u64(o, "format_version", sb->format_version) ||
	    fr_json_add_u64(o, "layout_version", sb->layout_version) ||
	    fr_json_add_str(o, "array_uuid", au) ||
	    fr_json_add_str(o, "member_uuid", mu) ||
	    fr_json_add_str(o, "name", sb->name) ||
	    fr_json_add_str(o, "role", spare ? "spare" : "member") ||
	    fr_json_add_u64_or_null(o, "slot", !spare, sb->slot) ||
	    fr_json_add_str(o, "level", fr_level_name(sb->level)) ||
	    fr_json_add_u64(o, "chunk_sectors", sb->chunk_sectors) ||
	    fr_json_add_u64(o, "devices", sb->ndevs) ||
	    fr_json_add_u64(o, "data_offset_sectors", sb->data_offset) ||
	    fr_json_add_u64(o, "member_data_sectors", sb->member_sectors) ||
	    fr_json_add_u64(o, "array_sectors", sb->array_sectors) ||
	    fr_json_add_u64(o, "events", sb->events) ||
	    fr_json_add_str(o, "state", state) ||
	    fr_json_add_u64(o, "failed_mask", sb->failed_mask) ||
	    fr_json_add_u64_or_null(o, "grow_old_devices",
				    sb->state & FR_SB_STATE_RESHAPE,
				    sb->reshape_old_ndevs) ||
	    fr_json_add_u64_or_null(o, "grow_position_sectors",
				    sb->state & FR_SB_STATE_RESHAPE,
				    sb->reshape_position) ||
	    fr_json_add_str(o, "flush_policy",
			    fr_flush_name(sb->flush_policy)) ||
	    fr_json_add_u64(o, "readahead_sectors", sb->readahead_sectors) ||
	    fr_json_add_str(o, "ctime", ct) ||
	    fr_json_add_str(o, "utime", ut) ||
	    fr_json_add_str(o, "target_readahead", ra_mode_name(sb->ra_mode)) ||
	    fr_json_add_u64(o, "ra_window", sb->ra_window) ||
	    fr_json_add_u64_or_null(o, "ra_cache_mb",
				    sb->ra_cache_mb != FR_RA_CACHE_DEFAULT,
				    sb->ra_cache_mb) ||
	    fr_json_add_u64_or_null(o, "stripe_cache_mb",
				    fr_sb_stripe_cache_given(sb),
				    sb->stripe_cache_mb) ||
	    fr_json_add_u64_or_null(o, "sync_speed_min_kib",
				    sb->sync_speed_min, sb->sync_speed_min) ||
	    fr_json_add_u64_or_null(o, "sync_speed_max_kib",
				    sb->sync_speed_max, sb->sync_speed_max) ||
	    fr_json_add_u64(o, "bitmap_region_sectors",
			    sb->bitmap_region_sectors) ||
	    fr_json_add_u64(o, "bitmap_sectors", sb->bitmap_sectors) ||
	    fr_json_add_u64(o, "bitmap_dirty_regions", dirty) ||
	    fr_json_add_u64(o, "events_cleared", sb->events_cleared)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* One line: scripts cut "bitmap_dirty_regions": N out with sed. 0 or -errno. */
int fr_examine_print_json(FILE *f, const char *path, const struct fr_sb *sb,
			  uint64_t dirty)
{
	return fr_json_print(f, examine_json(path, sb, dirty), FR_JSON_ONELINE);
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

/*
 * A grow's record: the member counts, and how much of the old array the
 * superblock says is in the new layout (the old capacity is what the
 * table's length is until the grow ends, so that is the 100 %).
 */
static void print_grow(const struct fr_sb *sb)
{
	struct fr_geom old = { 0 };
	double pct = 0;

	if (!fr_geom_init(&old, sb->level, sb->reshape_old_ndevs,
			  sb->chunk_sectors, sb->member_sectors) &&
	    old.capacity)
		pct = 100.0 * (double)sb->reshape_position /
		      (double)old.capacity;
	printf("             grow: %u -> %u members, %llu of %llu sectors (%.1f%%) in the new layout%s\n",
	       sb->reshape_old_ndevs, sb->ndevs,
	       (unsigned long long)sb->reshape_position,
	       (unsigned long long)old.capacity, pct,
	       sb->state & FR_SB_STATE_RESHAPE_BACKUP ?
	       ", first rows' backup recorded" : "");
}

static void print_human(const char *path, const struct fr_sb *sb,
			uint64_t dirty)
{
	char au[FR_UUID_STR_LEN + 1], mu[FR_UUID_STR_LEN + 1];
	char state[64], ct[32], ut[32], size[32], chunk[32], msize[32];

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
	if (sb->state & FR_SB_STATE_RESHAPE)
		print_grow(sb);
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
	if (!o->json) {
		print_human(m.path, &m.sb, dirty);
		return FR_EXIT_OK;
	}
	ret = fr_examine_print_json(stdout, m.path, &m.sb, dirty);
	if (ret) {
		fr_err("%s: printing JSON failed: %s", m.path, strerror(-ret));
		return FR_EXIT_FAIL;
	}
	return FR_EXIT_OK;
}
