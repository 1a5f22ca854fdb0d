/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RAID6 recovery: every pair of lost blocks for every member count, as
 * lib/raid6/test/test.c does, through ISA-L and through the closed-form
 * twin, plus the assumption that makes ISA-L usable at all: its RS
 * generator's parity rows are P and Q.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <isa-l/erasure_code.h>
#include "raidcalc.h"
#include "rc_testutil.h"

typedef int (*rc_recover_fn)(unsigned int, size_t, void **, unsigned int,
			     const unsigned int *);

/* gf_gen_rs_matrix(a, k + 2, k) == [I; 1 1 .. 1; 2^0 2^1 .. 2^(k-1)]. */
static void test_recover_isal_matrix_is_raid6_syndrome(void **state)
{
	u8 a[RC_PQ_MAX_DEVS * RC_PQ_MAX_DEVS];
	unsigned int k, i, j;
	u8 pow;

	(void)state;
	for (k = 2; k <= RC_PQ_MAX_DEVS - 2; k++) {
		gf_gen_rs_matrix(a, (int)k + 2, (int)k);
		for (i = 0; i < k; i++)
			for (j = 0; j < k; j++)
				assert_int_equal(a[i * k + j], i == j);
		pow = 1;
		for (j = 0; j < k; j++) {
			assert_int_equal(a[k * k + j], 1);
			assert_int_equal(a[(k + 1) * k + j], pow);
			/* xtime, written out here rather than borrowed */
			pow = (u8)((pow << 1) ^ ((pow & 0x80) ? 0x1d : 0));
		}
	}
}

/*
 * Build a consistent row of @n blocks, lose @nf of them (overwrite with
 * junk), recover with @fn, and demand every block back, byte for byte,
 * with survivors and guard bytes untouched.
 */
static void rc_t_lose_and_recover(rc_recover_fn fn, unsigned int n,
				  size_t len, size_t skew, unsigned int nf,
				  const unsigned int *failed, uint64_t *seed)
{
	void *p[RC_PQ_MAX_DEVS], *want[RC_PQ_MAX_DEVS];
	u8 *bp, *bw;
	unsigned int i;

	bp = rc_t_blocks(n, len, skew, p);
	bw = rc_t_blocks(n, len, skew, want);
	assert_non_null(bp);
	assert_non_null(bw);
	for (i = 0; i < n - 2; i++)
		rc_t_fill(seed, want[i], len);
	assert_int_equal(rc_pq_gen_ref(n, len, want), 0);
	for (i = 0; i < n; i++)
		memcpy(p[i], want[i], len);
	for (i = 0; i < nf; i++)
		memset(p[failed[i]], 0x5c + i, len);
	assert_int_equal(fn(n, len, p, nf, failed), 0);
	for (i = 0; i < n; i++)
		assert_memory_equal(p[i], want[i], len);
	assert_true(rc_t_guard_intact(n, len, p));
	free(bp);
	free(bw);
}

static void rc_t_every_pair(rc_recover_fn fn, unsigned int n, size_t len,
			    uint64_t *seed)
{
	unsigned int f[2];

	for (f[0] = 0; f[0] < n; f[0]++) {
		rc_t_lose_and_recover(fn, n, len, 0, 1, f, seed);
		for (f[1] = f[0] + 1; f[1] < n; f[1]++)
			rc_t_lose_and_recover(fn, n, len, 0, 2, f, seed);
	}
}

/* ISA-L path: members 4..64, every single loss and every pair. */
static void test_recover_any_two_of_n(void **state)
{
	uint64_t seed = 5;
	unsigned int n;

	(void)state;
	for (n = RC_PQ_MIN_DEVS; n <= RC_PQ_MAX_DEVS; n++)
		rc_t_every_pair(rc_recover, n, 96 + 5, &seed);
}

/* The twin is slower; members 4..32 and 64 cover its index arithmetic. */
static void test_recover_ref_any_two_of_n(void **state)
{
	uint64_t seed = 6;
	unsigned int n;

	(void)state;
	for (n = RC_PQ_MIN_DEVS; n <= 32; n++)
		rc_t_every_pair(rc_recover_ref, n, 67, &seed);
	rc_t_every_pair(rc_recover_ref, RC_PQ_MAX_DEVS, 67, &seed);
}

/* Failed indices in either order mean the same pair. */
static void test_recover_accepts_pair_in_any_order(void **state)
{
	static const unsigned int pairs[][2] = {
		{ 3, 1 }, { 6, 2 }, { 7, 6 }, { 7, 0 },
	};
	uint64_t seed = 8;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		rc_t_lose_and_recover(rc_recover, 8, 100, 0, 2, pairs[i],
				      &seed);
		rc_t_lose_and_recover(rc_recover_ref, 8, 100, 0, 2, pairs[i],
				      &seed);
	}
}

/* ISA-L's edge list: zero, odd and large lengths, unaligned blocks. */
static void test_recover_handles_odd_lengths_and_skew(void **state)
{
	static const size_t lens[] = { 0, 1, 15, 31, 32, 33, 255, 4097,
				       65536 + 3 };
	static const size_t skews[] = { 0, 1, 7, 32 };
	static const unsigned int two_data[] = { 1, 4 };
	static const unsigned int data_p[] = { 2, 6 };
	uint64_t seed = 9;
	unsigned int li, si;

	(void)state;
	for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		for (si = 0; si < sizeof(skews) / sizeof(skews[0]); si++) {
			rc_t_lose_and_recover(rc_recover, 8, lens[li],
					      skews[si], 2, two_data, &seed);
			rc_t_lose_and_recover(rc_recover, 8, lens[li],
					      skews[si], 2, data_p, &seed);
			rc_t_lose_and_recover(rc_recover_ref, 8, lens[li],
					      skews[si], 2, two_data, &seed);
		}
	}
}

static void test_recover_rejects_bad_arguments(void **state)
{
	static const unsigned int dup[] = { 2, 2 };
	static const unsigned int out[] = { 1, 6 };
	static const unsigned int three[] = { 0, 1, 2 };
	u8 d[6][16];
	void *p[6];
	unsigned int i;

	(void)state;
	for (i = 0; i < 6; i++)
		p[i] = d[i];
	assert_int_equal(rc_recover(6, 16, p, 2, dup), -EINVAL);
	assert_int_equal(rc_recover_ref(6, 16, p, 2, dup), -EINVAL);
	assert_int_equal(rc_recover(6, 16, p, 2, out), -EINVAL);
	assert_int_equal(rc_recover_ref(6, 16, p, 2, out), -EINVAL);
	assert_int_equal(rc_recover(6, 16, p, 3, three), -EINVAL);
	assert_int_equal(rc_recover(6, 16, p, 0, three), -EINVAL);
	assert_int_equal(rc_recover(3, 16, p, 1, three), -EINVAL);
	assert_int_equal(rc_recover(6, 16, p, 1, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recover_isal_matrix_is_raid6_syndrome),
		cmocka_unit_test(test_recover_any_two_of_n),
		cmocka_unit_test(test_recover_ref_any_two_of_n),
		cmocka_unit_test(test_recover_accepts_pair_in_any_order),
		cmocka_unit_test(test_recover_handles_odd_lengths_and_skew),
		cmocka_unit_test(test_recover_rejects_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
