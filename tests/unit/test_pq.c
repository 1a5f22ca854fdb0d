/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * P/Q generation and checking: the ISA-L seam against its plain-C twin,
 * both against hand-computed syndromes, over every member count and
 * ISA-L's edge list (zero and odd lengths, misalignment, buffer end).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <isa-l/raid.h>
#include "raidcalc.h"
#include "rc_testutil.h"

/* Field facts the whole RAID6 code rests on. */
static void test_gf_ref_is_the_raid6_field(void **state)
{
	unsigned int a;

	(void)state;
	assert_int_equal(rc_gf_exp2_ref(8), 0x1d);	/* 0x11d reduction */
	assert_int_equal(rc_gf_exp2_ref(255), 1);
	assert_int_equal(rc_gf_exp2_ref(0), 1);
	/* 2 generates the field: no smaller power is 1 */
	for (a = 1; a < 255; a++)
		assert_int_not_equal(rc_gf_exp2_ref(a), 1);
	for (a = 1; a < 256; a++)
		assert_int_equal(rc_gf_mul_ref((u8)a, rc_gf_inv_ref((u8)a)), 1);
	assert_int_equal(rc_gf_mul_ref(0x80, 2), 0x1d);
}

/* data {0x80, 0x01, 0x02}: P = 0x83, Q = 0x80 ^ 2*0x01 ^ 4*0x02 = 0x8a. */
static void test_pq_gen_matches_hand_syndrome(void **state)
{
	u8 d[5][32];
	void *ptrs[5];
	unsigned int i;

	(void)state;
	memset(d, 0, sizeof(d));
	for (i = 0; i < 32; i++) {
		d[0][i] = 0x80;
		d[1][i] = 0x01;
		d[2][i] = 0x02;
	}
	for (i = 0; i < 5; i++)
		ptrs[i] = d[i];
	assert_int_equal(rc_pq_gen_ref(5, 32, ptrs), 0);
	assert_int_equal(d[3][0], 0x83);
	assert_int_equal(d[4][0], 0x8a);
	assert_int_equal(d[4][31], 0x8a);
	memset(d[3], 0, 32);
	memset(d[4], 0, 32);
	assert_int_equal(rc_pq_gen(5, 32, ptrs), 0);
	assert_int_equal(d[3][17], 0x83);
	assert_int_equal(d[4][17], 0x8a);
}

/* Every member count, one 4 KiB block: ISA-L, its _base and our twin. */
static void test_pq_gen_matches_ref_for_every_width(void **state)
{
	const size_t len = 4096;
	void *a[RC_PQ_MAX_DEVS], *b[RC_PQ_MAX_DEVS], *c[RC_PQ_MAX_DEVS];
	uint64_t seed = 1;
	unsigned int n, i;
	u8 *ba, *bb, *bc;

	(void)state;
	for (n = RC_PQ_MIN_DEVS; n <= RC_PQ_MAX_DEVS; n++) {
		ba = rc_t_blocks(n, len, 0, a);
		bb = rc_t_blocks(n, len, 0, b);
		bc = rc_t_blocks(n, len, 0, c);
		assert_non_null(ba);
		assert_non_null(bb);
		assert_non_null(bc);
		for (i = 0; i < n - 2; i++) {
			rc_t_fill(&seed, a[i], len);
			memcpy(b[i], a[i], len);
			memcpy(c[i], a[i], len);
		}
		assert_int_equal(rc_pq_gen(n, len, a), 0);
		assert_int_equal(rc_pq_gen_ref(n, len, b), 0);
		assert_int_equal(pq_gen_base((int)n, (int)len, c), 0);
		assert_memory_equal(a[n - 2], b[n - 2], len);
		assert_memory_equal(a[n - 1], b[n - 1], len);
		assert_memory_equal(c[n - 2], b[n - 2], len);
		assert_memory_equal(c[n - 1], b[n - 1], len);
		assert_true(rc_t_guard_intact(n, len, a));
		free(ba);
		free(bb);
		free(bc);
	}
}

/* Lengths around ISA-L's 32/64-byte steps, at aligned and skewed starts. */
static void test_pq_gen_handles_odd_lengths_and_skew(void **state)
{
	static const size_t lens[] = { 0, 1, 7, 31, 32, 33, 63, 64, 65, 127,
				       128, 4095, 4096, 4097, 65536 + 17 };
	static const size_t skews[] = { 0, 1, 16, 32, 33 };
	void *a[8], *b[8];
	uint64_t seed = 7;
	unsigned int li, si, i, n = 8;
	u8 *ba, *bb;

	(void)state;
	for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		for (si = 0; si < sizeof(skews) / sizeof(skews[0]); si++) {
			size_t len = lens[li];

			ba = rc_t_blocks(n, len, skews[si], a);
			bb = rc_t_blocks(n, len, skews[si], b);
			assert_non_null(ba);
			assert_non_null(bb);
			for (i = 0; i < n - 2; i++) {
				rc_t_fill(&seed, a[i], len);
				memcpy(b[i], a[i], len);
			}
			assert_int_equal(rc_pq_gen(n, len, a), 0);
			assert_int_equal(rc_pq_gen_ref(n, len, b), 0);
			assert_memory_equal(ba, bb, (size_t)((u8 *)a[n - 1] -
					    ba) + len + RC_T_GUARD);
			assert_true(rc_t_guard_intact(n, len, a));
			assert_int_equal(rc_pq_check(n, len, a), 0);
			free(ba);
			free(bb);
		}
	}
}

/*
 * A single flipped bit anywhere, data or parity, at the start, in the
 * ISA-L part, and in the tail the reference code handles, is caught by
 * both checkers.
 */
static void test_pq_check_detects_any_flipped_bit(void **state)
{
	const size_t len = 4096 + 19;
	static const size_t where[] = { 0, 1, 2048, 4095, 4096, 4096 + 18 };
	unsigned int n = 6, i, w;
	uint64_t seed = 3;
	void *p[6];
	u8 *base;

	(void)state;
	base = rc_t_blocks(n, len, 0, p);
	assert_non_null(base);
	for (i = 0; i < n - 2; i++)
		rc_t_fill(&seed, p[i], len);
	assert_int_equal(rc_pq_gen(n, len, p), 0);
	assert_int_equal(rc_pq_check(n, len, p), 0);
	assert_int_equal(rc_pq_check_ref(n, len, p), 0);
	for (i = 0; i < n; i++) {
		for (w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
			((u8 *)p[i])[where[w]] ^= 0x10;
			assert_int_equal(rc_pq_check(n, len, p), -EBADMSG);
			assert_int_equal(rc_pq_check_ref(n, len, p), -EBADMSG);
			((u8 *)p[i])[where[w]] ^= 0x10;
		}
	}
	assert_int_equal(rc_pq_check(n, len, p), 0);
	free(base);
}

static void test_pq_gen_leaves_data_untouched(void **state)
{
	const size_t len = 1000;
	u8 before[4][1000];
	uint64_t seed = 11;
	unsigned int i, n = 6;
	void *p[6];
	u8 *base;

	(void)state;
	base = rc_t_blocks(n, len, 0, p);
	assert_non_null(base);
	for (i = 0; i < n - 2; i++) {
		rc_t_fill(&seed, p[i], len);
		memcpy(before[i], p[i], len);
	}
	assert_int_equal(rc_pq_gen(n, len, p), 0);
	for (i = 0; i < n - 2; i++)
		assert_memory_equal(before[i], p[i], len);
	free(base);
}

static void test_pq_rejects_bad_arguments(void **state)
{
	u8 d[RC_PQ_MAX_DEVS + 1][32];
	void *p[RC_PQ_MAX_DEVS + 1];
	unsigned int i;

	(void)state;
	for (i = 0; i <= RC_PQ_MAX_DEVS; i++)
		p[i] = d[i];
	assert_int_equal(rc_pq_gen(3, 32, p), -EINVAL);
	assert_int_equal(rc_pq_gen_ref(3, 32, p), -EINVAL);
	assert_int_equal(rc_pq_gen(RC_PQ_MAX_DEVS + 1, 32, p), -EINVAL);
	assert_int_equal(rc_pq_check(RC_PQ_MAX_DEVS + 1, 32, p), -EINVAL);
	assert_int_equal(rc_pq_gen(4, 32, NULL), -EINVAL);
	p[2] = NULL;
	assert_int_equal(rc_pq_gen(4, 32, p), -EINVAL);
	assert_int_equal(rc_pq_check_ref(4, 32, p), -EINVAL);
	/* nothing is read or written at length zero */
	assert_int_equal(rc_pq_gen(4, 0, p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gf_ref_is_the_raid6_field),
		cmocka_unit_test(test_pq_gen_matches_hand_syndrome),
		cmocka_unit_test(test_pq_gen_matches_ref_for_every_width),
		cmocka_unit_test(test_pq_gen_handles_odd_lengths_and_skew),
		cmocka_unit_test(test_pq_check_detects_any_flipped_bit),
		cmocka_unit_test(test_pq_gen_leaves_data_untouched),
		cmocka_unit_test(test_pq_rejects_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
