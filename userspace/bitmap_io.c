/* SPDX-License-Identifier: GPL-2.0-only */
/* The write-intent bitmap on one member: sizing, writing, counting. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fanraid/bitmap.h>

#include "bitmap_io.h"
#include "util.h"

/*
 * Fills the bitmap fields of @sb for a new array. RAID6 gets one unless
 * @none; a region of @want_bytes when given (a power of two of at least
 * one chunk), else FR_BITMAP_DEFAULT_REGION raised to the chunk, then
 * doubled until the bitmap fits between the superblock and the data.
 * 0, or -EINVAL with a message in @err.
 */
int fr_bitmap_plan(uint32_t level, uint32_t chunk_sectors,
		   uint64_t member_sectors, uint64_t data_offset,
		   uint64_t want_bytes, bool none, struct fr_sb *sb,
		   char *err, size_t len)
{
	uint64_t region, room;

	sb->bitmap_region_sectors = 0;
	sb->bitmap_sectors = 0;
	sb->events_cleared = 0;
	if (level != FR_LEVEL_RAID6 || none)
		return 0;
	room = data_offset > FR_BITMAP_SECTOR ? data_offset - FR_BITMAP_SECTOR : 0;
	if (want_bytes) {
		region = want_bytes >> 9;
		if (want_bytes % 512 || region & (region - 1) ||
		    region < chunk_sectors || region > FR_BITMAP_MAX_REGION) {
			snprintf(err, len, "--bitmap %llu: the region must be a power of two from the chunk (%u KiB) to 1 TiB",
				 (unsigned long long)want_bytes, chunk_sectors / 2);
			return -EINVAL;
		}
	} else {
		region = FR_BITMAP_DEFAULT_REGION;
		if (region < chunk_sectors)
			region = chunk_sectors;
		while (region < FR_BITMAP_MAX_REGION &&
		       (fr_bitmap_regions(member_sectors, region) > FR_BITMAP_MAX_REGIONS ||
			fr_bitmap_area_sectors(fr_bitmap_regions(member_sectors, region)) > room))
			region <<= 1;
	}
	sb->bitmap_region_sectors = (uint32_t)region;
	sb->bitmap_sectors = (uint32_t)fr_bitmap_area_sectors(
		fr_bitmap_regions(member_sectors, (uint32_t)region));
	if (fr_bitmap_check(level, chunk_sectors, member_sectors, data_offset,
			    sb->bitmap_region_sectors, sb->bitmap_sectors)) {
		snprintf(err, len, "a bitmap of %llu regions of %llu KiB does not fit before the data offset (%llu KiB): give a larger --bitmap region, a larger --data-offset, or --bitmap none",
			 (unsigned long long)fr_bitmap_regions(member_sectors, (uint32_t)region),
			 (unsigned long long)region / 2,
			 (unsigned long long)data_offset / 2);
		return -EINVAL;
	}
	return 0;
}

/* Bits [0, regions) of @sb's bitmap, all @set, onto @m; the rest zero. */
int fr_bitmap_fill(struct fr_member *m, const struct fr_sb *sb, bool set)
{
	uint64_t regions = fr_bitmap_regions(sb->member_sectors,
					     sb->bitmap_region_sectors);
	size_t bytes = (size_t)sb->bitmap_sectors << 9, full = regions / 8;
	uint8_t *buf;
	ssize_t n;
	int ret = 0;

	if (!sb->bitmap_region_sectors)
		return 0;
	buf = calloc(1, bytes);
	if (!buf)
		return -ENOMEM;
	if (set) {
		memset(buf, 0xff, full);
		if (regions % 8)
			buf[full] = (uint8_t)((1u << (regions % 8)) - 1);
	}
	n = pwrite(m->fd, buf, bytes, FR_BITMAP_OFFSET);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != bytes)
		ret = -EIO;
	else if (fsync(m->fd))
		ret = -errno;
	free(buf);
	return ret;
}

/* OR @m's copy of the bitmap, @bytes long, into @bits. */
static int fr_bitmap_or_copy(struct fr_member *m, uint8_t *bits, size_t bytes)
{
	uint8_t *buf = malloc(bytes);
	ssize_t n;
	size_t i;

	if (!buf)
		return -ENOMEM;
	/* The kernel writes it with bios, past the page cache. */
	posix_fadvise(m->fd, FR_BITMAP_OFFSET, bytes, POSIX_FADV_DONTNEED);
	n = pread(m->fd, buf, bytes, FR_BITMAP_OFFSET);
	if (n < 0 || (size_t)n != bytes) {
		free(buf);
		return n < 0 ? -errno : -EIO;
	}
	for (i = 0; i < bytes; i++)
		bits[i] |= buf[i];
	free(buf);
	return 0;
}

/*
 * Set bits in the union of the copies on the @n members of @ms (NULL
 * entries skipped), as the kernel loads it: a crash during a bitmap write
 * may leave a bit on some members only, and that bit matters.
 */
int fr_bitmap_count_union(struct fr_member **ms, uint32_t n,
			  const struct fr_sb *sb, uint64_t *dirty)
{
	uint64_t regions = fr_bitmap_regions(sb->member_sectors,
					     sb->bitmap_region_sectors), r;
	size_t bytes = (size_t)sb->bitmap_sectors << 9;
	uint8_t *bits;
	uint32_t i;
	int ret = 0;

	*dirty = 0;
	if (!sb->bitmap_region_sectors)
		return 0;
	bits = calloc(1, bytes);
	if (!bits)
		return -ENOMEM;
	for (i = 0; i < n && !ret; i++)
		if (ms[i])
			ret = fr_bitmap_or_copy(ms[i], bits, bytes);
	for (r = 0; r < regions && !ret; r++)
		*dirty += bits[r / 8] >> (r % 8) & 1;
	free(bits);
	return ret;
}

/* Set bits in @m's copy of the bitmap @sb describes. */
int fr_bitmap_count(struct fr_member *m, const struct fr_sb *sb,
		    uint64_t *dirty)
{
	return fr_bitmap_count_union(&m, 1, sb, dirty);
}
