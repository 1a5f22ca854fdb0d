/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map: where logical sectors live, one line per chunk piece, with the
 * row's parity members for RAID6; in the option form, where one logical
 * byte lives. unmap: what a member sector holds.
 * Both go through geom.h, like the module's map path.
 */
#include <stdio.h>
#include "cli.h"

/*
 * The option form: one logical byte, the member holding it, its offset in
 * that member's data area and on the device (data offset added), and the
 * row's parity members.
 */
static int rc_map_offset(struct rc_opts *o)
{
	const struct fr_geom *g;
	struct rc_array a;
	struct fr_loc loc;
	u64 offset, sector, in_sector;
	int ret;

	if (o->argc != 1) {
		fprintf(stderr, "raidcalc map: %s\n", o->argc ?
			"one OFFSET only" : "OFFSET (a logical byte) is required");
		return RC_EXIT_USAGE;
	}
	if (rc_parse_size(o->argv[0], &offset) ||
	    offset >> FR_SECTOR_SHIFT >= FR_MAX_CAPACITY_SECTORS) {
		fprintf(stderr, "raidcalc map: OFFSET '%s': not a byte offset (digits, then K, M, G, T or s for sectors)\n",
			o->argv[0]);
		return RC_EXIT_USAGE;
	}
	sector = offset >> FR_SECTOR_SHIFT;
	in_sector = offset & ((1u << FR_SECTOR_SHIFT) - 1);
	ret = rc_cli_spec(o, &a, RC_SPEC_GEOMETRY, sector + 1);
	if (ret)
		return ret;
	g = &a.geom;
	if (sector >= g->capacity) {
		fprintf(stderr, "raidcalc map: OFFSET '%s': past the end of the array (%llu bytes)\n",
			o->argv[0],
			(unsigned long long)g->capacity << FR_SECTOR_SHIFT);
		return RC_EXIT_USAGE;
	}
	fr_geom_map(g, sector, &loc);
	printf("offset %llu member %u member_offset %llu device_offset %llu row %llu data_idx %u",
	       (unsigned long long)offset, loc.dev,
	       (unsigned long long)((loc.sector << FR_SECTOR_SHIFT) +
				    in_sector),
	       (unsigned long long)(o->data_offset +
				    (loc.sector << FR_SECTOR_SHIFT) +
				    in_sector),
	       (unsigned long long)loc.row, loc.data_idx);
	if (g->level == FR_LEVEL_RAID6)
		printf(" p_member %u q_member %u", fr_geom_p_dev(g, loc.row),
		       fr_geom_q_dev(g, loc.row));
	printf("\n");
	return RC_EXIT_OK;
}

int rc_cmd_map(struct rc_opts *o)
{
	const struct fr_geom *g;
	struct rc_array a;
	struct fr_loc loc;
	u64 l, end, take;
	int ret;

	if (o->spec)
		return rc_map_offset(o);
	ret = rc_cli_array(o, &a);
	if (ret)
		return ret;
	g = &a.geom;
	end = o->start + (o->count_given ? o->count : 1);
	if (end > a.len || end < o->start) {
		fprintf(stderr, "raidcalc map: sectors past the end of the target (%llu)\n",
			(unsigned long long)a.len);
		return RC_EXIT_USAGE;
	}
	for (l = o->start; l < end; l += take) {
		fr_geom_map(g, l, &loc);
		take = fr_geom_chunk_remaining(g, l);
		if (take > end - l)
			take = end - l;
		printf("logical %llu sectors %llu member %u sector %llu row %llu data_idx %u",
		       (unsigned long long)l, (unsigned long long)take, loc.dev,
		       (unsigned long long)loc.sector,
		       (unsigned long long)loc.row, loc.data_idx);
		if (g->level == FR_LEVEL_RAID6)
			printf(" p_member %u q_member %u",
			       fr_geom_p_dev(g, loc.row),
			       fr_geom_q_dev(g, loc.row));
		printf("\n");
	}
	return RC_EXIT_OK;
}

int rc_cmd_unmap(struct rc_opts *o)
{
	static const char *const kinds[] = {
		[FR_BLOCK_DATA] = "data",
		[FR_BLOCK_P] = "P",
		[FR_BLOCK_Q] = "Q",
	};
	const struct fr_geom *g;
	struct rc_array a;
	struct fr_rloc rl;
	int ret = rc_cli_array(o, &a);

	if (ret)
		return ret;
	g = &a.geom;
	if (o->member < 0 || (u32)o->member >= g->ndevs ||
	    o->start >= g->member_sectors) {
		fprintf(stderr, "raidcalc unmap: need -m <0..%u> and -s <0..%llu>\n",
			g->ndevs - 1,
			(unsigned long long)g->member_sectors - 1);
		return RC_EXIT_USAGE;
	}
	fr_geom_unmap(g, (u32)o->member, o->start, &rl);
	printf("member %d sector %llu kind %s row %llu", o->member,
	       (unsigned long long)o->start, kinds[rl.kind],
	       (unsigned long long)rl.row);
	if (rl.kind == FR_BLOCK_DATA)
		printf(" data_idx %u logical %llu%s", rl.data_idx,
		       (unsigned long long)rl.logical,
		       rl.logical >= a.len ? " unused" : "");
	printf("\n");
	return RC_EXIT_OK;
}
