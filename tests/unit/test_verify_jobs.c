/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raidcalc/lib/verify_jobs.c: the threaded verify finds exactly what the
 * single-threaded one finds, whatever the number of threads, keeps the
 * lowest rows in order, reports progress up to the total, and passes a
 * thread's I/O error back naming the member.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "rc_testverify.h"

struct rc_t_progress {
	unsigned int calls;
	u64 last, total;
};

static void rc_t_progress(u64 done, u64 total, void *ctx)
{
	struct rc_t_progress *p = ctx;

	assert_true(done >= p->last);
	assert_true(done <= total);
	p->calls++;
	p->last = done;
	p->total = total;
}

/*
 * 40 rows with 25 damaged parity blocks spread over them: every thread
 * count reports the serial count and the serial first RC_VERIFY_KEEP.
 */
static void test_verify_jobs_match_the_serial_scan(void **state)
{
	static const unsigned int jobs[] = { 1, 2, 3, 7, 64 };
	struct rc_verify_report r;
	struct rc_t_seen seen = { 0 };
	struct rc_t_progress p;
	const struct fr_geom *g;
	unsigned int i, k;
	u64 row, bad;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 6, 8 * 4 * 40, 8),
			 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 31), 0);
	g = &rc_t.a.geom;
	for (row = 39; row >= 3; row -= 3) {
		rc_t_flip(fr_geom_p_dev(g, row), row * 4096 + row);
		if (row % 2)
			/* apart from the P byte, or the pair could pass for a data error */
			rc_t_flip(fr_geom_q_dev(g, row), row * 4096 + 2000);
	}
	assert_int_equal(rc_array_verify(&rc_t.a, 0, g->rows, rc_t_record,
					 &seen, &bad), 0);
	assert_int_equal(bad, 13 + 7);
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		memset(&p, 0, sizeof(p));
		assert_int_equal(rc_array_verify_jobs(&rc_t.a, 0, g->rows,
						      jobs[i], rc_t_progress,
						      &p, &r), 0);
		assert_true(r.bad == bad);
		assert_true(r.rows == g->rows);
		assert_true(r.jobs >= 1 && r.jobs <= jobs[i]);
		assert_int_equal(r.nkept, RC_VERIFY_KEEP);
		for (k = 0; k < r.nkept; k++)
			assert_memory_equal(&r.kept[k], &seen.m[k],
					    sizeof(r.kept[k]));
		assert_true(p.calls >= 1);
		assert_true(p.last == g->rows && p.total == g->rows);
	}
	/* a range, and no progress callback */
	assert_int_equal(rc_array_verify_jobs(&rc_t.a, 12, 4, 2, NULL, NULL,
					      &r), 0);
	assert_true(r.rows == 4);
	assert_true(r.bad == 3);	/* P of 12, P and Q of 15 */
	assert_true(r.kept[0].row == 12);
}

static void test_verify_jobs_clean_array_and_bad_arguments(void **state)
{
	struct rc_verify_report r;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 16, 4, 16 * 2 * 9, 0),
			 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 32), 0);
	assert_int_equal(rc_array_verify_jobs(&rc_t.a, 0, rc_t.a.geom.rows, 2,
					      NULL, NULL, &r), 0);
	assert_true(r.bad == 0);
	assert_int_equal(r.nkept, 0);
	assert_int_equal(rc_array_verify_jobs(&rc_t.a, 0, rc_t.a.geom.rows, 0,
					      NULL, NULL, &r), -EINVAL);
	assert_string_equal(rc_t.a.error, "Invalid number of jobs");
	assert_int_equal(rc_array_verify_jobs(&rc_t.a, 8, 2, 2, NULL, NULL,
					      &r), -EINVAL);
	assert_string_equal(rc_t.a.error, "Rows past the end of the array");
}

/* A member shorter than the table says: the thread's error comes back. */
static void test_verify_jobs_report_a_short_member(void **state)
{
	struct rc_verify_report r;

	(void)state;
	assert_int_equal(rc_t_arr_make(&rc_t, "raid6", 8, 5, 8 * 3 * 30, 0),
			 0);
	assert_int_equal(rc_t_arr_built(&rc_t, 33), 0);
	assert_int_equal(ftruncate(rc_t.a.members[2].fd, 20 * 4096), 0);
	assert_int_equal(rc_array_verify_jobs(&rc_t.a, 0, rc_t.a.geom.rows, 2,
					      NULL, NULL, &r), -EIO);
	assert_string_equal(rc_t.a.error, "Cannot read member");
	assert_int_equal(rc_t.a.error_dev, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_verify_jobs_match_the_serial_scan, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_jobs_clean_array_and_bad_arguments, rc_t_teardown),
		cmocka_unit_test_teardown(test_verify_jobs_report_a_short_member, rc_t_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
