/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/table.c: the table line the tool builds must be exactly what the
 * kernel prints back (devices as major:minor, features in canonical order),
 * and the parser must take back everything the builder writes and nothing
 * malformed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rc_testutil.h"
#include "sb.h"
#include "table.h"

static void t_table(struct fr_table *t, uint32_t level, uint32_t n)
{
	uint32_t i;

	memset(t, 0, sizeof(*t));
	t->level = level;
	t->chunk_sectors = 1024;
	t->ndevs = n;
	for (i = 0; i < n; i++) {
		t->devs[i].major = 253;
		t->devs[i].minor = i;
		t->devs[i].offset = 2048;
	}
}

static void test_table_builds_kernel_format(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;

	(void)state;
	t_table(&t, FR_LEVEL_RAID0, 2);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid0 1024 0 2 253:0 2048 253:1 2048");

	t_table(&t, FR_LEVEL_RAID6, 4);
	t.flush_policy = FR_FLUSH_DROP;
	t.devs[3].major = 259;
	t.devs[3].minor = 1048575;
	t.devs[3].offset = 18446744073709551615ull;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 2 flush_policy drop 4 253:0 2048 "
			    "253:1 2048 253:2 2048 259:1048575 18446744073709551615");
}

/* An explicit default is printed back by the kernel, so the builder keeps it too. */
static void test_table_keeps_explicit_default_feature(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;

	(void)state;
	t_table(&t, FR_LEVEL_RAID0, 1);
	t.flush_explicit = true;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid0 1024 2 flush_policy passthrough 1 253:0 2048");
}

/* Every feature at once, in the order fanraid_status() prints them. */
static void test_table_builds_features_in_canonical_order(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t, back;

	(void)state;
	t_table(&t, FR_LEVEL_RAID6, 5);
	t.flush_explicit = true;
	t.max_sync_rate_set = true;
	t.max_sync_rate = 10240;
	t.rebuild_mask = 1u << 3;
	t.resync = true;
	t.devs[1].missing = true;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 7 flush_policy passthrough "
			    "max_sync_rate 10240 rebuild 3 resync 5 253:0 2048 "
			    "- - 253:2 2048 253:3 2048 253:4 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	t.devs[1].major = t.devs[1].minor = 0;
	t.devs[1].offset = 0;
	assert_memory_equal(&t, &back, sizeof(t));

	/* all seventeen feature words the target knows; stripe_cache_mb last */
	t.flush_policy = FR_FLUSH_DIRTY;
	t.rebuild_mask = 1u << 2 | 1u << 4;
	t.devs[1].missing = false;
	t.readahead_set = true;
	t.readahead_on = false;
	t.ra_window_set = true;
	t.ra_window = 64;
	t.ra_cache_set = true;
	t.ra_cache_mb = 0;
	t.stripe_cache_set = true;
	t.stripe_cache_mb = 4096;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 17 flush_policy dirty "
			    "max_sync_rate 10240 rebuild 2 rebuild 4 resync "
			    "readahead off ra_window 64 ra_cache_mb 0 "
			    "stripe_cache_mb 4096 5 "
			    "253:0 2048 0:0 0 253:2 2048 253:3 2048 253:4 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));

	/* min_sync_rate right after max_sync_rate; raid6 and target 1.6 only */
	t.min_sync_rate_set = true;
	t.min_sync_rate = 512;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 19 flush_policy dirty "
			    "max_sync_rate 10240 min_sync_rate 512 rebuild 2 "
			    "rebuild 4 resync readahead off ra_window 64 "
			    "ra_cache_mb 0 stripe_cache_mb 4096 5 "
			    "253:0 2048 0:0 0 253:2 2048 253:3 2048 253:4 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
	assert_int_equal(fr_table_parse("raid6 1024 4 min_sync_rate 1 "
					"max_sync_rate 2 4 8:0 0 8:1 0 8:2 0 "
					"8:3 0", &back), -EINVAL);
	{
		struct fr_version v;

		assert_string_equal(fr_table_required_version(&t, &v),
				    "min_sync_rate");
		assert_int_equal(v.minor, 6);
	}
	t_table(&t, FR_LEVEL_RAID0, 2);
	t.min_sync_rate_set = true;
	t.min_sync_rate = 1;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
}

/*
 * superblock and safe_mode_delay: after max_read_errors, in that order;
 * raid6 only, and safe_mode_delay only with superblock.
 */
static void test_table_round_trips_superblock(void **state)
{
	char buf[FR_TABLE_MAX], again[FR_TABLE_MAX];
	struct fr_table t, back;

	(void)state;
	t_table(&t, FR_LEVEL_RAID6, 4);
	t.superblock = true;
	t.safe_mode_delay_set = true;
	t.safe_mode_delay = 4294967295u;
	t.max_read_errors_set = true;
	t.max_read_errors = 3;
	t.resync = true;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 6 resync max_read_errors 3 superblock "
			    "safe_mode_delay 4294967295 4 253:0 2048 253:1 2048 "
			    "253:2 2048 253:3 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
	assert_int_equal(fr_table_build(&back, again, sizeof(again)), 0);
	assert_string_equal(buf, again);
	/* out of canonical order, or a delay without the feature: no echo */
	assert_int_equal(fr_table_parse("raid6 1024 3 safe_mode_delay 1 superblock "
					"4 253:0 0 253:1 0 253:2 0 253:3 0",
					&back), -EINVAL);
	t.superblock = false;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t_table(&t, FR_LEVEL_RAID0, 2);
	t.superblock = true;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
}

/*
 * reshape <old_ndevs> <position>: last, fewer old members than the table
 * has, raid6 only with superblock (target 1.8.0), never with rebuild or
 * readd; the target's TABLE line reads back as built.
 */
static void test_table_round_trips_reshape(void **state)
{
	char buf[FR_TABLE_MAX], again[FR_TABLE_MAX];
	struct fr_table t, back;
	struct fr_version v;

	(void)state;
	t_table(&t, FR_LEVEL_RAID0, 4);
	t.readahead_set = true;
	t.readahead_on = false;
	t.reshape = true;
	t.reshape_old_ndevs = 3;
	t.reshape_pos = 18446744073709551615ull;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid0 1024 5 readahead off reshape 3 "
			    "18446744073709551615 4 253:0 2048 253:1 2048 "
			    "253:2 2048 253:3 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
	assert_int_equal(fr_table_build(&back, again, sizeof(again)), 0);
	assert_string_equal(buf, again);
	assert_string_equal(fr_table_required_version(&t, &v), "reshape");
	assert_int_equal(v.minor, 7);
	/* one value, out of order, not fewer members, raid6: no echo */
	assert_int_equal(fr_table_parse("raid0 1024 2 reshape 3 4 253:0 0 "
					"253:1 0 253:2 0 253:3 0", &back), -EINVAL);
	assert_int_equal(fr_table_parse("raid0 1024 5 reshape 3 0 readahead on "
					"4 253:0 0 253:1 0 253:2 0 253:3 0",
					&back), -EINVAL);
	t.reshape_old_ndevs = 4;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.reshape_old_ndevs = 0;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t_table(&t, FR_LEVEL_RAID6, 5);
	t.reshape = true;
	t.reshape_old_ndevs = 4;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.superblock = true;
	t.reshape_pos = 1024;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 4 superblock reshape 4 1024 5 "
			    "253:0 2048 253:1 2048 253:2 2048 253:3 2048 "
			    "253:4 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
	assert_string_equal(fr_table_required_version(&t, &v),
			    "reshape on raid6");
	assert_int_equal(v.minor, 8);
	t.reshape_old_ndevs = 3;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.reshape_old_ndevs = 4;
	t.rebuild_mask = 1u << 4;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
}

/*
 * bitmap and readd: after safe_mode_delay, in that order; bitmap only with
 * superblock, readd only with bitmap, never a member both rebuilt and
 * re-added, and re-added members count towards the two lost.
 */
static void test_table_round_trips_bitmap_and_readd(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t, back;

	(void)state;
	t_table(&t, FR_LEVEL_RAID6, 6);
	t.superblock = true;
	t.bitmap_set = true;
	t.bitmap_region = 131072;
	t.readd_mask = 1ull << 1 | 1ull << 4;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 7 superblock bitmap 131072 readd 1 "
			    "readd 4 6 253:0 2048 253:1 2048 253:2 2048 253:3 2048 "
			    "253:4 2048 253:5 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
	{
		struct fr_version v;

		assert_string_equal(fr_table_required_version(&t, &v), "readd");
		assert_int_equal(v.minor, 4);
		t.readd_mask = 0;
		assert_string_equal(fr_table_required_version(&t, &v), "bitmap");
		t.readd_mask = 1ull << 1 | 1ull << 4;
	}
	/* readd out of order, twice, or before bitmap: no echo */
	assert_int_equal(fr_table_parse("raid6 1024 7 superblock bitmap 8 readd 4 readd 1 "
					"6 253:0 0 253:1 0 253:2 0 253:3 0 253:4 0 253:5 0",
					&back), -EINVAL);
	assert_int_equal(fr_table_parse("raid6 1024 5 superblock readd 1 bitmap 8 "
					"6 253:0 0 253:1 0 253:2 0 253:3 0 253:4 0 253:5 0",
					&back), -EINVAL);
	/* a third lost member, a rebuilt one re-added, no bitmap, no superblock */
	t.rebuild_mask = 1ull << 0;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.rebuild_mask = 1ull << 1;
	t.readd_mask = 1ull << 1;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.rebuild_mask = 0;
	t.bitmap_set = false;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.readd_mask = 0;
	t.bitmap_set = true;
	t.superblock = false;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	/* the region: a power of two up to 2^31 */
	t.superblock = true;
	t.bitmap_region = 3;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.bitmap_region = 1u << 31;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
}

/* stripe_cache_mb alone: printed only when given, after every other feature. */
static void test_table_round_trips_stripe_cache_mb(void **state)
{
	char buf[FR_TABLE_MAX], again[FR_TABLE_MAX];
	struct fr_table t, back;

	(void)state;
	t_table(&t, FR_LEVEL_RAID6, 4);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_null(strstr(buf, "stripe_cache_mb"));
	t.stripe_cache_set = true;
	t.stripe_cache_mb = 128;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 1024 2 stripe_cache_mb 128 4 253:0 2048 "
			    "253:1 2048 253:2 2048 253:3 2048");
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
	assert_int_equal(fr_table_build(&back, again, sizeof(again)), 0);
	assert_string_equal(buf, again);

	/* the geometry's minimum itself is legal: 64 members, 128 KiB windows */
	t_table(&t, FR_LEVEL_RAID6, FR_MAX_DEVS);
	t.stripe_cache_set = true;
	t.stripe_cache_mb = fr_r6_stripe_cache_min_mb(FR_MAX_DEVS, 1024);
	assert_int_equal(t.stripe_cache_mb, 17);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, " stripe_cache_mb 17 64 "));
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_true(back.stripe_cache_set);
	assert_int_equal(back.stripe_cache_mb, 17);
}

/* Each value the kernel refuses, built or parsed, is refused here too. */
static void test_table_rejects_bad_stripe_cache_mb(void **state)
{
	static const char *const bad[] = {
		/* raid0 */
		"raid0 1024 2 stripe_cache_mb 64 1 8:0 8",
		/* out of 1..4096 */
		"raid6 8 2 stripe_cache_mb 0 4 8:0 8 8:1 8 8:2 8 8:3 8",
		"raid6 8 2 stripe_cache_mb 4097 4 8:0 8 8:1 8 8:2 8 8:3 8",
		"raid6 8 2 stripe_cache_mb 4294967296 4 8:0 8 8:1 8 8:2 8 8:3 8",
		/* not a number */
		"raid6 8 2 stripe_cache_mb -1 4 8:0 8 8:1 8 8:2 8 8:3 8",
		"raid6 8 2 stripe_cache_mb 64M 4 8:0 8 8:1 8 8:2 8 8:3 8",
		"raid6 8 2 stripe_cache_mb 064 4 8:0 8 8:1 8 8:2 8 8:3 8",
		"raid6 8 2 stripe_cache_mb default 4 8:0 8 8:1 8 8:2 8 8:3 8",
		/* no value */
		"raid6 8 1 stripe_cache_mb 4 8:0 8 8:1 8 8:2 8 8:3 8",
		/* duplicated */
		"raid6 8 4 stripe_cache_mb 64 stripe_cache_mb 64 4 8:0 8 8:1 8 8:2 8 8:3 8",
		/* not in canonical order: it comes after ra_cache_mb */
		"raid6 8 4 stripe_cache_mb 64 ra_cache_mb 16 4 8:0 8 8:1 8 8:2 8 8:3 8",
		"raid6 8 3 stripe_cache_mb 64 resync 4 8:0 8 8:1 8 8:2 8 8:3 8",
	};
	char buf[FR_TABLE_MAX];
	struct fr_table t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (fr_table_parse(bad[i], &t) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);

	/* 64 members with 128 KiB windows need 17 MiB: 16 is refused */
	t_table(&t, FR_LEVEL_RAID6, FR_MAX_DEVS);
	t.stripe_cache_set = true;
	t.stripe_cache_mb = 17;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_int_equal(fr_table_parse(buf, &t), 0);
	memcpy(strstr(buf, " stripe_cache_mb 17 ") + 17, "16", 2);
	assert_int_equal(fr_table_parse(buf, &t), -EINVAL);

	/* the builder refuses what the parser refuses */
	t_table(&t, FR_LEVEL_RAID0, 4);
	t.stripe_cache_set = true;
	t.stripe_cache_mb = 64;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t_table(&t, FR_LEVEL_RAID6, 4);
	t.stripe_cache_set = true;
	t.stripe_cache_mb = 0;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.stripe_cache_mb = FR_R6_STRIPE_CACHE_MAX_MB + 1;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t.stripe_cache_mb = FR_R6_STRIPE_CACHE_MAX_MB;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	t_table(&t, FR_LEVEL_RAID6, FR_MAX_DEVS);
	t.stripe_cache_set = true;
	t.stripe_cache_mb = fr_r6_stripe_cache_min_mb(FR_MAX_DEVS, 1024) - 1;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	/* a small chunk makes a small window, and a smaller minimum */
	t.chunk_sectors = 8;
	t.stripe_cache_mb = 1;
	assert_int_equal(fr_r6_stripe_cache_min_mb(FR_MAX_DEVS, 8), 1);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
}

/* The target's own choice when stripe_cache_mb is not given. */
static void test_table_stripe_cache_default_is_64_or_the_minimum(void **state)
{
	uint32_t n, chunk;

	(void)state;
	assert_int_equal(fr_stripe_cache_default_mb(4, 1024),
			 FR_R6_STRIPE_CACHE_DEFAULT_MB);
	assert_int_equal(fr_stripe_cache_default_mb(FR_MAX_DEVS, 32768),
			 FR_R6_STRIPE_CACHE_DEFAULT_MB);
	for (n = FR_MIN_DEVS_RAID6; n <= FR_MAX_DEVS; n++)
		for (chunk = FR_MIN_CHUNK_SECTORS;
		     chunk <= FR_MAX_CHUNK_SECTORS; chunk <<= 1) {
			uint32_t d = fr_stripe_cache_default_mb(n, chunk);

			assert_true(d >= FR_R6_STRIPE_CACHE_DEFAULT_MB);
			assert_true(d >= fr_r6_stripe_cache_min_mb(n, chunk));
			assert_true(d <= FR_R6_STRIPE_CACHE_MAX_MB);
		}
}

static void test_table_rejects_raid6_features_on_raid0(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;

	(void)state;
	t_table(&t, FR_LEVEL_RAID0, 4);
	t.resync = true;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t_table(&t, FR_LEVEL_RAID0, 4);
	t.devs[2].missing = true;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	/* raid6 loses at most two: missing plus rebuilding */
	t_table(&t, FR_LEVEL_RAID6, 6);
	t.devs[0].missing = true;
	t.devs[5].missing = true;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	t.rebuild_mask = 2;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
}

static void test_table_build_rejects_invalid_shape(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;

	(void)state;
	t_table(&t, FR_LEVEL_RAID6, 3);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t_table(&t, FR_LEVEL_RAID0, 2);
	t.chunk_sectors = 1000;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t_table(&t, 5, 2);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
	t_table(&t, FR_LEVEL_RAID0, 2);
	t.flush_policy = 7;
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), -EINVAL);
}

static void test_table_build_reports_short_buffer(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;
	size_t len;

	(void)state;
	t_table(&t, FR_LEVEL_RAID0, 2);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	len = strlen(buf);
	assert_int_equal(fr_table_build(&t, buf, len), -ENOSPC);
	assert_int_equal(fr_table_build(&t, buf, 10), -ENOSPC);
	assert_int_equal(fr_table_build(&t, buf, len + 1), 0);
}

/* 64 members, the largest numbers and every feature fit in FR_TABLE_MAX. */
static void test_table_64_members_fit(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t, back;
	uint32_t i;

	(void)state;
	t_table(&t, FR_LEVEL_RAID6, FR_MAX_DEVS);
	t.flush_explicit = true;
	t.max_sync_rate_set = true;
	t.max_sync_rate = UINT32_MAX;
	t.min_sync_rate_set = true;
	t.min_sync_rate = UINT32_MAX;
	t.rebuild_mask = 3ull << 62;
	t.resync = true;
	t.readahead_set = true;
	t.ra_window_set = true;
	t.ra_window = FR_RA_MAX_WINDOW;
	t.ra_cache_set = true;
	t.ra_cache_mb = FR_RA_MAX_CACHE_MB;
	t.stripe_cache_set = true;
	t.stripe_cache_mb = FR_R6_STRIPE_CACHE_MAX_MB;
	for (i = 0; i < FR_MAX_DEVS; i++) {
		t.devs[i].major = 4095;
		t.devs[i].minor = 1048575;
		t.devs[i].offset = UINT64_MAX;
	}
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_int_equal(fr_table_parse(buf, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
}

/* build(parse(x)) == x across the geometry sweep: the kernel's echo round-trips. */
static void test_table_round_trips_geometry_sweep(void **state)
{
	char buf[FR_TABLE_MAX], again[FR_TABLE_MAX];
	struct fr_table t, back;
	uint32_t n, chunk, l;

	(void)state;
	for (l = 0; l < 2; l++)
		for (n = 1; n <= FR_MAX_DEVS; n++)
			for (chunk = FR_MIN_CHUNK_SECTORS;
			     chunk <= FR_MAX_CHUNK_SECTORS; chunk <<= 1) {
				uint32_t level = l ? FR_LEVEL_RAID6 :
						     FR_LEVEL_RAID0;

				if (n < fr_level_min_devs(level))
					continue;
				t_table(&t, level, n);
				t.chunk_sectors = chunk;
				t.flush_policy = n & 1;
				t.flush_explicit = n % 3 == 0;
				assert_int_equal(fr_table_build(&t, buf,
								sizeof(buf)), 0);
				assert_int_equal(fr_table_parse(buf, &back), 0);
				assert_int_equal(fr_table_build(&back, again,
								sizeof(again)), 0);
				assert_string_equal(buf, again);
				assert_int_equal(back.flush_policy, t.flush_policy);
			}
}

static void test_table_rejects_malformed_lines(void **state)
{
	static const char *const bad[] = {
		"",
		"raid0",
		"raid0 1024 0 1",
		"raid5 1024 0 1 253:0 2048",
		"0 1024 0 1 253:0 2048",
		"raid0 1000 0 1 253:0 2048",
		"raid0 4 0 1 253:0 2048",
		"raid0 1024 0 0",
		"raid0 1024 0 2 253:0 2048",
		"raid0 1024 0 1 253:0 2048 253:1 2048",
		"raid0 1024 0 1 253:0 2048 extra",
		"raid0 1024 0 1 253:0",
		"raid0 1024 0 1 /dev/sda 2048",
		"raid0 1024 0 1 253 2048",
		"raid0 1024 0 1 253:x 2048",
		"raid0 1024 0 1 :0 2048",
		"raid0 1024 0 1 253: 2048",
		"raid0 1024 0 1 253:0 -1",
		"raid0 1024 0 1 253:0 18446744073709551616",
		"raid0 1024 0 1 253:0 2048 ",
		" raid0 1024 0 1 253:0 2048",
		"raid0  1024 0 1 253:0 2048",
		"raid0 1024 1 flush_policy 1 253:0 2048",
		"raid0 1024 2 flush_policy sometimes 1 253:0 2048",
		"raid0 1024 2 readahead 64 1 253:0 2048",
		"raid0 1024 4 flush_policy drop flush_policy drop 1 253:0 2048",
		"raid0 1024 9 flush_policy drop 1 253:0 2048",
		"raid0 1024 4294967295 1 253:0 2048",
		"raid6 1024 0 3 253:0 8 253:1 8 253:2 8",
		"raid0 1024 0 65 253:0 8",
		"raid0 +1024 0 1 253:0 2048",
		"raid0 1024 1 resync 1 253:0 2048",
		"raid0 1024 0 2 253:0 2048 - -",
		"raid6 8 0 4 - - - - - - 8:0 8",
		"raid6 8 0 4 - 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 1 resync2 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 2 resync resync 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 3 resync flush_policy drop 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 4 rebuild 2 rebuild 1 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 4 rebuild 1 rebuild 1 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 2 rebuild 4 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 2 max_sync_rate -1 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid6 8 6 rebuild 0 rebuild 1 rebuild 2 4 8:3 8 8:1 8 8:2 8 8:0 8",
		"raid0 8 2 readahead maybe 1 8:0 8",
		"raid0 8 2 ra_window 0 1 8:0 8",
		"raid0 8 2 ra_window 65 1 8:0 8",
		"raid0 8 2 ra_cache_mb 4097 1 8:0 8",
		"raid0 8 4 ra_window 2 readahead on 1 8:0 8",
		"raid0 8 4 readahead on flush_policy drop 1 8:0 8",
		"raid0 8 2 flush_policy sometimes 1 8:0 8",
		"raid0 01024 0 1 253:0 2048",
		"raid0 1024 0 1 253:00 2048",
	};
	struct fr_table t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (fr_table_parse(bad[i], &t) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);
}

static void test_table_parses_kernel_echo(void **state)
{
	struct fr_table t;

	(void)state;
	assert_int_equal(fr_table_parse("raid0 128 2 flush_policy drop 3 "
					 "8:16 2048 8:32 4096 259:0 8", &t), 0);
	assert_int_equal(t.level, FR_LEVEL_RAID0);
	assert_int_equal(t.chunk_sectors, 128);
	assert_int_equal(t.flush_policy, FR_FLUSH_DROP);
	assert_true(t.flush_explicit);
	assert_int_equal(t.ndevs, 3);
	assert_int_equal(t.devs[1].major, 8);
	assert_int_equal(t.devs[1].minor, 32);
	assert_int_equal(t.devs[1].offset, 4096);
	assert_int_equal(t.devs[2].major, 259);
}

static void test_table_names_the_feature_needing_a_version(void **state)
{
	struct fr_version v;
	struct fr_table t;

	(void)state;
	t_table(&t, FR_LEVEL_RAID0, 2);
	assert_string_equal(fr_table_required_version(&t, &v), "raid0");
	assert_int_equal(v.major, 1);
	t.flush_policy = FR_FLUSH_DROP;
	assert_string_equal(fr_table_required_version(&t, &v), "flush_policy");
	t_table(&t, FR_LEVEL_RAID6, 4);
	assert_string_equal(fr_table_required_version(&t, &v), "raid6");
	t.resync = true;
	assert_string_equal(fr_table_required_version(&t, &v), "resync");
	t.ra_window_set = true;
	t.ra_window = 4;
	assert_string_equal(fr_table_required_version(&t, &v), "readahead");
	assert_int_equal(v.minor, 0);
	/* the newest feature wins over every older one */
	t.stripe_cache_set = true;
	t.stripe_cache_mb = 64;
	assert_string_equal(fr_table_required_version(&t, &v), "stripe_cache_mb");
	assert_int_equal(v.major, 1);
	assert_int_equal(v.minor, 1);
	assert_int_equal(v.patch, 0);
	t_table(&t, FR_LEVEL_RAID6, 4);
	t.stripe_cache_set = true;
	t.stripe_cache_mb = 64;
	assert_string_equal(fr_table_required_version(&t, &v), "stripe_cache_mb");
	assert_int_equal(v.minor, 1);
	t.superblock = true;
	assert_string_equal(fr_table_required_version(&t, &v), "superblock");
	assert_int_equal(v.minor, 3);
	t.safe_mode_delay_set = true;
	assert_string_equal(fr_table_required_version(&t, &v), "safe_mode_delay");
}

/*
 * Mutated valid lines: the parser may accept one only if the builder
 * writes the very same line back from what was parsed.
 */
static void test_table_fuzz_parser(void **state)
{
	static const char alphabet[] = "0123456789 :raidflush_pothgdv-+\tbncmx";
	char line[FR_TABLE_MAX], again[FR_TABLE_MAX];
	uint64_t seed = 0xfeedfacecafebeefull;
	struct fr_table t;
	int iter, k;

	(void)state;
	for (iter = 0; iter < 100000; iter++) {
		size_t len;

		snprintf(line, sizeof(line), "%s",
			 iter & 1 ? "raid6 256 15 flush_policy drop max_sync_rate 100 rebuild 1 resync readahead on ra_window 8 ra_cache_mb 32 stripe_cache_mb 16 5 8:0 2048 8:16 2048 - - 8:32 2048 8:48 2048" :
				    "raid0 1024 0 2 253:0 2048 253:1 4096");
		len = strlen(line);
		for (k = 0; k < 1 + iter % 3; k++) {
			uint64_t r = rc_t_rand(&seed);
			size_t pos = (r >> 8) % len;

			switch (r & 3) {
			case 0:	/* replace */
				line[pos] = alphabet[(r >> 32) % (sizeof(alphabet) - 1)];
				break;
			case 1:	/* delete */
				memmove(line + pos, line + pos + 1, len - pos);
				len--;
				break;
			case 2:	/* truncate */
				line[pos] = '\0';
				len = pos;
				break;
			default: /* insert */
				if (len + 2 >= sizeof(line))
					break;
				memmove(line + pos + 1, line + pos, len - pos + 1);
				line[pos] = alphabet[(r >> 32) % (sizeof(alphabet) - 1)];
				len++;
			}
			if (!len)
				break;
		}
		if (fr_table_parse(line, &t))
			continue;
		assert_int_equal(fr_table_build(&t, again, sizeof(again)), 0);
		if (strcmp(line, again))
			fail_msg("accepted '%s' but builds '%s'", line, again);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_builds_kernel_format),
		cmocka_unit_test(test_table_keeps_explicit_default_feature),
		cmocka_unit_test(test_table_builds_features_in_canonical_order),
		cmocka_unit_test(test_table_round_trips_superblock),
		cmocka_unit_test(test_table_round_trips_reshape),
		cmocka_unit_test(test_table_round_trips_bitmap_and_readd),
		cmocka_unit_test(test_table_round_trips_stripe_cache_mb),
		cmocka_unit_test(test_table_rejects_bad_stripe_cache_mb),
		cmocka_unit_test(test_table_stripe_cache_default_is_64_or_the_minimum),
		cmocka_unit_test(test_table_rejects_raid6_features_on_raid0),
		cmocka_unit_test(test_table_build_rejects_invalid_shape),
		cmocka_unit_test(test_table_build_reports_short_buffer),
		cmocka_unit_test(test_table_64_members_fit),
		cmocka_unit_test(test_table_round_trips_geometry_sweep),
		cmocka_unit_test(test_table_rejects_malformed_lines),
		cmocka_unit_test(test_table_parses_kernel_echo),
		cmocka_unit_test(test_table_names_the_feature_needing_a_version),
		cmocka_unit_test(test_table_fuzz_parser),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
