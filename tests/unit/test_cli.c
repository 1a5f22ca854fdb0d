/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/cli.c and util.c: option parsing into struct fr_opts, usage
 * errors exiting 2 before any device is touched, and the size parser.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "util.h"

#define T_ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static int t_parse(const char *verb, char **argv, int argc, struct fr_opts *o)
{
	return fr_opts_parse(fr_command_find(verb), argc, argv, o);
}

static void test_opts_parses_create_line(void **state)
{
	char *argv[] = { "create", "fast0", "--level", "0", "--chunk", "256K",
			 "--data-offset", "2M", "--flush", "drop", "--force",
			 "/dev/a", "/dev/b", NULL };
	struct fr_opts o;

	(void)state;
	assert_int_equal(t_parse("create", argv, T_ARGC(argv), &o), 0);
	assert_int_equal(o.level, FR_LEVEL_RAID0);
	assert_int_equal(o.chunk, 256 << 10);
	assert_int_equal(o.data_offset, 2 << 20);
	assert_int_equal(o.flush_policy, FR_FLUSH_DROP);
	assert_true(o.force);
	assert_int_equal(o.argc, 3);
	assert_string_equal(o.argv[0], "fast0");
	assert_string_equal(o.argv[2], "/dev/b");
	assert_true(o.given & FR_OPT_FLUSH);
	assert_false(o.given & FR_OPT_READAHEAD);
}

/* Options may come before, between or after the positional arguments. */
static void test_opts_accepts_options_anywhere(void **state)
{
	char *argv[] = { "create", "-l", "raid6", "fast0", "/dev/a", "-c",
			 "1M", "/dev/b", "/dev/c", "/dev/d", NULL };
	struct fr_opts o;

	(void)state;
	assert_int_equal(t_parse("create", argv, T_ARGC(argv), &o), 0);
	assert_int_equal(o.level, FR_LEVEL_RAID6);
	assert_int_equal(o.chunk, 1 << 20);
	assert_int_equal(o.argc, 5);
	assert_string_equal(o.argv[1], "/dev/a");
}

static void test_opts_parses_uuid_and_json(void **state)
{
	char *a1[] = { "assemble", "--uuid",
		       "00112233-4455-6677-8899-aabbccddeeff", "/dev/x", NULL };
	char *a2[] = { "status", "--json", NULL };
	char *a3[] = { "create", "x", "-l", "0", "--flush", "dirty", "/dev/a",
		       NULL };
	struct fr_opts o;

	(void)state;
	assert_int_equal(t_parse("assemble", a1, T_ARGC(a1), &o), 0);
	assert_true(o.given & FR_OPT_UUID);
	assert_int_equal(o.uuid[15], 0xff);
	assert_int_equal(o.argc, 1);
	assert_int_equal(t_parse("status", a2, T_ARGC(a2), &o), 0);
	assert_true(o.json);
	assert_int_equal(o.argc, 0);
	assert_int_equal(t_parse("create", a3, T_ARGC(a3), &o), 0);
	assert_int_equal(o.flush_policy, FR_FLUSH_DIRTY);
	assert_int_equal(o.ra_mode, FR_RA_DEFAULT);
	assert_true(o.ra_cache_mb == FR_RA_CACHE_DEFAULT);
	assert_true(o.stripe_cache_mb == FR_STRIPE_CACHE_DEFAULT);
	assert_false(o.given & FR_OPT_STRIPE_CACHE);
}

static void test_opts_parses_target_readahead(void **state)
{
	char *ok[] = { "create", "x", "-l", "0", "--ra", "off", "--ra-window",
		       "16", "--ra-cache-mb", "0", "/dev/a", NULL };
	char *badmode[] = { "create", "x", "--ra", "auto", "/dev/a", NULL };
	char *badwin[] = { "create", "x", "--ra-window", "0", "/dev/a", NULL };
	char *bigwin[] = { "create", "x", "--ra-window", "65", "/dev/a", NULL };
	char *bigcache[] = { "create", "x", "--ra-cache-mb", "4097", "/dev/a",
			     NULL };
	char *notcreate[] = { "assemble", "x", "--ra", "on", NULL };
	struct fr_opts o;

	(void)state;
	assert_int_equal(t_parse("create", ok, T_ARGC(ok), &o), 0);
	assert_int_equal(o.ra_mode, FR_RA_OFF);
	assert_int_equal(o.ra_window, 16);
	assert_int_equal(o.ra_cache_mb, 0);
	assert_int_equal(t_parse("create", badmode, T_ARGC(badmode), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", badwin, T_ARGC(badwin), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", bigwin, T_ARGC(bigwin), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", bigcache, T_ARGC(bigcache), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("assemble", notcreate, T_ARGC(notcreate), &o),
			 FR_EXIT_USAGE);
}

/* --stripe-cache-mb takes 1 to 4096 MiB; the geometry is checked by create. */
static void test_opts_parses_stripe_cache_mb(void **state)
{
	char *lo[] = { "create", "x", "-l", "6", "--stripe-cache-mb", "1",
		       "/dev/a", NULL };
	char *hi[] = { "create", "x", "-l", "6", "--stripe-cache-mb=4096",
		       "/dev/a", NULL };
	char *bad[][7] = {
		{ "create", "x", "--stripe-cache-mb", "0", "/dev/a", NULL },
		{ "create", "x", "--stripe-cache-mb", "4097", "/dev/a", NULL },
		{ "create", "x", "--stripe-cache-mb", "-1", "/dev/a", NULL },
		{ "create", "x", "--stripe-cache-mb", "64M", "/dev/a", NULL },
		{ "create", "x", "--stripe-cache-mb", "064", "/dev/a", NULL },
		{ "create", "x", "--stripe-cache-mb", "", "/dev/a", NULL },
		{ "create", "x", "--stripe-cache-mb", "4294967360", "/dev/a",
		  NULL },
	};
	char *twice[] = { "create", "x", "--stripe-cache-mb", "64",
			  "--stripe-cache-mb", "64", "/dev/a", NULL };
	char *novalue[] = { "create", "x", "/dev/a", "--stripe-cache-mb", NULL };
	char *notcreate[] = { "assemble", "x", "--stripe-cache-mb", "64", NULL };
	struct fr_opts o;
	size_t i;

	(void)state;
	assert_int_equal(t_parse("create", lo, T_ARGC(lo), &o), 0);
	assert_int_equal(o.stripe_cache_mb, 1);
	assert_true(o.given & FR_OPT_STRIPE_CACHE);
	assert_int_equal(t_parse("create", hi, T_ARGC(hi), &o), 0);
	assert_int_equal(o.stripe_cache_mb, FR_R6_STRIPE_CACHE_MAX_MB);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (t_parse("create", bad[i], 5, &o) != FR_EXIT_USAGE)
			fail_msg("accepted --stripe-cache-mb '%s'", bad[i][3]);
	assert_int_equal(t_parse("create", twice, T_ARGC(twice), &o),
			 FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", novalue, T_ARGC(novalue), &o),
			 FR_EXIT_USAGE);
	assert_int_equal(t_parse("assemble", notcreate, T_ARGC(notcreate), &o),
			 FR_EXIT_USAGE);
}

static void test_opts_rejects_usage_errors(void **state)
{
	char *unknown[] = { "create", "x", "--levle", "0", "/dev/a", NULL };
	char *missing[] = { "create", "x", "/dev/a", "--chunk", NULL };
	char *foreign[] = { "stop", "x", "--force", NULL };
	char *twice[] = { "create", "x", "-l", "0", "-l", "6", "/dev/a", NULL };
	char *badlevel[] = { "create", "x", "-l", "5", "/dev/a", NULL };
	char *badsize[] = { "create", "x", "-l", "0", "-c", "12Q", "/dev/a", NULL };
	char *zerosize[] = { "create", "x", "-l", "0", "-c", "0", "/dev/a", NULL };
	char *badflush[] = { "create", "x", "--flush", "sometimes", "/dev/a", NULL };
	char *baduuid[] = { "assemble", "--uuid", "xyz", NULL };
	char *few[] = { "stop", NULL };
	char *many[] = { "stop", "a", "b", NULL };
	struct fr_opts o;

	(void)state;
	assert_int_equal(t_parse("create", unknown, T_ARGC(unknown), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", missing, T_ARGC(missing), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("stop", foreign, T_ARGC(foreign), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", twice, T_ARGC(twice), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", badlevel, T_ARGC(badlevel), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", badsize, T_ARGC(badsize), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", zerosize, T_ARGC(zerosize), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("create", badflush, T_ARGC(badflush), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("assemble", baduuid, T_ARGC(baduuid), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("stop", few, T_ARGC(few), &o), FR_EXIT_USAGE);
	assert_int_equal(t_parse("stop", many, T_ARGC(many), &o), FR_EXIT_USAGE);
}

/* --help wins over missing arguments, so every verb can explain itself. */
static void test_opts_help_skips_argument_count(void **state)
{
	static const char *const verbs[] = { "create", "assemble", "stop",
		"status", "examine", "list", "fail", "replace" };
	struct fr_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		char *argv[] = { (char *)verbs[i], "--help", NULL };

		assert_non_null(fr_command_find(verbs[i]));
		assert_int_equal(t_parse(verbs[i], argv, 2, &o), 0);
		assert_true(o.help);
		assert_int_equal(fr_main(3, (char *[]){ "fanraid",
						       (char *)verbs[i],
						       "--help", NULL }),
				 FR_EXIT_OK);
	}
	assert_null(fr_command_find("destroy"));
}

/* Usage errors exit 2 before any verb runs (none of these touch a device). */
static void test_main_exit_codes_for_usage_errors(void **state)
{
	(void)state;
	assert_int_equal(fr_main(1, (char *[]){ "fanraid", NULL }), FR_EXIT_USAGE);
	assert_int_equal(fr_main(2, (char *[]){ "fanraid", "frobnicate", NULL }),
			 FR_EXIT_USAGE);
	assert_int_equal(fr_main(2, (char *[]){ "fanraid", "--help", NULL }),
			 FR_EXIT_OK);
	/* create validates name, level and chunk before opening anything */
	assert_int_equal(fr_main(5, (char *[]){ "fanraid", "create", "bad/name",
					       "-l0", "/dev/null", NULL }),
			 FR_EXIT_USAGE);
	assert_int_equal(fr_main(4, (char *[]){ "fanraid", "create", "x",
					       "/dev/null", NULL }),
			 FR_EXIT_USAGE);
	assert_int_equal(fr_main(7, (char *[]){ "fanraid", "create", "x", "-l",
					       "0", "--chunk=3K", "/dev/null",
					       NULL }),
			 FR_EXIT_USAGE);
	assert_int_equal(fr_main(7, (char *[]){ "fanraid", "create", "x", "-l",
					       "6", "/dev/a", "/dev/b", NULL }),
			 FR_EXIT_USAGE);
	/* --stripe-cache-mb: raid6 only, and large enough for the geometry */
	assert_int_equal(fr_main(9, (char *[]){ "fanraid", "create", "x", "-l",
					       "0", "--stripe-cache-mb", "64",
					       "/dev/a", "/dev/b", NULL }),
			 FR_EXIT_USAGE);
	{
		char *argv[3 + 6 + FR_MAX_DEVS + 1] = { "fanraid", "create",
			"x", "-l", "6", "--stripe-cache-mb", "16", "--chunk",
			"128K" };
		int i;

		/* 64 members with 128 KiB windows need 17 MiB */
		for (i = 0; i < FR_MAX_DEVS; i++)
			argv[9 + i] = "/dev/null";
		assert_int_equal(fr_main(9 + FR_MAX_DEVS, argv), FR_EXIT_USAGE);
		/* 8 KiB chunks make 8 KiB windows, but 0 is never enough */
		argv[6] = "0";
		argv[8] = "8K";
		assert_int_equal(fr_main(9 + FR_MAX_DEVS, argv), FR_EXIT_USAGE);
	}
	assert_int_equal(fr_main(4, (char *[]){ "fanraid", "assemble", "--scan",
					       "name", NULL }),
			 FR_EXIT_USAGE);
	assert_int_equal(fr_main(2, (char *[]){ "fanraid", "assemble", NULL }),
			 FR_EXIT_USAGE);
	assert_int_equal(fr_main(4, (char *[]){ "fanraid", "fail", "x", "one",
					       NULL }),
			 FR_EXIT_USAGE);
}

static void test_u64_parser_is_strict(void **state)
{
	uint64_t v;
	uint32_t w;

	(void)state;
	assert_int_equal(fr_parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(fr_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(fr_parse_u64("0", &v), 0);
	assert_int_equal(fr_parse_u64("00", &v), -EINVAL);
	assert_int_equal(fr_parse_u64("+1", &v), -EINVAL);
	assert_int_equal(fr_parse_u64(" 1", &v), -EINVAL);
	assert_int_equal(fr_parse_u64("1 ", &v), -EINVAL);
	assert_int_equal(fr_parse_u32("4294967295", &w), 0);
	assert_int_equal(fr_parse_u32("4294967296", &w), -ERANGE);
}

static void test_size_formats_iec(void **state)
{
	char buf[32];

	(void)state;
	fr_format_size(512, buf, sizeof(buf));
	assert_string_equal(buf, "512 B");
	fr_format_size(512 << 10, buf, sizeof(buf));
	assert_string_equal(buf, "512.00 KiB");
	fr_format_size(4286578688ull, buf, sizeof(buf));
	assert_string_equal(buf, "3.99 GiB");
	fr_format_size(UINT64_MAX, buf, sizeof(buf));
	assert_string_equal(buf, "16.00 EiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts_parses_create_line),
		cmocka_unit_test(test_opts_accepts_options_anywhere),
		cmocka_unit_test(test_opts_parses_uuid_and_json),
		cmocka_unit_test(test_opts_parses_target_readahead),
		cmocka_unit_test(test_opts_parses_stripe_cache_mb),
		cmocka_unit_test(test_opts_rejects_usage_errors),
		cmocka_unit_test(test_opts_help_skips_argument_count),
		cmocka_unit_test(test_main_exit_codes_for_usage_errors),
		cmocka_unit_test(test_u64_parser_is_strict),
		cmocka_unit_test(test_size_formats_iec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
