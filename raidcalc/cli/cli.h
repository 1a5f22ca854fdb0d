/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The raidcalc command: a table of verbs, each in its own cmd_<verb>.c,
 * sharing one parsed-options struct. Exit codes: 0 success, 1 failure
 * (including parity mismatches), 2 usage error (and verify's I/O errors).
 */
#ifndef RC_CLI_H
#define RC_CLI_H

#include "raidcalc.h"

enum {
	RC_EXIT_OK = 0,
	RC_EXIT_FAIL = 1,
	RC_EXIT_USAGE = 2,
	/*
	 * verify keeps 1 for "parity mismatch", so its I/O errors (and a
	 * member path the option form cannot open) exit 2, as issue 2 asks
	 */
	RC_EXIT_IO = 2,
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
	/*
	 * The option form (issue 2): the array from options and member
	 * paths instead of a table line. Sizes are bytes.
	 */
	bool spec;		/* --level, --devices, --chunk, ... given */
	u32 level;
	bool level_given;
	u32 ndevs;		/* --devices, 0 when not given */
	u64 chunk;		/* --chunk, 0 when not given */
	u64 member_size;	/* --member-size, 0 when not given */
	u64 data_offset;	/* --data-offset */
	bool data_offset_given;
	u64 size;		/* --size: array size, 0 when not given */
	unsigned int jobs;	/* --jobs, 0: one per online CPU */
	u64 missing;		/* --missing: bit i for member i */
	const char *out;	/* --out DIR */
	bool help;		/* -h, --help: the verb's usage */
	int argc;		/* table words (or members, OFFSET) left */
	char **argv;
};

/* What the positional words are in the option form. */
enum rc_spec_kind {
	RC_SPEC_GEOMETRY,	/* none: layout, map (which takes OFFSET) */
	RC_SPEC_MEMBERS,	/* member paths, "missing" for absent ones */
};

struct rc_command {
	const char *name;
	const char *usage;	/* table form */
	const char *spec_usage;	/* option form, NULL if there is none */
	const char *help;
	int (*fn)(struct rc_opts *o);
};

/* Parses the table words into @a; prints why not and returns exit code. */
int rc_cli_array(struct rc_opts *o, struct rc_array *a);

/*
 * Builds @a from the option form; @min_len (sectors) sizes a geometry-only
 * array when no --member-size is given. Prints why not, returns exit code.
 */
int rc_cli_spec(struct rc_opts *o, struct rc_array *a, enum rc_spec_kind kind,
		u64 min_len);

/*
 * Parses the options in argv into @o. 0; -1 for a bad value (the message
 * is printed); -2 for an unknown option (getopt printed it).
 */
int rc_cli_parse_opts(int argc, char **argv, struct rc_opts *o);

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
int rc_cmd_recover(struct rc_opts *o);

#endif /* RC_CLI_H */
