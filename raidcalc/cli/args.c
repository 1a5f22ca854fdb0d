/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Turning the command's table words into an array, and reporting failures
 * the house way: name the table word or the member first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/*
 * The longest table: "<start> <len> fanraid <level> <chunk> <#features>",
 * the most feature words, "<#devs>" and a pair per member.
 */
#define RC_MAX_WORDS	(6 + RC_FEATURE_WORDS_MAX + 1 + 2 * FR_MAX_DEVS)

/* "$(dmsetup table x)" arrives as one word: split it on blanks. */
static int rc_split(char *line, char **words, int max)
{
	char *tok, *save;
	int n = 0;

	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (n == max)
			return -1;
		words[n++] = tok;
	}
	return n;
}

int rc_cli_array(struct rc_opts *o, struct rc_array *a)
{
	char *split[RC_MAX_WORDS], **argv = o->argv;
	int argc = o->argc, err;

	if (argc == 1 && strpbrk(argv[0], " \t\n")) {
		argc = rc_split(argv[0], split, RC_MAX_WORDS);
		argv = split;
		if (argc < 0) {
			fprintf(stderr, "raidcalc %s: table: more than the %d words of the longest fanraid table\n",
				o->verb, RC_MAX_WORDS);
			return RC_EXIT_USAGE;
		}
	}
	if (argc < 1) {
		fprintf(stderr, "raidcalc %s: missing table line\n", o->verb);
		return RC_EXIT_USAGE;
	}
	err = rc_array_parse(a, argc, argv, o->len);
	if (!err)
		return RC_EXIT_OK;
	if (a->error_arg > 0 && (int)a->error_arg <= argc)
		fprintf(stderr, "raidcalc %s: table word %u '%s': %s\n",
			o->verb, a->error_arg, argv[a->error_arg - 1],
			a->error);
	else
		fprintf(stderr, "raidcalc %s: table: %s\n", o->verb, a->error);
	return RC_EXIT_USAGE;
}

int rc_cli_fail(const struct rc_array *a, int err, const char *what)
{
	const char *why = a->error ? a->error : what;

	if (a->error_dev >= 0 && a->error_dev < (int)a->nmembers)
		fprintf(stderr, "%s: %s: %s\n", a->members[a->error_dev].dev,
			why, strerror(-err));
	else
		fprintf(stderr, "raidcalc: %s: %s\n", why, strerror(-err));
	return RC_EXIT_FAIL;
}

int rc_cli_open(struct rc_array *a, bool writable)
{
	int err = rc_array_open(a, writable);

	return err ? rc_cli_fail(a, err, "Cannot open members") : RC_EXIT_OK;
}

const char *rc_cli_level(const struct fr_geom *g)
{
	return g->level == FR_LEVEL_RAID6 ? "raid6" : "raid0";
}
