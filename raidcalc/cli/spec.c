/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The option form: --level, --devices, --chunk, --data-offset, --size,
 * --member-size and member paths, turned into the same struct rc_array a
 * table line gives (rc_array_define()), so every verb runs one code path
 * whichever way the array was described.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

/* Options a verb cannot do without, named in its error. */
static int rc_spec_required(struct rc_opts *o, enum rc_spec_kind kind)
{
	const char *need = NULL;

	if (!o->level_given)
		need = "--level";
	else if (!o->chunk)
		need = "--chunk";
	else if (kind == RC_SPEC_GEOMETRY && !o->ndevs)
		need = "--devices";
	else if (kind == RC_SPEC_MEMBERS && !o->data_offset_given)
		need = "--data-offset";
	if (!need)
		return RC_EXIT_OK;
	fprintf(stderr, "raidcalc %s: %s is required in the option form\n",
		o->verb, need);
	return RC_EXIT_USAGE;
}

/* Member paths from the words; --missing ones become "missing" unread. */
static int rc_spec_names(struct rc_opts *o, const char **names)
{
	unsigned int i, n = (unsigned int)o->argc;

	if (!n) {
		fprintf(stderr, "raidcalc %s: no members given\n", o->verb);
		return RC_EXIT_USAGE;
	}
	if (n > FR_MAX_DEVS) {
		fprintf(stderr, "raidcalc %s: %u members: %s\n", o->verb, n,
			fr_geom_strerror(FR_GEOM_ETOOMANYDEVS));
		return RC_EXIT_USAGE;
	}
	if (o->ndevs && o->ndevs != n) {
		fprintf(stderr, "raidcalc %s: --devices %u but %u members given\n",
			o->verb, o->ndevs, n);
		return RC_EXIT_USAGE;
	}
	if (n < FR_MAX_DEVS && o->missing >> n) {
		fprintf(stderr, "raidcalc %s: --missing names member %d, but members are 0..%u\n",
			o->verb, 63 - __builtin_clzll(o->missing), n - 1);
		return RC_EXIT_USAGE;
	}
	for (i = 0; i < n; i++)
		names[i] = o->missing & (1ull << i) ? "missing" : o->argv[i];
	o->ndevs = n;
	return RC_EXIT_OK;
}

int rc_cli_spec(struct rc_opts *o, struct rc_array *a, enum rc_spec_kind kind,
		u64 min_len)
{
	const char *names[FR_MAX_DEVS];
	struct rc_array_spec s = { 0 };
	int ret = rc_spec_required(o, kind), err;

	if (ret)
		return ret;
	if (kind == RC_SPEC_MEMBERS) {
		ret = rc_spec_names(o, names);
		if (ret)
			return ret;
		s.names = names;
	}
	s.level = o->level;
	s.ndevs = o->ndevs;
	s.chunk_sectors = (u32)(o->chunk >> FR_SECTOR_SHIFT);
	s.data_offset = o->data_offset >> FR_SECTOR_SHIFT;
	s.len = o->size >> FR_SECTOR_SHIFT;
	s.member_sectors = o->member_size >> FR_SECTOR_SHIFT;
	/* geometry alone: enough rows for what the verb will show */
	if (kind == RC_SPEC_GEOMETRY && !s.len && !s.member_sectors)
		s.len = min_len;
	err = rc_array_define(a, &s);
	if (!err)
		return RC_EXIT_OK;
	if (a->error_dev >= 0) {
		/* a member that cannot even be measured */
		rc_cli_fail(a, err, a->error);
		return RC_EXIT_IO;
	}
	fprintf(stderr, "raidcalc %s: %s\n", o->verb, a->error);
	return RC_EXIT_USAGE;
}
