/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Moving data between a logical image and the members, through the same
 * fr_geom_map() the module uses: `raidcalc read` shows what the array
 * holds (a second opinion on the kernel's reads, and a degraded read when
 * a member is gone), `raidcalc build` lays an image out as the kernel
 * would have written it.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "slice.h"

static int rc_write_all(int fd, const u8 *buf, size_t bytes)
{
	ssize_t n;

	while (bytes) {
		n = write(fd, buf, bytes);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		bytes -= (size_t)n;
	}
	return 0;
}

/* Reads up to @bytes at @pos; zero-fills whatever lies past end of file. */
static int rc_pread_or_zero(int fd, u8 *buf, size_t bytes, u64 pos)
{
	size_t got = 0;
	ssize_t n;

	while (got < bytes) {
		n = pread(fd, buf + got, bytes - got, (off_t)(pos + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += (size_t)n;
	}
	memset(buf + got, 0, bytes - got);
	return 0;
}

/* One slice of the member holding @loc's chunk, rebuilt if it is @lost. */
static int rc_read_slice(struct rc_slice *s, const struct fr_loc *loc,
			 u64 soff, u64 lost)
{
	int err;

	if (!(lost & (1ull << loc->dev))) {
		err = rc_array_pread(s->a, loc->dev, s->buf[loc->dev],
				     s->bytes,
				     rc_slice_pos(s, loc->row, soff));
		if (err) {
			s->a->error = "Cannot read member";
			s->a->error_dev = (int)loc->dev;
		}
		return err;
	}
	rc_slice_order(s, loc->row);
	err = rc_slice_read(s, loc->row, soff, lost);
	if (err)
		return err;
	return rc_slice_recover(s, lost);
}

int rc_array_read(struct rc_array *a, u64 logical, u64 nsectors, int fd,
		  int failed)
{
	const struct fr_geom *g = &a->geom;
	u64 l = logical, end = logical + nsectors, obyte, soff, take;
	u64 lost = rc_slice_lost(a);
	struct rc_slice s;
	struct fr_loc loc;
	int err;

	if (logical > a->len || nsectors > a->len - logical) {
		a->error = "Range past the end of the target";
		return -EINVAL;
	}
	if (failed >= 0 && (g->level != FR_LEVEL_RAID6 ||
			    failed >= (int)a->nmembers)) {
		a->error = "Only a raid6 member can be read around";
		return -EINVAL;
	}
	if (failed >= 0)
		lost |= 1ull << failed;
	if (__builtin_popcountll(lost) > FR_PARITY_DEVS_RAID6) {
		a->error = "More than two members lost: nothing to read from";
		return -EINVAL;
	}
	err = rc_slice_init(&s, a);
	if (err)
		return err;
	while (l < end && !err) {
		/* a grow: the new layout below its position, the old above */
		fr_geom_map(a->reshape && l >= a->reshape_pos ? &a->old_geom : g,
			    l, &loc);
		obyte = (u64)(l & (g->chunk_sectors - 1)) << FR_SECTOR_SHIFT;
		soff = obyte & ~(u64)(s.bytes - 1);
		err = rc_read_slice(&s, &loc, soff, lost);
		if (err)
			break;
		take = s.bytes - (obyte - soff);
		if (take > (end - l) << FR_SECTOR_SHIFT)
			take = (end - l) << FR_SECTOR_SHIFT;
		err = rc_write_all(fd, s.buf[loc.dev] + (obyte - soff), take);
		if (err)
			a->error = "Cannot write output";
		l += take >> FR_SECTOR_SHIFT;
	}
	rc_slice_free(&s);
	return err;
}

/* Fills the data blocks of one row slice from the image, past len zero. */
static int rc_build_fill(struct rc_slice *s, int fd, u64 row, u64 off)
{
	const struct fr_geom *g = &s->a->geom;
	u64 end = s->a->len << FR_SECTOR_SHIFT, pos;
	size_t want;
	unsigned int i;
	u8 *buf;
	int err;

	for (i = 0; i < g->data_devs; i++) {
		buf = s->ptrs[i];
		pos = (((row * g->data_devs + i) << g->chunk_shift) <<
		       FR_SECTOR_SHIFT) + off;
		want = pos >= end ? 0 : end - pos < s->bytes ?
		       (size_t)(end - pos) : s->bytes;
		err = rc_pread_or_zero(fd, buf, want, pos);
		if (err) {
			s->a->error = "Cannot read the image";
			return err;
		}
		memset(buf + want, 0, s->bytes - want);
	}
	return 0;
}

static int rc_build_slice(struct rc_slice *s, int fd, u64 row, u64 off)
{
	const struct fr_geom *g = &s->a->geom;
	unsigned int dev;
	int err;

	err = rc_build_fill(s, fd, row, off);
	if (!err && g->level == FR_LEVEL_RAID6)
		err = rc_pq_gen(g->ndevs, s->bytes, s->ptrs);
	for (dev = 0; dev < g->ndevs && !err; dev++) {
		if (s->a->members[dev].missing)
			continue;
		err = rc_array_pwrite(s->a, dev, s->buf[dev], s->bytes,
				      rc_slice_pos(s, row, off));
		if (err) {
			s->a->error = "Cannot write member";
			s->a->error_dev = (int)dev;
		}
	}
	return err;
}

int rc_array_build(struct rc_array *a, int fd)
{
	struct rc_slice s;
	u64 row, off;
	int err;

	err = rc_slice_init(&s, a);
	if (err)
		return err;
	for (row = 0; row < a->geom.rows && !err; row++) {
		rc_slice_order(&s, row);
		for (off = 0; off < s.chunk_bytes && !err; off += s.bytes)
			err = rc_build_slice(&s, fd, row, off);
	}
	rc_slice_free(&s);
	return err;
}
