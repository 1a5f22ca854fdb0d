/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict number parsing: plain decimal digits only, no sign, no spaces, no
 * trailing characters, no silent wrap. strtoull alone accepts "-1", " 7"
 * and "7x", which is how parsers end up accepting garbage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util.h"

/*
 * 0, or -EINVAL for anything but decimal digits without leading zeros (the
 * kernel never prints them, so each number has exactly one spelling),
 * -ERANGE on overflow.
 */
int fr_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		d = *s - '0';
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int fr_parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;
	int ret = fr_parse_u64(s, &v);

	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

/* IEC units with two decimals, e.g. "3.99 GiB"; exact byte counts below 1 KiB. */
void fr_format_size(uint64_t bytes, char *out, size_t len)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int i = -1;

	if (bytes < 1024) {
		snprintf(out, len, "%llu B", (unsigned long long)bytes);
		return;
	}
	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	snprintf(out, len, "%.2f %s", v, unit[i]);
}
