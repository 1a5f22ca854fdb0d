/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Building members from an image and reading the image back: chunks land
 * where md's left-symmetric formula (written out here, not geom.h) puts
 * them, parity is the RAID6 syndrome, and reads return the image exactly,
 * also with a member missing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "rc_testarray.h"

/* raid6, 4 members, 8-sector chunks, members start 8 sectors in. */
static void test_copy_build_places_chunks_like_md(void **state)
{
	u8 got[4][4096], p[4096], q[4096];
	u64 c, row, nchunks;
	u32 pd, i, dev, b;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 4, 8 * 21, 8), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 42), 0);
	nchunks = rc_t.a.len / 8;
	for (c = 0; c < nchunks; c++) {
		row = c / 2;
		pd = 3 - (u32)(row % 4);
		dev = (pd + 2 + (u32)(c % 2)) % 4;
		assert_int_equal(rc_t_member_pread(&rc_t, dev, got[0], 4096,
						   (8 + row * 8) * 512), 0);
		assert_memory_equal(got[0], rc_t.image + c * 4096, 4096);
	}
	/* every row's P and Q from its two data chunks, by hand */
	for (row = 0; row < rc_t.a.geom.rows; row++) {
		pd = 3 - (u32)(row % 4);
		for (i = 0; i < 4; i++)
			assert_int_equal(rc_t_member_pread(&rc_t, i, got[i],
							   4096,
							   (8 + row * 8) * 512),
					 0);
		for (b = 0; b < 4096; b++) {
			u8 d0 = got[(pd + 2) % 4][b], d1 = got[(pd + 3) % 4][b];

			p[b] = d0 ^ d1;
			q[b] = d0 ^ rc_gf_mul_ref(2, d1);
		}
		assert_memory_equal(got[pd], p, 4096);
		assert_memory_equal(got[(pd + 1) % 4], q, 4096);
	}
	/* 21 chunks fill 10.5 rows: the unused half row is zero */
	memset(p, 0, sizeof(p));
	assert_int_equal(rc_t_member_pread(&rc_t, (3 - 10 % 4 + 3) % 4, got[0],
					   4096, (8 + 10 * 8) * 512), 0);
	assert_memory_equal(got[0], p, 4096);
}

/* Reads into a temp file and compares with the image range. */
static void rc_t_read_and_compare(u64 start, u64 count, int failed)
{
	char out[128];
	u8 *buf;
	int fd;

	snprintf(out, sizeof(out), "%s/out", rc_t.dir);
	fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(rc_array_read(&rc_t.a, start, count, fd, failed), 0);
	buf = malloc(count * 512 + 1);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, count * 512 + 1, 0), count * 512);
	assert_memory_equal(buf, rc_t.image + start * 512, count * 512);
	free(buf);
	close(fd);
	unlink(out);
}

static void test_copy_read_returns_the_image(void **state)
{
	static const char *const levels[] = { "raid0", "raid6" };
	unsigned int l;

	(void)state;
	for (l = 0; l < 2; l++) {
		/* 1024-sector chunks span several 256 KiB slices */
		assert_int_equal(rc_t_arr_make(&rc_t, levels[l], 1024, 5,
					       7 * 1024 + 300, 16), 0);
		assert_int_equal(rc_t_arr_built(&rc_t, 7 + l), 0);
		rc_t_read_and_compare(0, rc_t.a.len, -1);
		rc_t_read_and_compare(3, 1, -1);
		rc_t_read_and_compare(511, 1030, -1);
		rc_t_read_and_compare(rc_t.a.len - 1, 1, -1);
		rc_t_arr_destroy(&rc_t);
	}
}

/* Wipe a member: a plain read sees the damage, a degraded read does not. */
static void test_copy_read_rebuilds_a_lost_member(void **state)
{
	char out[128];
	u8 *zero, *buf;
	unsigned int dev;
	size_t bytes;
	int fd;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 16, 6, 16 * 4 * 9, 0),
			 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 3), 0);
	bytes = rc_t.a.geom.member_sectors * 512;
	zero = calloc(1, bytes);
	buf = malloc(rc_t.a.len * 512);
	assert_non_null(zero);
	assert_non_null(buf);
	snprintf(out, sizeof(out), "%s/out", rc_t.dir);
	for (dev = 0; dev < 6; dev += 5) {
		assert_int_equal(rc_t_member_pwrite(&rc_t, dev, zero, bytes, 0),
				 0);
		fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(rc_array_read(&rc_t.a, 0, rc_t.a.len, fd, -1),
				 0);
		assert_int_equal(pread(fd, buf, rc_t.a.len * 512, 0),
				 rc_t.a.len * 512);
		assert_memory_not_equal(buf, rc_t.image, rc_t.a.len * 512);
		close(fd);
		rc_t_read_and_compare(0, rc_t.a.len, (int)dev);
		rc_t_read_and_compare(77, 100, (int)dev);
		/* put it back for the next member */
		assert_int_equal(rc_array_rebuild(&rc_t.a, dev), 0);
	}
	unlink(out);
	free(zero);
	free(buf);
}

/* A "- -" member is read around; -m on top of it makes two lost. */
static void test_copy_read_survives_missing_members(void **state)
{
	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 32, 5, 32 * 3 * 6 + 1,
				       8), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 31), 0);
	assert_int_equal(rc_t_arr_lose(&rc_t, 2, -1), 0);
	assert_true(rc_t.a.members[2].missing);
	assert_int_equal(rc_t.a.members[2].fd, -1);
	rc_t_read_and_compare(0, rc_t.a.len, -1);
	rc_t_read_and_compare(0, rc_t.a.len, 4);
	rc_t_read_and_compare(45, 300, 0);
	/* three lost is one too many */
	assert_int_equal(rc_t_arr_lose(&rc_t, 2, 1), 0);
	assert_true(rc_t.a.members[1].rebuilding);
	rc_t_read_and_compare(0, rc_t.a.len, -1);
	assert_int_equal(rc_array_read(&rc_t.a, 0, 8, -1, 0), -EINVAL);
	assert_string_equal(rc_t.a.error,
			    "More than two members lost: nothing to read from");
}

static void test_copy_read_rejects_bad_ranges(void **state)
{
	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid0", 8, 2, 100, 0), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 1), 0);
	assert_int_equal(rc_array_read(&rc_t.a, 99, 2, -1, -1), -EINVAL);
	assert_string_equal(rc_t.a.error, "Range past the end of the target");
	assert_int_equal(rc_array_read(&rc_t.a, 101, 0, -1, -1), -EINVAL);
	assert_int_equal(rc_array_read(&rc_t.a, 0, 8, -1, 0), -EINVAL);
	assert_string_equal(rc_t.a.error,
			    "Only a raid6 member can be read around");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_copy_build_places_chunks_like_md, rc_t_teardown),
		cmocka_unit_test_teardown(test_copy_read_returns_the_image, rc_t_teardown),
		cmocka_unit_test_teardown(test_copy_read_rebuilds_a_lost_member, rc_t_teardown),
		cmocka_unit_test_teardown(test_copy_read_survives_missing_members, rc_t_teardown),
		cmocka_unit_test_teardown(test_copy_read_rejects_bad_ranges, rc_t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
