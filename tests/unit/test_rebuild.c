/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offline member rebuild: wipe any one member of a RAID6 array, rebuild
 * it, and get back the exact bytes, whatever mix of data, P and Q it
 * held across the rotation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "rc_testarray.h"

static void test_rebuild_restores_any_member(void **state)
{
	u8 *want, *got, *junk;
	unsigned int dev;
	size_t bytes;
	u64 bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 32, 7, 32 * 5 * 14 + 9,
				       8), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 21), 0);
	bytes = (8 + rc_t.a.geom.member_sectors) * 512;
	want = malloc(bytes);
	got = malloc(bytes);
	junk = malloc(bytes);
	assert_non_null(want);
	assert_non_null(got);
	assert_non_null(junk);
	memset(junk, 0xee, bytes);
	for (dev = 0; dev < 7; dev++) {
		assert_int_equal(rc_t_member_pread(&rc_t, dev, want, bytes, 0),
				 0);
		/* leave the 8 sectors before the data area alone */
		assert_int_equal(rc_t_member_pwrite(&rc_t, dev, junk,
						    bytes - 4096, 4096), 0);
		assert_int_equal(rc_array_verify(&rc_t.a, 0, rc_t.a.geom.rows,
						 NULL, NULL, &bad), 0);
		assert_true(bad > 0);
		assert_int_equal(rc_array_rebuild(&rc_t.a, dev), 0);
		assert_int_equal(rc_t_member_pread(&rc_t, dev, got, bytes, 0),
				 0);
		assert_memory_equal(got, want, bytes);
	}
	free(want);
	free(got);
	free(junk);
}

/*
 * The replacement for a member named by "rebuild", with another member
 * missing: both are lost, only the replacement is written.
 */
static void test_rebuild_works_with_another_member_missing(void **state)
{
	u8 *want, *got;
	size_t bytes;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 16, 6, 16 * 4 * 9, 0),
			 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 23), 0);
	bytes = rc_t.a.geom.member_sectors * 512;
	want = malloc(bytes);
	got = calloc(1, bytes);
	assert_non_null(want);
	assert_non_null(got);
	assert_int_equal(rc_t_member_pread(&rc_t, 4, want, bytes, 0), 0);
	assert_int_equal(rc_t_member_pwrite(&rc_t, 4, got, bytes, 0), 0);
	assert_int_equal(rc_t_arr_lose(&rc_t, 1, 4), 0);
	assert_int_equal(rc_array_rebuild(&rc_t.a, 4), 0);
	assert_int_equal(rc_t_member_pread(&rc_t, 4, got, bytes, 0), 0);
	assert_memory_equal(got, want, bytes);
	assert_int_equal(rc_array_rebuild(&rc_t.a, 1), -EINVAL);
	assert_string_equal(rc_t.a.error, "Cannot rebuild a missing member");
	assert_int_equal(rc_array_rebuild(&rc_t.a, 0), -EINVAL);
	assert_string_equal(rc_t.a.error,
			    "More than two members lost: nothing to rebuild from");
	free(want);
	free(got);
}

static void test_rebuild_rejects_raid0_and_unknown_member(void **state)
{
	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 4, 64, 0), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 2), 0);
	assert_int_equal(rc_array_rebuild(&rc_t.a, 4), -EINVAL);
	assert_string_equal(rc_t.a.error, "No such member");
	rc_t_arr_destroy(&rc_t);
	assert_int_equal(rc_t_arr_make(&rc_t, "raid0", 8, 4, 64, 0), 0);
	assert_int_equal(rc_array_rebuild(&rc_t.a, 0), -EINVAL);
	assert_string_equal(rc_t.a.error, "Only raid6 can rebuild a member");
}

/*
 * recover: every pair and every single member of a 5-member array, their
 * member files wiped first (so they cannot have been read), come back
 * byte for byte in separate output files, at the member's own offset.
 */
static void test_recover_any_two_of_n_into_new_files(void **state)
{
	unsigned int i, j, d, off = 8;
	u8 *want[5], *got, *junk;
	int fds[FR_MAX_DEVS];
	char out[2][128];
	size_t bytes;
	u64 mask;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 16, 5, 16 * 3 * 6 + 3,
				       off), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 24), 0);
	bytes = rc_t.a.geom.member_sectors * 512;
	got = malloc(bytes);
	junk = malloc(bytes);
	assert_non_null(got);
	assert_non_null(junk);
	memset(junk, 0x5a, bytes);
	for (d = 0; d < 5; d++) {
		want[d] = malloc(bytes);
		assert_non_null(want[d]);
		assert_int_equal(rc_t_member_pread(&rc_t, d, want[d], bytes,
						   off * 512), 0);
	}
	for (i = 0; i < 5; i++) {
		for (j = i; j < 5; j++) {
			mask = 1ull << i | 1ull << j;
			memset(fds, 0xff, sizeof(fds));
			for (d = 0; d < 5; d++) {
				if (!(mask & (1ull << d)))
					continue;
				snprintf(out[d == j], sizeof(out[0]),
					 "%s/out%u", rc_t.dir, d);
				fds[d] = open(out[d == j], O_RDWR | O_CREAT |
					      O_TRUNC, 0644);
				assert_true(fds[d] >= 0);
				assert_int_equal(rc_t_member_pwrite(&rc_t, d,
						junk, bytes, off * 512), 0);
			}
			assert_int_equal(rc_array_recover(&rc_t.a, mask, fds),
					 0);
			for (d = 0; d < 5; d++) {
				if (!(mask & (1ull << d)))
					continue;
				assert_int_equal(pread(fds[d], got, bytes,
						       off * 512),
						 (ssize_t)bytes);
				assert_memory_equal(got, want[d], bytes);
				close(fds[d]);
				unlink(out[d == j]);
				assert_int_equal(rc_t_member_pwrite(&rc_t, d,
						want[d], bytes, off * 512), 0);
			}
		}
	}
	mask = 0x7;
	assert_int_equal(rc_array_recover(&rc_t.a, mask, fds), -EINVAL);
	assert_string_equal(rc_t.a.error,
			    "More than two members lost: nothing to rebuild from");
	assert_int_equal(rc_array_recover(&rc_t.a, 1ull << 5, fds), -EINVAL);
	assert_string_equal(rc_t.a.error, "No such member");
	for (d = 0; d < 5; d++)
		free(want[d]);
	free(got);
	free(junk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_rebuild_restores_any_member, rc_t_teardown),
		cmocka_unit_test_teardown(test_rebuild_works_with_another_member_missing, rc_t_teardown),
		cmocka_unit_test_teardown(test_rebuild_rejects_raid0_and_unknown_member, rc_t_teardown),
		cmocka_unit_test_teardown(test_recover_any_two_of_n_into_new_files, rc_t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
