/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raidcalc <verb> [options] <table line>: the offline view of a fanraid
 * array. The table line is what `dmsetup table` prints (or just the words
 * from "fanraid" on, with -L), as separate words or as one quoted string.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const struct rc_command rc_commands[] = {
	{ "geom", "[-L len]", "print the geometry the kernel derives",
	  rc_cmd_geom },
	{ "layout", "[-L len] [-r first[:count]]",
	  "draw which member holds which chunk, P and Q", rc_cmd_layout },
	{ "map", "[-L len] -s logical [-n sectors]",
	  "logical sectors -> member, member sector", rc_cmd_map },
	{ "unmap", "[-L len] -m member -s sector",
	  "member sector -> logical sector, P or Q", rc_cmd_unmap },
	{ "verify", "[-L len] [-r first[:count]]",
	  "check P and Q of every row on the members (raid6)",
	  rc_cmd_verify },
	{ "read", "[-L len] [-s logical] [-n sectors] [-m missing] [-o file]",
	  "copy logical sectors out of the members", rc_cmd_read },
	{ "build", "[-L len] -i image",
	  "lay an image out onto member files or devices", rc_cmd_build },
	{ "rebuild", "[-L len] -m member",
	  "rewrite one member from the others (raid6)", rc_cmd_rebuild },
};

#define RC_NCOMMANDS (sizeof(rc_commands) / sizeof(rc_commands[0]))

static void rc_usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: raidcalc <verb> [options] [<start> <len>] fanraid <level> <chunk_sectors>\n"
		   "       <#feature_args> [<feature> [<value>]]* <#devs> <dev> <offset>...\n\n");
	for (i = 0; i < RC_NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n  %8s %s\n", rc_commands[i].name,
			rc_commands[i].usage, "", rc_commands[i].help);
	fprintf(f, "\nSectors are 512 bytes. Exit: 0 ok, 1 failure or mismatch, 2 usage.\n");
}

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

static int rc_parse_opts(int argc, char **argv, struct rc_opts *o)
{
	static const struct option longopts[] = {
		{ "len", required_argument, NULL, 'L' },
		{ "start", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "rows", required_argument, NULL, 'r' },
		{ "member", required_argument, NULL, 'm' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	u64 v;
	int c;

	/* "+": stop at the first table word, table words never start with - */
	while ((c = getopt_long(argc, argv, "+L:s:n:r:m:i:o:", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'L':
			if (!rc_opt_u64(optarg, &o->len) || !o->len)
				goto bad;
			break;
		case 's':
			if (!rc_opt_u64(optarg, &o->start))
				goto bad;
			break;
		case 'n':
			if (!rc_opt_u64(optarg, &o->count) || !o->count)
				goto bad;
			o->count_given = true;
			break;
		case 'r':
			if (!rc_opt_rows(optarg, o))
				goto bad;
			break;
		case 'm':
			if (!rc_opt_u64(optarg, &v) || v >= FR_MAX_DEVS)
				goto bad;
			o->member = (int)v;
			break;
		case 'i':
			o->input = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		default:
			return -1;
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	return 0;
bad:
	fprintf(stderr, "raidcalc %s: invalid value for -%c: '%s'\n", o->verb,
		c, optarg);
	return -1;
}

int main(int argc, char **argv)
{
	struct rc_opts o = { .member = -1 };
	unsigned int i;

	if (argc < 2) {
		rc_usage(stderr);
		return RC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		rc_usage(stdout);
		return RC_EXIT_OK;
	}
	for (i = 0; i < RC_NCOMMANDS; i++)
		if (!strcmp(argv[1], rc_commands[i].name))
			break;
	if (i == RC_NCOMMANDS) {
		fprintf(stderr, "raidcalc: unknown verb '%s'\n", argv[1]);
		rc_usage(stderr);
		return RC_EXIT_USAGE;
	}
	o.verb = rc_commands[i].name;
	if (rc_parse_opts(argc - 1, argv + 1, &o)) {
		fprintf(stderr, "usage: raidcalc %s %s <table line>\n", o.verb,
			rc_commands[i].usage);
		return RC_EXIT_USAGE;
	}
	return rc_commands[i].fn(&o);
}
