/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fanraid INFO status line:
 *
 *   <level> <#devs> <health chars> <sync_cur>/<sync_total> <action>
 *   then per member: <reads> <writes> <read_sectors> <write_sectors>
 *                    <flushes> <errors>
 *   then <mismatch_cnt> (sectors of P/Q found wrong by the last check)
 *   then <ra_hits> <ra_misses> <ra_prefetched> <ra_wasted> <flushes_elided>
 *   then <stripe_cache_kib> <stripe_cache_peak_kib> (target 1.1.0+)
 *   then per member <read_errors_corrected>, then per member
 *        <check_blamed_sectors> (target 1.2.0+)
 *   then <sb_events> <sb_state> (target 1.3.0+: superblock events and
 *        clean, dirty or none)
 *   then <bitmap_region_sectors> <bitmap_dirty_regions> <sync_regions>
 *        <rebuild_lost_row> (target 1.4.0+: 0 0 0 without a bitmap; the
 *        row where a rebuild stopped because its data is lost, or -)
 *
 * Health is one character per member: A alive, a alive but not in sync,
 * D dead. The grammar only ever grows at the end: the fields after the
 * per-member counters are each optional from the right (an older target
 * stops earlier), and words after rebuild_lost_row are counted and ignored.
 */
#ifndef FR_STATUS_H
#define FR_STATUS_H

#include <stdint.h>

#include <fanraid/geom.h>

#define FR_STATUS_COUNTERS	6
#define FR_ACTION_MAX		31

struct fr_member_stats {
	uint64_t reads;
	uint64_t writes;
	uint64_t read_sectors;
	uint64_t write_sectors;
	uint64_t flushes;
	uint64_t errors;
	uint64_t read_errors_corrected;	/* target 1.2.0+; 0 when not printed */
	uint64_t check_blamed_sectors;	/* ... found wrong here by the last check */
};

struct fr_status {
	uint32_t level;				/* enum fr_level */
	uint32_t ndevs;
	char health[FR_MAX_DEVS + 1];		/* NUL-terminated */
	uint64_t sync_cur;
	uint64_t sync_total;
	char action[FR_ACTION_MAX + 1];
	bool has_mismatch_cnt;
	uint64_t mismatch_cnt;
	bool has_ra_stats;			/* the five below were printed */
	uint64_t ra_hits;			/* reads served by the readahead cache */
	uint64_t ra_misses;			/* reads sent to their member */
	uint64_t ra_prefetched;			/* sectors fetched ahead */
	uint64_t ra_wasted;			/* fetched sectors never read */
	uint64_t flushes_elided;		/* flush_policy dirty */
	bool has_stripe_cache;			/* the two below were printed */
	uint64_t stripe_cache_kib;		/* raid6 stripe buffers held now */
	uint64_t stripe_cache_peak_kib;		/* most held since load or stats reset */
	bool has_read_errors_corrected;		/* the 1.2.0 per-member groups were printed */
	bool has_sb;				/* the two below were printed */
	uint64_t sb_events;			/* 0 without the superblock feature */
	char sb_state[8];			/* clean, dirty or none */
	bool has_bitmap;			/* the four below were printed */
	uint32_t bitmap_region_sectors;		/* 0: no write-intent bitmap */
	uint64_t bitmap_dirty;			/* regions whose bit is set */
	uint64_t sync_regions;			/* regions the last sync pass covered */
	uint64_t lost_row;			/* where a rebuild stopped, data lost; UINT64_MAX none */
	bool has_reshape_words;			/* the 1.7.0 pair was printed */
	bool reshape;				/* ... and names a grow under way */
	uint64_t reshape_done;			/* array sectors the grow copied */
	uint64_t reshape_safe;			/* ... and recorded as copied */
	uint32_t extra_words;			/* from a newer target */
	struct fr_member_stats members[FR_MAX_DEVS];
};

int fr_status_parse(const char *line, struct fr_status *st);
const char *fr_health_name(char c);

#endif /* FR_STATUS_H */
