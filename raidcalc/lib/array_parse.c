/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fanraid table line, read the way the target's constructor reads it,
 * so that raidcalc derives exactly the geometry the kernel uses:
 *
 *	[<start> <len>] fanraid <level> <chunk_sectors> <#feature_args>
 *		[<feature> [<value>]]* <#devs> <dev> <offset> [<dev> <offset>]...
 *
 * Every failure sets a static message naming the argument, and the index of
 * the offending word.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fanraid/bitmap.h>
#include "internal.h"

/* Words not yet consumed. */
struct rc_words {
	int argc;
	char *const *argv;
	int pos;
};

static int rc_fail(struct rc_array *a, const struct rc_words *w,
		   const char *msg)
{
	a->error = msg;
	a->error_arg = (unsigned int)w->pos;
	return -EINVAL;
}

/* For problems of the whole line rather than of one word. */
static int rc_fail_line(struct rc_array *a, const char *msg)
{
	a->error = msg;
	a->error_arg = 0;
	return -EINVAL;
}

/* Propagates a parse failure; every step below either succeeds or says why. */
#define RC_TRY(expr)			\
	do {					\
		int rc_err_ = (expr);		\
		if (rc_err_)			\
			return rc_err_;		\
	} while (0)

static const char *rc_next(struct rc_words *w)
{
	return w->pos < w->argc ? w->argv[w->pos++] : NULL;
}

/*
 * A whole decimal word as kstrtoull() reads it: an optional '+', digits,
 * nothing after them, no overflow.
 */
static bool rc_parse_u64(const char *s, u64 *v)
{
	unsigned long long x;
	char *end;

	if (s && *s == '+')
		s++;
	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

static bool rc_parse_u32(const char *s, u32 *v)
{
	u64 x;

	if (!rc_parse_u64(s, &x) || x > UINT32_MAX)
		return false;
	*v = (u32)x;
	return true;
}

static int rc_parse_level(struct rc_array *a, struct rc_words *w, u32 *level)
{
	const char *s = rc_next(w);

	if (s && !strcmp(s, "raid0"))
		*level = FR_LEVEL_RAID0;
	else if (s && !strcmp(s, "raid6"))
		*level = FR_LEVEL_RAID6;
	else
		return rc_fail(a, w, fr_geom_strerror(FR_GEOM_EBADLEVEL));
	return 0;
}

static int rc_parse_chunk(struct rc_array *a, struct rc_words *w, u32 *chunk)
{
	enum fr_geom_err err;

	if (!rc_parse_u32(rc_next(w), chunk))
		return rc_fail(a, w, "Invalid chunk size: not a number");
	err = fr_geom_check_chunk(*chunk);
	return err ? rc_fail(a, w, fr_geom_strerror(err)) : 0;
}

static int rc_parse_flush_policy(struct rc_array *a, struct rc_words *w,
				 const char *val)
{
	if (a->flush_given)
		return rc_fail(a, w, "Feature flush_policy duplicated");
	if (!strcmp(val, "passthrough"))
		a->flush = RC_FLUSH_PASSTHROUGH;
	else if (!strcmp(val, "drop"))
		a->flush = RC_FLUSH_DROP;
	else if (!strcmp(val, "dirty"))
		a->flush = RC_FLUSH_DIRTY;
	else
		return rc_fail(a, w, "Invalid flush_policy: must be passthrough, dirty or drop");
	a->flush_given = true;
	return 0;
}

static int rc_parse_max_sync_rate(struct rc_array *a, struct rc_words *w,
				  const char *val)
{
	if (a->max_sync_rate_given)
		return rc_fail(a, w, "Feature max_sync_rate duplicated");
	if (!rc_parse_u32(val, &a->max_sync_rate))
		return rc_fail(a, w, "Invalid max_sync_rate: not a number of KiB/s");
	a->max_sync_rate_given = true;
	return 0;
}

static int rc_parse_min_sync_rate(struct rc_array *a, struct rc_words *w,
				  const char *val)
{
	if (a->min_sync_rate_given)
		return rc_fail(a, w, "Feature min_sync_rate duplicated");
	if (!rc_parse_u32(val, &a->min_sync_rate))
		return rc_fail(a, w, "Invalid min_sync_rate: not a number of KiB/s");
	a->min_sync_rate_given = true;
	return 0;
}

static int rc_parse_rebuild(struct rc_array *a, struct rc_words *w,
			    const char *val)
{
	u32 idx;

	if (!rc_parse_u32(val, &idx) || idx >= FR_MAX_DEVS)
		return rc_fail(a, w, "Invalid rebuild index");
	if (a->rebuild & (1ull << idx))
		return rc_fail(a, w, "Feature rebuild duplicated for one member");
	a->rebuild |= 1ull << idx;
	return 0;
}

static int rc_parse_readahead(struct rc_array *a, struct rc_words *w,
			      const char *val)
{
	if (a->readahead_given)
		return rc_fail(a, w, "Feature readahead duplicated");
	if (!strcmp(val, "on"))
		a->readahead = true;
	else if (!strcmp(val, "off"))
		a->readahead = false;
	else
		return rc_fail(a, w, "Invalid readahead: must be on or off");
	a->readahead_given = true;
	return 0;
}

static int rc_parse_ra_window(struct rc_array *a, struct rc_words *w,
			      const char *val)
{
	if (a->ra_window_given)
		return rc_fail(a, w, "Feature ra_window duplicated");
	if (!rc_parse_u32(val, &a->ra_window) || !a->ra_window ||
	    a->ra_window > FR_RA_MAX_WINDOW)
		return rc_fail(a, w, "Invalid ra_window: must be 1-64 stripes");
	a->ra_window_given = true;
	return 0;
}

/* 0 is valid: the target then allocates no readahead cache at all. */
static int rc_parse_ra_cache_mb(struct rc_array *a, struct rc_words *w,
				const char *val)
{
	if (a->ra_cache_mb_given)
		return rc_fail(a, w, "Feature ra_cache_mb duplicated");
	if (!rc_parse_u32(val, &a->ra_cache_mb) ||
	    a->ra_cache_mb > FR_RA_MAX_CACHE_MB)
		return rc_fail(a, w, "Invalid ra_cache_mb: must be 0-4096 MiB");
	a->ra_cache_mb_given = true;
	return 0;
}

/* The geometry's minimum needs the members: rc_check_features() has it. */
static int rc_parse_stripe_cache_mb(struct rc_array *a, struct rc_words *w,
				    const char *val)
{
	if (a->stripe_cache_mb_given)
		return rc_fail(a, w, "Feature stripe_cache_mb duplicated");
	if (!rc_parse_u32(val, &a->stripe_cache_mb) || !a->stripe_cache_mb ||
	    a->stripe_cache_mb > FR_R6_STRIPE_CACHE_MAX_MB)
		return rc_fail(a, w, "Invalid stripe_cache_mb: must be 1-4096 MiB");
	a->stripe_cache_mb_given = true;
	return 0;
}

static int rc_parse_max_read_errors(struct rc_array *a, struct rc_words *w,
				    const char *val)
{
	if (a->max_read_errors_given)
		return rc_fail(a, w, "Feature max_read_errors duplicated");
	if (!rc_parse_u32(val, &a->max_read_errors))
		return rc_fail(a, w, "Invalid max_read_errors: not a number (0-4294967295)");
	a->max_read_errors_given = true;
	return 0;
}

static int rc_parse_safe_mode_delay(struct rc_array *a, struct rc_words *w,
				    const char *val)
{
	if (a->safe_mode_delay_given)
		return rc_fail(a, w, "Feature safe_mode_delay duplicated");
	if (!rc_parse_u32(val, &a->safe_mode_delay))
		return rc_fail(a, w, "Invalid safe_mode_delay: not a number of ms (0-4294967295)");
	a->safe_mode_delay_given = true;
	return 0;
}

static int rc_parse_bitmap(struct rc_array *a, struct rc_words *w,
			   const char *val)
{
	u32 r;

	if (a->bitmap_given)
		return rc_fail(a, w, "Feature bitmap duplicated");
	if (!rc_parse_u32(val, &r) || !r || r & (r - 1) ||
	    r > FR_BITMAP_MAX_REGION)
		return rc_fail(a, w, "Invalid bitmap region: not a power of two of sectors (1-2147483648)");
	a->bitmap_region = r;
	a->bitmap_given = true;
	return 0;
}

static int rc_parse_readd(struct rc_array *a, struct rc_words *w,
			  const char *val)
{
	u32 idx;

	if (!rc_parse_u32(val, &idx) || idx >= FR_MAX_DEVS)
		return rc_fail(a, w, "Invalid readd index");
	if (a->readd & (1ull << idx))
		return rc_fail(a, w, "Feature readd duplicated for one member");
	a->readd |= 1ull << idx;
	return 0;
}

/* Features that take a value; resync and superblock, which do not, are apart. */
static const struct {
	const char *name;
	int (*parse)(struct rc_array *a, struct rc_words *w, const char *val);
} rc_valued_features[] = {
	{ "flush_policy", rc_parse_flush_policy },
	{ "max_sync_rate", rc_parse_max_sync_rate },
	{ "min_sync_rate", rc_parse_min_sync_rate },
	{ "rebuild", rc_parse_rebuild },
	{ "readahead", rc_parse_readahead },
	{ "ra_window", rc_parse_ra_window },
	{ "ra_cache_mb", rc_parse_ra_cache_mb },
	{ "stripe_cache_mb", rc_parse_stripe_cache_mb },
	{ "max_read_errors", rc_parse_max_read_errors },
	{ "safe_mode_delay", rc_parse_safe_mode_delay },
	{ "bitmap", rc_parse_bitmap },
	{ "readd", rc_parse_readd },
};

/* reshape <old_ndevs> <position>, checked against the geometry later. */
static int rc_parse_reshape(struct rc_array *a, struct rc_words *w, int end)
{
	const char *old, *pos;

	if (a->reshape)
		return rc_fail(a, w, "Feature reshape duplicated");
	if (end - w->pos < 2)
		return rc_fail(a, w, "Feature reshape requires <old_ndevs> <position>");
	old = rc_next(w);
	pos = rc_next(w);
	if (!rc_parse_u32(old, &a->reshape_old_ndevs) ||
	    a->reshape_old_ndevs > FR_MAX_DEVS)
		return rc_fail(a, w, "Invalid reshape member count");
	if (!rc_parse_u64(pos, &a->reshape_pos))
		return rc_fail(a, w, "Invalid reshape position");
	a->reshape = true;
	return 0;
}

/*
 * The feature group, as the target reads it; its count counts words:
 * flush_policy passthrough|dirty|drop, max_sync_rate <KiB/s>,
 * min_sync_rate <KiB/s>, rebuild <idx> (up to twice), resync, readahead on|off, ra_window <stripes>,
 * ra_cache_mb <MiB>, stripe_cache_mb <MiB>, max_read_errors <count>,
 * superblock, safe_mode_delay <ms>, bitmap <region_sectors>, readd <idx>
 * (up to twice), reshape <old_ndevs> <position>.
 */
static int rc_parse_features(struct rc_array *a, struct rc_words *w)
{
	const unsigned int nf = sizeof(rc_valued_features) /
				sizeof(rc_valued_features[0]);
	const char *count, *name;
	unsigned int f;
	u32 nwords;
	int end;

	/*
	 * The target reads the count with kstrtouint() and then sscanf("%u"),
	 * which takes no '+'; dm_read_arg_group() refuses a count past the
	 * words left the same way.
	 */
	count = rc_next(w);
	if (!count || *count == '+' || !rc_parse_u32(count, &nwords) ||
	    nwords > RC_FEATURE_WORDS_MAX ||
	    nwords > (u32)(w->argc - w->pos))
		return rc_fail(a, w, "Invalid number of feature arguments");
	end = w->pos + (int)nwords;
	while (w->pos < end) {
		name = rc_next(w);
		if (!strcmp(name, "resync")) {
			if (a->resync)
				return rc_fail(a, w, "Feature resync duplicated");
			a->resync = true;
			continue;
		}
		if (!strcmp(name, "superblock")) {
			if (a->superblock)
				return rc_fail(a, w, "Feature superblock duplicated");
			a->superblock = true;
			continue;
		}
		if (!strcmp(name, "reshape")) {
			RC_TRY(rc_parse_reshape(a, w, end));
			continue;
		}
		for (f = 0; f < nf; f++)
			if (!strcmp(name, rc_valued_features[f].name))
				break;
		if (f == nf)
			return rc_fail(a, w, "Unrecognised feature argument");
		if (w->pos >= end)
			return rc_fail(a, w, "Feature argument requires a value");
		RC_TRY(rc_valued_features[f].parse(a, w, rc_next(w)));
	}
	return 0;
}

/* "- -" is a missing raid6 member, as in dm-raid. */
static int rc_parse_dev(struct rc_array *a, struct rc_words *w, u32 level,
			struct rc_member *m)
{
	const char *dev = rc_next(w), *off = rc_next(w);

	m->fd = -1;
	if (!strcmp(dev, "-")) {
		if (strcmp(off, "-"))
			return rc_fail(a, w, "Missing member needs - as its offset");
		if (level != FR_LEVEL_RAID6)
			return rc_fail(a, w, "Missing member (-) requires raid6");
		strcpy(m->dev, "-");
		m->missing = true;
		return 0;
	}
	if (!*dev)
		return rc_fail(a, w, "Invalid device name: empty");
	if (strlen(dev) >= sizeof(m->dev))
		return rc_fail(a, w, "Device name too long");
	strcpy(m->dev, dev);
	if (!rc_parse_u64(off, &m->offset))
		return rc_fail(a, w, "Invalid device offset: not a number or out of range");
	return 0;
}

static int rc_parse_devs(struct rc_array *a, struct rc_words *w, u32 level)
{
	enum fr_geom_err err;
	u32 n, i;

	if (w->pos >= w->argc)
		return rc_fail(a, w, "Missing device count");
	if (!rc_parse_u32(rc_next(w), &n))
		return rc_fail(a, w, "Invalid device count: not a number");
	err = fr_geom_check_devs(level, n);
	if (err)
		return rc_fail(a, w, fr_geom_strerror(err));
	if ((u64)(w->argc - w->pos) < 2ull * n)
		return rc_fail(a, w, "Device count larger than the <dev> <offset> pairs given");
	if ((u64)(w->argc - w->pos) > 2ull * n)
		return rc_fail(a, w, "Trailing arguments after the device list");
	for (i = 0; i < n; i++)
		RC_TRY(rc_parse_dev(a, w, level, &a->members[i]));
	a->nmembers = n;
	return 0;
}

/*
 * Without ra_cache_mb the target sizes a cache of at least 16 MiB, so only
 * an explicit 0 leaves "readahead on" with nowhere to put what it reads.
 */
static int rc_check_readahead(struct rc_array *a, struct rc_words *w)
{
	/* during a grow the target has no cache and does not ask */
	if (a->reshape)
		return 0;
	if (a->readahead_given && a->readahead && a->ra_cache_mb_given &&
	    !a->ra_cache_mb)
		return rc_fail(a, w, "Readahead on needs a cache (ra_cache_mb > 0)");
	return 0;
}

/*
 * What the target checks once level and members are known, in its order:
 * the stripe cache against the raid6 geometry (fanraid_r6_create), the
 * raid6-only features and members lost, then the readahead cache.
 */
static int rc_check_features(struct rc_array *a, struct rc_words *w,
			     u32 level, u32 chunk)
{
	unsigned int i, lost = 0;

	if (level == FR_LEVEL_RAID6 && a->stripe_cache_mb_given &&
	    a->stripe_cache_mb < fr_r6_stripe_cache_min_mb(a->nmembers, chunk))
		return rc_fail(a, w, "Invalid stripe_cache_mb: below the minimum for this raid6 geometry");
	if (a->safe_mode_delay_given && !a->superblock)
		return rc_fail(a, w, "Feature safe_mode_delay requires superblock");
	if (a->bitmap_given && !a->superblock)
		return rc_fail(a, w, "Feature bitmap requires superblock");
	if (a->readd && !a->bitmap_given)
		return rc_fail(a, w, "Feature readd requires bitmap");
	if (level != FR_LEVEL_RAID6) {
		if (a->resync || a->max_sync_rate_given ||
		    a->min_sync_rate_given || a->stripe_cache_mb_given || a->max_read_errors_given ||
		    a->superblock || a->rebuild)
			return rc_fail(a, w, "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6");
		return rc_check_readahead(a, w);
	}
	if (a->nmembers < FR_MAX_DEVS && a->rebuild >> a->nmembers)
		return rc_fail(a, w, "Invalid rebuild index: no such member");
	if (a->nmembers < FR_MAX_DEVS && a->readd >> a->nmembers)
		return rc_fail(a, w, "Invalid readd index: no such member");
	if (a->rebuild & a->readd)
		return rc_fail(a, w, "Member both rebuilt and re-added");
	for (i = 0; i < a->nmembers; i++) {
		/* a re-added member is stale wherever the bitmap is set */
		a->members[i].rebuilding = (a->rebuild | a->readd) & (1ull << i);
		if (a->members[i].rebuilding && a->members[i].missing)
			return rc_fail(a, w, "Cannot rebuild a missing member");
		lost += a->members[i].rebuilding || a->members[i].missing;
	}
	if (lost > FR_PARITY_DEVS_RAID6)
		return rc_fail(a, w, "Too many members missing or rebuilding for raid6 (max 2)");
	return rc_check_readahead(a, w);
}

/*
 * "<start> <len>" ahead of the target name, as dmsetup table prints it.
 * A first word that is not a number is taken as the target name; dmsetup
 * reads the span with sscanf("%" PRIu64), which takes a '+'.
 */
static int rc_parse_span(struct rc_array *a, struct rc_words *w, u64 *len)
{
	const char *first = w->argc < 1 ? "" : w->argv[0];

	if (*first == '+')
		first++;
	if (*first < '0' || *first > '9') {
		*len = 0;
		return 0;
	}
	if (!rc_parse_u64(rc_next(w), &a->start))
		return rc_fail(a, w, "Invalid start sector");
	if (!rc_parse_u64(rc_next(w), len) || !*len)
		return rc_fail(a, w, "Invalid target length");
	return 0;
}

/* The target's checks of a grow (fanraid_reshape_create()), in its order. */
static int rc_check_reshape(struct rc_array *a)
{
	u64 stripe = fr_geom_full_stripe_sectors(&a->geom);

	if (a->geom.level == FR_LEVEL_RAID6 && !a->superblock)
		return rc_fail_line(a, "Feature reshape on raid6 requires superblock");
	if (a->rebuild || a->readd)
		return rc_fail_line(a, "Feature reshape cannot run with rebuild or readd");
	if (a->reshape_old_ndevs < fr_level_min_devs(a->geom.level) ||
	    a->reshape_old_ndevs >= a->nmembers)
		return rc_fail_line(a, "Invalid reshape member count: must be below the table's");
	if (fr_geom_init(&a->old_geom, a->geom.level, a->reshape_old_ndevs,
			 a->geom.chunk_sectors, a->geom.member_sectors) ||
	    a->old_geom.capacity != a->len)
		return rc_fail_line(a, "Target length is not the old layout's capacity");
	if (a->reshape_pos > a->len ||
	    (a->reshape_pos != a->len && a->reshape_pos % stripe))
		return rc_fail_line(a, "Invalid reshape position: not a new row boundary");
	if (a->reshape_pos < fr_reshape_critical_sectors(&a->old_geom, &a->geom))
		return rc_fail_line(a, "Reshape position inside the critical section (copy it first)");
	return 0;
}

/* Member byte positions are off_t: offset plus data area must fit one. */
int rc_array_check_offsets(struct rc_array *a)
{
	const u64 max = (u64)INT64_MAX >> FR_SECTOR_SHIFT;
	unsigned int i;

	for (i = 0; i < a->nmembers; i++) {
		if (a->members[i].offset > max - a->geom.member_sectors) {
			a->error_dev = (int)i;
			return rc_fail_line(a, "Device offset plus member data area overflows");
		}
	}
	return 0;
}

int rc_array_parse(struct rc_array *a, int argc, char *const *argv, u64 len)
{
	struct rc_words w = { .argc = argc, .argv = argv };
	enum fr_geom_err gerr;
	u32 level, chunk;
	u64 tlen, ms;
	int err;

	memset(a, 0, sizeof(*a));
	a->error_dev = -1;
	err = rc_parse_span(a, &w, &tlen);
	if (err)
		return err;
	if (!w.argv || w.pos >= argc || strcmp(rc_next(&w), "fanraid"))
		return rc_fail(a, &w, "Expected target name fanraid");
	err = rc_parse_level(a, &w, &level);
	if (!err)
		err = rc_parse_chunk(a, &w, &chunk);
	if (!err)
		err = rc_parse_features(a, &w);
	if (!err)
		err = rc_parse_devs(a, &w, level);
	if (!err)
		err = rc_check_features(a, &w, level, chunk);
	if (err)
		return err;
	if (len && tlen && len != tlen)
		return rc_fail_line(a, "Target length given twice, and they differ");
	a->len = len ? len : tlen;
	if (!a->len)
		return rc_fail_line(a, "Missing target length (give -L or <start> <len>)");
	/* during a grow the length is still the old layout's */
	ms = fr_geom_member_sectors_for(level, a->reshape ?
					a->reshape_old_ndevs : a->nmembers,
					chunk, a->len);
	gerr = fr_geom_init(&a->geom, level, a->nmembers, chunk, ms);
	if (gerr)
		return rc_fail_line(a, fr_geom_strerror(gerr));
	err = rc_array_check_offsets(a);
	if (!err && a->reshape)
		err = rc_check_reshape(a);
	return err;
}

/* Words the feature group takes: a name and its value count as two. */
static unsigned int rc_feature_words(const struct rc_array *a)
{
	return 2 * a->flush_given + 2 * a->max_sync_rate_given +
	       2 * a->min_sync_rate_given +
	       2 * (unsigned int)__builtin_popcountll(a->rebuild) + a->resync +
	       2 * a->readahead_given + 2 * a->ra_window_given +
	       2 * a->ra_cache_mb_given + 2 * a->stripe_cache_mb_given +
	       2 * a->max_read_errors_given +
	       a->superblock + 2 * a->safe_mode_delay_given +
	       2 * a->bitmap_given +
	       2 * (unsigned int)__builtin_popcountll(a->readd) +
	       3 * a->reshape;
}

int rc_array_format(const struct rc_array *a, char *buf, size_t size)
{
	static const char *const flush[] = {
		[RC_FLUSH_PASSTHROUGH] = "passthrough",
		[RC_FLUSH_DROP] = "drop",
		[RC_FLUSH_DIRTY] = "dirty",
	};
	size_t used = 0;
	unsigned int i;
	int n;

	/* counts what a full line needs even once @buf is full */
#define RC_EMIT(...)							\
	do {								\
		n = snprintf(used < size ? buf + used : NULL,		\
			     used < size ? size - used : 0, __VA_ARGS__); \
		if (n < 0)						\
			return -EINVAL;					\
		used += (size_t)n;					\
	} while (0)

	RC_EMIT("fanraid %s %u %u", a->geom.level == FR_LEVEL_RAID6 ?
		"raid6" : "raid0", a->geom.chunk_sectors, rc_feature_words(a));
	/* the target's canonical order */
	if (a->flush_given)
		RC_EMIT(" flush_policy %s", flush[a->flush]);
	if (a->max_sync_rate_given)
		RC_EMIT(" max_sync_rate %u", a->max_sync_rate);
	if (a->min_sync_rate_given)
		RC_EMIT(" min_sync_rate %u", a->min_sync_rate);
	for (i = 0; i < FR_MAX_DEVS; i++)
		if (a->rebuild & (1ull << i))
			RC_EMIT(" rebuild %u", i);
	if (a->resync)
		RC_EMIT(" resync");
	if (a->readahead_given)
		RC_EMIT(" readahead %s", a->readahead ? "on" : "off");
	if (a->ra_window_given)
		RC_EMIT(" ra_window %u", a->ra_window);
	if (a->ra_cache_mb_given)
		RC_EMIT(" ra_cache_mb %u", a->ra_cache_mb);
	if (a->stripe_cache_mb_given)
		RC_EMIT(" stripe_cache_mb %u", a->stripe_cache_mb);
	if (a->max_read_errors_given)
		RC_EMIT(" max_read_errors %u", a->max_read_errors);
	if (a->superblock)
		RC_EMIT(" superblock");
	if (a->safe_mode_delay_given)
		RC_EMIT(" safe_mode_delay %u", a->safe_mode_delay);
	if (a->bitmap_given)
		RC_EMIT(" bitmap %u", a->bitmap_region);
	for (i = 0; i < FR_MAX_DEVS; i++)
		if (a->readd & (1ull << i))
			RC_EMIT(" readd %u", i);
	if (a->reshape)
		RC_EMIT(" reshape %u %llu", a->reshape_old_ndevs,
			(unsigned long long)a->reshape_pos);
	RC_EMIT(" %u", a->nmembers);
	for (i = 0; i < a->nmembers; i++) {
		if (a->members[i].missing)
			RC_EMIT(" - -");
		else
			RC_EMIT(" %s %llu", a->members[i].dev,
				(unsigned long long)a->members[i].offset);
	}
#undef RC_EMIT
	return used > INT32_MAX ? -EINVAL : (int)used;
}
