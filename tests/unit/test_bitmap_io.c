/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/bitmap_io.c on member files: a copy is counted as it was
 * written, and the union of several copies counts a bit any of them has,
 * as the kernel loads them: a crash during a bitmap write can leave a bit
 * on some members only (assemble's dirty-degraded check relies on it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <fanraid/bitmap.h>

#include "bitmap_io.h"

#define T_MEMBERS	3

/* 95 regions of 1 MiB: twelve bytes of bits in a one-page area. */
static void t_sb(struct fr_sb *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->member_sectors = 95 * 2048;
	sb->bitmap_region_sectors = 2048;
	sb->bitmap_sectors = 8;
}

static void t_member(struct fr_member *m, const struct fr_sb *sb)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	m->path = "tmpfile";
	m->fd = dup(fileno(f));
	fclose(f);
	assert_true(m->fd >= 0);
	assert_int_equal(fr_bitmap_fill(m, sb, false), 0);
}

static void t_set_byte(struct fr_member *m, uint32_t byte, uint8_t bits)
{
	assert_int_equal(pwrite(m->fd, &bits, 1, FR_BITMAP_OFFSET + byte), 1);
}

static void test_bitmap_union_counts_a_bit_on_one_member(void **state)
{
	struct fr_member m[T_MEMBERS] = { 0 }, *ms[T_MEMBERS + 1];
	struct fr_sb sb;
	uint64_t dirty;
	uint32_t i;

	(void)state;
	t_sb(&sb);
	for (i = 0; i < T_MEMBERS; i++)
		t_member(&m[i], &sb);
	/* Regions 4 and 5 on member 1 only, 5 and 9 on member 2. */
	t_set_byte(&m[1], 0, 0x30);
	t_set_byte(&m[2], 0, 0x20);
	t_set_byte(&m[2], 1, 0x02);
	assert_int_equal(fr_bitmap_count(&m[0], &sb, &dirty), 0);
	assert_int_equal(dirty, 0);
	assert_int_equal(fr_bitmap_count(&m[2], &sb, &dirty), 0);
	assert_int_equal(dirty, 2);
	ms[0] = &m[0];
	ms[1] = NULL;		/* a missing or re-added slot */
	ms[2] = &m[1];
	ms[3] = &m[2];
	assert_int_equal(fr_bitmap_count_union(ms, T_MEMBERS + 1, &sb, &dirty), 0);
	assert_int_equal(dirty, 3);
	for (i = 0; i < T_MEMBERS; i++)
		close(m[i].fd);
}

/* Bits past the last region (padding of the area) are not regions. */
static void test_bitmap_union_ignores_padding(void **state)
{
	struct fr_member m = { 0 }, *ms = &m;
	struct fr_sb sb;
	uint64_t dirty;

	(void)state;
	t_sb(&sb);
	t_member(&m, &sb);
	t_set_byte(&m, 11, 0xff);	/* regions 88-94, and one bit past 94 */
	t_set_byte(&m, 100, 0xff);
	assert_int_equal(fr_bitmap_count_union(&ms, 1, &sb, &dirty), 0);
	assert_int_equal(dirty, 7);
	close(m.fd);
}

/* A copy that cannot be read makes the count unknown, not zero. */
static void test_bitmap_union_fails_on_unreadable_copy(void **state)
{
	struct fr_member m = { 0 }, bad = { .path = "closed", .fd = -1 };
	struct fr_member *ms[2] = { &m, &bad };
	struct fr_sb sb;
	uint64_t dirty;

	(void)state;
	t_sb(&sb);
	t_member(&m, &sb);
	assert_int_not_equal(fr_bitmap_count_union(ms, 2, &sb, &dirty), 0);
	close(m.fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bitmap_union_counts_a_bit_on_one_member),
		cmocka_unit_test(test_bitmap_union_ignores_padding),
		cmocka_unit_test(test_bitmap_union_fails_on_unreadable_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
