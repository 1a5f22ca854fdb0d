/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The raidcalc command: a table of verbs, each in its own cmd_<verb>.c,
 * sharing one parsed-options struct. Exit codes: 0 success, 1 failure
 * (including parity mismatches), 2 usage error.
 */
#ifndef RC_CLI_H
#define RC_CLI_H

#include "raidcalc.h"

enum {
	RC_EXIT_OK = 0,
	RC_EXIT_FAIL = 1,
	RC_EXIT_USAGE = 2,
};

/* Options, each meaningful to the verbs that list it in their usage. */
struct rc_opts {
	const char *verb;
	u64 len;		/* -L: target length when the table has none */
	u64 start;		/* -s: logical (or member) sector */
	u64 count;		/* -n: sectors */
	bool count_given;
	u64 first_row;		/* -r FIRST[:COUNT] */
	u64 nrows;
	bool rows_given;
	int member;		/* -m: member index, -1 when not given */
	const char *input;	/* -i */
	const char *output;	/* -o */
	int argc;		/* table words left after the options */
	char **argv;
};

struct rc_command {
	const char *name;
	const char *usage;	/* options only; the table line follows */
	const char *help;
	int (*fn)(struct rc_opts *o);
};

/* Parses the table words into @a; prints why not and returns exit code. */
int rc_cli_array(struct rc_opts *o, struct rc_array *a);

/* Opens the members; prints "<member>: <problem>: <errno text>". */
int rc_cli_open(struct rc_array *a, bool writable);

/* Reports a failed array operation the same way; returns RC_EXIT_FAIL. */
int rc_cli_fail(const struct rc_array *a, int err, const char *what);

const char *rc_cli_level(const struct fr_geom *g);

int rc_cmd_geom(struct rc_opts *o);
int rc_cmd_layout(struct rc_opts *o);
int rc_cmd_map(struct rc_opts *o);
int rc_cmd_unmap(struct rc_opts *o);
int rc_cmd_verify(struct rc_opts *o);
int rc_cmd_read(struct rc_opts *o);
int rc_cmd_build(struct rc_opts *o);
int rc_cmd_rebuild(struct rc_opts *o);

#endif /* RC_CLI_H */
