/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the verify tests share: damage to plant in rc_t's members, and a
 * callback that records the mismatches a verify reports, in order.
 */
#ifndef RC_TESTVERIFY_H
#define RC_TESTVERIFY_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "rc_testarray.h"

#define RC_T_MAXM 64

/* Counts every mismatch; keeps the first RC_T_MAXM. */
struct rc_t_seen {
	unsigned int n;
	struct rc_mismatch m[RC_T_MAXM];
};

static inline int rc_t_record(const struct rc_mismatch *m, void *ctx)
{
	struct rc_t_seen *seen = ctx;

	if (seen->n < RC_T_MAXM)
		seen->m[seen->n] = *m;
	seen->n++;
	return 0;
}

/*
 * Flips one bit of member @dev at byte @pos of its data area; flipping
 * it again restores the byte.
 */
static inline void rc_t_flip(unsigned int dev, u64 pos)
{
	u8 b;

	pos += rc_t.a.members[dev].offset * 512;
	assert_int_equal(rc_t_member_pread(&rc_t, dev, &b, 1, pos), 0);
	b ^= 0x01;
	assert_int_equal(rc_t_member_pwrite(&rc_t, dev, &b, 1, pos), 0);
}

#endif /* RC_TESTVERIFY_H */
