/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Array-level decisions that need no I/O: sizing a new array from its
 * members, and checking and ordering the members found for an assembly.
 * Kept pure so the unit tests can drive every refusal.
 */
#ifndef FR_ARRAY_H
#define FR_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define FR_DEFAULT_CHUNK	(512u << 10)	/* bytes */
#define FR_DEFAULT_DATA_OFFSET	(1u << 20)	/* bytes */
#define FR_ERR_MAX		512

/* What create will write; sizes in sectors. */
struct fr_plan {
	uint32_t level;
	uint32_t ndevs;
	uint32_t chunk_sectors;
	uint64_t data_offset;
	uint64_t member_sectors;	/* data area used on each member */
	uint64_t array_sectors;		/* target length */
	uint64_t smallest;		/* bytes, smallest member */
	uint64_t largest;		/* bytes, largest member */
};

int fr_plan_create(const struct fr_member *m, uint32_t n, uint32_t level,
		   uint64_t chunk_bytes, uint64_t data_offset_bytes,
		   struct fr_plan *plan, char *err, size_t len);
bool fr_sb_fresh(const struct fr_sb *rsb, const struct fr_sb *sb);
void fr_array_adopt_newest(struct fr_member **slots, uint32_t n,
			   const struct fr_sb *newest, uint64_t keep);
int fr_array_order(struct fr_member *m, uint32_t n, const uint8_t *uuid,
		   const char *name, struct fr_member **slots,
		   char *err, size_t len);

#endif /* FR_ARRAY_H */
