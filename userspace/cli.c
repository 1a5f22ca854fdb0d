/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Verb table, option parsing and dispatch. Usage errors exit 2, failures 1,
 * so scripts can tell "you called me wrong" from "it did not work".
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dm.h"
#include "raidcalc.h"
#include "table.h"
#include "util.h"

static const struct fr_command fr_commands[] = {
	{ "create",
	  "NAME --level 0|6 [--chunk SIZE] [--data-offset SIZE] [--flush passthrough|dirty|drop] [--readahead SIZE] [--ra on|off] [--ra-window STRIPES] [--ra-cache-mb MIB] [--stripe-cache-mb MIB] [--bitmap SIZE|none] [--assume-clean] [--force] DEV...",
	  "write superblocks on DEVs and start a new array",
	  2, 1 + FR_MAX_DEVS,
	  FR_OPT_LEVEL | FR_OPT_CHUNK | FR_OPT_DATA_OFFSET | FR_OPT_FLUSH |
	  FR_OPT_READAHEAD | FR_OPT_RA | FR_OPT_RA_WINDOW | FR_OPT_RA_CACHE |
	  FR_OPT_STRIPE_CACHE | FR_OPT_BITMAP | FR_OPT_ASSUME_CLEAN |
	  FR_OPT_FORCE,
	  fr_cmd_create },
	{ "assemble", "NAME|--uuid UUID [DEV...] | --scan [--config FILE] [--force]",
	  "start an existing array from its members' superblocks",
	  0, 1 + FR_MAX_DEVS,
	  FR_OPT_UUID | FR_OPT_SCAN | FR_OPT_FORCE | FR_OPT_CONFIG,
	  fr_cmd_assemble },
	{ "stop", "NAME", "stop an array and mark its members clean",
	  1, 1, 0, fr_cmd_stop },
	{ "status", "[NAME] [--json|--watch]",
	  "show running arrays: geometry, member health, counters, sync progress",
	  0, 1, FR_OPT_JSON | FR_OPT_WATCH, fr_cmd_status },
	{ "examine", "DEV [--json|--export] | --scan [--config FILE]",
	  "decode one member's superblock, or print fanraid.conf ARRAY lines",
	  0, 1, FR_OPT_JSON | FR_OPT_EXPORT | FR_OPT_SCAN | FR_OPT_CONFIG,
	  fr_cmd_examine },
	{ "list", "[--json]", "list running arrays", 0, 0, FR_OPT_JSON, fr_cmd_list },
	{ "fail", "NAME SLOT",
	  "mark one member failed in the kernel and in the superblocks",
	  2, 2, 0, fr_cmd_fail },
	{ "replace", "NAME SLOT|OLD DEV [--force]",
	  "rebuild a dead raid6 member onto DEV, or copy a healthy one onto DEV keeping redundancy",
	  3, 3, FR_OPT_FORCE, fr_cmd_replace },
	{ "add", "NAME DEV [--force]",
	  "give a running raid6 array a hot spare (or fill a dead slot at once)",
	  2, 2, FR_OPT_FORCE, fr_cmd_add },
	{ "grow", "NAME --add DEV... [--force] | NAME --continue",
	  "restripe a running raid0 or raid6 array onto more members, keeping its data; or finish a grow that was cut off",
	  1, 1 + FR_MAX_DEVS, FR_OPT_ADD | FR_OPT_CONTINUE | FR_OPT_FORCE,
	  fr_cmd_grow },
	{ "re-add", "NAME DEV",
	  "take a raid6 member back after a transient failure, recovering only what the bitmap says it missed",
	  2, 2, 0, fr_cmd_readd },
	{ "set",
	  "NAME [readahead on|off] [ra-window 1-64] [read-ahead-kb KIB|auto] [stripe-cache-mb MIB] [sync-speed-min RATE|off] [sync-speed-max RATE|off]",
	  "retune readahead, the stripe cache or the sync speed of a running array, recorded in the superblocks",
	  2, -1, 0, fr_cmd_set },
	{ "incremental", "DEV [--export] [--config FILE] | --run --uuid UUID",
	  "add a member as udev sees it; start its array once all members are there",
	  0, 1, FR_OPT_EXPORT | FR_OPT_CONFIG | FR_OPT_RUN | FR_OPT_UUID,
	  fr_cmd_incremental },
	{ "monitor", "[--oneshot] [--config FILE]",
	  "wait for array events; run PROGRAM and mail MAILADDR from fanraid.conf",
	  0, 0, FR_OPT_ONESHOT | FR_OPT_CONFIG, fr_cmd_monitor },
	{ "check", "[NAME]",
	  "scrub raid6 parity (every array without NAME); report mismatches",
	  0, 1, 0, fr_cmd_check },
	{ "repair", "NAME", "scrub and rewrite wrong raid6 parity",
	  1, 1, 0, fr_cmd_repair },
	{ "idle", "NAME", "stop a running check or repair", 1, 1, 0, fr_cmd_idle },
};

#define FR_NCOMMANDS (sizeof(fr_commands) / sizeof(fr_commands[0]))

void fr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void fr_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const struct fr_command *fr_command_find(const char *name)
{
	size_t i;

	for (i = 0; i < FR_NCOMMANDS; i++)
		if (!strcmp(fr_commands[i].name, name))
			return &fr_commands[i];
	return NULL;
}

static void usage_verb(FILE *f, const struct fr_command *cmd)
{
	fprintf(f, "usage: fanraid %s %s\n  %s\n", cmd->name, cmd->usage,
		cmd->summary);
}

static void usage_all(FILE *f)
{
	size_t i;

	fprintf(f, "usage: fanraid <command> [options] [args]\n\ncommands:\n");
	for (i = 0; i < FR_NCOMMANDS; i++)
		fprintf(f, "  %-11s %s\n", fr_commands[i].name,
			fr_commands[i].summary);
	fprintf(f, "\n'fanraid <command> --help' shows a command's options; see fanraid(8).\n");
}

/* Size options share one parser and one message. */
static int opt_size(const char *opt, const char *arg, uint64_t *out)
{
	if (rc_parse_size(arg, out) || !*out) {
		fr_err("%s %s: invalid size (a number of bytes, optionally with K, M, G, T or s for sectors)",
		       opt, arg);
		return -EINVAL;
	}
	return 0;
}

/* The long name of option @c, for messages (argv may hold its value instead). */
static const char *opt_name(const struct option *opts, int c)
{
	for (; opts->name; opts++)
		if (opts->val == c)
			return opts->name;
	return "?";
}

/*
 * Parses argv[1..] of @cmd (argv[0] is the verb) into @o. Returns 0, or
 * FR_EXIT_USAGE after printing what was wrong.
 */
int fr_opts_parse(const struct fr_command *cmd, int argc, char **argv,
		  struct fr_opts *o)
{
	static const struct option longopts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "data-offset", required_argument, NULL, 'o' },
		{ "flush", required_argument, NULL, 'F' },
		{ "readahead", required_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "uuid", required_argument, NULL, 'u' },
		{ "scan", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "ra", required_argument, NULL, 'A' },
		{ "ra-window", required_argument, NULL, 'W' },
		{ "ra-cache-mb", required_argument, NULL, 'C' },
		{ "stripe-cache-mb", required_argument, NULL, 'S' },
		{ "bitmap", required_argument, NULL, 'B' },
		{ "assume-clean", no_argument, NULL, 'Z' },
		{ "export", no_argument, NULL, 'x' },
		{ "run", no_argument, NULL, 'R' },
		{ "config", required_argument, NULL, 'K' },
		{ "oneshot", no_argument, NULL, 'O' },
		{ "watch", no_argument, NULL, 'w' },
		{ "add", no_argument, NULL, 'a' },
		{ "continue", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		int c;
		unsigned int bit;
	} bits[] = {
		{ 'l', FR_OPT_LEVEL }, { 'c', FR_OPT_CHUNK },
		{ 'o', FR_OPT_DATA_OFFSET }, { 'F', FR_OPT_FLUSH },
		{ 'r', FR_OPT_READAHEAD }, { 'f', FR_OPT_FORCE },
		{ 'u', FR_OPT_UUID }, { 's', FR_OPT_SCAN }, { 'j', FR_OPT_JSON },
		{ 'A', FR_OPT_RA }, { 'W', FR_OPT_RA_WINDOW },
		{ 'C', FR_OPT_RA_CACHE }, { 'S', FR_OPT_STRIPE_CACHE },
		{ 'B', FR_OPT_BITMAP }, { 'Z', FR_OPT_ASSUME_CLEAN },
		{ 'x', FR_OPT_EXPORT }, { 'R', FR_OPT_RUN },
		{ 'K', FR_OPT_CONFIG }, { 'O', FR_OPT_ONESHOT },
		{ 'w', FR_OPT_WATCH }, { 'a', FR_OPT_ADD },
		{ 'N', FR_OPT_CONTINUE },
	};
	int c, idx;
	size_t i;

	memset(o, 0, sizeof(*o));
	o->level = UINT32_MAX;
	o->ra_cache_mb = FR_RA_CACHE_DEFAULT;
	o->stripe_cache_mb = FR_STRIPE_CACHE_DEFAULT;
	optind = 0;	/* full reset: the tests parse many command lines */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":l:c:o:r:fu:sjh", longopts,
				&idx)) != -1) {
		unsigned int bit = 0;

		if (c == '?') {
			fr_err("%s: unknown option '%s'", cmd->name,
			       argv[optind - 1]);
			goto usage;
		}
		if (c == ':') {
			fr_err("%s: option '%s' needs a value", cmd->name,
			       argv[optind - 1]);
			goto usage;
		}
		if (c == 'h') {
			o->help = true;
			continue;
		}
		for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			if (bits[i].c == c)
				bit = bits[i].bit;
		if (!(cmd->opts & bit)) {
			fr_err("%s: option '--%s' is not valid for this command",
			       cmd->name, opt_name(longopts, c));
			goto usage;
		}
		if (o->given & bit) {
			fr_err("%s: option '--%s' given twice", cmd->name,
			       opt_name(longopts, c));
			goto usage;
		}
		o->given |= bit;
		switch (c) {
		case 'l':
			if (fr_level_parse(optarg, &o->level)) {
				fr_err("--level %s: must be 0 or 6 (raid0, raid6)",
				       optarg);
				goto usage;
			}
			break;
		case 'c':
			if (opt_size("--chunk", optarg, &o->chunk))
				goto usage;
			break;
		case 'o':
			if (opt_size("--data-offset", optarg, &o->data_offset))
				goto usage;
			break;
		case 'r':
			if (opt_size("--readahead", optarg, &o->readahead))
				goto usage;
			break;
		case 'F':
			if (fr_flush_parse(optarg, &o->flush_policy)) {
				fr_err("--flush %s: must be passthrough, dirty or drop",
				       optarg);
				goto usage;
			}
			break;
		case 'A':
			if (!strcmp(optarg, "on")) {
				o->ra_mode = FR_RA_ON;
			} else if (!strcmp(optarg, "off")) {
				o->ra_mode = FR_RA_OFF;
			} else {
				fr_err("--ra %s: must be on or off", optarg);
				goto usage;
			}
			break;
		case 'W':
			if (fr_parse_u32(optarg, &o->ra_window) || !o->ra_window ||
			    o->ra_window > FR_RA_MAX_WINDOW) {
				fr_err("--ra-window %s: must be 1 to %d stripes",
				       optarg, FR_RA_MAX_WINDOW);
				goto usage;
			}
			break;
		case 'C':
			if (fr_parse_u32(optarg, &o->ra_cache_mb) ||
			    o->ra_cache_mb > FR_RA_MAX_CACHE_MB) {
				fr_err("--ra-cache-mb %s: must be 0 to %d (MiB)",
				       optarg, FR_RA_MAX_CACHE_MB);
				goto usage;
			}
			break;
		case 'S':
			/* the geometry's minimum needs the chunk: create checks it */
			if (fr_parse_u32(optarg, &o->stripe_cache_mb) ||
			    !o->stripe_cache_mb ||
			    o->stripe_cache_mb > FR_R6_STRIPE_CACHE_MAX_MB) {
				fr_err("--stripe-cache-mb %s: must be 1 to %d (MiB)",
				       optarg, FR_R6_STRIPE_CACHE_MAX_MB);
				goto usage;
			}
			break;
		case 'B':
			/* the region's bounds need the chunk: create checks them */
			if (!strcmp(optarg, "none"))
				o->bitmap_none = true;
			else if (opt_size("--bitmap", optarg, &o->bitmap_region))
				goto usage;
			break;
		case 'Z':
			o->assume_clean = true;
			break;
		case 'f':
			o->force = true;
			break;
		case 's':
			o->scan = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'x':
			o->export_vars = true;
			break;
		case 'R':
			o->run = true;
			break;
		case 'K':
			o->config = optarg;
			break;
		case 'O':
			o->oneshot = true;
			break;
		case 'w':
			o->watch = true;
			break;
		case 'a':
			o->add = true;
			break;
		case 'N':
			o->cont = true;
			break;
		case 'u':
			if (fr_uuid_parse(optarg, o->uuid)) {
				fr_err("--uuid %s: not a UUID (32 hex digits)",
				       optarg);
				goto usage;
			}
			break;
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	if (o->help)
		return 0;
	if (o->json && o->watch) {
		fr_err("%s: --json and --watch do not go together", cmd->name);
		goto usage;
	}
	if (o->argc < cmd->min_args ||
	    (cmd->max_args >= 0 && o->argc > cmd->max_args)) {
		fr_err("%s: expected %s%d argument%s, got %d", cmd->name,
		       o->argc < cmd->min_args ? "at least " : "at most ",
		       o->argc < cmd->min_args ? cmd->min_args : cmd->max_args,
		       (o->argc < cmd->min_args ? cmd->min_args :
			cmd->max_args) == 1 ? "" : "s", o->argc);
		goto usage;
	}
	return 0;
usage:
	usage_verb(stderr, cmd);
	return FR_EXIT_USAGE;
}

int fr_main(int argc, char **argv)
{
	const struct fr_command *cmd;
	struct fr_opts o;
	int ret;

	if (argc < 2) {
		usage_all(stderr);
		return FR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage_all(stdout);
		return FR_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("fanraid %s\n", FR_VERSION);
		return FR_EXIT_OK;
	}
	cmd = fr_command_find(argv[1]);
	if (!cmd) {
		fr_err("%s: unknown command", argv[1]);
		usage_all(stderr);
		return FR_EXIT_USAGE;
	}
	ret = fr_opts_parse(cmd, argc - 1, argv + 1, &o);
	if (ret)
		return ret;
	if (o.help) {
		usage_verb(stdout, cmd);
		return FR_EXIT_OK;
	}
	fr_dm_init();
	return cmd->fn(&o);
}
