/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid write-intent bitmap geometry, shared by the kernel target
 * (fanraid-bitmap.c) and the tool, like fanraid/geom.h.
 *
 * RAID6 only. Every member carries the same bitmap right after its
 * superblock, at byte 8192, up to the data offset. Bit r covers member
 * sectors [r * region, (r + 1) * region) of the data area on every member,
 * so whole rows: the region is a power of two of at least one chunk. Bit r
 * is bit (r & 7) of byte (r >> 3); the area is whole 4 KiB pages, the unit
 * the kernel writes.
 *
 * A set bit means "rows of this region may have parity that disagrees
 * with the data, or a failed member may be missing writes there": a
 * resync after a crash and the recovery of a re-added member cover only
 * set bits.
 */
#ifndef FANRAID_BITMAP_H
#define FANRAID_BITMAP_H

#include "geom.h"

#define FR_BITMAP_OFFSET	8192	/* bytes from the start of the member */
#define FR_BITMAP_SECTOR	(FR_BITMAP_OFFSET >> FR_SECTOR_SHIFT)
#define FR_BITMAP_PAGE_BYTES	4096
#define FR_BITMAP_PAGE_BITS	(FR_BITMAP_PAGE_BYTES * 8)
#define FR_BITMAP_PAGE_SECTORS	(FR_BITMAP_PAGE_BYTES >> FR_SECTOR_SHIFT)
/*
 * At most 2^21 regions: a 256 KiB bitmap, and 8 MiB of per-region write
 * counters in the kernel. 64 MiB regions reach 128 TiB per member.
 */
#define FR_BITMAP_MAX_REGIONS	(1u << 21)
#define FR_BITMAP_MAX_REGION	(1u << 31)	/* sectors: 1 TiB */
/* md's choice for large arrays; the tool raises it until the bitmap fits. */
#define FR_BITMAP_DEFAULT_REGION	(64u << 11)	/* sectors: 64 MiB */

/* log2 of a power of two. */
static inline u32 fr_bitmap_shift(u32 region_sectors)
{
	u32 shift = 0;

	while ((1u << shift) < region_sectors)
		shift++;
	return shift;
}

/* Regions that cover @member_sectors (0 when the region is not valid). */
static inline u64 fr_bitmap_regions(u64 member_sectors, u32 region_sectors)
{
	u32 shift;

	if (!region_sectors || region_sectors & (region_sectors - 1))
		return 0;
	shift = fr_bitmap_shift(region_sectors);
	return (member_sectors + region_sectors - 1) >> shift;
}

/* Sectors the bitmap of @regions bits takes: whole 4 KiB pages. */
static inline u64 fr_bitmap_area_sectors(u64 regions)
{
	return (regions + FR_BITMAP_PAGE_BITS - 1) / FR_BITMAP_PAGE_BITS *
	       FR_BITMAP_PAGE_SECTORS;
}

/*
 * The superblock's bitmap fields against its geometry: 0 when they are
 * consistent (no bitmap is both fields 0), -1 otherwise.
 */
static inline int fr_bitmap_check(u32 level, u32 chunk_sectors,
				  u64 member_sectors, u64 data_offset,
				  u32 region_sectors, u32 bitmap_sectors)
{
	u64 regions;

	if (!region_sectors)
		return bitmap_sectors ? -1 : 0;
	if (level != FR_LEVEL_RAID6 || region_sectors < chunk_sectors ||
	    region_sectors > FR_BITMAP_MAX_REGION)
		return -1;
	regions = fr_bitmap_regions(member_sectors, region_sectors);
	if (!regions || regions > FR_BITMAP_MAX_REGIONS)
		return -1;
	if (bitmap_sectors % FR_BITMAP_PAGE_SECTORS ||
	    bitmap_sectors < fr_bitmap_area_sectors(regions) ||
	    data_offset < FR_BITMAP_SECTOR ||
	    bitmap_sectors > data_offset - FR_BITMAP_SECTOR)
		return -1;
	return 0;
}

#endif /* FANRAID_BITMAP_H */
