/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command-line options into struct rc_opts. Each bad value is refused
 * here, before anything is opened, with one line naming the option and
 * the value: "raidcalc verify: --chunk '3K': Invalid chunk size: not a
 * power of two".
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Long-only options: values past any character a short option uses. */
enum {
	RC_OPT_LEVEL = 256,
	RC_OPT_DEVICES,
	RC_OPT_CHUNK,
	RC_OPT_MEMBER_SIZE,
	RC_OPT_DATA_OFFSET,
	RC_OPT_SIZE,
	RC_OPT_MISSING,
	RC_OPT_OUT,
};

static const struct option rc_longopts[] = {
	{ "len", required_argument, NULL, 'L' },
	{ "start", required_argument, NULL, 's' },
	{ "count", required_argument, NULL, 'n' },
	{ "rows", required_argument, NULL, 'r' },
	{ "member", required_argument, NULL, 'm' },
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "level", required_argument, NULL, RC_OPT_LEVEL },
	{ "devices", required_argument, NULL, RC_OPT_DEVICES },
	{ "chunk", required_argument, NULL, RC_OPT_CHUNK },
	{ "member-size", required_argument, NULL, RC_OPT_MEMBER_SIZE },
	{ "data-offset", required_argument, NULL, RC_OPT_DATA_OFFSET },
	{ "size", required_argument, NULL, RC_OPT_SIZE },
	{ "missing", required_argument, NULL, RC_OPT_MISSING },
	{ "out", required_argument, NULL, RC_OPT_OUT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static bool rc_opt_u64(const char *s, u64 *v)
{
	unsigned long long x;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	x = strtoull(s, &end, 10);
	*v = x;
	return !*end;
}

/* FIRST or FIRST:COUNT. */
static bool rc_opt_rows(const char *s, struct rc_opts *o)
{
	char buf[64], *colon;

	if (strlen(s) >= sizeof(buf))
		return false;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (!rc_opt_u64(buf, &o->first_row))
		return false;
	o->nrows = 0;
	if (colon && (!rc_opt_u64(colon + 1, &o->nrows) || !o->nrows))
		return false;
	o->rows_given = true;
	return true;
}

/* NULL when @s is a size in whole sectors, else why it is not. */
static const char *rc_opt_sectors(const char *s, u64 *bytes)
{
	if (rc_parse_size(s, bytes))
		return "not a size (digits, then K, M, G, T or s for sectors)";
	if (*bytes & ((1u << FR_SECTOR_SHIFT) - 1))
		return "not a multiple of 512 bytes";
	if (*bytes >> FR_SECTOR_SHIFT > FR_MAX_CAPACITY_SECTORS)
		return "too large";
	return NULL;
}

static const char *rc_opt_chunk(const char *s, u64 *bytes)
{
	enum fr_geom_err err = FR_GEOM_OK;

	if (rc_parse_size(s, bytes))
		return "not a size (digits, then K, M, G, T or s for sectors)";
	/* the geometry's own messages, checked in bytes first */
	if (fr_ilog2_exact(*bytes) < 0)
		err = FR_GEOM_ECHUNKPOW2;
	else if (*bytes >> FR_SECTOR_SHIFT < FR_MIN_CHUNK_SECTORS)
		err = FR_GEOM_ECHUNKSMALL;
	else
		err = fr_geom_check_chunk((u32)(*bytes >> FR_SECTOR_SHIFT));
	return err ? fr_geom_strerror(err) : NULL;
}

static const char *rc_opt_level(const char *s, u32 *level)
{
	if (!strcmp(s, "0") || !strcmp(s, "raid0"))
		*level = FR_LEVEL_RAID0;
	else if (!strcmp(s, "6") || !strcmp(s, "raid6"))
		*level = FR_LEVEL_RAID6;
	else
		return "must be 0 or 6";
	return NULL;
}

static const char *rc_opt_devices(const char *s, u32 *n)
{
	u64 v;

	if (!rc_opt_u64(s, &v))
		return "not a number";
	if (v > FR_MAX_DEVS)
		return fr_geom_strerror(FR_GEOM_ETOOMANYDEVS);
	if (!v)
		return "must be at least 1";
	*n = (u32)v;
	return NULL;
}

static const char *rc_opt_jobs(const char *s, unsigned int *jobs)
{
	u64 v;

	if (!rc_opt_u64(s, &v) || !v || v > RC_MAX_JOBS)
		return "must be a number from 1 to 64";
	*jobs = (unsigned int)v;
	return NULL;
}

/* "3,7": member indices, each below FR_MAX_DEVS, each once. */
static const char *rc_opt_missing(const char *s, u64 *mask)
{
	char buf[256], *tok, *save;
	u64 v;

	if (strlen(s) >= sizeof(buf))
		return "too long";
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!rc_opt_u64(tok, &v))
			return "not a list of member numbers (like 3,7)";
		if (v >= FR_MAX_DEVS)
			return "member number too large (max 63)";
		if (*mask & (1ull << v))
			return "member named twice";
		*mask |= 1ull << v;
	}
	return *mask ? NULL : "not a list of member numbers (like 3,7)";
}

/* The value of one option; NULL when good, else why not. */
static const char *rc_opt_value(int c, const char *arg, struct rc_opts *o)
{
	u64 v;

	switch (c) {
	case 'L':
		return rc_opt_u64(arg, &o->len) && o->len ? NULL :
		       "not a number of sectors";
	case 's':
		return rc_opt_u64(arg, &o->start) ? NULL : "not a number";
	case 'n':
		o->count_given = true;
		return rc_opt_u64(arg, &o->count) && o->count ? NULL :
		       "not a positive number";
	case 'r':
		return rc_opt_rows(arg, o) ? NULL :
		       "not FIRST or FIRST:COUNT";
	case 'm':
		if (!rc_opt_u64(arg, &v) || v >= FR_MAX_DEVS)
			return "not a member number";
		o->member = (int)v;
		return NULL;
	case 'i':
		o->input = arg;
		return NULL;
	case 'o':
		o->output = arg;
		return NULL;
	case 'j':
		return rc_opt_jobs(arg, &o->jobs);
	case RC_OPT_LEVEL:
		o->level_given = true;
		return rc_opt_level(arg, &o->level);
	case RC_OPT_DEVICES:
		return rc_opt_devices(arg, &o->ndevs);
	case RC_OPT_CHUNK:
		return rc_opt_chunk(arg, &o->chunk);
	case RC_OPT_MEMBER_SIZE:
		if (rc_opt_sectors(arg, &o->member_size))
			return rc_opt_sectors(arg, &o->member_size);
		return o->member_size ? NULL : "must not be 0";
	case RC_OPT_DATA_OFFSET:
		o->data_offset_given = true;
		return rc_opt_sectors(arg, &o->data_offset);
	case RC_OPT_SIZE:
		if (rc_opt_sectors(arg, &o->size))
			return rc_opt_sectors(arg, &o->size);
		return o->size ? NULL : "must not be 0";
	case RC_OPT_MISSING:
		return rc_opt_missing(arg, &o->missing);
	case RC_OPT_OUT:
		o->out = arg;
		return *arg ? NULL : "empty";
	}
	return "unknown option";
}

/* The spelling the user typed, for the message: -j or --jobs. */
static void rc_opt_name(int c, int longindex, char *buf, size_t size)
{
	if (longindex >= 0)
		snprintf(buf, size, "--%s", rc_longopts[longindex].name);
	else
		snprintf(buf, size, "-%c", c);
}

int rc_cli_parse_opts(int argc, char **argv, struct rc_opts *o)
{
	int c, longindex = -1;
	const char *why;
	char name[32];

	/*
	 * Options may follow the members (`recover A B missing --out D`).
	 * Table words never start with '-' but for the "- -" of a missing
	 * member, which getopt leaves alone, so permuting is safe for both.
	 */
	while ((c = getopt_long(argc, argv, "L:s:n:r:m:i:o:j:h", rc_longopts,
				&longindex)) != -1) {
		/* getopt has said what is wrong; the caller adds the usage */
		if (c == '?' || c == ':')
			return -2;
		if (c == 'h') {
			o->help = true;
			continue;
		}
		why = rc_opt_value(c, optarg, o);
		if (why) {
			rc_opt_name(c, longindex, name, sizeof(name));
			fprintf(stderr, "raidcalc %s: %s '%s': %s\n", o->verb,
				name, optarg, why);
			return -1;
		}
		if (c >= RC_OPT_LEVEL && c <= RC_OPT_SIZE)
			o->spec = true;
		longindex = -1;
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	return 0;
}
