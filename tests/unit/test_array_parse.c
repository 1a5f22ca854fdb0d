/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table line as raidcalc reads it: the same grammar as the target's
 * constructor, every error naming its argument, and TABLE output that
 * round-trips.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "raidcalc.h"
#include "rc_testutil.h"

/* The longest table: start, length, 4 fixed words, 22 feature words, 64 pairs. */
#define RC_T_MAXW 200

/* Splits @line into words (in @copy) and parses them. */
static int rc_t_parse(struct rc_array *a, const char *line, u64 len)
{
	static char copy[2048];
	char *argv[RC_T_MAXW], *tok, *save;
	int argc = 0;

	snprintf(copy, sizeof(copy), "%s", line);
	for (tok = strtok_r(copy, " ", &save); tok && argc < RC_T_MAXW;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	return rc_array_parse(a, argc, argv, len);
}

static struct rc_array rc_t_a;

static void test_array_parse_reads_dmsetup_table_output(void **state)
{
	struct rc_array *a = &rc_t_a;

	(void)state;
	assert_int_equal(rc_t_parse(a, "0 1000000 fanraid raid6 128 0 5 "
				    "8:16 2048 8:32 2048 /dev/sdd 0 8:64 8 "
				    "8:80 2048", 0), 0);
	assert_int_equal(a->len, 1000000);
	assert_int_equal(a->geom.level, FR_LEVEL_RAID6);
	assert_int_equal(a->geom.ndevs, 5);
	assert_int_equal(a->geom.data_devs, 3);
	assert_int_equal(a->geom.chunk_sectors, 128);
	/* the kernel's rule: whole rows covering the target length */
	assert_int_equal(a->geom.member_sectors,
			 fr_geom_member_sectors_for(FR_LEVEL_RAID6, 5, 128,
						    1000000));
	assert_string_equal(a->members[2].dev, "/dev/sdd");
	assert_int_equal(a->members[3].offset, 8);
	assert_false(a->flush_given);
}

/* The target reads its numbers with kstrtou32()/kstrtoull(): '+' is taken. */
static void test_array_parse_takes_plus_signs_as_the_kernel(void **state)
{
	struct rc_array *a = &rc_t_a;

	(void)state;
	assert_int_equal(rc_t_parse(a, "fanraid raid0 +8 0 +2 a +0 b +16", 64),
			 0);
	assert_int_equal(a->geom.chunk_sectors, 8);
	assert_int_equal(a->geom.ndevs, 2);
	assert_int_equal(a->members[1].offset, 16);
	assert_int_equal(rc_t_parse(a, "+0 +64 fanraid raid0 8 0 1 a 0", 0), 0);
	assert_int_equal(a->len, 64);
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 0 ++2 a 0 b 0", 64),
			 -EINVAL);
	assert_string_equal(a->error, "Invalid device count: not a number");
}

static void test_array_parse_takes_length_from_caller(void **state)
{
	struct rc_array *a = &rc_t_a;

	(void)state;
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 0 1 /dev/x 0", 64), 0);
	assert_int_equal(a->len, 64);
	assert_int_equal(a->geom.member_sectors, 64);
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 0 1 /dev/x 0", 0),
			 -EINVAL);
	assert_string_equal(a->error,
			    "Missing target length (give -L or <start> <len>)");
	assert_int_equal(a->error_arg, 0);
	assert_int_equal(rc_t_parse(a, "0 64 fanraid raid0 8 0 1 /dev/x 0",
				    64), 0);
	assert_int_equal(rc_t_parse(a, "0 64 fanraid raid0 8 0 1 /dev/x 0",
				    72), -EINVAL);
	assert_string_equal(a->error,
			    "Target length given twice, and they differ");
}

static void test_array_parse_reads_flush_policy(void **state)
{
	struct rc_array *a = &rc_t_a;

	(void)state;
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 2 flush_policy drop "
				    "2 a 0 b 0", 16), 0);
	assert_true(a->flush_given);
	assert_int_equal(a->flush, RC_FLUSH_DROP);
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 2 flush_policy "
				    "passthrough 2 a 0 b 0", 16), 0);
	assert_int_equal(a->flush, RC_FLUSH_PASSTHROUGH);
	assert_int_equal(rc_t_parse(a, "fanraid raid6 8 2 flush_policy dirty "
				    "4 a 0 b 0 c 0 d 0", 16), 0);
	assert_true(a->flush_given);
	assert_int_equal(a->flush, RC_FLUSH_DIRTY);
}

/*
 * The features the fanraid tool puts in every table it builds: each is
 * read, kept as given, and leaves the geometry alone.
 */
static void test_array_parse_reads_readahead_and_stripe_cache(void **state)
{
	struct rc_array *a = &rc_t_a;
	struct fr_geom plain;

	(void)state;
	assert_int_equal(rc_t_parse(a, "fanraid raid6 256 0 6 a 0 b 0 c 0 "
				    "d 0 e 0 f 0", 1 << 20), 0);
	plain = a->geom;
	assert_false(a->readahead_given);
	assert_false(a->ra_window_given);
	assert_false(a->ra_cache_mb_given);
	assert_false(a->stripe_cache_mb_given);

	assert_int_equal(rc_t_parse(a, "fanraid raid6 256 8 readahead off "
				    "ra_window 64 ra_cache_mb 4096 "
				    "stripe_cache_mb 4096 6 a 0 b 0 c 0 d 0 "
				    "e 0 f 0", 1 << 20), 0);
	assert_true(a->readahead_given);
	assert_false(a->readahead);
	assert_true(a->ra_window_given);
	assert_int_equal(a->ra_window, 64);
	assert_true(a->ra_cache_mb_given);
	assert_int_equal(a->ra_cache_mb, 4096);
	assert_true(a->stripe_cache_mb_given);
	assert_int_equal(a->stripe_cache_mb, 4096);
	assert_memory_equal(&a->geom, &plain, sizeof(plain));

	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 6 readahead on "
				    "ra_window 1 ra_cache_mb 0 1 a 0", 64),
			 -EINVAL);
	/* off, or a cache the target sizes itself, needs no ra_cache_mb */
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 4 readahead off "
				    "ra_cache_mb 0 1 a 0", 64), 0);
	assert_int_equal(a->ra_cache_mb, 0);
	assert_true(a->ra_cache_mb_given);
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 4 readahead on "
				    "ra_window 1 1 a 0", 64), 0);
	assert_true(a->readahead);
	assert_int_equal(a->ra_window, 1);
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 2 ra_cache_mb 0 1 a 0",
				    64), 0);
	assert_false(a->readahead_given);
}

/* Each bad word gets its own message and the index just past it. */
static void test_array_parse_rejects_each_bad_argument(void **state)
{
	static const struct {
		const char *line;
		const char *error;
	} cases[] = {
		{ "fanraid raid5 8 0 1 a 0", "Invalid RAID level: must be raid0 or raid6" },
		{ "fanraid raid0 12x 0 1 a 0", "Invalid chunk size: not a number" },
		{ "fanraid raid0 -8 0 1 a 0", "Invalid chunk size: not a number" },
		{ "fanraid raid0 12 0 1 a 0", "Invalid chunk size: not a power of two" },
		{ "fanraid raid0 4 0 1 a 0", "Invalid chunk size: smaller than 4 KiB (8 sectors)" },
		{ "fanraid raid0 8 23 1 a 0", "Invalid number of feature arguments" },
		{ "fanraid raid0 8 22 1 a 0", "Invalid number of feature arguments" },
		/* sscanf("%u") would wrap these to 0 and read on */
		{ "fanraid raid0 8 4294967296 1 a 0", "Invalid number of feature arguments" },
		{ "fanraid raid0 8 18446744073709551616 1 a 0", "Invalid number of feature arguments" },
		/* kstrtouint() takes a '+', sscanf("%u") does not */
		{ "fanraid raid0 8 +0 1 a 0", "Invalid number of feature arguments" },
		{ "fanraid raid0 8 1 flush_policy 1 a 0", "Feature argument requires a value" },
		{ "fanraid raid0 8 2 flush_policy slow 1 a 0", "Invalid flush_policy: must be passthrough, dirty or drop" },
		{ "fanraid raid0 8 2 flush_policy Dirty 1 a 0", "Invalid flush_policy: must be passthrough, dirty or drop" },
		{ "fanraid raid0 8 2 prefetch on 1 a 0", "Unrecognised feature argument" },
		{ "fanraid raid0 8 1 readahead 1 a 0", "Feature argument requires a value" },
		{ "fanraid raid0 8 2 readahead 1 1 a 0", "Invalid readahead: must be on or off" },
		{ "fanraid raid0 8 2 readahead ON 1 a 0", "Invalid readahead: must be on or off" },
		{ "fanraid raid0 8 4 readahead on readahead off 1 a 0", "Feature readahead duplicated" },
		{ "fanraid raid0 8 2 ra_window 0 1 a 0", "Invalid ra_window: must be 1-64 stripes" },
		{ "fanraid raid0 8 2 ra_window 65 1 a 0", "Invalid ra_window: must be 1-64 stripes" },
		{ "fanraid raid0 8 2 ra_window 4x 1 a 0", "Invalid ra_window: must be 1-64 stripes" },
		{ "fanraid raid0 8 2 ra_window 4294967297 1 a 0", "Invalid ra_window: must be 1-64 stripes" },
		{ "fanraid raid0 8 4 ra_window 4 ra_window 4 1 a 0", "Feature ra_window duplicated" },
		{ "fanraid raid0 8 2 ra_cache_mb 4097 1 a 0", "Invalid ra_cache_mb: must be 0-4096 MiB" },
		{ "fanraid raid0 8 2 ra_cache_mb -1 1 a 0", "Invalid ra_cache_mb: must be 0-4096 MiB" },
		{ "fanraid raid0 8 4 ra_cache_mb 0 ra_cache_mb 0 1 a 0", "Feature ra_cache_mb duplicated" },
		{ "fanraid raid0 8 4 readahead on ra_cache_mb 0 1 a 0", "Readahead on needs a cache (ra_cache_mb > 0)" },
		{ "fanraid raid6 8 4 ra_cache_mb 0 readahead on 4 a 0 b 0 c 0 d 0", "Readahead on needs a cache (ra_cache_mb > 0)" },
		{ "fanraid raid6 8 2 stripe_cache_mb 0 4 a 0 b 0 c 0 d 0", "Invalid stripe_cache_mb: must be 1-4096 MiB" },
		{ "fanraid raid6 8 2 stripe_cache_mb 4097 4 a 0 b 0 c 0 d 0", "Invalid stripe_cache_mb: must be 1-4096 MiB" },
		{ "fanraid raid6 8 2 stripe_cache_mb off 4 a 0 b 0 c 0 d 0", "Invalid stripe_cache_mb: must be 1-4096 MiB" },
		{ "fanraid raid6 8 4 stripe_cache_mb 8 stripe_cache_mb 8 4 a 0 b 0 c 0 d 0", "Feature stripe_cache_mb duplicated" },
		{ "fanraid raid6 256 2 stripe_cache_mb 1 4 a 0 b 0 c 0 d 0", "Invalid stripe_cache_mb: below the minimum for this raid6 geometry" },
		{ "fanraid raid0 8 4 flush_policy drop flush_policy drop 1 a 0", "Feature flush_policy duplicated" },
		{ "fanraid raid6 8 2 max_sync_rate 1k 4 a 0 b 0 c 0 d 0", "Invalid max_sync_rate: not a number of KiB/s" },
		{ "fanraid raid6 8 4 max_sync_rate 1 max_sync_rate 2 4 a 0 b 0 c 0 d 0", "Feature max_sync_rate duplicated" },
		{ "fanraid raid6 8 2 min_sync_rate 4294967296 4 a 0 b 0 c 0 d 0", "Invalid min_sync_rate: not a number of KiB/s" },
		{ "fanraid raid6 8 2 min_sync_rate -1 4 a 0 b 0 c 0 d 0", "Invalid min_sync_rate: not a number of KiB/s" },
		{ "fanraid raid6 8 4 min_sync_rate 1 min_sync_rate 2 4 a 0 b 0 c 0 d 0", "Feature min_sync_rate duplicated" },
		{ "fanraid raid0 8 2 min_sync_rate 1000 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid6 8 2 resync resync 4 a 0 b 0 c 0 d 0", "Feature resync duplicated" },
		{ "fanraid raid6 8 2 rebuild 64 4 a 0 b 0 c 0 d 0", "Invalid rebuild index" },
		{ "fanraid raid6 8 4 rebuild 1 rebuild 1 4 a 0 b 0 c 0 d 0", "Feature rebuild duplicated for one member" },
		{ "fanraid raid6 8 2 rebuild 4 4 a 0 b 0 c 0 d 0", "Invalid rebuild index: no such member" },
		{ "fanraid raid6 8 2 rebuild 1 4 a 0 - - c 0 d 0", "Cannot rebuild a missing member" },
		{ "fanraid raid6 8 2 rebuild 0 4 a 0 - - - - d 0", "Too many members missing or rebuilding for raid6 (max 2)" },
		{ "fanraid raid6 8 0 4 - - - - - - d 0", "Too many members missing or rebuilding for raid6 (max 2)" },
		{ "fanraid raid0 8 1 resync 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 2 rebuild 0 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 2 max_sync_rate 0 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 2 stripe_cache_mb 64 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 2 max_read_errors 20 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid6 8 2 max_read_errors 4294967296 4 a 0 b 0 c 0 d 0", "Invalid max_read_errors: not a number (0-4294967295)" },
		{ "fanraid raid6 8 2 max_read_errors -1 4 a 0 b 0 c 0 d 0", "Invalid max_read_errors: not a number (0-4294967295)" },
		{ "fanraid raid6 8 4 max_read_errors 1 max_read_errors 2 4 a 0 b 0 c 0 d 0", "Feature max_read_errors duplicated" },
		{ "fanraid raid0 8 1 resync 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 2 rebuild 0 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 2 max_sync_rate 0 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 2 stripe_cache_mb 64 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid0 8 1 superblock 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		{ "fanraid raid6 8 2 superblock superblock 4 a 0 b 0 c 0 d 0", "Feature superblock duplicated" },
		{ "fanraid raid6 8 2 safe_mode_delay 200 4 a 0 b 0 c 0 d 0", "Feature safe_mode_delay requires superblock" },
		{ "fanraid raid0 8 2 safe_mode_delay 200 1 a 0", "Feature safe_mode_delay requires superblock" },
		{ "fanraid raid6 8 3 superblock safe_mode_delay 4294967296 4 a 0 b 0 c 0 d 0", "Invalid safe_mode_delay: not a number of ms (0-4294967295)" },
		{ "fanraid raid6 8 3 superblock safe_mode_delay -1 4 a 0 b 0 c 0 d 0", "Invalid safe_mode_delay: not a number of ms (0-4294967295)" },
		{ "fanraid raid6 8 2 superblock safe_mode_delay 4 a 0 b 0 c 0 d 0", "Feature argument requires a value" },
		{ "fanraid raid6 8 5 superblock safe_mode_delay 1 safe_mode_delay 2 4 a 0 b 0 c 0 d 0", "Feature safe_mode_delay duplicated" },
		{ "fanraid raid6 8 0 4 a 0 - 0 c 0 d 0", "Missing member needs - as its offset" },
		{ "fanraid raid0 8 0 2 a 0 - -", "Missing member (-) requires raid6" },
		{ "fanraid raid6 8 0 3 a 0 b 0 c 0", "Too few devices for the RAID level (raid0 needs 1, raid6 needs 4)" },
		{ "fanraid raid0 8 0 65 a 0", "Too many devices (max 64)" },
		{ "fanraid raid0 8 0", "Missing device count" },
		{ "fanraid raid0 8 0 x a 0", "Invalid device count: not a number" },
		{ "fanraid raid0 8 0 2 a 0 b", "Device count larger than the <dev> <offset> pairs given" },
		{ "fanraid raid0 8 0 1 a 0x10", "Invalid device offset: not a number or out of range" },
		{ "fanraid raid0 8 0 1 a 0 b", "Trailing arguments after the device list" },
		{ "linear raid0 8 0 1 a 0", "Expected target name fanraid" },
		{ "0 0 fanraid raid0 8 0 1 a 0", "Invalid target length" },
		{ "1x 8 fanraid raid0 8 0 1 a 0", "Invalid start sector" },
		{ "0 8 raid0 8 0 1 a 0", "Expected target name fanraid" },
	};
	struct rc_array *a = &rc_t_a;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(rc_t_parse(a, cases[i].line, 64), -EINVAL);
		assert_non_null(a->error);
		assert_string_equal(a->error, cases[i].error);
	}
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 0 1 a 7 b", 64),
			 -EINVAL);
	assert_int_equal(a->error_arg, 5);	/* the device count */
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 0 2 a 7 b x", 64),
			 -EINVAL);
	assert_int_equal(a->error_arg, 9);	/* b's offset */
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 0 2 a 0 b "
				    "18014398509481984", 64), -EINVAL);
	assert_string_equal(a->error,
			    "Device offset plus member data area overflows");
	assert_int_equal(a->error_dev, 1);
	/* an empty word can only arrive as its own argv entry */
	{
		char *words[] = { "fanraid", "raid0", "8", "0", "1", "", "0" };

		assert_int_equal(rc_array_parse(a, 7, words, 64), -EINVAL);
		assert_string_equal(a->error, "Invalid device name: empty");
	}
}

/* TABLE form: canonical, defaults the user gave kept, and re-parseable. */
static void test_array_format_round_trips(void **state)
{
	static const char *const lines[] = {
		"fanraid raid6 128 0 4 8:16 0 8:32 0 8:48 0 8:64 2048",
		"fanraid raid0 8 2 flush_policy passthrough 1 /dev/a 0",
		"fanraid raid6 32768 2 flush_policy drop 5 a 1 b 2 c 3 d 4 e 5",
		"fanraid raid6 128 9 flush_policy drop max_sync_rate 1000 rebuild 1 rebuild 3 resync 6 a 0 b 0 c 0 d 0 e 0 f 0",
		"fanraid raid6 128 5 max_sync_rate 4294967295 min_sync_rate 0 resync 4 a 0 b 0 c 0 d 0",
		"fanraid raid6 64 2 rebuild 0 5 a 0 - - c 0 d 0 e 0",
		"fanraid raid6 256 19 flush_policy dirty max_sync_rate 100 rebuild 1 rebuild 4 resync readahead on ra_window 8 ra_cache_mb 32 stripe_cache_mb 16 max_read_errors 4294967295 6 a 0 b 0 c 0 d 0 e 0 f 0",
		"fanraid raid0 128 8 flush_policy dirty readahead off ra_window 64 ra_cache_mb 0 2 a 2048 b 2048",
		"fanraid raid6 8 4 readahead on stripe_cache_mb 1 4 a 0 b 0 - - d 0",
		"fanraid raid6 8 1 superblock 4 a 2048 b 2048 c 2048 d 2048",
		"fanraid raid6 8 4 resync superblock safe_mode_delay 0 4 a 0 b 0 - - d 0",
		"fanraid raid6 8 3 superblock safe_mode_delay 4294967295 4 a 0 b 0 c 0 d 0",
	};
	struct rc_array *a = &rc_t_a;
	char buf[1024], again[1024];
	unsigned int i;
	int n;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(rc_t_parse(a, lines[i], 1 << 20), 0);
		n = rc_array_format(a, buf, sizeof(buf));
		assert_int_equal(n, strlen(lines[i]));
		assert_string_equal(buf, lines[i]);
		assert_int_equal(rc_t_parse(a, buf, 1 << 20), 0);
		rc_array_format(a, again, sizeof(again));
		assert_string_equal(again, buf);
	}
	/* a short buffer still learns the full length, and stays a string */
	assert_int_equal(rc_t_parse(a, lines[2], 1 << 20), 0);
	assert_int_equal(rc_array_format(a, buf, 10), strlen(lines[2]));
	assert_int_equal(strlen(buf), 9);
}

/*
 * Random sentences over the grammar's own vocabulary: the parser must
 * answer 0 or -EINVAL with a message, never crash, and whatever it
 * accepts must format to a line it accepts again.
 */
static void test_array_parse_survives_random_words(void **state)
{
	static const char *const vocab[] = {
		"0", "1", "2", "4", "8", "16", "64", "65", "128", "4096",
		"18446744073709551615", "18446744073709551616", "-1", "",
		"fanraid", "raid0", "raid6", "flush_policy", "drop",
		"passthrough", "8:16", "/dev/sda", "x", "-", "resync",
		"rebuild", "max_sync_rate", "9", "3", "dirty", "readahead",
		"on", "off", "ra_window", "ra_cache_mb", "stripe_cache_mb",
		"17",
	};
	const unsigned int nv = sizeof(vocab) / sizeof(vocab[0]);
	struct rc_array *a = &rc_t_a;
	char *argv[24], line[1024];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned int iter, accepted = 0;
	int argc, i, err;

	(void)state;
	for (iter = 0; iter < 200000; iter++) {
		argc = (int)(rc_t_rand(&seed) % 24);
		for (i = 0; i < argc; i++) {
			argv[i] = (char *)vocab[rc_t_rand(&seed) % nv];
		}
		/* steer a share into the table's shape, words still random */
		if (argc > 3 && !(iter & 1)) {
			argv[0] = "fanraid";
			argv[1] = iter & 2 ? "raid6" : "raid0";
		}
		if (!(iter & 3)) {
			argc = 7;
			argv[3] = "0";
			argv[4] = "1";
		}
		err = rc_array_parse(a, argc, argv, 1 << 20);
		if (err) {
			assert_int_equal(err, -EINVAL);
			assert_non_null(a->error);
			continue;
		}
		accepted++;
		assert_true(rc_array_format(a, line, sizeof(line)) <
			    (int)sizeof(line));
		assert_int_equal(rc_t_parse(a, line, 1 << 20), 0);
	}
	/* the vocabulary does reach valid tables */
	assert_true(accepted > 0);
}

/* Features come out in the target's order, whatever order they went in. */
static void test_array_format_orders_features_canonically(void **state)
{
	struct rc_array *a = &rc_t_a;
	char buf[256];

	(void)state;
	assert_int_equal(rc_t_parse(a, "fanraid raid6 8 7 resync rebuild 3 "
				    "max_sync_rate 0 rebuild 1 5 a 0 b 0 c 0 "
				    "d 0 e 0", 1 << 20), 0);
	assert_true(a->resync);
	assert_true(a->max_sync_rate_given);
	assert_true(a->members[1].rebuilding);
	assert_true(a->members[3].rebuilding);
	assert_false(a->members[2].rebuilding);
	rc_array_format(a, buf, sizeof(buf));
	assert_string_equal(buf, "fanraid raid6 8 7 max_sync_rate 0 rebuild 1 "
			    "rebuild 3 resync 5 a 0 b 0 c 0 d 0 e 0");
	/* every feature, given back to front with rebuild split apart */
	assert_int_equal(rc_t_parse(a, "fanraid raid6 256 17 stripe_cache_mb "
				    "16 ra_cache_mb 32 rebuild 4 ra_window 8 "
				    "readahead off resync rebuild 1 "
				    "max_sync_rate 100 flush_policy dirty 6 "
				    "a 0 b 0 c 0 d 0 e 0 f 0", 1 << 20), 0);
	rc_array_format(a, buf, sizeof(buf));
	assert_string_equal(buf, "fanraid raid6 256 17 flush_policy dirty "
			    "max_sync_rate 100 rebuild 1 rebuild 4 resync "
			    "readahead off ra_window 8 ra_cache_mb 32 "
			    "stripe_cache_mb 16 6 a 0 b 0 c 0 d 0 e 0 f 0");
	assert_int_equal(rc_t_parse(a, "fanraid raid0 8 6 ra_cache_mb 64 "
				    "readahead on flush_policy drop 1 a 0",
				    64), 0);
	rc_array_format(a, buf, sizeof(buf));
	assert_string_equal(buf, "fanraid raid0 8 6 flush_policy drop "
			    "readahead on ra_cache_mb 64 1 a 0");
	assert_int_equal(rc_t_parse(a, "fanraid raid6 8 0 4 a 0 - - c 0 d 0",
				    64), 0);
	assert_true(a->members[1].missing);
	assert_int_equal(a->members[1].fd, -1);
	assert_false(a->members[2].missing);
}

/*
 * <#feature_args> is at most 30, what every feature once and rebuild and
 * readd twice take; only two of those four can be valid, so the longest
 * valid line with 64 members has 26.
 */
static void test_array_parse_takes_at_most_33_feature_words(void **state)
{
	static const char feats[] = "flush_policy drop max_sync_rate 1 "
		"min_sync_rate 4294967295 rebuild 0 resync readahead on ra_window 2 "
		"ra_cache_mb 3 stripe_cache_mb 4096 max_read_errors 0 "
		"superblock safe_mode_delay 200 bitmap 1024 readd 63";
	struct rc_array *a = &rc_t_a;
	char line[2048], buf[2048];
	size_t used;
	unsigned int i;

	(void)state;
	used = (size_t)snprintf(line, sizeof(line),
				"0 1048576 fanraid raid6 8 26 %s 64", feats);
	for (i = 0; i < 64; i++)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 " /dev/m%u 2048", i);
	assert_true(used < sizeof(line));
	assert_int_equal(rc_t_parse(a, line, 0), 0);
	assert_int_equal(a->nmembers, 64);
	assert_true(a->members[63].rebuilding);
	assert_int_equal(rc_array_format(a, buf, sizeof(buf)),
			 (int)strlen(line) - (int)strlen("0 1048576 "));
	assert_string_equal(buf, line + strlen("0 1048576 "));

	snprintf(line, sizeof(line), "fanraid raid6 8 34 %s x 4 a 0 b 0 c 0 "
		 "d 0", feats);
	assert_int_equal(rc_t_parse(a, line, 64), -EINVAL);
	assert_string_equal(a->error, "Invalid number of feature arguments");
	assert_int_equal(a->error_arg, 4);	/* the count itself */
}

/*
 * A grow: every new member, the old length, the recorded position; the
 * old layout from the first old_ndevs members, and each refusal the
 * target's (fanraid_reshape_create()).
 */
static void test_array_parse_reads_reshape(void **state)
{
	static const char devs[] = "6 a 0 b 0 c 0 d 0 e 0 f 0";
	static const struct {
		u64 len;
		const char *feats;
		const char *error;
	} bad[] = {
		{ 4096, "3 reshape 4 768", "Reshape position inside the critical section (copy it first)" },
		{ 4096, "3 reshape 4 1664", "Invalid reshape position: not a new row boundary" },
		{ 4096, "3 reshape 4 4864", "Invalid reshape position: not a new row boundary" },
		{ 4096, "3 reshape 6 1536", "Invalid reshape member count: must be below the table's" },
		{ 4096, "3 reshape 65 1536", "Invalid reshape member count" },
		{ 4096, "3 reshape 4 18446744073709551616", "Invalid reshape position" },
		{ 4096, "2 reshape 4", "Feature reshape requires <old_ndevs> <position>" },
		{ 4096, "6 reshape 4 1536 reshape 4 1536", "Feature reshape duplicated" },
		{ 3968, "3 reshape 4 1536", "Target length is not the old layout's capacity" },
	};
	struct rc_array *a = &rc_t_a;
	char line[256], buf[256];
	unsigned int i;

	(void)state;
	/* members of 1024 sectors: 4 x 1024 old, rows of 768 new, 2 critical */
	snprintf(line, sizeof(line),
		 "fanraid raid0 128 5 readahead on reshape 4 1536 %s", devs);
	assert_int_equal(rc_t_parse(a, line, 4096), 0);
	assert_true(a->reshape);
	assert_int_equal(a->geom.ndevs, 6);
	assert_int_equal(a->old_geom.ndevs, 4);
	assert_int_equal(a->geom.member_sectors, 1024);
	assert_int_equal(a->old_geom.capacity, 4096);
	assert_int_equal(a->reshape_pos, 1536);
	assert_int_equal(rc_array_format(a, buf, sizeof(buf)), (int)strlen(line));
	assert_string_equal(buf, line);
	/* finished: the position is the length */
	snprintf(line, sizeof(line), "fanraid raid0 128 3 reshape 4 4096 %s", devs);
	assert_int_equal(rc_t_parse(a, line, 4096), 0);
	/* raid6 records its progress in the superblocks: it needs them */
	snprintf(line, sizeof(line), "fanraid raid6 128 3 reshape 4 1024 %s", devs);
	assert_int_equal(rc_t_parse(a, line, 2048), -EINVAL);
	assert_string_equal(a->error, "Feature reshape on raid6 requires superblock");
	snprintf(line, sizeof(line), "fanraid raid6 128 4 superblock reshape 4 1024 %s", devs);
	assert_int_equal(rc_t_parse(a, line, 2048), 0);
	assert_int_equal(a->old_geom.data_devs, 2);
	assert_int_equal(a->geom.data_devs, 4);
	snprintf(line, sizeof(line), "fanraid raid6 128 6 superblock rebuild 5 reshape 4 1024 %s", devs);
	assert_int_equal(rc_t_parse(a, line, 2048), -EINVAL);
	assert_string_equal(a->error, "Feature reshape cannot run with rebuild or readd");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "fanraid raid0 128 %s %s",
			 bad[i].feats, devs);
		assert_int_equal(rc_t_parse(a, line, bad[i].len), -EINVAL);
		assert_string_equal(a->error, bad[i].error);
	}
}

/* "fanraid raid6 <chunk> 2 stripe_cache_mb <mb> <n> d0 0 d1 0 ..." */
static void rc_t_cache_line(char *line, size_t size, u32 chunk, u32 mb,
			    u32 n)
{
	size_t used;
	u32 i;

	used = (size_t)snprintf(line, size, "fanraid raid6 %u 2 "
				"stripe_cache_mb %u %u", chunk, mb, n);
	for (i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(line + used, size - used, " d%u 0", i);
	assert_true(used < size);
}

/* The stripe cache must hold two operations of the geometry's window. */
static void test_array_parse_checks_stripe_cache_minimum(void **state)
{
	static const u32 chunks[] = { 8, 64, 256, 1024, 32768 };
	struct rc_array *a = &rc_t_a;
	char line[2048];
	u32 n, c, min;

	(void)state;
	for (n = FR_MIN_DEVS_RAID6; n <= FR_MAX_DEVS; n++) {
		for (c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			min = fr_r6_stripe_cache_min_mb(n, chunks[c]);
			rc_t_cache_line(line, sizeof(line), chunks[c], min, n);
			assert_int_equal(rc_t_parse(a, line, 1 << 30), 0);
			if (min == 1)	/* 0 is refused as out of range */
				continue;
			rc_t_cache_line(line, sizeof(line), chunks[c], min - 1,
					n);
			assert_int_equal(rc_t_parse(a, line, 1 << 30),
					 -EINVAL);
			assert_string_equal(a->error, "Invalid stripe_cache_mb: below the minimum for this raid6 geometry");
		}
	}
	/* 64 members of 16 MiB chunks need 17 MiB: the largest minimum */
	assert_int_equal(fr_r6_stripe_cache_min_mb(64, 32768), 17);
}

/* When a line breaks several rules, the target's first check names it. */
static void test_array_parse_checks_features_in_targets_order(void **state)
{
	static const struct {
		const char *line;
		const char *error;
	} cases[] = {
		/* raid6-only features before the readahead cache */
		{ "fanraid raid0 8 6 stripe_cache_mb 8 readahead on ra_cache_mb 0 1 a 0", "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6" },
		/* the stripe cache is sized before members lost are counted */
		{ "fanraid raid6 256 6 rebuild 0 rebuild 1 stripe_cache_mb 1 4 a 0 b 0 - - d 0", "Invalid stripe_cache_mb: below the minimum for this raid6 geometry" },
		{ "fanraid raid6 256 6 readahead on ra_cache_mb 0 stripe_cache_mb 1 4 a 0 b 0 c 0 d 0", "Invalid stripe_cache_mb: below the minimum for this raid6 geometry" },
		/* members lost before the readahead cache */
		{ "fanraid raid6 8 6 rebuild 0 readahead on ra_cache_mb 0 4 a 0 - - - - d 0", "Too many members missing or rebuilding for raid6 (max 2)" },
	};
	struct rc_array *a = &rc_t_a;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(rc_t_parse(a, cases[i].line, 1 << 20),
				 -EINVAL);
		assert_string_equal(a->error, cases[i].error);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_parse_reads_dmsetup_table_output),
		cmocka_unit_test(test_array_parse_takes_length_from_caller),
		cmocka_unit_test(test_array_parse_takes_plus_signs_as_the_kernel),
		cmocka_unit_test(test_array_parse_reads_flush_policy),
		cmocka_unit_test(test_array_parse_reads_readahead_and_stripe_cache),
		cmocka_unit_test(test_array_parse_rejects_each_bad_argument),
		cmocka_unit_test(test_array_parse_takes_at_most_33_feature_words),
		cmocka_unit_test(test_array_parse_checks_stripe_cache_minimum),
		cmocka_unit_test(test_array_parse_checks_features_in_targets_order),
		cmocka_unit_test(test_array_parse_reads_reshape),
		cmocka_unit_test(test_array_format_round_trips),
		cmocka_unit_test(test_array_format_orders_features_canonically),
		cmocka_unit_test(test_array_parse_survives_random_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
