/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the --json tests print: a superblock for examine, two arrays for
 * status, two for list. The golden files in tests/unit/golden/ were made
 * from these same inputs by the printf code json-c replaced, so a test
 * that matches them proves consumers see the keys, types and values
 * they always did. Each input carries a string that needs escaping.
 */
#ifndef FR_TESTREPORT_H
#define FR_TESTREPORT_H

#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "fr_testsb.h"
#include "spare.h"
#include "status.h"
#include "table.h"

/* A quote, a backslash, a newline, a tab and a control character. */
#define T_ODD		"q\"b\\n\nt\tc\x01."

/* A dirty, degraded raid6 member with every optional field set. */
static inline void t_report_sb_member(struct fr_sb *sb)
{
	fr_t_sb(sb, "arr" T_ODD, FR_LEVEL_RAID6, 6, 2, 256, 1ull << 21);
	sb->state = FR_SB_STATE_DIRTY | FR_SB_STATE_DEGRADED;
	sb->failed_mask = 1ull << 63 | 1u << 4;	/* past INT64_MAX */
	sb->events = 1ull << 40;
	sb->flush_policy = FR_FLUSH_DIRTY;
	sb->readahead_sectors = 512;
	sb->ra_mode = FR_RA_ON;
	sb->ra_window = 8;
	sb->ra_cache_mb = 64;
	sb->stripe_cache_mb = 32;
	sb->sync_speed_min = 1024;
	sb->sync_speed_max = UINT32_MAX;
	sb->bitmap_region_sectors = 2048;
	sb->bitmap_sectors = 8;
	sb->events_cleared = 5;
	sb->utime = sb->ctime + 3600;
}

/* A spare: slot null, and the defaults that print as null. */
static inline void t_report_sb_spare(struct fr_sb *sb)
{
	fr_t_sb(sb, "fs", FR_LEVEL_RAID6, 5, FR_SB_SLOT_SPARE, 128, 1u << 20);
}

#define T_EXAMINE_PATH	"/dev/disk/by-id/x" T_ODD

/* One array as status_one hands it to the report. */
struct t_report_array {
	const char *name;
	const char *uuid;
	uint64_t len;
	struct fr_table t;
	struct fr_status st;
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	long ra;
	char spares[FR_MAX_SPARES][FR_PATH_MAX];
	int nspares;
};

/*
 * A degraded raid6 with a superblock, a bitmap, a stopped rebuild and a
 * spare, from a 1.4.0 target: every optional field is there.
 */
static inline int t_report_raid6(struct t_report_array *a)
{
	memset(a, 0, sizeof(*a));
	a->name = "r6" T_ODD;
	a->uuid = "42424242-4242-4242-4242-424242424242";
	a->len = 3ull << 33;
	a->ra = 1024;
	if (fr_table_parse("raid6 256 11 flush_policy dirty min_sync_rate 512 "
			   "readahead on ra_window 8 ra_cache_mb 16 superblock "
			   "4 253:0 2048 - - 253:2 2048 253:3 2048", &a->t) ||
	    fr_status_parse("raid6 4 AaDA 5368709120/8589934592 recover "
			    "1 2 3 4 5 6 11 12 13 14 15 16 0 0 0 0 0 1 "
			    "31 32 33 34 35 36 24 "
			    "100 200 3000 400 5 2048 65536 "
			    "0 7 0 0 0 0 0 8 "
			    "18446744073709551615 dirty 2048 3 2 1234", &a->st))
		return -1;
	strcpy(a->paths[0], "/dev/nullb0");
	strcpy(a->paths[1], "-");
	strcpy(a->paths[2], "/dev/nullb2");
	strcpy(a->paths[3], "/dev/mapper/m" T_ODD);
	strcpy(a->spares[0], "/dev/sp" T_ODD);
	strcpy(a->spares[1], "/dev/nullb9");
	a->nspares = 2;
	return 0;
}

/*
 * A raid0 from a 1.0.0 target, under a dm uuid that is not ours: the
 * optional fields are null, the readahead unknown.
 */
static inline int t_report_raid0(struct t_report_array *a)
{
	memset(a, 0, sizeof(*a));
	a->name = "r0";
	a->uuid = "-";
	a->len = 8192;
	a->ra = -1;
	if (fr_table_parse("raid0 128 0 2 8:0 0 8:16 4096", &a->t) ||
	    fr_status_parse("raid0 2 AA 0/0 idle "
			    "1 2 3 4 5 6 7 8 9 10 11 12", &a->st))
		return -1;
	strcpy(a->paths[0], "/dev/sda");
	strcpy(a->paths[1], "/dev/sdb");
	return 0;
}

#endif /* FR_TESTREPORT_H */
