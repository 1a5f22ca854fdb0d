/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Superblock helpers only the tool needs. Encoding and decoding are
 * fanraid/sb.h, the one codec the kernel target compiles too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>

#include "sb.h"

const char *fr_level_name(uint32_t level)
{
	switch (level) {
	case FR_LEVEL_RAID0:
		return "raid0";
	case FR_LEVEL_RAID6:
		return "raid6";
	}
	return "unknown";
}

const char *fr_flush_name(uint32_t policy)
{
	switch (policy) {
	case FR_FLUSH_PASSTHROUGH:
		return "passthrough";
	case FR_FLUSH_DROP:
		return "drop";
	case FR_FLUSH_DIRTY:
		return "dirty";
	}
	return "unknown";
}


/* 8-4-4-4-12 lower-case hex; @out holds FR_UUID_STR_LEN + 1 bytes. */
void fr_uuid_format(const uint8_t *u, char *out)
{
	snprintf(out, FR_UUID_STR_LEN + 1,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Accepts 32 hex digits, with or without the usual dashes. 0 or -EINVAL. */
int fr_uuid_parse(const char *s, uint8_t *uuid)
{
	int n = 0;

	for (; *s; s++) {
		int hi, lo;

		if (*s == '-')
			continue;
		if (n == FR_UUID_LEN)
			return -EINVAL;
		hi = hexval(s[0]);
		lo = s[1] ? hexval(s[1]) : -1;
		if (hi < 0 || lo < 0)
			return -EINVAL;
		uuid[n++] = (uint8_t)(hi << 4 | lo);
		s++;
	}
	return n == FR_UUID_LEN ? 0 : -EINVAL;
}
