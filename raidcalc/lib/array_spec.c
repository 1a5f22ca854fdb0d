/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An array from options (level, chunk, data offset, member paths) rather
 * than from a table line. It ends in the same struct rc_array that
 * rc_array_parse() fills, with the same geometry rules, so every verb
 * behaves the same whichever way the array was described.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

static int rc_spec_fail(struct rc_array *a, int dev, int err, const char *msg)
{
	a->error = msg;
	a->error_dev = dev;
	return err;
}

static int rc_spec_members(struct rc_array *a, const struct rc_array_spec *s)
{
	unsigned int i, lost = 0;
	struct rc_member *m;

	a->nmembers = s->ndevs;
	for (i = 0; i < s->ndevs; i++) {
		m = &a->members[i];
		m->fd = -1;
		m->offset = s->data_offset;
		if (!s->names)
			continue;
		if (!strcmp(s->names[i], "missing")) {
			if (s->level != FR_LEVEL_RAID6)
				return rc_spec_fail(a, -1, -EINVAL, "Missing member requires raid6");
			/*
			 * What the table prints for it, "- -"; the offset is
			 * kept, as it is where a replacement's data starts.
			 */
			strcpy(m->dev, "-");
			m->missing = true;
			lost++;
			continue;
		}
		if (!*s->names[i])
			return rc_spec_fail(a, -1, -EINVAL, "Invalid device name: empty");
		if (strlen(s->names[i]) >= sizeof(m->dev))
			return rc_spec_fail(a, -1, -EINVAL, "Device name too long");
		strcpy(m->dev, s->names[i]);
	}
	if (lost > FR_PARITY_DEVS_RAID6)
		return rc_spec_fail(a, -1, -EINVAL, "Too many members missing for raid6 (max 2)");
	return 0;
}

/* Smallest present member, in sectors; every member must be readable. */
static int rc_spec_smallest(struct rc_array *a, const struct rc_array_spec *s,
			    u64 *sectors)
{
	unsigned int i;
	u64 bytes;
	int err;

	if (!s->names)
		return rc_spec_fail(a, -1, -EINVAL, "No members to size the array from");
	/* raid6 has at least 4 members and at most 2 missing: some remain */
	*sectors = UINT64_MAX;
	for (i = 0; i < a->nmembers; i++) {
		if (a->members[i].missing)
			continue;
		err = rc_member_bytes(a->members[i].dev, &bytes);
		if (err)
			return rc_spec_fail(a, (int)i, err, "Cannot open member");
		if (bytes >> FR_SECTOR_SHIFT < *sectors)
			*sectors = bytes >> FR_SECTOR_SHIFT;
	}
	return 0;
}

int rc_array_define(struct rc_array *a, const struct rc_array_spec *s)
{
	enum fr_geom_err gerr;
	u64 member, data;
	int err;

	memset(a, 0, sizeof(*a));
	a->error_dev = -1;
	gerr = fr_geom_check_shape(s->level, s->ndevs, s->chunk_sectors);
	if (gerr)
		return rc_spec_fail(a, -1, -EINVAL, fr_geom_strerror(gerr));
	err = rc_spec_members(a, s);
	if (err)
		return err;
	if (s->len) {
		data = fr_geom_member_sectors_for(s->level, s->ndevs,
						  s->chunk_sectors, s->len);
	} else {
		member = s->member_sectors;
		if (!member) {
			err = rc_spec_smallest(a, s, &member);
			if (err)
				return err;
		}
		if (member <= s->data_offset)
			return rc_spec_fail(a, -1, -ENOSPC, "Member not larger than the data offset");
		/* fr_geom_init() drops the partial chunk at the end */
		data = member - s->data_offset;
	}
	gerr = fr_geom_init(&a->geom, s->level, s->ndevs, s->chunk_sectors,
			    data);
	if (gerr)
		return rc_spec_fail(a, -1, -EINVAL, fr_geom_strerror(gerr));
	a->len = s->len ? s->len : a->geom.capacity;
	return rc_array_check_offsets(a);
}
