/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * P/Q through ISA-L: the one place raidcalc calls pq_gen()/pq_check().
 * ISA-L picks SSE/AVX/AVX2/AVX-512 itself; we only satisfy its contract
 * (32-byte aligned pointers and length, int-sized length) and hand any
 * remainder to the reference code so callers never see the restriction.
 */
#include <stdint.h>
#include <isa-l/raid.h>
#include "internal.h"

#define RC_ISAL_ALIGN	32u
/* pq_gen() takes an int length; stay well inside it and aligned. */
#define RC_ISAL_STEP	(1u << 30)

static bool rc_ptrs_aligned(unsigned int ndevs, void **ptrs)
{
	unsigned int i;

	for (i = 0; i < ndevs; i++)
		if ((uintptr_t)ptrs[i] & (RC_ISAL_ALIGN - 1))
			return false;
	return true;
}

/* @out = @ptrs, each moved @off bytes on. */
static void rc_ptrs_at(unsigned int ndevs, void **ptrs, size_t off,
		       void **out)
{
	unsigned int i;

	for (i = 0; i < ndevs; i++)
		out[i] = (u8 *)ptrs[i] + off;
}

/* Bytes from the start that ISA-L may handle. */
static size_t rc_pq_fast_len(unsigned int ndevs, size_t len, void **ptrs)
{
	if (!rc_ptrs_aligned(ndevs, ptrs))
		return 0;
	return len & ~(size_t)(RC_ISAL_ALIGN - 1);
}

/*
 * Runs @isal over the aligned head of the buffers in int-sized steps and
 * @ref over whatever tail ISA-L cannot take. An @isal failure is reported
 * as @isal_err, which is what that operation's failure means to callers.
 */
static int rc_pq_run(unsigned int ndevs, size_t len, void **ptrs,
		     int (*isal)(int, int, void **), int isal_err,
		     int (*ref)(unsigned int, size_t, void **))
{
	void *at[RC_PQ_MAX_DEVS];
	size_t fast, done, step;
	int err = rc_pq_args(ndevs, len, ptrs);

	if (err)
		return err;
	fast = rc_pq_fast_len(ndevs, len, ptrs);
	for (done = 0; done < fast; done += step) {
		step = fast - done < RC_ISAL_STEP ? fast - done : RC_ISAL_STEP;
		rc_ptrs_at(ndevs, ptrs, done, at);
		if (isal((int)ndevs, (int)step, at))
			return isal_err;
	}
	if (done == len)
		return 0;
	rc_ptrs_at(ndevs, ptrs, done, at);
	return ref(ndevs, len - done, at);
}

int rc_pq_gen(unsigned int ndevs, size_t len, void **ptrs)
{
	return rc_pq_run(ndevs, len, ptrs, pq_gen, -EINVAL, rc_pq_gen_ref);
}

int rc_pq_check(unsigned int ndevs, size_t len, void **ptrs)
{
	return rc_pq_run(ndevs, len, ptrs, pq_check, -EBADMSG,
			 rc_pq_check_ref);
}
