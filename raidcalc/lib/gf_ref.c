/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * GF(2^8) over x^8 + x^4 + x^3 + x^2 + 1 (0x11d), the field of lib/raid6 and
 * ISA-L, computed bit by bit. Deliberately table-free: the reference twins
 * must not share a single lookup table with the code they check, and a
 * library keeps no lazily-filled global state.
 */
#include "raidcalc.h"

/* Multiply by x (by 2): shift, and reduce when the top bit falls out. */
static inline u8 rc_gf_xtime(u8 a)
{
	return (u8)((a << 1) ^ ((a & 0x80) ? 0x1d : 0));
}

u8 rc_gf_mul_ref(u8 a, u8 b)
{
	u8 r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = rc_gf_xtime(a);
		b >>= 1;
	}
	return r;
}

u8 rc_gf_exp2_ref(unsigned int e)
{
	u8 r = 1;

	/* the multiplicative group has order 255 */
	for (e %= 255; e; e--)
		r = rc_gf_xtime(r);
	return r;
}

/* a^254 == a^-1 for a != 0; square-and-multiply over the exponent. */
u8 rc_gf_inv_ref(u8 a)
{
	unsigned int e = 254;
	u8 r = 1;

	while (e) {
		if (e & 1)
			r = rc_gf_mul_ref(r, a);
		a = rc_gf_mul_ref(a, a);
		e >>= 1;
	}
	return r;
}
