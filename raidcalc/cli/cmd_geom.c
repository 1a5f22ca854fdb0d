/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * geom: the geometry the kernel derives from the table, as "key value"
 * lines a script can grep, including the queue limits the target should
 * advertise (io_min one chunk, io_opt one chunk per data member).
 * layout: the rotation drawn as a grid, one line per row; in the option
 * form (--level, --devices, --chunk) first the sizes and mkfs hints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli.h"

int rc_cmd_geom(struct rc_opts *o)
{
	const struct fr_geom *g;
	struct rc_array a;
	char *table;
	int ret = rc_cli_array(o, &a), n;

	if (ret)
		return ret;
	g = &a.geom;
	/* 64 long member paths and 17 feature words outgrow any fixed buffer */
	n = rc_array_format(&a, NULL, 0);
	table = n < 0 ? NULL : malloc((size_t)n + 1);
	if (!table)
		return rc_cli_fail(&a, n < 0 ? n : -ENOMEM,
				   "Cannot format the table line");
	rc_array_format(&a, table, (size_t)n + 1);
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
	free(table);
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

/* Widest picture drawn: 16 columns of 7 fit in 120 characters. */
#define RC_DRAW_MAX_DEVS	16

static void rc_print_size(const char *key, u64 bytes)
{
	char buf[32];

	rc_format_size(bytes, buf, sizeof(buf));
	printf("%s %s\n", key, buf);
}

/*
 * What an administrator sizing a file system needs: data disks, chunk,
 * full stripe, capacity, and the mkfs options that align to them. ext4
 * counts in file system blocks, so its hint fixes -b 4096.
 */
static void rc_layout_summary(const struct rc_opts *o, const struct rc_array *a)
{
	const struct fr_geom *g = &a->geom;
	u64 chunk = (u64)g->chunk_sectors << FR_SECTOR_SHIFT;
	u64 stride = chunk / 4096;

	printf("level %s\n", rc_cli_level(g));
	printf("devices %u\n", g->ndevs);
	printf("data_devices %u\n", g->data_devs);
	printf("parity_devices %u\n", g->ndevs - g->data_devs);
	rc_print_size("chunk", chunk);
	printf("stripe_width %u chunks\n", g->data_devs);
	rc_print_size("full_stripe", chunk * g->data_devs);
	if (o->member_size) {
		rc_print_size("member_size", o->member_size);
		rc_print_size("data_offset", o->data_offset);
		printf("rows %llu\n", (unsigned long long)g->rows);
		rc_print_size("member_data", g->member_sectors <<
			      FR_SECTOR_SHIFT);
		rc_print_size("capacity", g->capacity << FR_SECTOR_SHIFT);
		printf("capacity_bytes %llu\n",
		       (unsigned long long)g->capacity << FR_SECTOR_SHIFT);
	}
	printf("mkfs.xfs -d su=%lluk,sw=%u\n", (unsigned long long)chunk >> 10,
	       g->data_devs);
	printf("mkfs.ext4 -b 4096 -E stride=%llu,stripe_width=%llu\n",
	       (unsigned long long)stride,
	       (unsigned long long)stride * g->data_devs);
}

/* Rows the option form must describe so the picture has them all. */
static u64 rc_layout_min_len(const struct rc_opts *o)
{
	u32 parity = fr_level_parity_devs(o->level);
	u64 data = o->ndevs > parity ? o->ndevs - parity : 1;
	u64 per_row = data * (o->chunk >> FR_SECTOR_SHIFT);
	u64 rows = o->first_row + (o->nrows ? o->nrows : o->ndevs + 1);

	if (!per_row || rows > FR_MAX_CAPACITY_SECTORS / per_row)
		return FR_MAX_CAPACITY_SECTORS;
	return rows * per_row;
}

int rc_cmd_layout(struct rc_opts *o)
{
	const struct fr_geom *g;
	struct rc_array a;
	char head[16];
	u64 row, last;
	u32 dev;
	int ret;

	if (o->spec && o->argc) {
		fprintf(stderr, "raidcalc layout: unexpected argument '%s'\n",
			o->argv[0]);
		return RC_EXIT_USAGE;
	}
	ret = o->spec ? rc_cli_spec(o, &a, RC_SPEC_GEOMETRY,
				    rc_layout_min_len(o)) :
			rc_cli_array(o, &a);
	if (ret)
		return ret;
	g = &a.geom;
	if (o->spec) {
		rc_layout_summary(o, &a);
		if (g->ndevs > RC_DRAW_MAX_DEVS)
			return RC_EXIT_OK;
		printf("\n");
	}
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
	for (dev = 0; dev < g->ndevs; dev++) {
		/* one string, so m10 and up keep the columns aligned */
		snprintf(head, sizeof(head), "m%u", dev);
		printf(" %6s", head);
	}
	printf("\n");
	for (row = o->first_row; row < last; row++) {
		printf("%8llu", (unsigned long long)row);
		for (dev = 0; dev < g->ndevs; dev++)
			rc_layout_cell(g, dev, row);
		printf("\n");
	}
	return RC_EXIT_OK;
}
