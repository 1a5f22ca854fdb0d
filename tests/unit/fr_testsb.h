/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A valid superblock for the tool's tests, so each test states only what
 * it is about: the array's name and shape, and afterwards any field it
 * changes on purpose.
 */
#ifndef FR_TESTSB_H
#define FR_TESTSB_H

#include <stdint.h>
#include <string.h>

#include "sb.h"

/*
 * Member @slot of an @ndevs-member @level array called @name, with
 * @chunk-sector chunks and @member_sectors of data each. UUIDs tell
 * members apart by slot; everything else is the first write's.
 */
static inline void fr_t_sb(struct fr_sb *sb, const char *name, uint32_t level,
			   uint32_t ndevs, uint32_t slot, uint32_t chunk,
			   uint64_t member_sectors)
{
	memset(sb, 0, sizeof(*sb));
	sb->format_version = FR_SB_FORMAT_VERSION;
	sb->layout_version = FR_SB_LAYOUT_VERSION;
	memset(sb->array_uuid, 0x42, FR_UUID_LEN);
	memset(sb->member_uuid, 0x10 + slot, FR_UUID_LEN);
	strcpy(sb->name, name);
	sb->level = level;
	sb->chunk_sectors = chunk;
	sb->ndevs = ndevs;
	sb->slot = slot;
	sb->data_offset = 2048;
	sb->member_sectors = member_sectors;
	sb->array_sectors = member_sectors *
			    (ndevs - fr_level_parity_devs(level));
	sb->events = 1;
	sb->ra_cache_mb = FR_RA_CACHE_DEFAULT;	/* 0 would mean "no cache" */
	sb->stripe_cache_mb = FR_STRIPE_CACHE_DEFAULT;
	sb->ctime = sb->utime = 1700000000;
}

#endif /* FR_TESTSB_H */
