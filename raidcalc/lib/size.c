/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Byte sizes on the command line: "512K", "1M", "3T" or a plain number of
 * bytes. Suffixes are powers of 1024, as dmsetup, mkfs and fio read them,
 * so "--chunk 512K" means the same thing to every tool in a recipe.
 */
#include <errno.h>
#include <stdio.h>
#include "raidcalc.h"

/* Shift for a suffix letter; -1 when @c is none of K, M, G, T. */
static int rc_size_shift(char c)
{
	switch (c) {
	case 'k':
	case 'K':
		return 10;
	case 'm':
	case 'M':
		return 20;
	case 'g':
	case 'G':
		return 30;
	case 't':
	case 'T':
		return 40;
	}
	return -1;
}

int rc_parse_size(const char *s, u64 *bytes)
{
	u64 v = 0;
	int shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	/* digit by digit, so overflow is caught rather than wrapped */
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (u64)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (u64)(*s - '0');
	}
	if (*s) {
		shift = rc_size_shift(*s++);
		/* "512KiB" and "512KB" read as "512K" too */
		if (*s == 'i' && s[1] == 'B')
			s += 2;
		else if (*s == 'B')
			s++;
		if (shift < 0 || *s)
			return -EINVAL;
	}
	if (shift && v > UINT64_MAX >> shift)
		return -ERANGE;
	*bytes = v << shift;
	return 0;
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
