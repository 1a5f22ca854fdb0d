/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid syndrome decoding: which one block of a RAID6 row is wrong.
 *
 * When P and Q are recomputed from the data of a row and compared with what
 * the members hold, the differences dP and dQ say more than "mismatch". If
 * exactly one block is wrong, by an error e:
 *   - P wrong:            dP = e, dQ = 0
 *   - Q wrong:            dP = 0, dQ = e
 *   - data block z wrong: dP = e, dQ = g^z * e   (byte by byte)
 * so dQ / dP = g^z names z, and every byte of the block must name the same
 * z. Anything else (two blocks wrong, or no z < data members fits) cannot be
 * told apart from other combinations and is reported as unknown. md's
 * raid6check does this offline; here the kernel's scrub and raidcalc verify
 * share it, as they share geom.h.
 *
 * GF(2^8) with the polynomial 0x11d and generator g = 2, as lib/raid6 and
 * ISA-L use. The multiply is a shift loop, no tables: it runs only on
 * blocks that already mismatch.
 */
#ifndef FANRAID_SYNDROME_H
#define FANRAID_SYNDROME_H

#include <fanraid/geom.h>

enum fr_syndrome {
	FR_SYNDROME_CLEAN,	/* P and Q agree with the data */
	FR_SYNDROME_ONE,	/* exactly one block explains it: *kind, *data_idx */
	FR_SYNDROME_UNKNOWN,	/* no single block does */
};

static inline u8 fr_gf_mul2(u8 a)
{
	return (u8)((a << 1) ^ ((a & 0x80) ? 0x1d : 0));
}

static inline u8 fr_gf_mul(u8 a, u8 b)
{
	u8 r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = fr_gf_mul2(a);
		b >>= 1;
	}
	return r;
}

/*
 * Locate the wrong block from @dp = P ^ P' and @dq = Q ^ Q' over @len
 * bytes of a row with @ndata data blocks. On FR_SYNDROME_ONE, *kind is
 * FR_BLOCK_P, FR_BLOCK_Q or FR_BLOCK_DATA (then *data_idx is its index in
 * the row, the Q syndrome's term), and the right contents are the block
 * XOR @dp (data and P) or XOR @dq (Q).
 */
static inline enum fr_syndrome fr_syndrome_locate(const u8 *dp, const u8 *dq,
						  u32 len, u32 ndata,
						  enum fr_block_kind *kind,
						  u32 *data_idx)
{
	bool p_bad = false, q_bad = false;
	u32 first = len, i, z;
	u8 gz;

	for (i = 0; i < len; i++) {
		p_bad |= dp[i] != 0;
		q_bad |= dq[i] != 0;
		if (first == len && dp[i])
			first = i;
	}
	if (!p_bad && !q_bad)
		return FR_SYNDROME_CLEAN;
	if (!q_bad || !p_bad) {
		*kind = q_bad ? FR_BLOCK_Q : FR_BLOCK_P;
		*data_idx = 0;
		return FR_SYNDROME_ONE;
	}
	/* g^z * dP = dQ at the first byte P disagrees on names z, if any. */
	for (z = 0, gz = 1; z < ndata; z++, gz = fr_gf_mul2(gz))
		if (fr_gf_mul(gz, dp[first]) == dq[first])
			break;
	if (z == ndata)
		return FR_SYNDROME_UNKNOWN;
	for (i = 0; i < len; i++)
		if (fr_gf_mul(gz, dp[i]) != dq[i])
			return FR_SYNDROME_UNKNOWN;
	*kind = FR_BLOCK_DATA;
	*data_idx = z;
	return FR_SYNDROME_ONE;
}

#endif /* FANRAID_SYNDROME_H */
