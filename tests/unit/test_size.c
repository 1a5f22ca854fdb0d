/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raidcalc/lib/size.c, the size syntax of both tools: K/M/G/T suffixes
 * (powers of 1024), s for sectors, plain numbers as bytes, garbage,
 * leading zeros and overflow refused, and the printer choosing a suffix
 * the parser reads back.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>
#include "raidcalc.h"

static void test_size_reads_suffixes_as_powers_of_1024(void **state)
{
	static const struct {
		const char *s;
		u64 bytes;
	} ok[] = {
		{ "0", 0 },
		{ "4096", 4096 },
		{ "512K", 512ull << 10 },
		{ "512k", 512ull << 10 },
		{ "512KiB", 512ull << 10 },
		{ "512KB", 512ull << 10 },
		{ "512kib", 512ull << 10 },
		{ "1MiB", 1ull << 20 },
		{ "1mb", 1ull << 20 },
		{ "8s", 4096 },
		{ "2048S", 1ull << 20 },
		{ "1b", 1 },
		{ "36028797018963967s", 36028797018963967ull << 9 },
		{ "1M", 1ull << 20 },
		{ "3G", 3ull << 30 },
		{ "1T", 1ull << 40 },
		{ "16777215T", 16777215ull << 40 },
		{ "18446744073709551615", UINT64_MAX },
	};
	unsigned int i;
	u64 v;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 1;
		assert_int_equal(rc_parse_size(ok[i].s, &v), 0);
		assert_true(v == ok[i].bytes);
	}
}

static void test_size_rejects_garbage_and_overflow(void **state)
{
	static const char *const bad[] = {
		"", "K", "-1", "+1", " 1", "1 ", "1.5M", "1X", "1KK", "1Ki",
		"0x10", "1e3", "12M3", "012K", "00", "1 M", "1Mi", "12Q",
		"1sB", "1iB", "1KiBB",
	};
	unsigned int i;
	u64 v = 7;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rc_parse_size(bad[i], &v), -EINVAL);
	assert_int_equal(rc_parse_size(NULL, &v), -EINVAL);
	assert_int_equal(rc_parse_size("18446744073709551616", &v), -ERANGE);
	assert_int_equal(rc_parse_size("16777216T", &v), -ERANGE);
	assert_int_equal(rc_parse_size("17179869184G", &v), -ERANGE);
	assert_int_equal(rc_parse_size("36028797018963968s", &v), -ERANGE);
	assert_int_equal(rc_parse_size("99999999999999999999", &v), -ERANGE);
	assert_true(v == 7);
}

static void test_size_prints_what_it_reads_back(void **state)
{
	static const u64 sizes[] = {
		0, 1, 512, 4096, 65536, 512ull << 10, 7ull << 20,
		(1ull << 40) + 4096, 14ull << 40, UINT64_MAX,
	};
	char buf[32];
	unsigned int i;
	u64 v;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		rc_format_size(sizes[i], buf, sizeof(buf));
		assert_int_equal(rc_parse_size(buf, &v), 0);
		assert_true(v == sizes[i]);
	}
	rc_format_size(512ull << 10, buf, sizeof(buf));
	assert_string_equal(buf, "512K");
	rc_format_size(7ull << 20, buf, sizeof(buf));
	assert_string_equal(buf, "7M");
	rc_format_size(1000, buf, sizeof(buf));
	assert_string_equal(buf, "1000");
	rc_format_size(1ull << 40, buf, sizeof(buf));
	assert_string_equal(buf, "1T");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_reads_suffixes_as_powers_of_1024),
		cmocka_unit_test(test_size_rejects_garbage_and_overflow),
		cmocka_unit_test(test_size_prints_what_it_reads_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
