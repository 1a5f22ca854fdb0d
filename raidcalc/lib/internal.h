/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Argument checks shared by the ISA-L seam and its reference twins, so the
 * two accept exactly the same inputs and a test can compare them blindly.
 */
#ifndef RC_INTERNAL_H
#define RC_INTERNAL_H

#include <errno.h>
#include "raidcalc.h"

/* Data blocks in a parity call: everything but P and Q. */
static inline unsigned int rc_pq_data(unsigned int ndevs)
{
	return ndevs - FR_PARITY_DEVS_RAID6;
}

static inline int rc_pq_args(unsigned int ndevs, size_t len, void **ptrs)
{
	unsigned int i;

	if (ndevs < RC_PQ_MIN_DEVS || ndevs > RC_PQ_MAX_DEVS || !ptrs)
		return -EINVAL;
	for (i = 0; len && i < ndevs; i++)
		if (!ptrs[i])
			return -EINVAL;
	return 0;
}

/* Failed indices must be 1 or 2 distinct blocks inside the row. */
static inline int rc_recover_args(unsigned int ndevs, size_t len, void **ptrs,
				  unsigned int nfailed,
				  const unsigned int *failed)
{
	int err = rc_pq_args(ndevs, len, ptrs);

	if (err)
		return err;
	if (!failed || nfailed < 1 || nfailed > FR_PARITY_DEVS_RAID6)
		return -EINVAL;
	if (failed[0] >= ndevs)
		return -EINVAL;
	if (nfailed == 2 && (failed[1] >= ndevs || failed[1] == failed[0]))
		return -EINVAL;
	return 0;
}

/* pwrite() of all @bytes at byte @at, across short writes; 0 or -errno. */
int rc_fd_pwrite(int fd, const void *buf, size_t bytes, u64 at);

/* Size in bytes of a member file or block device ("MAJ:MIN" resolved). */
int rc_member_bytes(const char *dev, u64 *bytes);

/* Offset plus data area of every member must fit an off_t. */
int rc_array_check_offsets(struct rc_array *a);

#endif /* RC_INTERNAL_H */
