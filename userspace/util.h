/* SPDX-License-Identifier: GPL-2.0-only */
/* Small strict parsers and formatters shared by the tool's pure modules. */
#ifndef FR_UTIL_H
#define FR_UTIL_H

#include <stddef.h>
#include <stdint.h>

int fr_parse_u64(const char *s, uint64_t *out);
int fr_parse_u32(const char *s, uint32_t *out);
void fr_format_size(uint64_t bytes, char *out, size_t len);

#endif /* FR_UTIL_H */
