/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/copycheck.c on sparse files with direct I/O: the pieces that
 * differ (a short last piece included), the bound on how many are kept,
 * the second look that drops what has become equal, the copy, and which
 * side a failed read is blamed on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "copycheck.h"

#define MIB		(1024 * 1024)

static char path_a[] = "/var/tmp/copycheck-a-XXXXXX";
static char path_b[] = "/var/tmp/copycheck-b-XXXXXX";
static int fa, fb;

/* Two files of @bytes, equal (all zero) to begin with, opened directly. */
static void make_pair(uint64_t bytes)
{
	int a = mkstemp(path_a), b = mkstemp(path_b);

	assert_true(a >= 0 && b >= 0);
	assert_int_equal(ftruncate(a, bytes), 0);
	assert_int_equal(ftruncate(b, bytes), 0);
	close(a);
	close(b);
	fa = fr_cmp_open(path_a, O_RDWR);
	fb = fr_cmp_open(path_b, O_RDWR);
	assert_true(fa >= 0 && fb >= 0);
}

static int drop_pair(void **state)
{
	(void)state;
	close(fa);
	close(fb);
	unlink(path_a);
	unlink(path_b);
	strcpy(path_a + strlen(path_a) - 6, "XXXXXX");
	strcpy(path_b + strlen(path_b) - 6, "XXXXXX");
	return 0;
}

/* One byte of @path at @off, through the page cache the check bypasses. */
static void poke(const char *path, uint64_t off, char c)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &c, 1, off), 1);
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

static void test_cmp_keeps_each_differing_piece(void **state)
{
	struct fr_cmp_diffs d = { .n = 0 };
	enum fr_cmp_side bad;

	(void)state;
	/* 3.5 MiB from 512 KiB: pieces at 0.5, 1.5, 2.5 and a short 3.5 */
	make_pair(4 * MIB);
	assert_int_equal(fr_cmp_range(fa, fb, MIB / 2, 7 * MIB / 2, 1, &d,
				      &bad), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(bad, FR_CMP_NONE);
	poke(path_b, 2 * MIB, 1);
	poke(path_a, 4 * MIB - 1, 1);
	assert_int_equal(fr_cmp_range(fa, fb, MIB / 2, 7 * MIB / 2, 1, &d,
				      &bad), 0);
	assert_int_equal(d.n, 2);
	assert_int_equal(d.off[0], 3 * MIB / 2);
	assert_int_equal(d.len[0], MIB);
	assert_int_equal(d.off[1], 7 * MIB / 2);
	assert_int_equal(d.len[1], MIB / 2);

	/* the second look keeps only what still differs */
	poke(path_b, 2 * MIB, 0);
	assert_int_equal(fr_cmp_again(fa, fb, &d, &bad), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.off[0], 7 * MIB / 2);
	poke(path_a, 4 * MIB - 1, 0);
	assert_int_equal(fr_cmp_again(fa, fb, &d, &bad), 0);
	assert_int_equal(d.n, 0);
}

static void test_cmp_refuses_more_than_it_can_keep(void **state)
{
	struct fr_cmp_diffs d = { .n = 0 };
	enum fr_cmp_side bad;
	uint64_t i;

	(void)state;
	make_pair((FR_CMP_MAX_DIFFS + 1) * (uint64_t)MIB);
	for (i = 0; i < FR_CMP_MAX_DIFFS; i++)
		poke(path_b, i * MIB + 7, 1);
	assert_int_equal(fr_cmp_range(fa, fb, 0, (FR_CMP_MAX_DIFFS + 1) *
				      (uint64_t)MIB, 0, &d, &bad), 0);
	assert_int_equal(d.n, FR_CMP_MAX_DIFFS);
	poke(path_b, FR_CMP_MAX_DIFFS * (uint64_t)MIB, 1);
	d.n = 0;
	assert_int_equal(fr_cmp_range(fa, fb, 0, (FR_CMP_MAX_DIFFS + 1) *
				      (uint64_t)MIB, 0, &d, &bad), -E2BIG);
}

static void test_copy_makes_the_range_equal_and_no_more(void **state)
{
	struct fr_cmp_diffs d = { .n = 0 };
	enum fr_cmp_side bad;

	(void)state;
	make_pair(3 * MIB);
	poke(path_a, 4096, 7);
	poke(path_a, 2 * MIB, 7);
	assert_int_equal(fr_copy_range(fa, fb, 0, MIB, &bad), 0);
	assert_int_equal(fr_cmp_range(fa, fb, 0, 3 * MIB, 0, &d, &bad), 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.off[0], 2 * MIB);
}

static void test_a_short_device_is_blamed(void **state)
{
	struct fr_cmp_diffs d = { .n = 0 };
	enum fr_cmp_side bad;

	(void)state;
	make_pair(2 * MIB);
	assert_int_equal(ftruncate(fb, MIB), 0);
	assert_int_equal(fr_cmp_range(fa, fb, 0, 2 * MIB, 0, &d, &bad), -EIO);
	assert_int_equal(bad, FR_CMP_B);
	assert_int_equal(fr_copy_range(fb, fa, 0, 2 * MIB, &bad), -EIO);
	assert_int_equal(bad, FR_CMP_A);
}

#define T(fn) cmocka_unit_test_teardown(fn, drop_pair)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_cmp_keeps_each_differing_piece),
		T(test_cmp_refuses_more_than_it_can_keep),
		T(test_copy_makes_the_range_equal_and_no_more),
		T(test_a_short_device_is_blamed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
