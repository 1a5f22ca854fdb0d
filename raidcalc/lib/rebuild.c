/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offline rebuild of RAID6 members from the others: in each row a lost
 * member holds a data block, P or Q, and rc_recover() rewrites whichever
 * it is from the rest of the row. `raidcalc rebuild` writes the result
 * back onto the member; `raidcalc recover` writes it to new image files.
 */
#include <errno.h>
#include "internal.h"
#include "slice.h"

/* Writes the slice of every member in @want to @fds[member]. */
static int rc_rebuild_write(struct rc_slice *s, u64 want, const int *fds,
			    u64 row, u64 off)
{
	struct rc_array *a = s->a;
	unsigned int dev;
	u64 at;
	int err;

	for (dev = 0; dev < a->nmembers; dev++) {
		if (!(want & (1ull << dev)))
			continue;
		at = (a->members[dev].offset << FR_SECTOR_SHIFT) +
		     rc_slice_pos(s, row, off);
		err = rc_fd_pwrite(fds[dev], s->buf[dev], s->bytes, at);
		if (err) {
			a->error = "Cannot write member";
			a->error_dev = (int)dev;
			return err;
		}
	}
	return 0;
}

/* Every row of every member in @want, rebuilt from what is not lost. */
static int rc_rebuild_rows(struct rc_array *a, u64 want, const int *fds)
{
	u64 row, off, lost = rc_slice_lost(a) | want;
	struct rc_slice s;
	int err;

	if (a->geom.level != FR_LEVEL_RAID6) {
		a->error = "Only raid6 can rebuild a member";
		return -EINVAL;
	}
	if (!want || (a->nmembers < 64 && want >> a->nmembers)) {
		a->error = "No such member";
		return -EINVAL;
	}
	if (__builtin_popcountll(lost) > FR_PARITY_DEVS_RAID6) {
		a->error = "More than two members lost: nothing to rebuild from";
		return -EINVAL;
	}
	err = rc_slice_init(&s, a);
	if (err)
		return err;
	for (row = 0; row < a->geom.rows && !err; row++) {
		rc_slice_order(&s, row);
		for (off = 0; off < s.chunk_bytes && !err; off += s.bytes) {
			err = rc_slice_read(&s, row, off, lost);
			if (!err)
				err = rc_slice_recover(&s, lost);
			if (!err)
				err = rc_rebuild_write(&s, want, fds, row, off);
		}
	}
	rc_slice_free(&s);
	return err;
}

int rc_array_rebuild(struct rc_array *a, unsigned int dev)
{
	int fds[FR_MAX_DEVS];
	unsigned int i;

	if (dev >= a->nmembers) {
		a->error = "No such member";
		return -EINVAL;
	}
	if (a->members[dev].missing) {
		a->error = "Cannot rebuild a missing member";
		return -EINVAL;
	}
	for (i = 0; i < a->nmembers; i++)
		fds[i] = a->members[i].fd;
	return rc_rebuild_rows(a, 1ull << dev, fds);
}

int rc_array_recover(struct rc_array *a, u64 want, const int *fds)
{
	return rc_rebuild_rows(a, want, fds);
}
