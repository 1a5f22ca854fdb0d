/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify: recompute P and Q of each row from the data on the members and
 * compare, on one thread per CPU. Prints the first bad blocks (one
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
	rc_verify_notes(&a);
	if (rc_cli_open(&a, false))
		return RC_EXIT_IO;
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
