/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plain-C P/Q: the oracle for rc_pq_gen() and the benchmark baseline. One
 * byte at a time, Horner's scheme from the highest data index down, the
 * way lib/raid6's int.uc does it: Q = ((D[k-1] * 2 + D[k-2]) * 2 + ...).
 */
#include <string.h>
#include "internal.h"

static inline u8 rc_xtime(u8 a)
{
	return (u8)((a << 1) ^ ((a & 0x80) ? 0x1d : 0));
}

/* P and Q of byte @b of the row. */
static void rc_pq_byte(unsigned int ndevs, u8 *const *d, size_t b, u8 *p,
		       u8 *q)
{
	unsigned int k = rc_pq_data(ndevs);
	u8 pp = d[k - 1][b], qq = d[k - 1][b];
	int i;

	for (i = (int)k - 2; i >= 0; i--) {
		pp ^= d[i][b];
		qq = rc_xtime(qq) ^ d[i][b];
	}
	*p = pp;
	*q = qq;
}

int rc_pq_gen_ref(unsigned int ndevs, size_t len, void **ptrs)
{
	u8 *const *d = (u8 *const *)ptrs;
	int err = rc_pq_args(ndevs, len, ptrs);
	size_t b;

	if (err)
		return err;
	for (b = 0; b < len; b++)
		rc_pq_byte(ndevs, d, b, &d[ndevs - 2][b], &d[ndevs - 1][b]);
	return 0;
}

int rc_pq_check_ref(unsigned int ndevs, size_t len, void **ptrs)
{
	u8 *const *d = (u8 *const *)ptrs;
	int err = rc_pq_args(ndevs, len, ptrs);
	size_t b;
	u8 p, q;

	if (err)
		return err;
	for (b = 0; b < len; b++) {
		rc_pq_byte(ndevs, d, b, &p, &q);
		if (p != d[ndevs - 2][b] || q != d[ndevs - 1][b])
			return -EBADMSG;
	}
	return 0;
}
