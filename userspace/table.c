/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Building and parsing the fanraid table line. Pure string work, no ioctls,
 * so unit tests can prove that build(parse(x)) == x for everything the
 * kernel prints back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"
#include "table.h"
#include "util.h"

int fr_level_parse(const char *s, uint32_t *level)
{
	if (!strcmp(s, "raid0") || !strcmp(s, "0")) {
		*level = FR_LEVEL_RAID0;
		return 0;
	}
	if (!strcmp(s, "raid6") || !strcmp(s, "6")) {
		*level = FR_LEVEL_RAID6;
		return 0;
	}
	return -EINVAL;
}

/*
 * Writes the parameter string (without start, length and target name) for
 * @t into @buf. -EINVAL when the shape is invalid, -ENOSPC when @len is short.
 */
int fr_table_build(const struct fr_table *t, char *buf, size_t len)
{
	bool flush = t->flush_explicit ||
		     t->flush_policy != FR_FLUSH_PASSTHROUGH;
	size_t pos;
	uint32_t i;
	int n;

	if (fr_geom_check_shape(t->level, t->ndevs, t->chunk_sectors))
		return -EINVAL;
	if (t->flush_policy != FR_FLUSH_PASSTHROUGH &&
	    t->flush_policy != FR_FLUSH_DROP)
		return -EINVAL;
	n = snprintf(buf, len, "%s %u %u%s%s %u", fr_level_name(t->level),
		     t->chunk_sectors, flush ? 2 : 0,
		     flush ? " flush_policy " : "",
		     flush ? fr_flush_name(t->flush_policy) : "", t->ndevs);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	pos = n;
	for (i = 0; i < t->ndevs; i++) {
		n = snprintf(buf + pos, len - pos, " %u:%u %llu",
			     t->devs[i].major, t->devs[i].minor,
			     (unsigned long long)t->devs[i].offset);
		if (n < 0 || (size_t)n >= len - pos)
			return -ENOSPC;
		pos += n;
	}
	return 0;
}

/* "major:minor" with both parts strict decimal. */
static int parse_devno(const char *s, struct fr_table_dev *d)
{
	const char *colon = strchr(s, ':');
	char major[16];

	if (!colon || (size_t)(colon - s) >= sizeof(major))
		return -EINVAL;
	memcpy(major, s, colon - s);
	major[colon - s] = '\0';
	if (fr_parse_u32(major, &d->major) || fr_parse_u32(colon + 1, &d->minor))
		return -EINVAL;
	return 0;
}

static int parse_features(char **tok, uint32_t nargs, struct fr_table *t)
{
	bool seen_flush = false;
	uint32_t i;

	for (i = 0; i < nargs; i++) {
		if (!tok[i])
			return -EINVAL;
		if (!strcmp(tok[i], "flush_policy")) {
			if (seen_flush || i + 1 >= nargs || !tok[i + 1])
				return -EINVAL;
			seen_flush = true;
			i++;
			if (!strcmp(tok[i], "passthrough"))
				t->flush_policy = FR_FLUSH_PASSTHROUGH;
			else if (!strcmp(tok[i], "drop"))
				t->flush_policy = FR_FLUSH_DROP;
			else
				return -EINVAL;
			t->flush_explicit = true;
			continue;
		}
		return -EINVAL;
	}
	return 0;
}

/* Splits on single spaces, which is all the kernel ever prints. */
static int split(char *s, char **tok, int max)
{
	int n = 0;

	if (!*s)
		return 0;
	for (;;) {
		if (n == max)
			return -E2BIG;
		tok[n++] = s;
		s = strchr(s, ' ');
		if (!s)
			return n;
		*s++ = '\0';
		if (!*s || *s == ' ')
			return -EINVAL;
	}
}

#define FR_TABLE_MAX_TOKENS	(3 + 8 + 1 + 2 * FR_MAX_DEVS)

/* Parses a TABLE status line. 0, or -EINVAL for anything malformed. */
int fr_table_parse(const char *params, struct fr_table *t)
{
	char *tok[FR_TABLE_MAX_TOKENS + 1] = { NULL };
	char *copy = strdup(params);
	uint32_t nfeat, i;
	int ntok, pos, ret = -EINVAL;

	if (!copy)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	ntok = split(copy, tok, FR_TABLE_MAX_TOKENS);
	if (ntok < 4)
		goto out;
	if (fr_level_parse(tok[0], &t->level) || strncmp(tok[0], "raid", 4))
		goto out;
	if (fr_parse_u32(tok[1], &t->chunk_sectors) ||
	    fr_parse_u32(tok[2], &nfeat) || nfeat > (uint32_t)ntok - 4)
		goto out;
	if (parse_features(tok + 3, nfeat, t))
		goto out;
	pos = 3 + nfeat;
	if (fr_parse_u32(tok[pos], &t->ndevs) || !t->ndevs ||
	    t->ndevs > FR_MAX_DEVS)
		goto out;
	if ((uint32_t)ntok - pos - 1 != 2 * t->ndevs)
		goto out;
	pos++;
	for (i = 0; i < t->ndevs; i++, pos += 2) {
		if (parse_devno(tok[pos], &t->devs[i]) ||
		    fr_parse_u64(tok[pos + 1], &t->devs[i].offset))
			goto out;
	}
	if (fr_geom_check_shape(t->level, t->ndevs, t->chunk_sectors))
		goto out;
	ret = 0;
out:
	free(copy);
	return ret;
}

/*
 * The oldest target version that understands every part of @t, and the name
 * of the feature that needs it, so a refusal can say what is missing.
 */
const char *fr_table_required_version(const struct fr_table *t,
				      struct fr_version *v)
{
	v->major = 1;
	v->minor = 0;
	v->patch = 0;
	if (t->level == FR_LEVEL_RAID6)
		return "raid6";
	if (t->flush_explicit || t->flush_policy != FR_FLUSH_PASSTHROUGH)
		return "flush_policy";
	return "raid0";
}
