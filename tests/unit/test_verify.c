/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The offline parity check: silent on a consistent array, and for every
 * damaged parity block names the row, the member, P or Q, and the first
 * bad sector, once per row even when a chunk spans several slices.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "rc_testverify.h"

static void test_verify_passes_a_consistent_array(void **state)
{
	struct rc_t_seen seen = { 0 };
	u64 bad = 99;
	u32 n;

	(void)state;
	for (n = 4; n <= 9; n++) {
		assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, n,
					       8 * (n - 2) * 7 + 5, 24), 0);
		assert_int_equal(rc_t_arr_built(&rc_t, n), 0);
		assert_int_equal(rc_array_verify(&rc_t.a, 0, rc_t.a.geom.rows,
						 rc_t_record, &seen, &bad), 0);
		assert_int_equal(bad, 0);
		assert_int_equal(seen.n, 0);
		rc_t_arr_destroy(&rc_t);
	}
}

static void test_verify_names_row_member_and_sector_of_bad_parity(void **state)
{
	const struct fr_geom *g;
	struct rc_t_seen seen = { 0 };
	u32 pd, qd;
	u64 bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 16, 5, 16 * 3 * 10, 8),
			 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 5), 0);
	g = &rc_t.a.geom;
	pd = fr_geom_p_dev(g, 3);
	qd = fr_geom_q_dev(g, 7);
	rc_t_flip(pd, (3 * 16 + 5) * 512 + 100);	/* P of row 3, sector 5 */
	rc_t_flip(qd, (7 * 16 + 15) * 512 + 511);	/* Q of row 7, last */
	assert_int_equal(rc_array_verify(&rc_t.a, 0, g->rows, rc_t_record,
					 &seen, &bad), 0);
	assert_int_equal(bad, 2);
	assert_int_equal(seen.n, 2);
	assert_int_equal(seen.m[0].row, 3);
	assert_int_equal(seen.m[0].kind, FR_BLOCK_P);
	assert_int_equal(seen.m[0].dev, pd);
	assert_int_equal(seen.m[0].sector, 3 * 16 + 5);
	assert_int_equal(seen.m[1].row, 7);
	assert_int_equal(seen.m[1].kind, FR_BLOCK_Q);
	assert_int_equal(seen.m[1].dev, qd);
	assert_int_equal(seen.m[1].sector, 7 * 16 + 15);
	/* a range that skips both rows finds nothing */
	seen.n = 0;
	assert_int_equal(rc_array_verify(&rc_t.a, 4, 3, rc_t_record, &seen,
					 &bad), 0);
	assert_int_equal(bad, 0);
}

/*
 * A bad data byte breaks both parities of its row, and together they name
 * the data block: it is reported instead of P and Q.
 */
static void test_verify_names_the_data_member_for_bad_data(void **state)
{
	struct rc_t_seen seen = { 0 };
	u64 bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 4, 8 * 2 * 4, 0), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 9), 0);
	rc_t_flip(fr_geom_data_dev(&rc_t.a.geom, 2, 1), 2 * 4096 + 7);
	assert_int_equal(rc_array_verify(&rc_t.a, 0, rc_t.a.geom.rows,
					 rc_t_record, &seen, &bad), 0);
	assert_int_equal(bad, 1);
	assert_int_equal(seen.m[0].kind, FR_BLOCK_DATA);
	assert_int_equal(seen.m[0].dev, fr_geom_data_dev(&rc_t.a.geom, 2, 1));
	assert_int_equal(seen.m[0].row, 2);
	assert_int_equal(seen.m[0].sector, 2 * 8);
	assert_false(seen.m[0].ambiguous);
}

/* Two data blocks of one row wrong: P and Q both reported, as undecidable. */
static void test_verify_reports_two_bad_data_blocks_as_ambiguous(void **state)
{
	struct rc_t_seen seen = { 0 };
	u64 bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 5, 8 * 3 * 4, 0), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 10), 0);
	rc_t_flip(fr_geom_data_dev(&rc_t.a.geom, 1, 0), 1 * 4096 + 100);
	/* elsewhere in the block: one byte alone could pass for one block */
	rc_t_flip(fr_geom_data_dev(&rc_t.a.geom, 1, 2), 1 * 4096 + 300);
	assert_int_equal(rc_array_verify(&rc_t.a, 0, rc_t.a.geom.rows,
					 rc_t_record, &seen, &bad), 0);
	assert_int_equal(bad, 2);
	assert_int_equal(seen.m[0].kind, FR_BLOCK_P);
	assert_int_equal(seen.m[1].kind, FR_BLOCK_Q);
	assert_true(seen.m[0].ambiguous && seen.m[1].ambiguous);
}

/* 2048-sector chunks are four slices; two bad slices, one report. */
static void test_verify_reports_each_parity_once_per_row(void **state)
{
	struct rc_t_seen seen = { 0 };
	u32 pd;
	u64 bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 2048, 4, 2048 * 2 * 2,
				       0), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 11), 0);
	pd = fr_geom_p_dev(&rc_t.a.geom, 1);
	rc_t_flip(pd, (u64)(2048 + 1500) * 512);	/* third slice */
	rc_t_flip(pd, (u64)(2048 + 600) * 512);	/* second slice */
	assert_int_equal(rc_array_verify(&rc_t.a, 0, 2, rc_t_record, &seen,
					 &bad), 0);
	assert_int_equal(bad, 1);
	assert_int_equal(seen.n, 1);
	assert_int_equal(seen.m[0].sector, 2048 + 600);
}

static int rc_t_stop(const struct rc_mismatch *m, void *ctx)
{
	(void)m;
	(void)ctx;
	return -ECANCELED;
}

static void test_verify_stops_when_callback_says_so(void **state)
{
	u64 bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 4, 8 * 2 * 4, 0), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 12), 0);
	rc_t_flip(fr_geom_p_dev(&rc_t.a.geom, 0), 0);
	rc_t_flip(fr_geom_p_dev(&rc_t.a.geom, 1), 4096);
	assert_int_equal(rc_array_verify(&rc_t.a, 0, 4, rc_t_stop, NULL, &bad),
			 -ECANCELED);
	assert_int_equal(bad, 1);
}

/*
 * With member k missing, a bad data byte elsewhere in any row is still
 * caught exactly once: by Q when k held P, by P when k held Q, and by Q
 * (against data rebuilt from P) when k held data. Never on member k.
 */
static void test_verify_checks_rows_with_one_member_missing(void **state)
{
	struct rc_t_seen seen = { 0 };
	const struct fr_geom *g;
	unsigned int k, d;
	u64 row, bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 5, 8 * 3 * 5, 8), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 14), 0);
	for (k = 0; k < 5; k++) {
		/* reparses the original table with member k as "- -" */
		assert_int_equal(rc_t_arr_lose(&rc_t, k, -1), 0);
		g = &rc_t.a.geom;
		for (row = 0; row < g->rows; row++) {
			d = fr_geom_data_dev(g, row, 0);
			if (d == k)
				d = fr_geom_data_dev(g, row, 1);
			rc_t_flip(d, row * 4096 + 33);
			seen.n = 0;
			assert_int_equal(rc_array_verify(&rc_t.a, 0, g->rows,
							 rc_t_record, &seen,
							 &bad), 0);
			assert_int_equal(bad, 1);
			assert_int_equal(seen.m[0].row, row);
			assert_int_not_equal(seen.m[0].dev, k);
			rc_t_flip(d, row * 4096 + 33);
		}
	}
}

static void test_verify_rejects_raid0_and_rows_past_end(void **state)
{
	u64 bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 4, 8 * 2 * 4, 0), 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 13), 0);
	assert_int_equal(rc_array_verify(&rc_t.a, 3, 2, NULL, NULL, &bad),
			 -EINVAL);
	assert_string_equal(rc_t.a.error, "Rows past the end of the array");
	assert_int_equal(rc_array_verify(&rc_t.a, 4, 0, NULL, NULL, &bad), 0);
	/*
	 * A member being rebuilt is read as it is, and one missing member
	 * still leaves every row something to check.
	 */
	assert_int_equal(rc_t_arr_lose(&rc_t, 3, 0), 0);
	assert_int_equal(rc_array_verify(&rc_t.a, 0, 4, NULL, NULL, &bad), 0);
	assert_int_equal(bad, 0);
	rc_t_arr_destroy(&rc_t);
	assert_int_equal(rc_t_arr_make(&rc_t, "raid0", 8, 4, 64, 0), 0);
	assert_int_equal(rc_array_verify(&rc_t.a, 0, 1, NULL, NULL, &bad),
			 -EINVAL);
	assert_string_equal(rc_t.a.error, "Only raid6 has parity to verify");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_verify_passes_a_consistent_array, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_names_row_member_and_sector_of_bad_parity, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_names_the_data_member_for_bad_data, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_reports_two_bad_data_blocks_as_ambiguous, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_reports_each_parity_once_per_row, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_stops_when_callback_says_so, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_rejects_raid0_and_rows_past_end, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_checks_rows_with_one_member_missing, rc_t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
