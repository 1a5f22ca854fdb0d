/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * raidcalc <verb> [options] <table line>: the offline view of a fanraid
 * array. The table line is what `dmsetup table` prints (or just the words
 * from "fanraid" on, with -L), as separate words or as one quoted string.
 * The option form (--level, --chunk, --data-offset, member paths) is the
 * same array described the way an administrator would, for arrays with no
 * table at hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const struct rc_command rc_commands[] = {
	{ "geom", "[-L len] <table>", NULL,
	  "print the geometry the kernel derives", rc_cmd_geom },
	{ "layout", "[-L len] [-r first[:count]] <table>",
	  "--level 0|6 --devices N --chunk SIZE [--member-size SIZE]\n"
	  "           [--data-offset SIZE] [-r first[:count]]",
	  "data disks, stripe sizes, mkfs hints; draw which member holds\n"
	  "           which chunk, P and Q", rc_cmd_layout },
	{ "map", "[-L len] -s logical [-n sectors] <table>",
	  "--level 0|6 --devices N --chunk SIZE [--member-size SIZE]\n"
	  "           [--data-offset SIZE] OFFSET",
	  "logical sectors (table) or byte OFFSET -> member, member offset,\n"
	  "           the row's P and Q members", rc_cmd_map },
	{ "unmap", "[-L len] -m member -s sector <table>", NULL,
	  "member sector -> logical sector, P or Q", rc_cmd_unmap },
	{ "verify", "[-L len] [-r first[:count]] [-j jobs] <table>",
	  "--level 6 --chunk SIZE --data-offset SIZE [--size SIZE]\n"
	  "           [-r first[:count]] [-j jobs] MEMBER|missing...",
	  "check P and Q of every row on the members (raid6); exit 1 on a\n"
	  "           mismatch, 2 on a usage or I/O error", rc_cmd_verify },
	{ "recover", "[-L len] [--missing i,j] --out DIR <table>",
	  "--level 6 --chunk SIZE --data-offset SIZE [--size SIZE]\n"
	  "           [--missing i,j] --out DIR MEMBER|missing...",
	  "rebuild lost members (missing, or named by --missing) into\n"
	  "           DIR/member<i>.img", rc_cmd_recover },
	{ "read", "[-L len] [-s logical] [-n sectors] [-m missing] [-o file] <table>",
	  NULL, "copy logical sectors out of the members", rc_cmd_read },
	{ "build", "[-L len] -i image <table>", NULL,
	  "lay an image out onto member files or devices", rc_cmd_build },
	{ "rebuild", "[-L len] -m member <table>", NULL,
	  "rewrite one member from the others in place (raid6)",
	  rc_cmd_rebuild },
};

#define RC_NCOMMANDS (sizeof(rc_commands) / sizeof(rc_commands[0]))

static void rc_usage(FILE *f)
{
	const struct rc_command *c;
	unsigned int i;

	fprintf(f, "usage: raidcalc <verb> [options] <table>\n"
		   "       raidcalc <verb> [options] --level 0|6 --chunk SIZE ...   (option form)\n\n"
		   "<table> is a fanraid table line as `dmsetup table` prints it, as\n"
		   "separate words or one quoted string:\n"
		   "  [<start> <len>] fanraid <level> <chunk_sectors> <#feature_args>\n"
		   "  [<feature> [<value>]]* <#devs> <dev> <offset>...\n\n");
	for (i = 0; i < RC_NCOMMANDS; i++) {
		c = &rc_commands[i];
		fprintf(f, "  %-8s %s\n", c->name, c->usage);
		if (c->spec_usage)
			fprintf(f, "  %-8s %s\n", "", c->spec_usage);
		fprintf(f, "  %8s %s\n\n", "", c->help);
	}
	fprintf(f, "Table numbers are 512-byte sectors. Option sizes are bytes, with K, M, G\n"
		   "or T for powers of 1024; the chunk is a power of two from 4K to 16M.\n"
		   "Without --size, verify and recover use the smallest member minus the\n"
		   "data offset, in whole chunks. -j defaults to one thread per CPU.\n"
		   "Exit: 0 ok, 1 failure or parity mismatch, 2 usage (and verify I/O) error.\n");
}

static void rc_verb_usage(FILE *f, const struct rc_command *c)
{
	fprintf(f, "usage: raidcalc %s %s\n", c->name, c->usage);
	if (c->spec_usage)
		fprintf(f, "       raidcalc %s %s\n", c->name, c->spec_usage);
	fprintf(f, "       %s\n", c->help);
}

int main(int argc, char **argv)
{
	struct rc_opts o = { .member = -1 };
	unsigned int i;
	int ret;

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
	ret = rc_cli_parse_opts(argc - 1, argv + 1, &o);
	if (ret == -1)
		return RC_EXIT_USAGE;
	if (ret || o.help) {
		rc_verb_usage(o.help ? stdout : stderr, &rc_commands[i]);
		return o.help ? RC_EXIT_OK : RC_EXIT_USAGE;
	}
	if (o.spec && !rc_commands[i].spec_usage) {
		fprintf(stderr, "raidcalc %s: takes a table line; the option form is for layout, map, verify and recover\n",
			o.verb);
		return RC_EXIT_USAGE;
	}
	return rc_commands[i].fn(&o);
}
