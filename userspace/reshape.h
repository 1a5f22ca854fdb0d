/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A grow's superblock-side work (the kernel copies, fanraid-reshape.c):
 * the critical section through its backup, checkpoints, and the end.
 */
#ifndef FR_RESHAPE_H
#define FR_RESHAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "probe.h"
#include "table.h"

/*
 * Both layouts of a grow and where its critical section's backup lives:
 * chunk j of the first crit array sectors on new member old + j % added,
 * at member sector backup_start + j / added chunks.
 */
struct fr_reshape_geo {
	struct fr_geom old;
	struct fr_geom new;
	uint64_t crit;			/* array sectors of the critical section */
	uint32_t added;			/* members added */
	uint64_t backup_start;		/* member sector on each new member */
};

int fr_reshape_geo_init(uint32_t level, uint32_t old_ndevs, uint32_t ndevs,
			uint32_t chunk, uint64_t member_sectors,
			struct fr_reshape_geo *rg);
void fr_reshape_backup_loc(const struct fr_reshape_geo *rg, uint64_t j,
			   uint32_t *dev, uint64_t *sector);

/*
 * Members of the grow, in slot order, each with an O_DIRECT descriptor
 * for the data area next to the one holding its superblock.
 */
struct fr_reshape_members {
	struct fr_member *slots[FR_MAX_DEVS];
	int dfd[FR_MAX_DEVS];
	uint32_t n;
};

int fr_reshape_open_data(struct fr_reshape_members *rm);
void fr_reshape_close_data(struct fr_reshape_members *rm);
int fr_reshape_flush(const struct fr_reshape_members *rm);
int fr_reshape_sb_write(struct fr_reshape_members *rm, uint32_t set,
			uint32_t clear, uint64_t position);
int fr_reshape_critical(struct fr_reshape_members *rm,
			const struct fr_reshape_geo *rg, bool from_backup);
void fr_reshape_table(struct fr_table *t, const struct fr_sb *sb);

#endif /* FR_RESHAPE_H */
