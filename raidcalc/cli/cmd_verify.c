/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verify: recompute P and Q of each row from the data on the members and
 * compare. One line per bad parity block, a summary, exit 1 on any.
 */
#include <stdio.h>
#include "cli.h"

static int rc_print_mismatch(const struct rc_mismatch *m, void *ctx)
{
	const struct rc_array *a = ctx;

	printf("%s: row %llu: %s mismatch on member %u at sector %llu\n",
	       a->members[m->dev].dev, (unsigned long long)m->row,
	       m->kind == FR_BLOCK_P ? "P" : "Q", m->dev,
	       (unsigned long long)m->sector);
	return 0;
}

int rc_cmd_verify(struct rc_opts *o)
{
	struct rc_array a;
	u64 count, bad = 0;
	unsigned int i;
	int ret = rc_cli_array(o, &a), err;

	if (ret)
		return ret;
	if (a.geom.level != FR_LEVEL_RAID6) {
		fprintf(stderr, "raidcalc verify: raid0 has no parity to verify\n");
		return RC_EXIT_USAGE;
	}
	if (o->first_row >= a.geom.rows) {
		fprintf(stderr, "raidcalc verify: row %llu past the last row %llu\n",
			(unsigned long long)o->first_row,
			(unsigned long long)a.geom.rows - 1);
		return RC_EXIT_USAGE;
	}
	count = o->nrows ? o->nrows : a.geom.rows - o->first_row;
	if (count > a.geom.rows - o->first_row)
		count = a.geom.rows - o->first_row;
	for (i = 0; i < a.nmembers; i++)
		if (a.members[i].rebuilding)
			fprintf(stderr, "%s: member %u is being rebuilt: rows it has not reached yet will mismatch\n",
				a.members[i].dev, i);
	ret = rc_cli_open(&a, false);
	if (ret)
		return ret;
	err = rc_array_verify(&a, o->first_row, count, rc_print_mismatch, &a,
			      &bad);
	if (err)
		ret = rc_cli_fail(&a, err, "Verify failed");
	else
		printf("verify: rows %llu..%llu of %llu checked, %llu bad parity block(s)\n",
		       (unsigned long long)o->first_row,
		       (unsigned long long)(o->first_row + count - 1),
		       (unsigned long long)a.geom.rows,
		       (unsigned long long)bad);
	rc_array_close(&a);
	return ret ? ret : bad ? RC_EXIT_FAIL : RC_EXIT_OK;
}
