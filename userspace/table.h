/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fanraid table line, as the kernel reads it and prints it back:
 *
 *   <level> <chunk_sectors> <#feature_args> [<feature> [<value>]]*
 *   <#devs> <major:minor> <offset> [<major:minor> <offset>]...
 *
 * Devices are written as major:minor because that is how the kernel prints
 * them, so the line the tool builds equals what `dmsetup table` shows. A
 * missing raid6 member is "- -". Features, in the kernel's canonical order:
 * flush_policy <passthrough|dirty|drop>, max_sync_rate <KiB/s>,
 * min_sync_rate <KiB/s> (raid6, target 1.6.0+), rebuild <idx> (ascending, at most two), resync, readahead <on|off>,
 * ra_window <stripes>, ra_cache_mb <MiB>, stripe_cache_mb <MiB> (raid6,
 * target 1.1.0+), superblock (raid6) and safe_mode_delay <ms> (target
 * 1.3.0+), bitmap <region_sectors> and readd <idx> (ascending, target
 * 1.4.0+).
 */
#ifndef FR_TABLE_H
#define FR_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fanraid/geom.h>

#define FR_TARGET_NAME		"fanraid"
#define FR_TABLE_MAX		4096	/* 64 devices fit with room to spare */

struct fr_table_dev {
	bool missing;		/* "- -": a raid6 member that is not there */
	uint32_t major;
	uint32_t minor;
	uint64_t offset;	/* data offset on the member, sectors */
};

struct fr_table {
	uint32_t level;		/* enum fr_level */
	uint32_t chunk_sectors;
	uint32_t flush_policy;	/* enum fr_flush_policy */
	bool flush_explicit;	/* print flush_policy even when it is the default */
	bool max_sync_rate_set;
	uint32_t max_sync_rate;	/* KiB/s per member; 0 unlimited */
	bool min_sync_rate_set;
	uint32_t min_sync_rate;	/* KiB/s per member while I/O comes in */
	uint64_t rebuild_mask;	/* bit i: member i is being rebuilt */
	bool resync;		/* recompute parity in the background */
	bool readahead_set;
	bool readahead_on;	/* the target's per-member readahead queues */
	bool ra_window_set;
	uint32_t ra_window;	/* stripes, 1..64 */
	bool ra_cache_set;
	uint32_t ra_cache_mb;	/* 0..4096; 0 allocates no cache */
	bool stripe_cache_set;
	uint32_t stripe_cache_mb;	/* raid6, MiB: geometry minimum..4096 */
	bool max_read_errors_set;
	uint32_t max_read_errors;	/* raid6: repaired read errors before failing */
	bool superblock;	/* raid6: the kernel keeps the superblocks current */
	bool safe_mode_delay_set;
	uint32_t safe_mode_delay;	/* ms idle before marking clean */
	bool bitmap_set;
	uint32_t bitmap_region;	/* write-intent bitmap region, sectors */
	uint64_t readd_mask;	/* bit i: member i re-added, recovered by the bitmap */
	bool reshape;		/* raid0: a grow under way; the length is the old one */
	uint32_t reshape_old_ndevs;	/* members before it */
	uint64_t reshape_pos;	/* array sectors recorded in the new layout */
	uint32_t ndevs;
	struct fr_table_dev devs[FR_MAX_DEVS];
};

/* A target version, as DM_DEVICE_LIST_VERSIONS reports it. */
struct fr_version {
	uint32_t major;
	uint32_t minor;
	uint32_t patch;
};

int fr_table_build(const struct fr_table *t, char *buf, size_t len);
int fr_table_parse(const char *params, struct fr_table *t);
const char *fr_table_required_version(const struct fr_table *t,
				      struct fr_version *v);
int fr_level_parse(const char *s, uint32_t *level);
int fr_flush_parse(const char *s, uint32_t *policy);
uint32_t fr_stripe_cache_default_mb(uint32_t ndevs, uint32_t chunk_sectors);

#endif /* FR_TABLE_H */
