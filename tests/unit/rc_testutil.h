/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the unit tests: reproducible random numbers and bytes (the
 * fuzzers' one generator), and blocks with guard bytes around them, so a
 * test can see an overrun.
 */
#ifndef RC_TESTUTIL_H
#define RC_TESTUTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RC_T_GUARD	64
#define RC_T_GUARD_BYTE	0xa5

/* xorshift64: same bytes on every run, so failures reproduce. */
static inline uint64_t rc_t_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static inline void rc_t_fill(uint64_t *s, void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rc_t_rand(s);
}

/*
 * @n blocks of @len bytes, each starting @skew bytes past a 64-byte
 * boundary and followed by RC_T_GUARD guard bytes. One allocation, freed
 * with free(*ptrs - ...) via rc_t_blocks_free().
 */
static inline uint8_t *rc_t_blocks(unsigned int n, size_t len, size_t skew,
				   void **ptrs)
{
	size_t stride = (len + skew + RC_T_GUARD + 63) & ~(size_t)63;
	uint8_t *base;
	unsigned int i;

	if (posix_memalign((void **)&base, 64, stride * n))
		return NULL;
	memset(base, RC_T_GUARD_BYTE, stride * n);
	for (i = 0; i < n; i++)
		ptrs[i] = base + i * stride + skew;
	return base;
}

static inline int rc_t_guard_intact(unsigned int n, size_t len, void **ptrs)
{
	unsigned int i, g;

	for (i = 0; i < n; i++)
		for (g = 0; g < RC_T_GUARD; g++)
			if (((uint8_t *)ptrs[i])[len + g] != RC_T_GUARD_BYTE)
				return 0;
	return 1;
}

#endif /* RC_TESTUTIL_H */
