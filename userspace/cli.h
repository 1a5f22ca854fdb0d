/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fanraid command line: a table of verbs, each in its own cmd_<verb>.c,
 * and one struct holding every parsed option.
 */
#ifndef FR_CLI_H
#define FR_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe.h"
#include "sb.h"

enum fr_exit {
	FR_EXIT_OK = 0,
	FR_EXIT_FAIL = 1,
	FR_EXIT_USAGE = 2,
};

/* Option bits; a verb lists the ones it accepts. */
enum fr_opt_bit {
	FR_OPT_LEVEL = 1u << 0,
	FR_OPT_CHUNK = 1u << 1,
	FR_OPT_DATA_OFFSET = 1u << 2,
	FR_OPT_FLUSH = 1u << 3,
	FR_OPT_READAHEAD = 1u << 4,
	FR_OPT_FORCE = 1u << 5,
	FR_OPT_UUID = 1u << 6,
	FR_OPT_SCAN = 1u << 7,
	FR_OPT_JSON = 1u << 8,
	FR_OPT_RA = 1u << 9,
	FR_OPT_RA_WINDOW = 1u << 10,
	FR_OPT_RA_CACHE = 1u << 11,
	FR_OPT_STRIPE_CACHE = 1u << 12,
	FR_OPT_BITMAP = 1u << 13,
	FR_OPT_ASSUME_CLEAN = 1u << 14,
	/* issue 14 (install like md): high bits, apart from the ones above */
	FR_OPT_EXPORT = 1u << 24,
	FR_OPT_RUN = 1u << 25,
	FR_OPT_CONFIG = 1u << 26,
	FR_OPT_ONESHOT = 1u << 27,
	FR_OPT_WATCH = 1u << 28,
	FR_OPT_ADD = 1u << 29,
	FR_OPT_CONTINUE = 1u << 30,
};

struct fr_opts {
	unsigned int given;		/* FR_OPT_* bits seen */
	uint32_t level;			/* enum fr_level */
	uint64_t chunk;			/* bytes; 0: from topology */
	uint64_t data_offset;		/* bytes; 0: from topology */
	uint32_t flush_policy;		/* enum fr_flush_policy */
	uint64_t readahead;		/* bytes; 0: kernel default */
	uint32_t ra_mode;		/* enum fr_ra_mode */
	uint32_t ra_window;		/* stripes; FR_RA_WINDOW_DEFAULT */
	uint32_t ra_cache_mb;		/* MiB; FR_RA_CACHE_DEFAULT */
	uint32_t stripe_cache_mb;	/* MiB, 1..4096; FR_STRIPE_CACHE_DEFAULT */
	uint64_t bitmap_region;		/* bytes; 0: the default */
	bool bitmap_none;		/* --bitmap none: raid6 without a bitmap */
	bool assume_clean;		/* create: parity needs no initial resync */
	bool force;
	bool scan;
	bool json;
	bool help;
	uint8_t uuid[FR_UUID_LEN];
	bool export_vars;		/* --export: udev KEY=value lines */
	bool run;			/* --run: start degraded now */
	bool oneshot;			/* --oneshot: monitor checks once */
	bool watch;			/* --watch: status redraws until killed */
	bool add;			/* grow --add: the positional DEVs join */
	bool cont;			/* grow --continue: finish a grow under way */
	const char *config;		/* --config FILE; NULL: FR_CONF_PATH */
	int argc;			/* positional arguments */
	char **argv;
};

struct fr_command {
	const char *name;
	const char *usage;		/* arguments and options, one line */
	const char *summary;
	int min_args;
	int max_args;			/* -1: no limit */
	unsigned int opts;		/* FR_OPT_* this verb accepts */
	int (*fn)(const struct fr_opts *o);
};

const struct fr_command *fr_command_find(const char *name);
int fr_opts_parse(const struct fr_command *cmd, int argc, char **argv,
		  struct fr_opts *o);
int fr_main(int argc, char **argv);
void fr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct fr_member;
struct fr_status;
struct fr_table;
struct fr_table_dev;
struct fr_dm_info;

#define FR_PATH_MAX		256

/* Helpers shared by the verbs (common.c). */
void fr_open_error(const char *path, int err);
void fr_sb_touch(struct fr_sb *sb, uint32_t set, uint32_t clear);
void fr_uuid_generate(uint8_t *uuid);
void fr_dm_uuid(const uint8_t *uuid, char *out, size_t len);
void fr_table_from_members(struct fr_member *const *slots, uint32_t n,
			   struct fr_table *t);
int fr_members_write(struct fr_member *const *slots, uint32_t n,
		     uint32_t set, uint32_t clear, uint64_t fail_set,
		     uint64_t fail_clear);
int fr_dm_check_version(const struct fr_table *t);
int fr_dm_info_or_err(const char *name, struct fr_dm_info *info);
int fr_dm_message_or_err(const char *name, const char *msg);
int fr_dm_swap_table_or_err(const char *name, uint64_t len,
			    const char *params);
int fr_array_open(const char *name, struct fr_table *t, uint64_t *len,
		  uint8_t *uuid);
void fr_table_dev_path(const struct fr_table_dev *d, char path[FR_PATH_MAX]);
int fr_members_from_table(const struct fr_table *t, const uint8_t *uuid,
			  enum fr_open_mode mode, struct fr_member *m,
			  char (*paths)[FR_PATH_MAX]);
long fr_readahead_kb_read(uint32_t major, uint32_t minor);
int fr_readahead_kb_write(uint32_t major, uint32_t minor, uint32_t kb);

int fr_cmd_create(const struct fr_opts *o);
int fr_cmd_assemble(const struct fr_opts *o);
int fr_cmd_stop(const struct fr_opts *o);
int fr_cmd_status(const struct fr_opts *o);
int fr_cmd_examine(const struct fr_opts *o);
int fr_cmd_list(const struct fr_opts *o);
int fr_cmd_fail(const struct fr_opts *o);
int fr_cmd_replace(const struct fr_opts *o);
int fr_cmd_add(const struct fr_opts *o);
int fr_cmd_readd(const struct fr_opts *o);
int fr_cmd_set(const struct fr_opts *o);
int fr_cmd_incremental(const struct fr_opts *o);
int fr_cmd_monitor(const struct fr_opts *o);
int fr_cmd_check(const struct fr_opts *o);
int fr_cmd_repair(const struct fr_opts *o);
int fr_cmd_idle(const struct fr_opts *o);
int fr_cmd_grow(const struct fr_opts *o);

/* What `fanraid set` was asked to change: each setting at most once. */
struct fr_settings {
	bool readahead_given;
	bool readahead_on;		/* message "readahead on|off" */
	bool ra_window_given;
	uint32_t ra_window;		/* stripes, 1..FR_RA_MAX_WINDOW */
	bool read_ahead_kb_given;
	bool read_ahead_kb_auto;	/* two full stripes */
	uint32_t read_ahead_kb;		/* when not auto */
	bool stripe_cache_given;
	uint32_t stripe_cache_mb;	/* 1..4096: a table reload, raid6 only */
	bool sync_min_given;
	uint32_t sync_min_kib;		/* KiB/s per member, 0 off: raid6 only */
	bool sync_max_given;
	uint32_t sync_max_kib;
};

#define FR_SET_READ_AHEAD_KB_MAX	(FR_SB_MAX_READAHEAD / 2)

int fr_set_parse(int argc, char **argv, struct fr_settings *s);
uint64_t fr_set_auto_kb(uint32_t level, uint32_t ndevs,
			uint32_t chunk_sectors);
void fr_set_reload_table(struct fr_table *t, const struct fr_status *st,
			 uint32_t stripe_cache_mb);

#endif /* FR_CLI_H */
