/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tool's view of the superblock. The on-disk codec (layout, CRC32C,
 * validation) is fanraid/sb.h, shared with the kernel target; this header
 * adds what only the tool needs: names for levels and policies, UUID text.
 */
#ifndef FR_SB_H
#define FR_SB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fanraid/geom.h>
#include <fanraid/sb.h>

const char *fr_level_name(uint32_t level);
const char *fr_flush_name(uint32_t policy);
void fr_uuid_format(const uint8_t *uuid, char *out);
int fr_uuid_parse(const char *s, uint8_t *uuid);

#endif /* FR_SB_H */
