/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offline rebuild of one RAID6 member from the others: in each row the
 * member holds a data block, P or Q, and rc_recover() rewrites whichever
 * it is from the rest of the row.
 */
#include <errno.h>
#include "slice.h"

static int rc_rebuild_write(struct rc_slice *s, unsigned int dev, u64 row,
			    u64 off)
{
	int err = rc_array_pwrite(s->a, dev, s->buf[dev], s->bytes,
				  rc_slice_pos(s, row, off));

	if (err) {
		s->a->error = "Cannot write member";
		s->a->error_dev = (int)dev;
	}
	return err;
}

int rc_array_rebuild(struct rc_array *a, unsigned int dev)
{
	const struct fr_geom *g = &a->geom;
	struct rc_slice s;
	u64 row, off, lost;
	int err;

	if (g->level != FR_LEVEL_RAID6) {
		a->error = "Only raid6 can rebuild a member";
		return -EINVAL;
	}
	if (dev >= a->nmembers) {
		a->error = "No such member";
		return -EINVAL;
	}
	if (a->members[dev].missing) {
		a->error = "Cannot rebuild a missing member";
		return -EINVAL;
	}
	lost = rc_slice_lost(a) | 1ull << dev;
	if (__builtin_popcountll(lost) > FR_PARITY_DEVS_RAID6) {
		a->error = "More than two members lost: nothing to rebuild from";
		return -EINVAL;
	}
	err = rc_slice_init(&s, a);
	if (err)
		return err;
	for (row = 0; row < g->rows && !err; row++) {
		rc_slice_order(&s, row);
		for (off = 0; off < s.chunk_bytes && !err; off += s.bytes) {
			err = rc_slice_read(&s, row, off, lost);
			if (!err)
				err = rc_slice_recover(&s, lost);
			if (!err)
				err = rc_rebuild_write(&s, dev, row, off);
		}
	}
	rc_slice_free(&s);
	return err;
}
