/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plain-C RAID6 recovery, the oracle for rc_recover(). Closed forms as in
 * lib/raid6/recov.c, with one byte loop for every failure pair: compute P'
 * and Q' over the surviving data (lost data counts as zero), then
 *
 *	two data a < b:	px = P ^ P', qx = Q ^ Q'
 *			D_b = (qx ^ 2^a px) / (2^a ^ 2^b), D_a = px ^ D_b
 *	data a + P:	D_a = (Q ^ Q') / 2^a, then P = P' ^ D_a
 *	data a + Q:	D_a = P ^ P', then Q = Q' ^ 2^a D_a
 *	data a:		D_a = P ^ P'
 *	P and/or Q:	P = P', Q = Q'
 */
#include "internal.h"

/* Everything the byte loop needs, worked out once per call. */
struct rc_recov_plan {
	unsigned int k;		/* data blocks */
	int da, db;		/* lost data indices, -1 when none */
	bool lost_p, lost_q;
	u8 mul_ga[256];		/* x -> 2^a x */
	u8 mul_div[256];	/* x -> x / (2^a ^ 2^b), or x / 2^a */
};

static void rc_mul_table(u8 *t, u8 c)
{
	unsigned int x;

	for (x = 0; x < 256; x++)
		t[x] = rc_gf_mul_ref((u8)x, c);
}

static void rc_recov_plan(struct rc_recov_plan *pl, unsigned int ndevs,
			  unsigned int nfailed, const unsigned int *failed)
{
	unsigned int i, f;
	u8 ga, gb;

	pl->k = rc_pq_data(ndevs);
	pl->da = -1;
	pl->db = -1;
	pl->lost_p = false;
	pl->lost_q = false;
	for (i = 0; i < nfailed; i++) {
		f = failed[i];
		if (f == pl->k)
			pl->lost_p = true;
		else if (f == pl->k + 1)
			pl->lost_q = true;
		else if (pl->da < 0)
			pl->da = (int)f;
		else
			pl->db = (int)f;
	}
	if (pl->db >= 0 && pl->db < pl->da) {
		int t = pl->da;

		pl->da = pl->db;
		pl->db = t;
	}
	if (pl->da < 0)
		return;
	ga = rc_gf_exp2_ref((unsigned int)pl->da);
	rc_mul_table(pl->mul_ga, ga);
	if (pl->db >= 0) {
		gb = rc_gf_exp2_ref((unsigned int)pl->db);
		rc_mul_table(pl->mul_div, rc_gf_inv_ref(ga ^ gb));
	} else {
		rc_mul_table(pl->mul_div, rc_gf_inv_ref(ga));
	}
}

static void rc_recov_byte(const struct rc_recov_plan *pl, u8 **d, size_t b)
{
	u8 *pb = &d[pl->k][b], *qb = &d[pl->k + 1][b];
	u8 p = 0, q = 0, x, px, qx;
	int i;

	for (i = (int)pl->k - 1; i >= 0; i--) {
		x = (i == pl->da || i == pl->db) ? 0 : d[i][b];
		p ^= x;
		q = rc_gf_mul_ref(q, 2) ^ x;
	}
	if (pl->db >= 0) {
		px = *pb ^ p;
		qx = *qb ^ q;
		d[pl->db][b] = pl->mul_div[qx ^ pl->mul_ga[px]];
		d[pl->da][b] = px ^ d[pl->db][b];
		return;
	}
	if (pl->da >= 0 && pl->lost_p) {
		d[pl->da][b] = pl->mul_div[*qb ^ q];
		*pb = p ^ d[pl->da][b];
		return;
	}
	if (pl->da >= 0) {
		d[pl->da][b] = *pb ^ p;
		if (pl->lost_q)
			*qb = q ^ pl->mul_ga[d[pl->da][b]];
		return;
	}
	if (pl->lost_p)
		*pb = p;
	if (pl->lost_q)
		*qb = q;
}

int rc_recover_ref(unsigned int ndevs, size_t len, void **ptrs,
		   unsigned int nfailed, const unsigned int *failed)
{
	struct rc_recov_plan pl;
	size_t b;
	int err;

	err = rc_recover_args(ndevs, len, ptrs, nfailed, failed);
	if (err)
		return err;
	rc_recov_plan(&pl, ndevs, nfailed, failed);
	for (b = 0; b < len; b++)
		rc_recov_byte(&pl, (u8 **)ptrs, b);
	return 0;
}
