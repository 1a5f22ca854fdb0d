/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A row slice: the same byte range of one row on every member, in aligned
 * buffers, plus the pointer array in syndrome order (data index order,
 * then P, then Q) that the parity calls take. Verify, read, build and
 * rebuild all walk an array slice by slice; parity is bytewise, so a slice
 * of a row is as good as the whole row and bounds memory at 64 members x
 * 16 MiB chunks.
 */
#ifndef RC_SLICE_H
#define RC_SLICE_H

#include "raidcalc.h"

struct rc_slice {
	struct rc_array *a;
	size_t bytes;			/* per member per step */
	u64 chunk_bytes;
	u8 *base;			/* one allocation for every buffer */
	u8 *buf[FR_MAX_DEVS + 2];	/* member order, then 2 spare */
	void *ptrs[FR_MAX_DEVS];	/* syndrome order for the current row */
	unsigned int idx[FR_MAX_DEVS];	/* member -> its index in ptrs */
};

int rc_slice_init(struct rc_slice *s, struct rc_array *a);
void rc_slice_free(struct rc_slice *s);

/* Points ptrs/idx at @row's layout. */
void rc_slice_order(struct rc_slice *s, u64 row);

/* Byte position of (@row, @off) in every member's data area. */
static inline u64 rc_slice_pos(const struct rc_slice *s, u64 row, u64 off)
{
	return row * s->chunk_bytes + off;
}

/* Reads one slice of @row from every member not in the @skip bitmask. */
int rc_slice_read(struct rc_slice *s, u64 row, u64 off, u64 skip);

/* Members whose contents cannot be read as valid: missing or rebuilding. */
static inline u64 rc_slice_lost(const struct rc_array *a)
{
	u64 lost = 0;
	unsigned int i;

	for (i = 0; i < a->nmembers; i++)
		if (a->members[i].missing || a->members[i].rebuilding)
			lost |= 1ull << i;
	return lost;
}

/*
 * Rebuilds the slice blocks of every member in @lost (at most two) from
 * the others, which rc_slice_read() must have read for the same row.
 */
int rc_slice_recover(struct rc_slice *s, u64 lost);

/*
 * Verify rows [@first, @first + @count) with @s's buffers; the checks of
 * rc_array_verify() must have passed (rc_verify_args()). Adds to *@bad.
 */
int rc_verify_rows(struct rc_slice *s, u64 first, u64 count,
		   rc_mismatch_fn fn, void *ctx, u64 *bad);
int rc_verify_args(struct rc_array *a, u64 first, u64 count);

#endif /* RC_SLICE_H */
