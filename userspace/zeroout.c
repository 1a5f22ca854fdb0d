/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Zeroing a member's data area by offload. fallocate(PUNCH_HOLE) on a
 * block device is the kernel's write-zeroes with unmap allowed and no
 * fallback to writing zero pages (BLKDEV_ZERO_NOFALLBACK): an NVMe drive
 * deallocates the range and completes at once, and a device that cannot
 * offload it refuses instead of taking hours. BLKZEROOUT would not unmap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/sysmacros.h>

#include "zeroout.h"

/* The member advertises write-zeroes (queue/write_zeroes_max_bytes > 0). */
bool fr_member_can_zero(const struct fr_member *m)
{
	unsigned long long max = 0;
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/write_zeroes_max_bytes",
		 major(m->rdev), minor(m->rdev));
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fscanf(f, "%llu", &max) != 1)
		max = 0;
	fclose(f);
	return max > 0;
}

/* Zeroes @len bytes at @offset of @m. 0, or -errno (-EOPNOTSUPP: no offload). */
int fr_member_zero(struct fr_member *m, uint64_t offset, uint64_t len)
{
	if (fallocate(m->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)offset, (off_t)len))
		return -errno;
	return 0;
}
