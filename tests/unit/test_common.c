/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/common.c: the superblock update every verb shares (events,
 * state bits, failed mask with DEGRADED kept in step), on real files, and
 * the table built from members in slot order with empty raid6 slots.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli.h"
#include "fr_testsb.h"
#include "table.h"

#define T_N 4

static struct fr_member t_m[T_N];
static struct fr_member *t_slots[FR_MAX_DEVS];

/* Four members backed by unlinked temporary files, superblocks written. */
static int setup(void **state)
{
	uint32_t i;

	(void)state;
	memset(t_slots, 0, sizeof(t_slots));
	for (i = 0; i < T_N; i++) {
		char path[] = "/tmp/test_common.XXXXXX";
		struct fr_sb sb;
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		unlink(path);
		assert_int_equal(ftruncate(fd, 1 << 20), 0);
		fr_member_init(&t_m[i], "/dev/fake");
		t_m[i].fd = fd;
		t_m[i].rdev = makedev(8, 16 * i);
		fr_t_sb(&sb, "r6", FR_LEVEL_RAID6, T_N, i, 8, 800);
		sb.events = 10;
		assert_int_equal(fr_sb_write(&t_m[i], &sb), 0);
		t_slots[i] = &t_m[i];
	}
	return 0;
}

static int teardown(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 0; i < T_N; i++)
		fr_member_close(&t_m[i]);
	return 0;
}

/* What is on "disk" now, decoded. */
static struct fr_sb t_read(uint32_t i)
{
	assert_int_equal(fr_sb_read(&t_m[i]), 0);
	assert_int_equal(t_m[i].sb_err, FR_SB_OK);
	return t_m[i].sb;
}

static void test_members_write_bumps_events_and_state(void **state)
{
	struct fr_sb sb;
	uint32_t i;

	(void)state;
	assert_int_equal(fr_members_write(t_slots, T_N, FR_SB_STATE_DIRTY, 0,
					  0, 0), 0);
	for (i = 0; i < T_N; i++) {
		sb = t_read(i);
		assert_int_equal(sb.events, 11);
		assert_int_equal(sb.state, FR_SB_STATE_DIRTY);
		assert_true(sb.utime >= sb.ctime);
	}
	assert_int_equal(fr_members_write(t_slots, T_N, 0, FR_SB_STATE_DIRTY,
					  0, 0), 0);
	assert_int_equal(t_read(2).state, 0);
	assert_int_equal(t_read(2).events, 12);
}

/* DEGRADED follows the mask both ways, whatever bits the caller passes. */
static void test_members_write_keeps_degraded_in_step(void **state)
{
	struct fr_sb sb;

	(void)state;
	assert_int_equal(fr_members_write(t_slots, T_N, 0, 0, 1u << 3, 0), 0);
	sb = t_read(0);
	assert_int_equal(sb.failed_mask, 8);
	assert_int_equal(sb.state, FR_SB_STATE_DEGRADED);
	assert_int_equal(fr_members_write(t_slots, T_N, FR_SB_STATE_DIRTY, 0,
					  1u << 1, ~(1ull << 1)), 0);
	sb = t_read(0);
	assert_int_equal(sb.failed_mask, 2);
	assert_int_equal(sb.state, FR_SB_STATE_DIRTY | FR_SB_STATE_DEGRADED);
	assert_int_equal(fr_members_write(t_slots, T_N, 0, 0, 0, ~0ull), 0);
	sb = t_read(3);
	assert_int_equal(sb.failed_mask, 0);
	assert_int_equal(sb.state, FR_SB_STATE_DIRTY);
}

/* Empty and closed slots are skipped; a failed member keeps its old events. */
static void test_members_write_skips_empty_and_closed(void **state)
{
	int fd1 = t_m[1].fd;

	(void)state;
	t_slots[2] = NULL;
	t_m[1].fd = -1;
	assert_int_equal(fr_members_write(t_slots, T_N, 0, 0, 1u << 2, 0), 0);
	t_m[1].fd = fd1;
	assert_int_equal(t_read(0).events, 11);
	assert_int_equal(t_read(1).events, 10);
	assert_int_equal(t_read(2).events, 10);
	assert_int_equal(t_read(3).events, 11);
	t_slots[2] = &t_m[2];
}

static void test_members_write_reports_io_errors(void **state)
{
	int fd0 = t_m[0].fd;
	int err_fd = dup(fd0);

	(void)state;
	close(err_fd);
	t_m[0].fd = err_fd;	/* closed: pwrite fails with EBADF */
	assert_int_equal(fr_members_write(t_slots, T_N, 0, 0, 0, 0), -EBADF);
	t_m[0].fd = fd0;
	/* the others were still written */
	assert_int_equal(t_read(1).events, 11);
}

static void test_table_from_members_marks_empty_slots_missing(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;

	(void)state;
	t_slots[0] = NULL;
	fr_table_from_members(t_slots, T_N, &t);
	assert_int_equal(t.level, FR_LEVEL_RAID6);
	assert_int_equal(t.chunk_sectors, 8);
	assert_true(t.devs[0].missing);
	assert_int_equal(t.devs[2].major, 8);
	assert_int_equal(t.devs[2].minor, 32);
	assert_int_equal(t.devs[2].offset, 2048);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 8 1 superblock 4 - - 8:16 2048 8:32 2048 8:48 2048");
	t_slots[0] = &t_m[0];
}

/* Readahead features reach the table only when the user chose them. */
static void test_table_from_members_carries_readahead_choices(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;

	(void)state;
	fr_table_from_members(t_slots, T_N, &t);
	assert_false(t.readahead_set || t.ra_window_set || t.ra_cache_set);
	t_m[0].sb.ra_mode = FR_RA_OFF;
	t_m[0].sb.ra_window = 4;
	t_m[0].sb.ra_cache_mb = 0;
	fr_table_from_members(t_slots, T_N, &t);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 8 7 readahead off ra_window 4 ra_cache_mb 0 "
			    "superblock 4 8:0 2048 8:16 2048 8:32 2048 8:48 2048");
}

/*
 * stripe_cache_mb reaches the table only when create chose it; 0, as a
 * superblock from before the field holds, is not a choice.
 */
static void test_table_from_members_carries_stripe_cache(void **state)
{
	char buf[FR_TABLE_MAX];
	struct fr_table t;

	(void)state;
	fr_table_from_members(t_slots, T_N, &t);
	assert_false(t.stripe_cache_set);
	t_m[0].sb.stripe_cache_mb = 0;
	fr_table_from_members(t_slots, T_N, &t);
	assert_false(t.stripe_cache_set);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 8 1 superblock 4 8:0 2048 8:16 2048 8:32 2048 8:48 2048");
	t_m[0].sb.stripe_cache_mb = 128;
	fr_table_from_members(t_slots, T_N, &t);
	assert_true(t.stripe_cache_set);
	assert_int_equal(fr_table_build(&t, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "raid6 8 3 stripe_cache_mb 128 "
			    "superblock 4 8:0 2048 8:16 2048 8:32 2048 8:48 2048");
}

static void test_dm_uuid_is_prefixed_array_uuid(void **state)
{
	uint8_t u[FR_UUID_LEN], back[FR_UUID_LEN];
	char s[128];

	(void)state;
	memset(u, 0xab, sizeof(u));
	fr_dm_uuid(u, s, sizeof(s));
	assert_string_equal(s, "FANRAID-abababab-abab-abab-abab-abababababab");
	assert_int_equal(fr_uuid_parse(s + 8, back), 0);
	assert_memory_equal(u, back, FR_UUID_LEN);
	fr_uuid_generate(u);
	assert_int_equal(u[6] >> 4, 4);		/* version 4 */
	assert_int_equal(u[8] >> 6, 2);		/* RFC 4122 variant */
	memcpy(back, u, sizeof(u));
	fr_uuid_generate(u);
	assert_memory_not_equal(u, back, FR_UUID_LEN);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_members_write_bumps_events_and_state),
		T(test_members_write_keeps_degraded_in_step),
		T(test_members_write_skips_empty_and_closed),
		T(test_members_write_reports_io_errors),
		T(test_table_from_members_marks_empty_slots_missing),
		T(test_table_from_members_carries_readahead_choices),
		T(test_table_from_members_carries_stripe_cache),
		T(test_dm_uuid_is_prefixed_array_uuid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
