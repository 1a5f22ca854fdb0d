/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening members: too-small members are refused before any I/O, build
 * targets are created at full size, MAJ:MIN names go through sysfs, and
 * reads past a member's end fail instead of returning short data.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "rc_testarray.h"

static void test_array_io_creates_members_at_full_size(void **state)
{
	struct stat st;
	unsigned int i;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 16, 5, 1000, 8), 0);
	assert_int_equal(rc_array_open(&rc_t.a, true), 0);
	for (i = 0; i < 5; i++) {
		assert_true(rc_t.a.members[i].fd >= 0);
		assert_false(rc_t.a.members[i].direct);
		assert_int_equal(stat(rc_t.path[i], &st), 0);
		assert_int_equal(st.st_size, (8 + rc_t.a.geom.member_sectors) *
				 512);
	}
	rc_array_close(&rc_t.a);
	rc_array_close(&rc_t.a);
	assert_int_equal(rc_t.a.members[0].fd, -1);
}

static void test_array_io_refuses_small_member(void **state)
{
	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid0", 8, 3, 240, 0), 0);
	assert_int_equal(rc_array_open(&rc_t.a, true), 0);
	rc_array_close(&rc_t.a);
	assert_int_equal(truncate(rc_t.path[1], 80 * 512 - 1), 0);
	assert_int_equal(rc_array_open(&rc_t.a, false), -ENOSPC);
	assert_string_equal(rc_t.a.error,
			    "Member smaller than its offset plus data area");
	assert_int_equal(rc_t.a.error_dev, 1);
	/* the members opened before the bad one are closed again */
	assert_int_equal(rc_t.a.members[0].fd, -1);
}

static void test_array_io_refuses_missing_member(void **state)
{
	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid0", 8, 2, 64, 0), 0);
	assert_int_equal(rc_array_open(&rc_t.a, false), -ENOENT);
	assert_string_equal(rc_t.a.error, "Cannot open member");
	assert_int_equal(rc_t.a.error_dev, 0);
}

/* dmsetup names members MAJ:MIN; a number no device has must not open. */
static void test_array_io_resolves_majmin_through_sysfs(void **state)
{
	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid0", 8, 1, 64, 0), 0);
	strcpy(rc_t.a.members[0].dev, "4095:1048575");
	assert_int_equal(rc_array_open(&rc_t.a, false), -ENOENT);
	assert_string_equal(rc_t.a.error, "Cannot resolve device name");
}

static void test_array_io_fails_read_past_member_end(void **state)
{
	u8 *buf = rc_array_buf_alloc(8192);

	(void)state;
	assert_non_null(buf);
	assert_int_equal((uintptr_t)buf % RC_BUF_ALIGN, 0);
	assert_int_equal(rc_t_arr_make(&rc_t, "raid0", 8, 1, 16, 8), 0);
	assert_int_equal(rc_array_open(&rc_t.a, true), 0);
	memset(buf, 0x3c, 4096);
	assert_int_equal(rc_array_pwrite(&rc_t.a, 0, buf, 4096, 4096), 0);
	memset(buf, 0, 4096);
	/* the member offset (8 sectors) is added underneath */
	assert_int_equal(rc_t_member_pread(&rc_t, 0, buf, 4096, 8192), 0);
	assert_int_equal(buf[0], 0x3c);
	assert_int_equal(rc_array_pread(&rc_t.a, 0, buf, 8192, 4096), -EIO);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_array_io_creates_members_at_full_size, rc_t_teardown),
		cmocka_unit_test_teardown(test_array_io_refuses_small_member, rc_t_teardown),
		cmocka_unit_test_teardown(test_array_io_refuses_missing_member, rc_t_teardown),
		cmocka_unit_test_teardown(test_array_io_resolves_majmin_through_sysfs, rc_t_teardown),
		cmocka_unit_test_teardown(test_array_io_fails_read_past_member_end, rc_t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
