/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Zeroing a new RAID6 member's data area by offload, so the array needs no
 * initial resync: the parity of all-zero data is all zero.
 */
#ifndef FR_ZEROOUT_H
#define FR_ZEROOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "probe.h"

bool fr_member_can_zero(const struct fr_member *m);
int fr_member_zero(struct fr_member *m, uint64_t offset, uint64_t len);

#endif /* FR_ZEROOUT_H */
