/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RAID6 recovery through ISA-L's erasure-code path, as ec_simple_example.c
 * does it. gf_gen_rs_matrix(a, k + 2, k) is the identity over k data rows
 * followed by a row of ones (P) and a row of 2^j (Q), which is exactly the
 * RAID6 syndrome, so decoding with it recovers what lib/raid6 wrote; a
 * unit test pins that matrix down. With generator 2 and k <= 255, any two
 * lost blocks leave a solvable system, so every pair is recoverable.
 */
#include <string.h>
#include <isa-l/erasure_code.h>
#include "internal.h"

#define RC_MAX_K	(RC_PQ_MAX_DEVS - FR_PARITY_DEVS_RAID6)
/* ec_encode_data() takes an int length. */
#define RC_EC_STEP	(1u << 30)

static bool rc_is_failed(unsigned int i, unsigned int nfailed,
			 const unsigned int *failed)
{
	unsigned int e;

	for (e = 0; e < nfailed; e++)
		if (failed[e] == i)
			return true;
	return false;
}

/*
 * Rows of the decode matrix: for each lost block, its coefficients over
 * the k sources in @src (surviving data first, then as many surviving
 * parity blocks as data blocks were lost).
 *
 * Only the lost data are unknown, so instead of inverting the k x k
 * survivor matrix (O(k^3): 1.2 ms at 64 members, paid per call) we invert
 * the at most 2 x 2 system that the used parity rows form over the lost
 * data, and fold the surviving data in:
 *
 *	M D_L = y,  y_r = par_r ^ sum_{i survives} enc[r][i] D_i
 *
 * A lost parity row is then its generator row over data, with the lost
 * data replaced by their decode rows. Returns -EINVAL if M is singular,
 * which the RAID6 generator never is for k <= 255.
 */
static int rc_decode_matrix(unsigned int ndevs, unsigned int nfailed,
			    const unsigned int *failed, const u8 *enc,
			    const unsigned int *src, u8 *dec)
{
	unsigned int k = rc_pq_data(ndevs), lost[2], used[2];
	unsigned int nl = 0, np = 0, e, r, c, s, i;
	u8 m[4], minv[4], coef[2][RC_MAX_K], v;

	for (e = 0; e < nfailed; e++)
		if (failed[e] < k)
			lost[nl++] = failed[e];
	/* the parity sources are the last nl entries of src */
	for (s = k - nl; s < k; s++)
		used[np++] = src[s];
	if (nl) {
		for (r = 0; r < nl; r++)
			for (c = 0; c < nl; c++)
				m[r * nl + c] = enc[used[r] * k + lost[c]];
		if (gf_invert_matrix(m, minv, (int)nl))
			return -EINVAL;
	}
	/* coef[c]: lost data lost[c] over the k sources */
	for (c = 0; c < nl; c++) {
		for (s = 0; s < k; s++) {
			if (s >= k - nl) {
				coef[c][s] = minv[c * nl + (s - (k - nl))];
				continue;
			}
			v = 0;
			for (r = 0; r < nl; r++)
				v ^= gf_mul(minv[c * nl + r],
					    enc[used[r] * k + src[s]]);
			coef[c][s] = v;
		}
	}
	for (e = 0; e < nfailed; e++) {
		if (failed[e] < k) {
			for (c = 0; lost[c] != failed[e]; c++)
				;
			memcpy(&dec[e * k], coef[c], k);
			continue;
		}
		/* lost parity: generator row, lost data via their rows */
		for (s = 0; s < k; s++) {
			v = s < k - nl ? enc[failed[e] * k + src[s]] : 0;
			for (c = 0; c < nl; c++) {
				i = lost[c];
				v ^= gf_mul(enc[failed[e] * k + i], coef[c][s]);
			}
			dec[e * k + s] = v;
		}
	}
	return 0;
}

int rc_recover(unsigned int ndevs, size_t len, void **ptrs,
	       unsigned int nfailed, const unsigned int *failed)
{
	u8 enc[RC_PQ_MAX_DEVS * RC_MAX_K];
	u8 dec[FR_PARITY_DEVS_RAID6 * RC_MAX_K];
	u8 tbls[32 * RC_MAX_K * FR_PARITY_DEVS_RAID6];
	u8 *srcp[RC_MAX_K], *outp[FR_PARITY_DEVS_RAID6];
	unsigned int src[RC_MAX_K];
	unsigned int k = rc_pq_data(ndevs), i, n = 0;
	size_t done, step;
	int err;

	err = rc_recover_args(ndevs, len, ptrs, nfailed, failed);
	if (err || !len)
		return err;
	gf_gen_rs_matrix(enc, (int)ndevs, (int)k);
	for (i = 0; i < ndevs && n < k; i++)
		if (!rc_is_failed(i, nfailed, failed))
			src[n++] = i;
	/* k + 2 blocks, at most two lost: always k sources, data first */
	err = rc_decode_matrix(ndevs, nfailed, failed, enc, src, dec);
	if (err)
		return err;
	ec_init_tables((int)k, (int)nfailed, dec, tbls);
	for (done = 0; done < len; done += step) {
		step = len - done < RC_EC_STEP ? len - done : RC_EC_STEP;
		for (i = 0; i < k; i++)
			srcp[i] = (u8 *)ptrs[src[i]] + done;
		for (i = 0; i < nfailed; i++)
			outp[i] = (u8 *)ptrs[failed[i]] + done;
		ec_encode_data((int)step, (int)k, (int)nfailed, tbls, srcp,
			       outp);
	}
	return 0;
}
