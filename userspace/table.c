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

#include <fanraid/bitmap.h>

#include "sb.h"
#include "table.h"
#include "util.h"

int fr_flush_parse(const char *s, uint32_t *policy)
{
	uint32_t p;

	for (p = FR_FLUSH_PASSTHROUGH; p <= FR_FLUSH_DIRTY; p++)
		if (!strcmp(s, fr_flush_name(p))) {
			*policy = p;
			return 0;
		}
	return -EINVAL;
}

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
 * The stripe cache the target sizes itself when stripe_cache_mb is not
 * given: FR_R6_STRIPE_CACHE_DEFAULT_MB, raised to the geometry's minimum.
 */
uint32_t fr_stripe_cache_default_mb(uint32_t ndevs, uint32_t chunk_sectors)
{
	uint32_t min = fr_r6_stripe_cache_min_mb(ndevs, chunk_sectors);

	return min > FR_R6_STRIPE_CACHE_DEFAULT_MB ? min :
	       FR_R6_STRIPE_CACHE_DEFAULT_MB;
}

/* The kernel's stripe_cache_mb bounds; needs a valid raid6 shape. */
static bool stripe_cache_valid(const struct fr_table *t)
{
	uint32_t mb = t->stripe_cache_mb;

	return mb && mb <= FR_R6_STRIPE_CACHE_MAX_MB &&
	       mb >= fr_r6_stripe_cache_min_mb(t->ndevs, t->chunk_sectors);
}

/* Features that only make sense with parity, and the two-member loss limit. */
static bool features_valid(const struct fr_table *t)
{
	uint32_t i, lost = 0;

	if (t->flush_policy > FR_FLUSH_DIRTY)
		return false;
	if (t->ra_window_set &&
	    (!t->ra_window || t->ra_window > FR_RA_MAX_WINDOW))
		return false;
	if (t->ra_cache_set && t->ra_cache_mb > FR_RA_MAX_CACHE_MB)
		return false;
	if (t->ndevs < 64 && t->rebuild_mask >> t->ndevs)
		return false;
	if (t->ndevs < 64 && t->readd_mask >> t->ndevs)
		return false;
	if (t->rebuild_mask & t->readd_mask)
		return false;
	for (i = 0; i < t->ndevs; i++)
		lost += t->devs[i].missing ||
			((t->rebuild_mask | t->readd_mask) >> i & 1);
	if (t->safe_mode_delay_set && !t->superblock)
		return false;
	if ((t->bitmap_set && !t->superblock) ||
	    (t->readd_mask && !t->bitmap_set))
		return false;
	if (t->bitmap_set && (!t->bitmap_region ||
			      t->bitmap_region & (t->bitmap_region - 1) ||
			      t->bitmap_region > FR_BITMAP_MAX_REGION))
		return false;
	if (t->reshape && (t->reshape_old_ndevs >= t->ndevs ||
			   t->reshape_old_ndevs < fr_level_min_devs(t->level) ||
			   t->rebuild_mask || t->readd_mask ||
			   (t->level == FR_LEVEL_RAID6 && !t->superblock)))
		return false;
	if (t->level != FR_LEVEL_RAID6)
		return !lost && !t->resync && !t->max_sync_rate_set &&
		       !t->min_sync_rate_set &&
		       !t->stripe_cache_set && !t->max_read_errors_set &&
		       !t->superblock;
	if (t->stripe_cache_set && !stripe_cache_valid(t))
		return false;
	return lost <= FR_PARITY_DEVS_RAID6;
}

/*
 * Writes the parameter string (without start, length and target name) for
 * @t into @buf, features in the kernel's canonical order. -EINVAL when the
 * shape or the features are invalid, -ENOSPC when @len is short.
 */
int fr_table_build(const struct fr_table *t, char *buf, size_t len)
{
	bool flush = t->flush_explicit ||
		     t->flush_policy != FR_FLUSH_PASSTHROUGH;
	uint32_t i, words;
	size_t pos = 0;
	int n;

	if (fr_geom_check_shape(t->level, t->ndevs, t->chunk_sectors) ||
	    !features_valid(t))
		return -EINVAL;
	words = (flush ? 2 : 0) + (t->max_sync_rate_set ? 2 : 0) +
		(t->min_sync_rate_set ? 2 : 0) +
		2 * (uint32_t)__builtin_popcountll(t->rebuild_mask) +
		(t->resync ? 1 : 0) + (t->readahead_set ? 2 : 0) +
		(t->ra_window_set ? 2 : 0) + (t->ra_cache_set ? 2 : 0) +
		(t->stripe_cache_set ? 2 : 0) + (t->max_read_errors_set ? 2 : 0) +
		(t->superblock ? 1 : 0) + (t->safe_mode_delay_set ? 2 : 0) +
		(t->bitmap_set ? 2 : 0) +
		2 * (uint32_t)__builtin_popcountll(t->readd_mask) +
		(t->reshape ? 3 : 0);

#define FR_EMIT(...)							\
	do {								\
		n = snprintf(buf + pos, len - pos, __VA_ARGS__);	\
		if (n < 0 || (size_t)n >= len - pos)			\
			return -ENOSPC;					\
		pos += n;						\
	} while (0)

	if (!len)
		return -ENOSPC;
	FR_EMIT("%s %u %u", fr_level_name(t->level), t->chunk_sectors, words);
	if (flush)
		FR_EMIT(" flush_policy %s", fr_flush_name(t->flush_policy));
	if (t->max_sync_rate_set)
		FR_EMIT(" max_sync_rate %u", t->max_sync_rate);
	if (t->min_sync_rate_set)
		FR_EMIT(" min_sync_rate %u", t->min_sync_rate);
	for (i = 0; i < t->ndevs; i++)
		if (t->rebuild_mask >> i & 1)
			FR_EMIT(" rebuild %u", i);
	if (t->resync)
		FR_EMIT(" resync");
	if (t->readahead_set)
		FR_EMIT(" readahead %s", t->readahead_on ? "on" : "off");
	if (t->ra_window_set)
		FR_EMIT(" ra_window %u", t->ra_window);
	if (t->ra_cache_set)
		FR_EMIT(" ra_cache_mb %u", t->ra_cache_mb);
	if (t->stripe_cache_set)
		FR_EMIT(" stripe_cache_mb %u", t->stripe_cache_mb);
	if (t->max_read_errors_set)
		FR_EMIT(" max_read_errors %u", t->max_read_errors);
	if (t->superblock)
		FR_EMIT(" superblock");
	if (t->safe_mode_delay_set)
		FR_EMIT(" safe_mode_delay %u", t->safe_mode_delay);
	if (t->bitmap_set)
		FR_EMIT(" bitmap %u", t->bitmap_region);
	for (i = 0; i < t->ndevs; i++)
		if (t->readd_mask >> i & 1)
			FR_EMIT(" readd %u", i);
	if (t->reshape)
		FR_EMIT(" reshape %u %llu", t->reshape_old_ndevs,
			(unsigned long long)t->reshape_pos);
	FR_EMIT(" %u", t->ndevs);
	for (i = 0; i < t->ndevs; i++) {
		if (t->devs[i].missing)
			FR_EMIT(" - -");
		else
			FR_EMIT(" %u:%u %llu", t->devs[i].major,
				t->devs[i].minor,
				(unsigned long long)t->devs[i].offset);
	}
#undef FR_EMIT
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

/* The kernel's canonical order of features, which TABLE output follows. */
enum fr_feature_rank {
	FR_F_FLUSH_POLICY,
	FR_F_MAX_SYNC_RATE,
	FR_F_MIN_SYNC_RATE,
	FR_F_REBUILD,
	FR_F_RESYNC,
	FR_F_READAHEAD,
	FR_F_RA_WINDOW,
	FR_F_RA_CACHE_MB,
	FR_F_STRIPE_CACHE_MB,
	FR_F_MAX_READ_ERRORS,
	FR_F_SUPERBLOCK,
	FR_F_SAFE_MODE_DELAY,
	FR_F_BITMAP,
	FR_F_READD,
	FR_F_RESHAPE,
	FR_F_COUNT
};

/* Names by rank; NULL for the features that take no value. */
static const char *const fr_valued_features[FR_F_COUNT] = {
	[FR_F_FLUSH_POLICY] = "flush_policy",
	[FR_F_MAX_SYNC_RATE] = "max_sync_rate",
	[FR_F_MIN_SYNC_RATE] = "min_sync_rate",
	[FR_F_REBUILD] = "rebuild",
	[FR_F_READAHEAD] = "readahead",
	[FR_F_RA_WINDOW] = "ra_window",
	[FR_F_RA_CACHE_MB] = "ra_cache_mb",
	[FR_F_STRIPE_CACHE_MB] = "stripe_cache_mb",
	[FR_F_MAX_READ_ERRORS] = "max_read_errors",
	[FR_F_SAFE_MODE_DELAY] = "safe_mode_delay",
	[FR_F_BITMAP] = "bitmap",
	[FR_F_READD] = "readd",
	[FR_F_RESHAPE] = "reshape",
};

/*
 * Features as the kernel prints them back: canonical order, each once
 * (rebuild once per member, ascending). Anything else is not an echo.
 */
static int parse_features(char **tok, uint32_t nargs, struct fr_table *t)
{
	int last = -1, rank;	/* canonical position of the previous feature */
	uint32_t i, idx, prev_rebuild = 0, prev_readd = 0;

	for (i = 0; i < nargs; i++) {
		if (!tok[i])
			return -EINVAL;
		if (!strcmp(tok[i], "resync")) {
			rank = FR_F_RESYNC;
		} else if (!strcmp(tok[i], "superblock")) {
			rank = FR_F_SUPERBLOCK;
		} else {
			if (i + 1 >= nargs || !tok[i + 1])
				return -EINVAL;
			for (rank = 0; rank < FR_F_COUNT; rank++)
				if (fr_valued_features[rank] &&
				    !strcmp(tok[i], fr_valued_features[rank]))
					break;
			if (rank == FR_F_COUNT)
				return -EINVAL;
		}
		if (rank < last ||
		    (rank == last && rank != FR_F_REBUILD && rank != FR_F_READD))
			return -EINVAL;
		last = rank;
		switch (rank) {
		case FR_F_FLUSH_POLICY:
			if (fr_flush_parse(tok[++i], &t->flush_policy))
				return -EINVAL;
			t->flush_explicit = true;
			break;
		case FR_F_MAX_SYNC_RATE:
			if (fr_parse_u32(tok[++i], &t->max_sync_rate))
				return -EINVAL;
			t->max_sync_rate_set = true;
			break;
		case FR_F_MIN_SYNC_RATE:
			if (fr_parse_u32(tok[++i], &t->min_sync_rate))
				return -EINVAL;
			t->min_sync_rate_set = true;
			break;
		case FR_F_REBUILD:
			if (fr_parse_u32(tok[++i], &idx) || idx >= FR_MAX_DEVS ||
			    (t->rebuild_mask && idx <= prev_rebuild))
				return -EINVAL;
			t->rebuild_mask |= 1ull << idx;
			prev_rebuild = idx;
			break;
		case FR_F_RESYNC:
			t->resync = true;
			break;
		case FR_F_READAHEAD:
			if (strcmp(tok[++i], "on") && strcmp(tok[i], "off"))
				return -EINVAL;
			t->readahead_set = true;
			t->readahead_on = !strcmp(tok[i], "on");
			break;
		case FR_F_RA_WINDOW:
			if (fr_parse_u32(tok[++i], &t->ra_window))
				return -EINVAL;
			t->ra_window_set = true;
			break;
		case FR_F_RA_CACHE_MB:
			if (fr_parse_u32(tok[++i], &t->ra_cache_mb))
				return -EINVAL;
			t->ra_cache_set = true;
			break;
		case FR_F_STRIPE_CACHE_MB:
			/* bounds need ndevs: features_valid() checks them */
			if (fr_parse_u32(tok[++i], &t->stripe_cache_mb))
				return -EINVAL;
			t->stripe_cache_set = true;
			break;
		case FR_F_MAX_READ_ERRORS:
			if (fr_parse_u32(tok[++i], &t->max_read_errors))
				return -EINVAL;
			t->max_read_errors_set = true;
			break;
		case FR_F_SUPERBLOCK:
			t->superblock = true;
			break;
		case FR_F_SAFE_MODE_DELAY:
			if (fr_parse_u32(tok[++i], &t->safe_mode_delay))
				return -EINVAL;
			t->safe_mode_delay_set = true;
			break;
		case FR_F_BITMAP:
			if (fr_parse_u32(tok[++i], &t->bitmap_region))
				return -EINVAL;
			t->bitmap_set = true;
			break;
		case FR_F_RESHAPE:
			/* <old_ndevs> <position>: two values */
			if (i + 2 >= nargs || !tok[i + 2] ||
			    fr_parse_u32(tok[i + 1], &t->reshape_old_ndevs) ||
			    fr_parse_u64(tok[i + 2], &t->reshape_pos))
				return -EINVAL;
			i += 2;
			t->reshape = true;
			break;
		default:
			if (fr_parse_u32(tok[++i], &idx) || idx >= FR_MAX_DEVS ||
			    (t->readd_mask && idx <= prev_readd))
				return -EINVAL;
			t->readd_mask |= 1ull << idx;
			prev_readd = idx;
		}
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

#define FR_TABLE_MAX_TOKENS	(3 + 33 + 1 + 2 * FR_MAX_DEVS)

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
		if (!strcmp(tok[pos], "-") && !strcmp(tok[pos + 1], "-")) {
			t->devs[i].missing = true;
			continue;
		}
		if (parse_devno(tok[pos], &t->devs[i]) ||
		    fr_parse_u64(tok[pos + 1], &t->devs[i].offset))
			goto out;
	}
	if (fr_geom_check_shape(t->level, t->ndevs, t->chunk_sectors) ||
	    !features_valid(t))
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
	/* name the newest part used: the first check is the newest feature */
	v->major = 1;
	v->minor = 8;
	v->patch = 0;
	if (t->reshape && t->level == FR_LEVEL_RAID6)
		return "reshape on raid6";
	v->minor = 7;
	if (t->reshape)
		return "reshape";
	v->minor = 6;
	if (t->min_sync_rate_set)
		return "min_sync_rate";
	v->minor = 4;
	if (t->readd_mask)
		return "readd";
	if (t->bitmap_set)
		return "bitmap";
	v->minor = 3;
	if (t->safe_mode_delay_set)
		return "safe_mode_delay";
	if (t->superblock)
		return "superblock";
	v->minor = 2;
	if (t->max_read_errors_set)
		return "max_read_errors";
	v->minor = 1;
	if (t->stripe_cache_set)
		return "stripe_cache_mb";
	/* everything else arrived in 1.0.0 */
	v->minor = 0;
	if (t->readahead_set || t->ra_window_set || t->ra_cache_set)
		return "readahead";
	if (t->rebuild_mask)
		return "rebuild";
	if (t->resync)
		return "resync";
	if (t->max_sync_rate_set)
		return "max_sync_rate";
	if (t->flush_explicit || t->flush_policy != FR_FLUSH_PASSTHROUGH)
		return "flush_policy";
	return fr_level_name(t->level);
}
