/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raidcalc/cli/opts.c: the command's options into struct rc_opts. Sizes
 * take K/M/G/T, each bad value is refused before anything is opened, only
 * the options that describe an array switch to the option form, and the
 * words left over keep their order (members, or a table with "- -").
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
/* the command is not a library: compile the unit under test in */
#include "cli/opts.c"

#define T_ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static int t_parse(char **argv, int argc, struct rc_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->verb = "test";
	o->member = -1;
	optind = 0;		/* GNU getopt: start over, permuting again */
	return rc_cli_parse_opts(argc, argv, o);
}

static void test_opts_parses_the_option_form(void **state)
{
	char *argv[] = { "verify", "--level", "6", "--chunk", "512K",
			 "--data-offset", "1M", "m0", "missing", "m2", "m3",
			 "--size", "3G", "-j", "2", "--missing", "3", NULL };
	struct rc_opts o;

	(void)state;
	assert_int_equal(t_parse(argv, T_ARGC(argv), &o), 0);
	assert_true(o.spec);
	assert_int_equal(o.level, FR_LEVEL_RAID6);
	assert_true(o.chunk == 512 << 10);
	assert_true(o.data_offset == 1 << 20);
	assert_true(o.data_offset_given);
	assert_true(o.size == 3ull << 30);
	assert_int_equal(o.jobs, 2);
	assert_true(o.missing == 1 << 3);
	/* options after the members are taken; members keep their order */
	assert_int_equal(o.argc, 4);
	assert_string_equal(o.argv[0], "m0");
	assert_string_equal(o.argv[1], "missing");
	assert_string_equal(o.argv[3], "m3");
}

static void test_opts_leaves_a_table_line_alone(void **state)
{
	char *argv[] = { "verify", "-r", "3:5", "0", "64", "fanraid", "raid6",
			 "8", "0", "4", "a", "0", "-", "-", "c", "0", "d", "0",
			 "--missing", "2,0", NULL };
	struct rc_opts o;

	(void)state;
	assert_int_equal(t_parse(argv, T_ARGC(argv), &o), 0);
	assert_false(o.spec);
	assert_true(o.rows_given && o.first_row == 3 && o.nrows == 5);
	assert_true(o.missing == 0x5);
	assert_int_equal(o.argc, 15);
	assert_string_equal(o.argv[9], "-");
	assert_string_equal(o.argv[10], "-");
	assert_string_equal(o.argv[14], "0");
}

static void test_opts_level_and_sizes(void **state)
{
	char *a0[] = { "layout", "--level", "raid0", "--devices", "64",
		       "--chunk", "4K", "--member-size", "1T", NULL };
	char *a6[] = { "layout", "--level", "raid6", "--chunk", "16M", NULL };
	struct rc_opts o;

	(void)state;
	assert_int_equal(t_parse(a0, T_ARGC(a0), &o), 0);
	assert_int_equal(o.level, FR_LEVEL_RAID0);
	assert_true(o.level_given);
	assert_int_equal(o.ndevs, 64);
	assert_true(o.chunk == 4096);
	assert_true(o.member_size == 1ull << 40);
	assert_int_equal(t_parse(a6, T_ARGC(a6), &o), 0);
	assert_true(o.chunk == 16 << 20);
	assert_int_equal(o.ndevs, 0);
}

/* Every bad value: refused, whatever else is on the line. */
static void test_opts_rejects_each_bad_value(void **state)
{
	static const char *const bad[][2] = {
		{ "--level", "5" }, { "--level", "" },
		{ "--devices", "0" }, { "--devices", "65" },
		{ "--devices", "4x" }, { "--chunk", "3K" },
		{ "--chunk", "2K" }, { "--chunk", "32M" }, { "--chunk", "0" },
		{ "--chunk", "-4K" }, { "--chunk", "4096.0" },
		{ "--member-size", "0" }, { "--member-size", "1000" },
		{ "--member-size", "1Q" }, { "--data-offset", "100" },
		{ "--data-offset", "x" }, { "--size", "0" },
		{ "--size", "513" }, { "--size", "16777216T" },
		{ "--jobs", "0" }, { "--jobs", "65" }, { "-j", "x" },
		{ "--missing", "" }, { "--missing", "1,1" },
		{ "--missing", "64" }, { "--missing", "1,a" },
		{ "--out", "" }, { "-r", "1:0" }, { "-L", "0" },
	};
	struct rc_opts o;
	unsigned int i;
	char *argv[4];

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		argv[0] = "verify";
		argv[1] = (char *)bad[i][0];
		argv[2] = (char *)bad[i][1];
		argv[3] = NULL;
		assert_int_equal(t_parse(argv, 3, &o), -1);
	}
}

static void test_opts_unknown_option_and_help(void **state)
{
	char *unknown[] = { "verify", "--levle", "6", NULL };
	char *help[] = { "verify", "--help", NULL };
	struct rc_opts o;

	(void)state;
	assert_int_equal(t_parse(unknown, T_ARGC(unknown), &o), -2);
	assert_int_equal(t_parse(help, T_ARGC(help), &o), 0);
	assert_true(o.help);
	assert_false(o.spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts_parses_the_option_form),
		cmocka_unit_test(test_opts_leaves_a_table_line_alone),
		cmocka_unit_test(test_opts_level_and_sizes),
		cmocka_unit_test(test_opts_rejects_each_bad_value),
		cmocka_unit_test(test_opts_unknown_option_and_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
