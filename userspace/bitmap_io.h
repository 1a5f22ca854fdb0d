/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The write-intent bitmap on one member (layout: fanraid/bitmap.h): the
 * tool writes it whole at create and counts its bits for examine. The
 * kernel target owns it while the array runs.
 */
#ifndef FR_BITMAP_IO_H
#define FR_BITMAP_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "probe.h"

int fr_bitmap_plan(uint32_t level, uint32_t chunk_sectors,
		   uint64_t member_sectors, uint64_t data_offset,
		   uint64_t want_bytes, bool none, struct fr_sb *sb,
		   char *err, size_t len);
int fr_bitmap_fill(struct fr_member *m, const struct fr_sb *sb, bool set);
int fr_bitmap_count(struct fr_member *m, const struct fr_sb *sb,
		    uint64_t *dirty);
int fr_bitmap_count_union(struct fr_member **ms, uint32_t n,
			  const struct fr_sb *sb, uint64_t *dirty);

#endif /* FR_BITMAP_IO_H */
