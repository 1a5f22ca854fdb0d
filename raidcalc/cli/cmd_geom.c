/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * geom: the geometry the kernel derives from the table, as "key value"
 * lines a script can grep, including the queue limits the target should
 * advertise (io_min one chunk, io_opt one chunk per data member).
 * layout: the rotation drawn as a grid, one line per row.
 */
#include <stdio.h>
#include "cli.h"

int rc_cmd_geom(struct rc_opts *o)
{
	const struct fr_geom *g;
	struct rc_array a;
	char table[RC_PATH_MAX];
	int ret = rc_cli_array(o, &a);

	if (ret)
		return ret;
	g = &a.geom;
	rc_array_format(&a, table, sizeof(table));
	printf("level %s\n", rc_cli_level(g));
	printf("devices %u\n", g->ndevs);
	printf("data_devices %u\n", g->data_devs);
	printf("chunk_sectors %u\n", g->chunk_sectors);
	printf("target_sectors %llu\n", (unsigned long long)a.len);
	printf("rows %llu\n", (unsigned long long)g->rows);
	printf("member_sectors %llu\n", (unsigned long long)g->member_sectors);
	printf("capacity_sectors %llu\n", (unsigned long long)g->capacity);
	printf("full_stripe_sectors %llu\n",
	       (unsigned long long)fr_geom_full_stripe_sectors(g));
	printf("io_min_bytes %llu\n",
	       (unsigned long long)g->chunk_sectors << FR_SECTOR_SHIFT);
	printf("io_opt_bytes %llu\n",
	       (unsigned long long)fr_geom_full_stripe_sectors(g) <<
	       FR_SECTOR_SHIFT);
	printf("table %s\n", table);
	return RC_EXIT_OK;
}

/* One cell: the logical chunk number for data, P or Q for parity. */
static void rc_layout_cell(const struct fr_geom *g, u32 dev, u64 row)
{
	struct fr_rloc rl;

	fr_geom_unmap(g, dev, row << g->chunk_shift, &rl);
	if (rl.kind == FR_BLOCK_P)
		printf(" %6s", "P");
	else if (rl.kind == FR_BLOCK_Q)
		printf(" %6s", "Q");
	else
		printf(" %6llu", (unsigned long long)(rl.logical >>
						      g->chunk_shift));
}

int rc_cmd_layout(struct rc_opts *o)
{
	const struct fr_geom *g;
	struct rc_array a;
	u64 row, last;
	u32 dev;
	int ret = rc_cli_array(o, &a);

	if (ret)
		return ret;
	g = &a.geom;
	if (o->first_row >= g->rows) {
		fprintf(stderr, "raidcalc layout: row %llu past the last row %llu\n",
			(unsigned long long)o->first_row,
			(unsigned long long)g->rows - 1);
		return RC_EXIT_USAGE;
	}
	/* by default one full turn of the parity rotation, plus one row */
	last = o->first_row + (o->nrows ? o->nrows : g->ndevs + 1);
	if (last > g->rows)
		last = g->rows;
	printf("%8s", "row");
	for (dev = 0; dev < g->ndevs; dev++)
		printf(" %5s%u", "m", dev);
	printf("\n");
	for (row = o->first_row; row < last; row++) {
		printf("%8llu", (unsigned long long)row);
		for (dev = 0; dev < g->ndevs; dev++)
			rc_layout_cell(g, dev, row);
		printf("\n");
	}
	return RC_EXIT_OK;
}
