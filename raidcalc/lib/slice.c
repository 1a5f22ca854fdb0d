/* SPDX-License-Identifier: GPL-2.0-only */
/* Row slices: see slice.h. */
#include <errno.h>
#include <stdlib.h>
#include "slice.h"

int rc_slice_init(struct rc_slice *s, struct rc_array *a)
{
	unsigned int i, n = a->nmembers + 2;

	s->a = a;
	a->error = NULL;
	a->error_dev = -1;
	s->chunk_bytes = (u64)a->geom.chunk_sectors << FR_SECTOR_SHIFT;
	/* chunks and RC_SLICE_BYTES are powers of two: slices tile a chunk */
	s->bytes = s->chunk_bytes < RC_SLICE_BYTES ? s->chunk_bytes :
		   RC_SLICE_BYTES;
	s->base = rc_array_buf_alloc(s->bytes * n);
	if (!s->base)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		s->buf[i] = s->base + i * s->bytes;
	rc_slice_order(s, 0);
	return 0;
}

void rc_slice_free(struct rc_slice *s)
{
	free(s->base);
	s->base = NULL;
}

void rc_slice_order(struct rc_slice *s, u64 row)
{
	const struct fr_geom *g = &s->a->geom;
	unsigned int i, dev;

	for (i = 0; i < g->data_devs; i++) {
		dev = fr_geom_data_dev(g, row, i);
		s->ptrs[i] = s->buf[dev];
		s->idx[dev] = i;
	}
	if (g->level != FR_LEVEL_RAID6)
		return;
	dev = fr_geom_p_dev(g, row);
	s->ptrs[g->data_devs] = s->buf[dev];
	s->idx[dev] = g->data_devs;
	dev = fr_geom_q_dev(g, row);
	s->ptrs[g->data_devs + 1] = s->buf[dev];
	s->idx[dev] = g->data_devs + 1;
}

int rc_slice_read(struct rc_slice *s, u64 row, u64 off, u64 skip)
{
	unsigned int dev;
	int err;

	for (dev = 0; dev < s->a->nmembers; dev++) {
		if (skip & (1ull << dev))
			continue;
		err = rc_array_pread(s->a, dev, s->buf[dev], s->bytes,
				     rc_slice_pos(s, row, off));
		if (err) {
			s->a->error = "Cannot read member";
			s->a->error_dev = (int)dev;
			return err;
		}
	}
	return 0;
}

int rc_slice_recover(struct rc_slice *s, u64 lost)
{
	unsigned int failed[FR_PARITY_DEVS_RAID6], n = 0, dev;

	for (dev = 0; dev < s->a->nmembers; dev++) {
		if (!(lost & (1ull << dev)))
			continue;
		if (n == FR_PARITY_DEVS_RAID6)
			return -EINVAL;
		failed[n++] = s->idx[dev];
	}
	if (!n)
		return 0;
	return rc_recover(s->a->geom.ndevs, s->bytes, s->ptrs, n, failed);
}
