/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Superblock helpers only the tool needs. Encoding and decoding are
 * fanraid/sb.h, the one codec the kernel target compiles too.
 */
#include <ctype.h>
#include <errno.h>

#include <uuid/uuid.h>

#include "sb.h"

_Static_assert(sizeof(uuid_t) == FR_UUID_LEN, "libuuid's uuid_t is our UUID");

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
	uuid_unparse_lower(u, out);
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

/*
 * Accepts 32 hex digits, with or without the usual dashes. 0 or -EINVAL.
 * Not libuuid's uuid_parse(): it takes only the 36-character 8-4-4-4-12
 * form, and the bare 32 digits are how udev names the array to
 * fanraid-last-resort@.service (FANRAID_UUID32), which passes them on
 * to --uuid; users and fanraid.conf have had both forms (fanraid(8)).
 */
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
