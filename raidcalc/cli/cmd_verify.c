/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify: recompute P and Q of each row from the data on the members and
 * compare, on one thread per CPU; for an array being grown, in each
 * layout where it is whole. Prints the first bad blocks (one
 * line each), how many there were, and exits 1 on any; I/O errors exit 2
 * so that a script can tell "the parity is wrong" from "could not look".
 */
#include <stdio.h>
#include <unistd.h>
#include "cli.h"

static void rc_print_mismatch(const struct rc_array *a,
			      const struct rc_mismatch *m)
{
	printf("%s: row %llu: %s mismatch on member %u at sector %llu%s\n",
	       a->members[m->dev].dev, (unsigned long long)m->row,
	       m->kind == FR_BLOCK_DATA ? "data" :
	       m->kind == FR_BLOCK_P ? "P" : "Q", m->dev,
	       (unsigned long long)m->sector,
	       m->kind == FR_BLOCK_DATA ? " (named by P and Q together)" :
	       m->ambiguous ? " (P and Q do not name one block)" : "");
}

/* Only for a terminal: a log or a pipe should not fill with \r lines. */
static void rc_progress(u64 done, u64 total, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "\rverify: %3llu%% (%llu/%llu rows)%s",
		(unsigned long long)(total ? done * 100 / total : 100),
		(unsigned long long)done, (unsigned long long)total,
		done == total ? "\n" : "");
}

static unsigned int rc_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > RC_MAX_JOBS ? RC_MAX_JOBS : (unsigned int)n;
}

/* Says what a missing or rebuilding member leaves unchecked. */
static void rc_verify_notes(const struct rc_array *a)
{
	unsigned int i;

	for (i = 0; i < a->nmembers; i++) {
		if (a->members[i].rebuilding)
			fprintf(stderr, "%s: member %u is being rebuilt: rows it has not reached yet will mismatch\n",
				a->members[i].dev, i);
		if (a->members[i].missing)
			fprintf(stderr, "raidcalc verify: member %u is missing: its P and Q are not checked; rows where it holds data are checked against Q only\n",
				i);
	}
}

/*
 * Rows @first..+@count in the array's layout; adds to @bad. 0, or an exit
 * status for an I/O failure.
 */
static int rc_verify_span(struct rc_opts *o, struct rc_array *a, u64 first,
			  u64 count, u64 *bad)
{
	struct rc_verify_report r;
	unsigned int i;
	int err;

	if (!count)
		return 0;
	err = rc_array_verify_jobs(a, first, count,
				   o->jobs ? o->jobs : rc_default_jobs(),
				   isatty(STDERR_FILENO) ? rc_progress : NULL,
				   NULL, &r);
	if (err) {
		rc_cli_fail(a, err, "Verify failed");
		return RC_EXIT_IO;
	}
	for (i = 0; i < r.nkept; i++)
		rc_print_mismatch(a, &r.kept[i]);
	if (r.bad > r.nkept)
		printf("verify: %llu more bad block(s) not listed\n",
		       (unsigned long long)(r.bad - r.nkept));
	*bad += r.bad;
	return 0;
}

/*
 * A grow under way (a table with reshape): the new layout's rows below
 * the position, then the old layout's rows whose data all lies past it.
 * The rows between are being rewritten and hold neither.
 */
static int rc_verify_reshape(struct rc_opts *o, struct rc_array *a)
{
	u64 new_rows = a->reshape_pos / fr_geom_full_stripe_sectors(&a->geom);
	u64 old_stripe = fr_geom_full_stripe_sectors(&a->old_geom);
	u64 old_first = (a->reshape_pos + old_stripe - 1) / old_stripe;
	struct fr_geom new_geom = a->geom;
	u64 bad = 0;
	int ret;

	if (a->reshape_pos >= a->len)
		new_rows = a->geom.rows;
	ret = rc_verify_span(o, a, 0, new_rows, &bad);
	a->geom = a->old_geom;
	if (!ret && old_first < a->old_geom.rows && a->reshape_pos < a->len)
		ret = rc_verify_span(o, a, old_first,
				     a->old_geom.rows - old_first, &bad);
	a->geom = new_geom;
	if (ret)
		return ret;
	printf("verify: grow at %llu of %llu sectors: new rows 0..%lld of %llu and old rows %llu..%llu checked, %llu bad block(s)\n",
	       (unsigned long long)a->reshape_pos, (unsigned long long)a->len,
	       (long long)new_rows - 1, (unsigned long long)a->geom.rows,
	       (unsigned long long)old_first,
	       (unsigned long long)a->old_geom.rows - 1,
	       (unsigned long long)bad);
	return bad ? RC_EXIT_FAIL : RC_EXIT_OK;
}

int rc_cmd_verify(struct rc_opts *o)
{
	struct rc_verify_report r;
	struct rc_array a;
	u64 count;
	unsigned int i, lost;
	int ret, err;

	ret = o->spec ? rc_cli_spec(o, &a, RC_SPEC_MEMBERS, 0) :
			rc_cli_array(o, &a);
	if (ret)
		return ret;
	if (a.geom.level != FR_LEVEL_RAID6) {
		fprintf(stderr, "raidcalc verify: raid0 has no parity to verify\n");
		return RC_EXIT_USAGE;
	}
	if (!o->spec) {
		/* --missing marks members lost in the table form too */
		for (i = 0; i < a.nmembers; i++)
			if (o->missing & (1ull << i))
				a.members[i].missing = true;
	}
	if (o->first_row >= a.geom.rows) {
		fprintf(stderr, "raidcalc verify: row %llu past the last row %llu\n",
			(unsigned long long)o->first_row,
			(unsigned long long)a.geom.rows - 1);
		return RC_EXIT_USAGE;
	}
	for (i = 0, lost = 0; i < a.nmembers; i++)
		lost += a.members[i].missing;
	if (lost > 1) {
		fprintf(stderr, "raidcalc verify: Cannot verify parity with two members missing\n");
		return RC_EXIT_USAGE;
	}
	count = o->nrows ? o->nrows : a.geom.rows - o->first_row;
	if (count > a.geom.rows - o->first_row)
		count = a.geom.rows - o->first_row;
	if (a.reshape && (o->first_row || o->nrows)) {
		fprintf(stderr, "raidcalc verify: -r cannot be given for an array being grown (it checks both layouts)\n");
		return RC_EXIT_USAGE;
	}
	rc_verify_notes(&a);
	if (rc_cli_open(&a, false))
		return RC_EXIT_IO;
	if (a.reshape) {
		ret = rc_verify_reshape(o, &a);
		rc_array_close(&a);
		return ret;
	}
	err = rc_array_verify_jobs(&a, o->first_row, count,
				   o->jobs ? o->jobs : rc_default_jobs(),
				   isatty(STDERR_FILENO) ? rc_progress : NULL,
				   NULL, &r);
	if (err) {
		rc_cli_fail(&a, err, "Verify failed");
		rc_array_close(&a);
		return RC_EXIT_IO;
	}
	for (i = 0; i < r.nkept; i++)
		rc_print_mismatch(&a, &r.kept[i]);
	if (r.bad > r.nkept)
		printf("verify: %llu more bad block(s) not listed\n",
		       (unsigned long long)(r.bad - r.nkept));
	printf("verify: rows %llu..%llu of %llu checked, %llu bad block(s)\n",
	       (unsigned long long)o->first_row,
	       (unsigned long long)(o->first_row + count - 1),
	       (unsigned long long)a.geom.rows, (unsigned long long)r.bad);
	rc_array_close(&a);
	return r.bad ? RC_EXIT_FAIL : RC_EXIT_OK;
}
