/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Direct-I/O comparison and copy of one byte range on two devices: the hot
 * replace's proof that the copy dm-mirror made is whole, since dm-mirror
 * without handle_errors counts a region whose copy write failed as in
 * sync (docs/design.md, "Hot replace").
 */
#ifndef FR_COPYCHECK_H
#define FR_COPYCHECK_H

#include <stdint.h>

/* Pieces compared at a time; a difference is kept as its piece. */
#define FR_CMP_PIECE		(1024 * 1024)
/* Pieces still different after the retries, kept for a check at rest. */
#define FR_CMP_MAX_DIFFS	64

struct fr_cmp_diffs {
	uint64_t off[FR_CMP_MAX_DIFFS];
	uint32_t len[FR_CMP_MAX_DIFFS];
	unsigned int n;
};

/* Which device a read failed on, for the caller's message. */
enum fr_cmp_side { FR_CMP_NONE, FR_CMP_A, FR_CMP_B };

int fr_cmp_open(const char *path, int flags);
int fr_cmp_range(int fa, int fb, uint64_t off, uint64_t len, int retries,
		 struct fr_cmp_diffs *d, enum fr_cmp_side *bad);
int fr_cmp_again(int fa, int fb, struct fr_cmp_diffs *d,
		 enum fr_cmp_side *bad);
int fr_copy_range(int from, int to, uint64_t off, uint64_t len,
		  enum fr_cmp_side *bad);

#endif /* FR_COPYCHECK_H */
