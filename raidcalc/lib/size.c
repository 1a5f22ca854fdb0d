/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte sizes on the command line of both tools, raidcalc and fanraid:
 * "512K", "1MiB", "2048s", or a plain number of bytes. Suffixes are powers
 * of 1024, as dmsetup, mkfs and fio read them, so "--chunk 512K" means the
 * same thing to every tool in a recipe.
 */
#include <errno.h>
#include <stdio.h>
#include <strings.h>
#include "raidcalc.h"

/*
 * The suffixes, in any case: bytes, 512-byte sectors, and powers of 1024
 * with or without "iB"/"B" ("512KB" is 512 KiB here, as in dmsetup).
 */
static const struct {
	const char *suffix;
	unsigned int shift;
} rc_size_units[] = {
	{ "", 0 }, { "b", 0 }, { "s", 9 },
	{ "k", 10 }, { "kib", 10 }, { "kb", 10 },
	{ "m", 20 }, { "mib", 20 }, { "mb", 20 },
	{ "g", 30 }, { "gib", 30 }, { "gb", 30 },
	{ "t", 40 }, { "tib", 40 }, { "tb", 40 },
};

int rc_parse_size(const char *s, u64 *bytes)
{
	const char *digits = s;
	u64 v = 0;
	size_t i;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	/* digit by digit, so overflow is caught rather than wrapped */
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (u64)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (u64)(*s - '0');
	}
	/* "012K" is more likely a typo or an octal habit than 12K */
	if (*digits == '0' && s - digits > 1)
		return -EINVAL;
	for (i = 0; i < sizeof(rc_size_units) / sizeof(rc_size_units[0]); i++) {
		unsigned int shift = rc_size_units[i].shift;

		if (strcasecmp(s, rc_size_units[i].suffix))
			continue;
		if (shift && v > UINT64_MAX >> shift)
			return -ERANGE;
		*bytes = v << shift;
		return 0;
	}
	return -EINVAL;
}

int rc_format_size(u64 bytes, char *buf, size_t size)
{
	static const char units[] = "KMGT";
	int i = -1;

	/* the largest unit that divides exactly, so the text reads back */
	while (i < 3 && bytes && !(bytes & ((1ull << (10 * (i + 2))) - 1)))
		i++;
	if (i < 0)
		return snprintf(buf, size, "%llu", (unsigned long long)bytes);
	return snprintf(buf, size, "%llu%c",
			(unsigned long long)(bytes >> (10 * (i + 1))),
			units[i]);
}
