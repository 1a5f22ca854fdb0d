/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Members on disk: opening (exclusively when we mean to write), probing
 * with libblkid, and reading/writing the fanraid superblock.
 */
#ifndef FR_PROBE_H
#define FR_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sb.h"

struct fr_member {
	const char *path;		/* as the user gave it */
	int fd;				/* -1 when closed */
	dev_t rdev;
	uint64_t size;			/* bytes */
	uint64_t min_io;		/* bytes, from blkid topology */
	uint64_t opt_io;
	uint64_t align_offset;
	int sb_err;			/* enum fr_sb_err from the last read */
	struct fr_sb sb;		/* valid when sb_err == FR_SB_OK */
};

#define FR_PROBE_DESC_MAX	256

void fr_member_init(struct fr_member *m, const char *path);
/* How to open a member. */
enum fr_open_mode {
	FR_OPEN_READ,		/* examine, scan */
	FR_OPEN_EXCL,		/* create, assemble, stop: nobody else may hold it */
	FR_OPEN_SHARED,		/* fail: the running array holds it */
};

int fr_member_open(struct fr_member *m, enum fr_open_mode mode);
void fr_member_close(struct fr_member *m);
int fr_probe_signatures(struct fr_member *m, char *desc, size_t len);
int fr_probe_topology(struct fr_member *m);
int fr_wipe_signatures(struct fr_member *m);
int fr_sb_read(struct fr_member *m);
int fr_sb_write(struct fr_member *m, const struct fr_sb *sb);

#endif /* FR_PROBE_H */
