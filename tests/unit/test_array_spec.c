/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raidcalc/lib/array_spec.c: an array described by options ends in the
 * same struct rc_array as the equivalent table line, sized from the array
 * size with the kernel's rule, from a given member size, or from the
 * smallest member, always in whole chunks; bad specs are refused with
 * their own message.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "rc_testarray.h"

/* Member files of @sectors[i] sectors in rc_t's directory. */
static void rc_t_files(unsigned int n, const u64 *sectors)
{
	unsigned int i;
	FILE *f;

	for (i = 0; i < n; i++) {
		f = fopen(rc_t.path[i], "w");
		assert_non_null(f);
		fclose(f);
		assert_int_equal(truncate(rc_t.path[i],
					  (off_t)(sectors[i] * 512)), 0);
	}
}

static void rc_t_assert_same(const struct rc_array *x,
			     const struct rc_array *y)
{
	unsigned int i;

	assert_memory_equal(&x->geom, &y->geom, sizeof(x->geom));
	assert_true(x->len == y->len);
	assert_int_equal(x->nmembers, y->nmembers);
	for (i = 0; i < x->nmembers; i++) {
		assert_string_equal(x->members[i].dev, y->members[i].dev);
		assert_true(x->members[i].offset == y->members[i].offset);
		assert_int_equal(x->members[i].missing, y->members[i].missing);
	}
}

/* --size: the kernel's rule, exactly what the table with <len> gives. */
static void test_array_spec_with_size_matches_the_table(void **state)
{
	struct rc_array_spec s = { .level = FR_LEVEL_RAID6, .ndevs = 6,
				   .chunk_sectors = 16, .data_offset = 8 };
	const char *names[6];
	struct rc_array a;
	unsigned int i;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 16, 6, 3000, 8), 0);
	for (i = 0; i < 6; i++)
		names[i] = rc_t.path[i];
	s.names = names;
	s.len = 3000;
	assert_int_equal(rc_array_define(&a, &s), 0);
	rc_t_assert_same(&a, &rc_t.a);
	assert_int_equal(a.members[0].fd, -1);
}

/*
 * No size: the smallest member minus the data offset, in whole chunks,
 * and the array is all of it: the table "0 <capacity> ..." is the same.
 */
static void test_array_spec_sizes_from_the_smallest_member(void **state)
{
	static const u64 sectors[5] = { 1000, 977, 2000, 1000, 1001 };
	struct rc_array_spec s = { .level = FR_LEVEL_RAID6, .ndevs = 5,
				   .chunk_sectors = 32, .data_offset = 100 };
	const char *names[5];
	struct rc_array a;
	unsigned int i;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 32, 5,
				       (977 - 100) / 32 * 32 * 3, 100), 0);
	rc_t_files(5, sectors);
	for (i = 0; i < 5; i++)
		names[i] = rc_t.path[i];
	s.names = names;
	assert_int_equal(rc_array_define(&a, &s), 0);
	assert_true(a.geom.member_sectors == 864);	/* 27 chunks of 32 */
	assert_true(a.len == 864 * 3);
	rc_t_assert_same(&a, &rc_t.a);
	/* a missing member does not count */
	names[1] = "missing";
	assert_int_equal(rc_array_define(&a, &s), 0);
	assert_true(a.members[1].missing);
	assert_true(a.geom.member_sectors == 896);	/* 1000 - 100 */
}

static void test_array_spec_member_size_gives_capacity(void **state)
{
	struct rc_array_spec s = { .level = FR_LEVEL_RAID6, .ndevs = 16,
				   .chunk_sectors = 1024,
				   .member_sectors = 1ull << 31 };
	struct rc_array a;

	(void)state;
	assert_int_equal(rc_array_define(&a, &s), 0);
	assert_true(a.geom.capacity == 14ull << 31);	/* 1 TiB x 14 */
	assert_true(a.len == a.geom.capacity);
	s.data_offset = 2048;
	assert_int_equal(rc_array_define(&a, &s), 0);
	assert_true(a.geom.rows == (1ull << 21) - 2);
	s.level = FR_LEVEL_RAID0;
	s.ndevs = 3;
	s.data_offset = 0;
	assert_int_equal(rc_array_define(&a, &s), 0);
	assert_true(a.geom.capacity == 3ull << 31);
}

static void test_array_spec_rejects_each_bad_spec(void **state)
{
	const char *six[6] = { "a", "b", "missing", "missing", "missing", "f" };
	const char *three[3] = { "a", "missing", "c" };
	const char *empty[4] = { "a", "", "c", "d" };
	struct rc_array_spec s = { .level = FR_LEVEL_RAID6, .ndevs = 6,
				   .chunk_sectors = 8, .len = 4096 };
	struct rc_array a;

	(void)state;
	s.names = six;
	assert_int_equal(rc_array_define(&a, &s), -EINVAL);
	assert_string_equal(a.error, "Too many members missing for raid6 (max 2)");
	s.level = FR_LEVEL_RAID0;
	s.ndevs = 3;
	s.names = three;
	assert_int_equal(rc_array_define(&a, &s), -EINVAL);
	assert_string_equal(a.error, "Missing member requires raid6");
	s.level = FR_LEVEL_RAID6;
	s.ndevs = 4;
	s.names = empty;
	assert_int_equal(rc_array_define(&a, &s), -EINVAL);
	assert_string_equal(a.error, "Invalid device name: empty");
	s.names = NULL;
	s.chunk_sectors = 12;
	assert_int_equal(rc_array_define(&a, &s), -EINVAL);
	assert_string_equal(a.error, "Invalid chunk size: not a power of two");
	s.chunk_sectors = 8;
	s.ndevs = 3;
	assert_int_equal(rc_array_define(&a, &s), -EINVAL);
	assert_string_equal(a.error, fr_geom_strerror(FR_GEOM_ETOOFEWDEVS));
	s.ndevs = 4;
	s.len = 0;
	s.member_sectors = 100;
	s.data_offset = 100;
	assert_int_equal(rc_array_define(&a, &s), -ENOSPC);
	assert_string_equal(a.error, "Member not larger than the data offset");
	s.data_offset = 96;
	assert_int_equal(rc_array_define(&a, &s), -EINVAL);
	assert_string_equal(a.error, "Member data area smaller than one chunk");
}

static void test_array_spec_names_the_member_it_cannot_measure(void **state)
{
	const char *names[4] = { "/nonexistent/a", "missing", "/nonexistent/c",
				 "/nonexistent/d" };
	struct rc_array_spec s = { .level = FR_LEVEL_RAID6, .ndevs = 4,
				   .chunk_sectors = 8, .names = names };
	struct rc_array a;

	(void)state;
	assert_int_equal(rc_array_define(&a, &s), -ENOENT);
	assert_string_equal(a.error, "Cannot open member");
	assert_int_equal(a.error_dev, 0);
	/* geometry alone needs a size from somewhere */
	s.names = NULL;
	assert_int_equal(rc_array_define(&a, &s), -EINVAL);
	assert_string_equal(a.error, "No members to size the array from");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_array_spec_with_size_matches_the_table, rc_t_teardown),
		cmocka_unit_test_teardown(test_array_spec_sizes_from_the_smallest_member, rc_t_teardown),
		cmocka_unit_test(test_array_spec_member_size_gives_capacity),
		cmocka_unit_test(test_array_spec_rejects_each_bad_spec),
		cmocka_unit_test(test_array_spec_names_the_member_it_cannot_measure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
