/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offline parity check of a RAID6 array: recompute P and Q of every row
 * slice from the data on the members and compare with what the members
 * hold. This is the oracle that proves the module's lib/raid6 parity
 * matches ISA-L's byte for byte.
 */
#include <errno.h>
#include <string.h>
#include <fanraid/syndrome.h>
#include "slice.h"

/* First differing byte, or -1. */
static long rc_first_diff(const u8 *x, const u8 *y, size_t n)
{
	size_t i;

	if (!memcmp(x, y, n))
		return -1;
	for (i = 0; x[i] == y[i]; i++)
		;
	return (long)i;
}

/*
 * With the whole row read, P and Q together may name the one block that is
 * wrong (fanraid/syndrome.h): a data block is then reported instead of P
 * and Q, once per row (bit 2 of @reported). The recomputed P and Q in the
 * spare buffers become dP and dQ. Returns true when it reported.
 */
static bool rc_verify_locate(struct rc_slice *s, u64 row, u64 off,
			     unsigned int *reported, struct rc_mismatch *m,
			     bool *ambiguous)
{
	const struct fr_geom *g = &s->a->geom;
	unsigned int k = g->data_devs, n = g->ndevs;
	u8 *dp = s->buf[n], *dq = s->buf[n + 1];
	const u8 *p = s->ptrs[k], *q = s->ptrs[k + 1];
	enum fr_block_kind kind;
	size_t i, first = 0;
	u32 idx;

	for (i = 0; i < s->bytes; i++) {
		dp[i] ^= p[i];
		dq[i] ^= q[i];
	}
	if (fr_syndrome_locate(dp, dq, (u32)s->bytes, k, &kind, &idx) !=
	    FR_SYNDROME_ONE) {
		*ambiguous = true;
		return false;
	}
	if (kind != FR_BLOCK_DATA)
		return false;
	if (!(*reported & 4u)) {
		while (!dp[first])
			first++;
		m->row = row;
		m->kind = FR_BLOCK_DATA;
		m->dev = fr_geom_data_dev(g, row, idx);
		m->ambiguous = false;
		m->sector = (rc_slice_pos(s, row, off) + first) >> FR_SECTOR_SHIFT;
		*reported |= 4u;
		return true;
	}
	return true;
}

/*
 * Compares one slice's parity; reports each parity block at most once per
 * row (@reported carries P and Q flags across the row's slices), or the
 * data block P and Q name together.
 */
static int rc_verify_slice(struct rc_slice *s, u64 row, u64 off, u64 lost,
			   unsigned int *reported, rc_mismatch_fn fn,
			   void *ctx, u64 *bad)
{
	const struct fr_geom *g = &s->a->geom;
	unsigned int k = g->data_devs, n = g->ndevs, p;
	void *want[FR_MAX_DEVS];
	struct rc_mismatch m;
	bool ambiguous = false;
	long at[2];
	int err;

	/* reports are compared whole (verify_jobs): no stray padding bytes */
	memset(&m, 0, sizeof(m));
	memcpy(want, s->ptrs, sizeof(want[0]) * k);
	want[k] = s->buf[n];
	want[k + 1] = s->buf[n + 1];
	err = rc_pq_gen(n, s->bytes, want);
	if (err)
		return err;
	at[0] = rc_first_diff(want[k], s->ptrs[k], s->bytes);
	at[1] = rc_first_diff(want[k + 1], s->ptrs[k + 1], s->bytes);
	if (at[0] < 0 && at[1] < 0)
		return 0;
	if (!lost && at[0] >= 0 && at[1] >= 0) {
		unsigned int before = *reported;

		if (rc_verify_locate(s, row, off, reported, &m, &ambiguous)) {
			if (*reported == before)
				return 0;
			(*bad)++;
			return fn ? fn(&m, ctx) : 0;
		}
	}
	for (p = 0; p < 2; p++) {
		m.dev = p ? fr_geom_q_dev(g, row) : fr_geom_p_dev(g, row);
		/* a parity block that is not there cannot be wrong */
		if ((*reported & (1u << p)) || (lost & (1ull << m.dev)))
			continue;
		if (at[p] < 0)
			continue;
		*reported |= 1u << p;
		(*bad)++;
		m.row = row;
		m.kind = p ? FR_BLOCK_Q : FR_BLOCK_P;
		m.ambiguous = ambiguous;
		m.sector = (rc_slice_pos(s, row, off) + (u64)at[p]) >>
			   FR_SECTOR_SHIFT;
		err = fn ? fn(&m, ctx) : 0;
		if (err)
			return err;
	}
	return 0;
}

int rc_verify_rows(struct rc_slice *s, u64 first, u64 count,
		   rc_mismatch_fn fn, void *ctx, u64 *bad)
{
	u64 row, off, lost;
	unsigned int reported;
	int err = 0;

	/* members being rebuilt are read as they are; see raidcalc.h */
	lost = rc_slice_lost(s->a) & ~s->a->rebuild;
	for (row = first; row < first + count && !err; row++) {
		rc_slice_order(s, row);
		reported = 0;
		for (off = 0; off < s->chunk_bytes && !err; off += s->bytes) {
			err = rc_slice_read(s, row, off, lost);
			/* a lost data chunk comes back from P, Q checks it */
			if (!err)
				err = rc_slice_recover(s, lost);
			if (!err)
				err = rc_verify_slice(s, row, off, lost,
						      &reported, fn, ctx, bad);
		}
	}
	return err;
}

int rc_verify_args(struct rc_array *a, u64 first, u64 count)
{
	if (a->geom.level != FR_LEVEL_RAID6) {
		a->error = "Only raid6 has parity to verify";
		return -EINVAL;
	}
	if (__builtin_popcountll(rc_slice_lost(a) & ~a->rebuild) > 1) {
		a->error = "Cannot verify parity with two members missing";
		return -EINVAL;
	}
	if (first > a->geom.rows || count > a->geom.rows - first) {
		a->error = "Rows past the end of the array";
		return -EINVAL;
	}
	return 0;
}

int rc_array_verify(struct rc_array *a, u64 first, u64 count,
		    rc_mismatch_fn fn, void *ctx, u64 *bad)
{
	struct rc_slice s;
	int err;

	*bad = 0;
	err = rc_verify_args(a, first, count);
	if (err)
		return err;
	err = rc_slice_init(&s, a);
	if (err)
		return err;
	err = rc_verify_rows(&s, first, count, fn, ctx, bad);
	rc_slice_free(&s);
	return err;
}
