// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid/syndrome.h: the shared decoder that names the one wrong block of
 * a RAID6 row. Parity comes from ISA-L (rc_pq_gen), not from the decoder's
 * own arithmetic, so a wrong generator or term order fails here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fanraid/syndrome.h>
#include "raidcalc.h"

#define T_LEN		4096
#define T_MAX_DEVS	FR_MAX_DEVS

static u8 t_blocks[T_MAX_DEVS][T_LEN] __attribute__((aligned(64)));
static u8 t_again[2][T_LEN] __attribute__((aligned(64)));
static u8 t_dp[T_LEN], t_dq[T_LEN];

/* Random data, then P and Q by ISA-L; blocks are data 0..n-3, P, Q. */
static void t_fill(unsigned int n, unsigned int seed)
{
	void *ptrs[T_MAX_DEVS];
	unsigned int i, b;

	srand(seed);
	for (i = 0; i < n - 2; i++)
		for (b = 0; b < T_LEN; b++)
			t_blocks[i][b] = (u8)rand();
	for (i = 0; i < n; i++)
		ptrs[i] = t_blocks[i];
	assert_int_equal(rc_pq_gen(n, T_LEN, ptrs), 0);
}

/* dP and dQ of the blocks as they are now, as the kernel's scrub forms them. */
static enum fr_syndrome t_locate(unsigned int n, enum fr_block_kind *kind,
				 u32 *idx)
{
	void *ptrs[T_MAX_DEVS];
	unsigned int i, b;

	for (i = 0; i < n - 2; i++)
		ptrs[i] = t_blocks[i];
	ptrs[n - 2] = t_again[0];
	ptrs[n - 1] = t_again[1];
	assert_int_equal(rc_pq_gen(n, T_LEN, ptrs), 0);
	for (b = 0; b < T_LEN; b++) {
		t_dp[b] = t_blocks[n - 2][b] ^ t_again[0][b];
		t_dq[b] = t_blocks[n - 1][b] ^ t_again[1][b];
	}
	return fr_syndrome_locate(t_dp, t_dq, T_LEN, n - 2, kind, idx);
}

/* Flip @len bytes of block @blk from @off; never a no-op. */
static void t_damage(unsigned int blk, unsigned int off, unsigned int len)
{
	unsigned int b;

	for (b = off; b < off + len; b++)
		t_blocks[blk][b] ^= (u8)(1 + (b * 37) % 255);
}

static void test_syndrome_clean_row_is_clean(void **state)
{
	enum fr_block_kind kind;
	u32 idx;

	(void)state;
	t_fill(6, 1);
	assert_int_equal(t_locate(6, &kind, &idx), FR_SYNDROME_CLEAN);
}

/* Every data block of every width from 4 to 64 members is named. */
static void test_syndrome_names_each_data_block(void **state)
{
	enum fr_block_kind kind;
	unsigned int n, z;
	u32 idx;

	(void)state;
	for (n = 4; n <= T_MAX_DEVS; n += (n < 8 ? 1 : 7)) {
		for (z = 0; z < n - 2; z++) {
			t_fill(n, n * 100 + z);
			t_damage(z, (z * 512) % T_LEN, 100);
			assert_int_equal(t_locate(n, &kind, &idx), FR_SYNDROME_ONE);
			assert_int_equal(kind, FR_BLOCK_DATA);
			assert_int_equal(idx, z);
		}
	}
}

static void test_syndrome_names_p_and_q(void **state)
{
	enum fr_block_kind kind;
	u32 idx;

	(void)state;
	t_fill(8, 7);
	t_damage(6, 4000, 96);
	assert_int_equal(t_locate(8, &kind, &idx), FR_SYNDROME_ONE);
	assert_int_equal(kind, FR_BLOCK_P);
	t_fill(8, 8);
	t_damage(7, 0, 1);
	assert_int_equal(t_locate(8, &kind, &idx), FR_SYNDROME_ONE);
	assert_int_equal(kind, FR_BLOCK_Q);
}

/* Correcting the named block with dP (data, P) or dQ (Q) restores the row. */
static void test_syndrome_correction_restores_the_block(void **state)
{
	static u8 orig[T_LEN];
	enum fr_block_kind kind;
	unsigned int b;
	u32 idx;

	(void)state;
	t_fill(10, 21);
	memcpy(orig, t_blocks[5], T_LEN);
	t_damage(5, 17, 3000);
	assert_int_equal(t_locate(10, &kind, &idx), FR_SYNDROME_ONE);
	assert_int_equal(idx, 5);
	for (b = 0; b < T_LEN; b++)
		t_blocks[idx][b] ^= t_dp[b];
	assert_memory_equal(t_blocks[5], orig, T_LEN);
	assert_int_equal(t_locate(10, &kind, &idx), FR_SYNDROME_CLEAN);
}

/* Two data blocks, or data and P, wrong at once: not one block, never a guess. */
static void test_syndrome_two_wrong_blocks_are_unknown(void **state)
{
	enum fr_block_kind kind;
	u32 idx;

	(void)state;
	t_fill(6, 31);
	t_damage(0, 100, 200);
	t_damage(3, 150, 200);
	assert_int_equal(t_locate(6, &kind, &idx), FR_SYNDROME_UNKNOWN);
	t_fill(6, 32);
	t_damage(1, 0, 64);
	t_damage(4, 2000, 64);		/* P, elsewhere in the block */
	assert_int_equal(t_locate(6, &kind, &idx), FR_SYNDROME_UNKNOWN);
}

/* A Q difference that no data index of this row width explains. */
static void test_syndrome_index_past_the_data_is_unknown(void **state)
{
	enum fr_block_kind kind;
	u32 idx;

	(void)state;
	memset(t_dp, 0, T_LEN);
	memset(t_dq, 0, T_LEN);
	/* g^5 * 1 = 32: data index 5, which a 4-member row does not have */
	t_dp[9] = 1;
	t_dq[9] = 32;
	assert_int_equal(fr_syndrome_locate(t_dp, t_dq, T_LEN, 2, &kind, &idx),
			 FR_SYNDROME_UNKNOWN);
	assert_int_equal(fr_syndrome_locate(t_dp, t_dq, T_LEN, 6, &kind, &idx),
			 FR_SYNDROME_ONE);
	assert_int_equal(idx, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syndrome_clean_row_is_clean),
		cmocka_unit_test(test_syndrome_names_each_data_block),
		cmocka_unit_test(test_syndrome_names_p_and_q),
		cmocka_unit_test(test_syndrome_correction_restores_the_block),
		cmocka_unit_test(test_syndrome_two_wrong_blocks_are_unknown),
		cmocka_unit_test(test_syndrome_index_past_the_data_is_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
