/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/status.c: the INFO status line parser. Valid lines land in the
 * right fields, every malformed line is refused, words appended by a newer
 * target are tolerated, and random mutations never crash it.
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
#include "status.h"

static void test_status_parses_raid0_line(void **state)
{
	struct fr_status st;

	(void)state;
	/* the shape of the example in docs/fanraid.rst */
	assert_int_equal(fr_status_parse("raid0 2 AA 8388608/8388608 idle "
					 "1 2 3 4 5 6 10 20 30 40 50 60 0 "
					 "310 12 65536 512 0", &st), 0);
	assert_int_equal(st.level, FR_LEVEL_RAID0);
	assert_int_equal(st.ndevs, 2);
	assert_string_equal(st.health, "AA");
	assert_int_equal(st.sync_cur, 8388608);
	assert_int_equal(st.sync_total, 8388608);
	assert_string_equal(st.action, "idle");
	assert_true(st.has_mismatch_cnt);
	assert_int_equal(st.members[0].reads, 1);
	assert_int_equal(st.members[0].writes, 2);
	assert_int_equal(st.members[0].read_sectors, 3);
	assert_int_equal(st.members[0].write_sectors, 4);
	assert_int_equal(st.members[0].flushes, 5);
	assert_int_equal(st.members[0].errors, 6);
	assert_int_equal(st.members[1].reads, 10);
	assert_int_equal(st.members[1].errors, 60);
	assert_int_equal(st.extra_words, 0);
}

static void test_status_parses_degraded_raid6_resync(void **state)
{
	struct fr_status st;

	(void)state;
	assert_int_equal(fr_status_parse("raid6 4 AaDA 512/8192 resync "
					 "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7 "
					 "0 0 0 0 0 18446744073709551615 24", &st), 0);
	assert_int_equal(st.mismatch_cnt, 24);
	assert_int_equal(st.level, FR_LEVEL_RAID6);
	assert_string_equal(st.health, "AaDA");
	assert_int_equal(st.sync_cur, 512);
	assert_int_equal(st.sync_total, 8192);
	assert_string_equal(st.action, "resync");
	assert_int_equal(st.members[2].errors, 7);
	assert_true(st.members[3].errors == UINT64_MAX);
	assert_string_equal(fr_health_name(st.health[2]), "dead");
	assert_string_equal(fr_health_name(st.health[1]), "syncing");
}

/* The grammar grows at the end (R8): a newer target's extra words are counted. */
static void test_status_tolerates_fields_appended_later(void **state)
{
	struct fr_status st;

	(void)state;
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 9 "
					 "1 2 3 4 5 0 0 3 16 4 clean 0 0 0 - - - x 42", &st), 0);
	assert_int_equal(st.extra_words, 2);
	assert_true(st.has_bitmap);
	assert_true(st.has_read_errors_corrected);
	assert_int_equal(st.members[0].read_errors_corrected, 3);
	assert_int_equal(st.members[0].check_blamed_sectors, 16);
	assert_true(st.has_mismatch_cnt);
	assert_true(st.has_stripe_cache);
	assert_int_equal(st.mismatch_cnt, 9);
	assert_int_equal(st.members[0].errors, 6);
	/* the readahead and flush counters that follow mismatch_cnt */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "310 12 65536 512 7", &st), 0);
	assert_true(st.has_ra_stats);
	assert_int_equal(st.ra_hits, 310);
	assert_int_equal(st.ra_misses, 12);
	assert_int_equal(st.ra_prefetched, 65536);
	assert_int_equal(st.ra_wasted, 512);
	assert_int_equal(st.flushes_elided, 7);
	assert_int_equal(st.extra_words, 0);
	/* a 1.0 target stops at flushes_elided: no stripe cache words */
	assert_false(st.has_stripe_cache);
	assert_int_equal(st.stripe_cache_kib, 0);
	assert_int_equal(st.stripe_cache_peak_kib, 0);
	/* an older target stopped after the counters */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6", &st), 0);
	assert_false(st.has_mismatch_cnt);
}

/* 1.4.0 appends the bitmap's region, its set bits and the regions synced. */
static void test_status_parses_bitmap_words(void **state)
{
	struct fr_status st;

	(void)state;
	assert_int_equal(fr_status_parse("raid6 4 AAAa 8192/8192 recover "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 0 0 0 0 0 2048 65536 "
					 "0 0 0 0 0 0 0 0 17 dirty 2048 3 2 -", &st), 0);
	assert_true(st.has_bitmap);
	assert_true(st.lost_row == UINT64_MAX);
	assert_int_equal(st.bitmap_region_sectors, 2048);
	assert_int_equal(st.bitmap_dirty, 3);
	assert_int_equal(st.sync_regions, 2);
	assert_int_equal(st.extra_words, 0);
	/* a 1.3 target stops at sb_state */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 0 0 0 0 0 none", &st), 0);
	assert_false(st.has_bitmap);
	/* the group is whole or malformed; the region is a u32 */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 0 0 0 0 0 none 8", &st), -EINVAL);
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 0 0 0 0 0 none 4294967296 0 0 -",
					 &st), -EINVAL);
	/* a rebuild that stopped names its row; anything else is malformed */
	assert_int_equal(fr_status_parse("raid6 4 AADD 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 0 0 0 0 0 0 0 "
					 "0 0 0 0 0 0 0 0 9 clean 0 0 0 17", &st), 0);
	assert_true(st.lost_row == 17);
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 0 0 0 0 0 none 0 0 0 x", &st), -EINVAL);
}

/* 1.7.0 appends a grow's copied and recorded positions, or "- -". */
static void test_status_parses_reshape_words(void **state)
{
	static const char head[] = "raid0 2 AA 4096/8192 reshape "
		"1 2 3 4 5 6 1 2 3 4 5 6 0 0 0 0 0 0 0 0 0 0 0 0 0 none 0 0 0 -";
	char line[256];
	struct fr_status st;

	(void)state;
	snprintf(line, sizeof(line), "%s 4096 2048", head);
	assert_int_equal(fr_status_parse(line, &st), 0);
	assert_true(st.has_reshape_words);
	assert_true(st.reshape);
	assert_int_equal(st.reshape_done, 4096);
	assert_int_equal(st.reshape_safe, 2048);
	assert_string_equal(st.action, "reshape");
	assert_int_equal(st.extra_words, 0);
	snprintf(line, sizeof(line), "%s - -", head);
	assert_int_equal(fr_status_parse(line, &st), 0);
	assert_true(st.has_reshape_words);
	assert_false(st.reshape);
	/* a 1.6 target stops at the lost row */
	assert_int_equal(fr_status_parse(head, &st), 0);
	assert_false(st.has_reshape_words);
	/* recorded past copied, half a pair, or junk: malformed */
	snprintf(line, sizeof(line), "%s 2048 4096", head);
	assert_int_equal(fr_status_parse(line, &st), -EINVAL);
	snprintf(line, sizeof(line), "%s 4096", head);
	assert_int_equal(fr_status_parse(line, &st), -EINVAL);
	snprintf(line, sizeof(line), "%s 4096 x", head);
	assert_int_equal(fr_status_parse(line, &st), -EINVAL);
}

/* 1.1.0 appends the stripe cache in use and its peak, in KiB, after flushes_elided. */
static void test_status_parses_stripe_cache_words(void **state)
{
	struct fr_status st;

	(void)state;
	assert_int_equal(fr_status_parse("raid6 4 AAAA 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 310 12 65536 512 7 "
					 "2048 65536", &st), 0);
	assert_true(st.has_ra_stats);
	assert_true(st.has_stripe_cache);
	assert_int_equal(st.flushes_elided, 7);
	assert_int_equal(st.stripe_cache_kib, 2048);
	assert_int_equal(st.stripe_cache_peak_kib, 65536);
	assert_int_equal(st.extra_words, 0);
	/* raid0 prints both as 0 */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 0 0", &st), 0);
	assert_true(st.has_stripe_cache);
	assert_int_equal(st.stripe_cache_kib, 0);
	/* the largest values the counters can hold */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 18446744073709551615 "
					 "18446744073709551615 0 0 0 none 0 0 0 - - - more", &st), 0);
	assert_true(st.stripe_cache_kib == UINT64_MAX);
	assert_true(st.stripe_cache_peak_kib == UINT64_MAX);
	assert_int_equal(st.extra_words, 1);
}

/* 1.2.0 appends read_errors_corrected, then check_blamed_sectors, per member. */
static void test_status_parses_read_errors_corrected(void **state)
{
	struct fr_status st;

	(void)state;
	assert_int_equal(fr_status_parse("raid6 4 AAAA 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 310 12 65536 512 7 "
					 "2048 65536 0 8 0 18446744073709551615 "
					 "0 0 8 0", &st), 0);
	assert_true(st.has_read_errors_corrected);
	assert_int_equal(st.members[0].read_errors_corrected, 0);
	assert_int_equal(st.members[1].read_errors_corrected, 8);
	assert_true(st.members[3].read_errors_corrected == UINT64_MAX);
	assert_int_equal(st.members[2].check_blamed_sectors, 8);
	assert_int_equal(st.members[3].check_blamed_sectors, 0);
	assert_int_equal(st.extra_words, 0);
	/* a 1.1 target stops at the stripe cache words */
	assert_int_equal(fr_status_parse("raid6 4 AAAA 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 310 12 65536 512 7 "
					 "2048 65536", &st), 0);
	assert_false(st.has_read_errors_corrected);
	/* the group is there whole or not at all */
	assert_int_equal(fr_status_parse("raid6 4 AAAA 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 310 12 65536 512 7 "
					 "2048 65536 0 8", &st), -EINVAL);
	assert_int_equal(fr_status_parse("raid6 4 AAAA 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 310 12 65536 512 7 "
					 "2048 65536 0 8 0 0 0 0 0", &st), -EINVAL);
	assert_int_equal(fr_status_parse("raid6 4 AAAA 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 310 12 65536 512 7 "
					 "2048 65536 0 8 x 1 0 0 0 0", &st), -EINVAL);
}

/* 1.3.0 appends the superblock events and state, after the 1.2.0 groups. */
static void test_status_parses_superblock_words(void **state)
{
	static const char *const bad[] = {
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 0 0 0 0 0 0 0 0 0 7",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 0 0 0 0 0 0 0 0 0 7 maybe",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 0 0 0 0 0 0 0 0 0 5 none",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 0 0 0 0 0 0 0 0 0 0 clean",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 0 0 0 0 0 0 0 0 0 x dirty",
	};
	struct fr_status st;
	size_t i;

	(void)state;
	assert_int_equal(fr_status_parse("raid6 4 AAAD 8192/8192 idle "
					 "1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 "
					 "1 2 3 4 5 6 0 310 12 65536 512 7 "
					 "2048 65536 0 0 0 0 0 0 0 0 "
					 "18446744073709551615 dirty",
					 &st), 0);
	assert_true(st.has_sb);
	assert_true(st.sb_events == UINT64_MAX);
	assert_string_equal(st.sb_state, "dirty");
	assert_int_equal(st.extra_words, 0);
	/* without the superblock feature: 0 none */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 0 0 0 0 0 none", &st), 0);
	assert_true(st.has_sb);
	assert_int_equal(st.sb_events, 0);
	assert_string_equal(st.sb_state, "none");
	/* a 1.2 target stops before them */
	assert_int_equal(fr_status_parse("raid0 1 A 0/0 idle 1 2 3 4 5 6 0 "
					 "0 0 0 0 0 0 0 0 0", &st), 0);
	assert_false(st.has_sb);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(fr_status_parse(bad[i], &st), -EINVAL);
}

/* Every line of @bad is refused. */
static void t_expect_rejected(const char *const *bad, size_t n)
{
	struct fr_status st;
	size_t i;

	for (i = 0; i < n; i++)
		if (fr_status_parse(bad[i], &st) != -EINVAL)
			fail_msg("accepted '%s'", bad[i]);
}

/* A trailing group is printed whole: half of one is a format we do not know. */
static void test_status_rejects_partial_trailing_groups(void **state)
{
	static const char *const bad[] = {
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1 2 3 4",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1 2 3 4 5 6",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1 2 3 4 5 6 x",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1 2 3 4 5 x 7",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1 2 3 4 5 6 -7",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1 2 3 4 5 6 7 ",
	};

	(void)state;
	t_expect_rejected(bad, sizeof(bad) / sizeof(bad[0]));
}

static void test_status_handles_64_members(void **state)
{
	char line[4096];
	struct fr_status st;
	size_t pos;
	int i;

	(void)state;
	pos = snprintf(line, sizeof(line), "raid0 64 ");
	for (i = 0; i < 64; i++)
		line[pos++] = 'A';
	pos += snprintf(line + pos, sizeof(line) - pos, " 0/0 idle");
	for (i = 0; i < 64 * 6; i++)
		pos += snprintf(line + pos, sizeof(line) - pos, " %d", i);
	assert_int_equal(fr_status_parse(line, &st), 0);
	assert_int_equal(st.members[63].errors, 64 * 6 - 1);
	assert_int_equal(st.members[10].reads, 60);
}

static void test_status_rejects_malformed_lines(void **state)
{
	static const char *const bad[] = {
		"",
		"raid0",
		"raid5 1 A 0/0 idle 1 2 3 4 5 6",
		"0 1 A 0/0 idle 1 2 3 4 5 6",
		"raid0 0  0/0 idle",
		"raid0 65 A 0/0 idle",
		"raid6 3 AAA 0/0 idle 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6",
		"raid0 2 A 0/0 idle 1 2 3 4 5 6 1 2 3 4 5 6",
		"raid0 1 AA 0/0 idle 1 2 3 4 5 6",
		"raid0 1 X 0/0 idle 1 2 3 4 5 6",
		"raid0 1 A 0 idle 1 2 3 4 5 6",
		"raid0 1 A 0/ idle 1 2 3 4 5 6",
		"raid0 1 A /0 idle 1 2 3 4 5 6",
		"raid0 1 A 5/4 idle 1 2 3 4 5 6",
		"raid0 1 A 0/0/0 idle 1 2 3 4 5 6",
		"raid0 1 A 0/0 IDLE 1 2 3 4 5 6",
		"raid0 1 A 0/0 idle 1 2 3 4 5",
		"raid0 1 A 0/0 idle 1 2 3 4 5 -6",
		"raid0 1 A 0/0 idle 1 2 3 4 5 18446744073709551616",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 ",
		"raid0 1 A 0/0 idle 1 2 3 4 5  6",
		" raid0 1 A 0/0 idle 1 2 3 4 5 6",
		"raid0 1 A 0/0 idle 1 2 3 4 5 0x6",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 many",
		"raid0 1 A 0/0 idle 1 2 3 4 5 6 0 1 2 x",
		"raid0 1 A 0/0 averyveryverylongactionwordthatdoesnotfit 1 2 3 4 5 6",
		"raid0 01 A 0/0 idle 1 2 3 4 5 6",
	};

	(void)state;
	t_expect_rejected(bad, sizeof(bad) / sizeof(bad[0]));
}

/* Random edits of valid lines: any outcome but a crash or an overrun is fine. */
static void test_status_fuzz_parser(void **state)
{
	static const char alphabet[] = "0123456789 /AaDXraidle_\t-";
	uint64_t seed = 0x0123456789abcdefull;
	char line[512];
	struct fr_status st;
	int iter, k, accepted = 0;

	(void)state;
	for (iter = 0; iter < 100000; iter++) {
		size_t len;

		snprintf(line, sizeof(line), "%s", iter & 1 ?
			 "raid6 4 AaDA 512/8192 resync 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4 5 6 0 1 2 3 4 5 2048 4096" :
			 "raid0 2 AA 0/0 idle 1 2 3 4 5 6 7 8 9 10 11 12");
		len = strlen(line);
		for (k = 0; k < 1 + iter % 3 && len; k++) {
			uint64_t r = rc_t_rand(&seed);
			size_t pos = (r >> 8) % len;

			if (r & 1) {
				line[pos] = alphabet[(r >> 32) % (sizeof(alphabet) - 1)];
			} else {
				memmove(line + pos, line + pos + 1, len - pos);
				len--;
			}
		}
		if (fr_status_parse(line, &st))
			continue;
		accepted++;
		assert_int_equal(strlen(st.health), st.ndevs);
		assert_true(st.sync_cur <= st.sync_total);
	}
	assert_true(accepted > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_parses_raid0_line),
		cmocka_unit_test(test_status_parses_degraded_raid6_resync),
		cmocka_unit_test(test_status_tolerates_fields_appended_later),
		cmocka_unit_test(test_status_parses_stripe_cache_words),
		cmocka_unit_test(test_status_parses_bitmap_words),
		cmocka_unit_test(test_status_parses_reshape_words),
		cmocka_unit_test(test_status_parses_read_errors_corrected),
		cmocka_unit_test(test_status_parses_superblock_words),
		cmocka_unit_test(test_status_rejects_partial_trailing_groups),
		cmocka_unit_test(test_status_handles_64_members),
		cmocka_unit_test(test_status_rejects_malformed_lines),
		cmocka_unit_test(test_status_fuzz_parser),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
