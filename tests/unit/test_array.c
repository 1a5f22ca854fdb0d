/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/array.c: sizing a new array from its members' sizes and
 * topology, and the assembly checks: slot order whatever the command-line
 * order, and a specific refusal for foreign, stale, duplicate, disagreeing
 * and missing members.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "array.h"
#include "fr_testsb.h"

#define GiB (1ull << 30)
#define MiB (1ull << 20)

static void t_members(struct fr_member *m, uint32_t n, uint64_t size)
{
	static const char *const paths[] = { "/dev/a", "/dev/b", "/dev/c",
		"/dev/d", "/dev/e", "/dev/f", "/dev/g", "/dev/h" };
	uint32_t i;

	for (i = 0; i < n; i++) {
		fr_member_init(&m[i], paths[i % 8]);
		m[i].size = size;
		m[i].rdev = 0x800 + i;
	}
}

static void test_plan_defaults_to_512k_chunk_and_1m_offset(void **state)
{
	struct fr_member m[4];
	struct fr_plan p;
	char err[FR_ERR_MAX];

	(void)state;
	t_members(m, 4, GiB);
	assert_int_equal(fr_plan_create(m, 4, FR_LEVEL_RAID0, 0, 0, &p, err,
					sizeof(err)), 0);
	assert_int_equal(p.chunk_sectors, 1024);
	assert_int_equal(p.data_offset, 2048);
	/* (1 GiB - 1 MiB) rounded down to 512 KiB chunks */
	assert_int_equal(p.member_sectors, (GiB - MiB) / 512);
	assert_int_equal(p.array_sectors, 4 * p.member_sectors);
}

/* The smallest member decides, rounded down to whole chunks; geom.h agrees. */
static void test_plan_uses_smallest_member_in_whole_chunks(void **state)
{
	struct fr_member m[6];
	struct fr_plan p;
	char err[FR_ERR_MAX];

	(void)state;
	t_members(m, 6, 10 * GiB);
	m[3].size = 2 * GiB + 3 * 4096;
	assert_int_equal(fr_plan_create(m, 6, FR_LEVEL_RAID6, 64 << 10, 0, &p,
					err, sizeof(err)), 0);
	assert_int_equal(p.chunk_sectors, 128);
	assert_int_equal(p.member_sectors % 128, 0);
	assert_true((p.member_sectors + p.data_offset) * 512 <= m[3].size);
	assert_true((p.member_sectors + 128 + p.data_offset) * 512 > m[3].size);
	assert_int_equal(p.array_sectors, 4 * p.member_sectors);
	assert_int_equal(fr_geom_member_sectors_for(FR_LEVEL_RAID6, 6, 128,
						    p.array_sectors),
			 p.member_sectors);
	assert_true(p.smallest == m[3].size);
	assert_true(p.largest == 10 * GiB);
}

static void test_plan_follows_topology(void **state)
{
	struct fr_member m[2];
	struct fr_plan p;
	char err[FR_ERR_MAX];

	(void)state;
	t_members(m, 2, GiB);
	m[1].opt_io = 2 * MiB;		/* a 2 MiB hardware stripe */
	m[0].min_io = 4096;
	assert_int_equal(fr_plan_create(m, 2, FR_LEVEL_RAID0, 0, 0, &p, err,
					sizeof(err)), 0);
	assert_int_equal(p.chunk_sectors, 4096);
	assert_int_equal(p.data_offset, 4096);	/* 1 MiB rounded up to 2 MiB */

	t_members(m, 2, GiB);
	m[0].opt_io = m[1].opt_io = 3 * 65536;	/* not a power of two */
	m[0].align_offset = m[1].align_offset = 8192;
	assert_int_equal(fr_plan_create(m, 2, FR_LEVEL_RAID0, 0, 0, &p, err,
					sizeof(err)), 0);
	assert_int_equal(p.chunk_sectors, 1024);
	assert_int_equal(p.data_offset, (6 * 196608 + 8192) / 512);
}

static void test_plan_refuses_too_small_member_by_name(void **state)
{
	struct fr_member m[3];
	struct fr_plan p;
	char err[FR_ERR_MAX];

	(void)state;
	t_members(m, 3, GiB);
	m[2].size = MiB + 256 * 1024;
	assert_int_equal(fr_plan_create(m, 3, FR_LEVEL_RAID0, 0, 0, &p, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/c: too small"));
}

static void test_plan_refuses_bad_data_offset_and_chunk(void **state)
{
	struct fr_member m[2];
	struct fr_plan p;
	char err[FR_ERR_MAX];

	(void)state;
	t_members(m, 2, GiB);
	assert_int_equal(fr_plan_create(m, 2, FR_LEVEL_RAID0, 0, 4096, &p, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--data-offset"));
	assert_int_equal(fr_plan_create(m, 2, FR_LEVEL_RAID0, 0, 12288 + 512,
					&p, err, sizeof(err)), -EINVAL);
	assert_int_equal(fr_plan_create(m, 2, FR_LEVEL_RAID0, 3 << 10, 0, &p,
					err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--chunk"));
	assert_int_equal(fr_plan_create(m, 2, FR_LEVEL_RAID6, 0, 0, &p, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "2 devices"));
}

/* A consistent set of decoded superblocks, as assemble would read them. */
static void t_array(struct fr_member *m, uint32_t n, uint32_t level)
{
	uint32_t i;

	t_members(m, n, GiB);
	for (i = 0; i < n; i++) {
		m[i].sb_err = FR_SB_OK;
		fr_t_sb(&m[i].sb, "fast0", level, n, i, 1024, 1024 * 100);
		m[i].sb.events = 7;
		assert_int_equal(fr_sb_validate(&m[i].sb), FR_SB_OK);
	}
}

static void test_order_sorts_members_by_slot(void **state)
{
	struct fr_member m[4], shuffled[4], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];
	uint32_t i;

	(void)state;
	t_array(m, 4, FR_LEVEL_RAID0);
	shuffled[0] = m[2];
	shuffled[1] = m[0];
	shuffled[2] = m[3];
	shuffled[3] = m[1];
	assert_int_equal(fr_array_order(shuffled, 4, NULL, "fast0", slots, err,
					sizeof(err)), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(slots[i]->sb.slot, i);
	assert_string_equal(slots[0]->path, "/dev/a");
	assert_string_equal(slots[3]->path, "/dev/d");
}

static void test_order_refuses_member_of_another_array(void **state)
{
	struct fr_member m[3], *slots[FR_MAX_DEVS];
	uint8_t uuid[FR_UUID_LEN];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 3, FR_LEVEL_RAID0);
	memset(m[1].sb.array_uuid, 0x99, FR_UUID_LEN);
	strcpy(m[1].sb.name, "other");
	assert_int_equal(fr_array_order(m, 3, NULL, "fast0", slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/b: member of array 'other'"));
	assert_non_null(strstr(err, "not of 'fast0'"));

	/* by UUID: the first member is the foreign one */
	memset(uuid, 0x42, FR_UUID_LEN);
	t_array(m, 3, FR_LEVEL_RAID0);
	memset(m[0].sb.array_uuid, 0x99, FR_UUID_LEN);
	assert_int_equal(fr_array_order(m, 3, uuid, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/a: member of array"));
	assert_non_null(strstr(err, "not of UUID 42424242-4242"));
}

static void test_order_refuses_stale_member(void **state)
{
	struct fr_member m[3], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 3, FR_LEVEL_RAID0);
	m[2].sb.events = 5;
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/c: stale member: events 5, but /dev/a has 7"));
	t_array(m, 3, FR_LEVEL_RAID0);
	m[0].sb.events = 5;
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/a: stale member: events 5, but /dev/b has 7"));
}

static void test_order_refuses_missing_member(void **state)
{
	struct fr_member m[4], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 4, FR_LEVEL_RAID0);
	m[2] = m[3];
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "slot 2 of 4 is missing"));
	assert_non_null(strstr(err, "raid0"));

}

/* raid6 runs degraded: a missing or stale member leaves its slot empty. */
static void test_order_leaves_out_stale_raid6_member(void **state)
{
	struct fr_member m[5], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 5, FR_LEVEL_RAID6);
	m[1].sb.events = 3;			/* stale */
	assert_int_equal(fr_array_order(m, 4, NULL, "fast0", slots, err,
					sizeof(err)), 0);	/* slot 4 missing */
	assert_null(slots[1]);
	assert_null(slots[4]);
	assert_ptr_equal(slots[0], &m[0]);
	assert_ptr_equal(slots[3], &m[3]);

	/* the freshest member is the reference even when listed last */
	t_array(m, 5, FR_LEVEL_RAID6);
	m[0].sb.events = m[1].sb.events = m[2].sb.events = 5;
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "3 of 5 members missing, stale or failed"));

	/* a member its peers marked failed stays out even with fresh events */
	t_array(m, 5, FR_LEVEL_RAID6);
	m[0].sb.failed_mask = m[1].sb.failed_mask = m[3].sb.failed_mask =
		m[4].sb.failed_mask = 1u << 2;
	m[2].sb.events = 8;
	m[0].sb.events = m[1].sb.events = m[3].sb.events = m[4].sb.events = 9;
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_null(slots[2]);
}

/*
 * A crash that cuts an update short leaves members one event behind: they
 * are in sync (md's event margin), with the settings of the newest block
 * winning; a member the newest blocks mark failed still stays out.
 */
static void test_order_takes_members_one_update_behind(void **state)
{
	struct fr_member m[5], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];
	uint32_t i;

	(void)state;
	t_array(m, 3, FR_LEVEL_RAID0);
	m[1].sb.events = 6;
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), 0);
	for (i = 0; i < 3; i++)
		assert_ptr_equal(slots[i], &m[i]);

	/* three of five behind: all in, where the strict rule lost three */
	t_array(m, 5, FR_LEVEL_RAID6);
	m[0].sb.events = m[2].sb.events = m[4].sb.events = 6;
	m[0].sb.flush_policy = FR_FLUSH_DROP;	/* before a cut "set" */
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	for (i = 0; i < 5; i++)
		assert_ptr_equal(slots[i], &m[i]);

	/* the settings must agree among members at the same events */
	m[0].sb.events = 7;
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "flush policy"));

	/* one behind, but marked failed by the newest block: out */
	t_array(m, 5, FR_LEVEL_RAID6);
	m[3].sb.events = 6;
	for (i = 0; i < 5; i++)
		if (i != 3)
			m[i].sb.failed_mask = 1u << 3;
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_null(slots[3]);
}

/*
 * Blocks of the newest events that disagree on the failed mask: a member
 * whose own block was written after it failed (naming itself in sync) is
 * never taken, whichever block is read first; the newest blocks all
 * carry the union afterwards.
 */
static void test_order_newest_blocks_fail_by_union(void **state)
{
	struct fr_member m[5], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];
	uint32_t i;

	(void)state;
	t_array(m, 5, FR_LEVEL_RAID6);
	for (i = 1; i < 5; i++)
		m[i].sb.failed_mask = 1u << 0;
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_null(slots[0]);
	for (i = 0; i < 5; i++)
		assert_int_equal(m[i].sb.failed_mask, 1u << 0);

	/* a block one behind keeps its own mask: the newest decide */
	t_array(m, 5, FR_LEVEL_RAID6);
	m[2].sb.events = 6;
	m[2].sb.failed_mask = 1u << 4;	/* member 4 recovered since */
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	for (i = 0; i < 5; i++)
		assert_ptr_equal(slots[i], &m[i]);
}

/*
 * A hot replace leaves the old device two events behind the slot's new
 * one: named instead of it, it is stale. One behind (a crash between the
 * swap's two updates, nothing written since), the newer block holds the
 * slot; at equal events nothing tells them apart.
 */
static void test_order_old_device_of_a_slot(void **state)
{
	struct fr_member m[6], named[5], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 5, FR_LEVEL_RAID6);
	m[5] = m[2];
	m[5].path = "/dev/old";
	m[5].rdev = 99;
	m[5].sb.events = 5;
	m[5].sb.member_uuid[0] ^= 1;
	/* the old device named in place of the new one */
	memcpy(named, m, sizeof(named));
	named[2] = m[5];
	assert_int_equal(fr_array_order(named, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_null(slots[2]);
	assert_int_equal(fr_array_order(m, 6, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_ptr_equal(slots[2], &m[2]);
	m[5].sb.events = 6;
	assert_int_equal(fr_array_order(m, 6, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_ptr_equal(slots[2], &m[2]);
	m[5].sb.events = 8;	/* listed later and newer: it holds the slot */
	m[2].sb.events = 7;
	assert_int_equal(fr_array_order(m, 6, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_ptr_equal(slots[2], &m[5]);
	m[5].sb.events = 7;
	assert_int_equal(fr_array_order(m, 6, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "slot 2 is also claimed"));
}

/*
 * One behind, but its own block says its recovery had not ended (its own
 * slot failed, or REBUILDING): the update that ended it may have reached
 * the others and not it, nor the last of what the recovery wrote. Out.
 */
static void test_order_one_behind_still_recovering_is_out(void **state)
{
	struct fr_member m[5], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 5, FR_LEVEL_RAID6);
	m[3].sb.events = 6;
	m[3].sb.failed_mask = 1u << 3;
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_null(slots[3]);
	assert_false(fr_sb_fresh(&m[0].sb, &m[3].sb));

	t_array(m, 5, FR_LEVEL_RAID6);
	m[3].sb.events = 6;
	m[3].sb.state |= FR_SB_STATE_REBUILDING;
	assert_int_equal(fr_array_order(m, 5, NULL, NULL, slots, err,
					sizeof(err)), 0);
	assert_null(slots[3]);

	/* another slot failed in its own block is no reason */
	t_array(m, 5, FR_LEVEL_RAID6);
	m[3].sb.events = 6;
	m[3].sb.failed_mask = 1u << 1;
	assert_true(fr_sb_fresh(&m[0].sb, &m[3].sb));
}

/* Members one behind take the newest block's fields but their own identity. */
static void test_adopt_newest_keeps_identity(void **state)
{
	struct fr_member m[4], *slots[FR_MAX_DEVS] = { NULL };
	struct fr_sb own;
	uint32_t i;

	(void)state;
	t_array(m, 4, FR_LEVEL_RAID6);
	m[1].sb.events = 6;
	m[1].sb.flush_policy = FR_FLUSH_DROP;
	m[1].sb.failed_mask = 1u << 3;
	m[1].sb.state = FR_SB_STATE_DIRTY;
	own = m[1].sb;
	m[0].sb.failed_mask = m[2].sb.failed_mask = 0;
	for (i = 0; i < 3; i++)
		slots[i] = &m[i];
	m[2].sb.events = 6;
	fr_array_adopt_newest(slots, 4, &m[0].sb, 1u << 2);
	assert_int_equal(m[1].sb.events, 7);
	assert_int_equal(m[1].sb.flush_policy, m[0].sb.flush_policy);
	assert_int_equal(m[1].sb.failed_mask, 0);
	assert_int_equal(m[1].sb.slot, 1);
	assert_int_equal(m[1].sb.state, FR_SB_STATE_DIRTY);
	assert_memory_equal(m[1].sb.member_uuid, own.member_uuid, FR_UUID_LEN);
	assert_int_equal(m[3].sb.slot, 3);	/* not in @slots: untouched */
	assert_int_equal(m[2].sb.events, 6);	/* in @keep: untouched */

	/* a grow the newest block no longer records is over */
	t_array(m, 4, FR_LEVEL_RAID6);
	m[1].sb.state = FR_SB_STATE_RESHAPE | FR_SB_STATE_DIRTY;
	fr_array_adopt_newest(slots, 4, &m[0].sb, 0);
	assert_int_equal(m[1].sb.state, FR_SB_STATE_DIRTY);
}

static void test_order_refuses_duplicates(void **state)
{
	struct fr_member m[3], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 3, FR_LEVEL_RAID0);
	m[2].rdev = m[0].rdev;
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/c: listed twice (same device as /dev/a)"));

	t_array(m, 3, FR_LEVEL_RAID0);
	m[2].sb.slot = 1;
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/c: slot 1 is also claimed by /dev/b"));
}

static void test_order_refuses_disagreeing_and_unreadable(void **state)
{
	struct fr_member m[3], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 3, FR_LEVEL_RAID0);
	m[1].sb.chunk_sectors = 512;
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "/dev/b: superblock disagrees with /dev/a on the chunk size"));

	t_array(m, 3, FR_LEVEL_RAID0);
	m[1].sb_err = FR_SB_ECRC;
	assert_int_equal(fr_array_order(m, 3, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_string_equal(err, "/dev/b: superblock checksum mismatch");

	assert_int_equal(fr_array_order(m, 0, NULL, "fast0", slots, err,
					sizeof(err)), -EINVAL);
	assert_string_equal(err, "fast0: no members found");
}

static void test_order_refuses_failed_raid0_member(void **state)
{
	struct fr_member m[2], *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX];

	(void)state;
	t_array(m, 2, FR_LEVEL_RAID0);
	m[0].sb.failed_mask = m[1].sb.failed_mask = 2;
	assert_int_equal(fr_array_order(m, 2, NULL, NULL, slots, err,
					sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "slot 1 of 2 is marked failed"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_defaults_to_512k_chunk_and_1m_offset),
		cmocka_unit_test(test_plan_uses_smallest_member_in_whole_chunks),
		cmocka_unit_test(test_plan_follows_topology),
		cmocka_unit_test(test_plan_refuses_too_small_member_by_name),
		cmocka_unit_test(test_plan_refuses_bad_data_offset_and_chunk),
		cmocka_unit_test(test_order_sorts_members_by_slot),
		cmocka_unit_test(test_order_refuses_member_of_another_array),
		cmocka_unit_test(test_order_refuses_stale_member),
		cmocka_unit_test(test_order_refuses_missing_member),
		cmocka_unit_test(test_order_leaves_out_stale_raid6_member),
		cmocka_unit_test(test_order_takes_members_one_update_behind),
		cmocka_unit_test(test_order_newest_blocks_fail_by_union),
		cmocka_unit_test(test_order_old_device_of_a_slot),
		cmocka_unit_test(test_order_one_behind_still_recovering_is_out),
		cmocka_unit_test(test_adopt_newest_keeps_identity),
		cmocka_unit_test(test_order_refuses_duplicates),
		cmocka_unit_test(test_order_refuses_disagreeing_and_unreadable),
		cmocka_unit_test(test_order_refuses_failed_raid0_member),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
