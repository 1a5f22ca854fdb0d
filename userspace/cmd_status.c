/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid status [NAME] [--json|--watch]: geometry from the TABLE line, health and
 * counters from the INFO line, readahead from sysfs. Read-only; needs no
 * superblock, so it works while members are held by the target.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dm.h"
#include "jsonout.h"
#include "probe.h"
#include "progress.h"
#include "spare.h"
#include "status.h"
#include "table.h"
#include "util.h"

/* Arrays whose sync progress one report (or a --watch) keeps samples of. */
#define FR_STATUS_PROGRESS_MAX	64

struct fr_status_ctx {
	bool json;
	struct json_object *arrays;	/* --json: the document's list */
	int json_err;			/* --json: -ENOMEM building it */
	int count;
	int failed;
	int worst;		/* FR_STATUS_EXIT_* of the sickest array */
	/* the last sample per syncing array: speed and time left need two */
	struct {
		char name[128];
		struct fr_progress p;
	} prog[FR_STATUS_PROGRESS_MAX];
	int nprog;
};

/*
 * Exit codes, as mdadm --detail --test: a script (or a monitoring check)
 * learns what is wrong without parsing. Errors outrank health.
 */
#define FR_STATUS_EXIT_DEGRADED	1	/* raid6 with members dead, missing or rebuilding */
#define FR_STATUS_EXIT_FAILED	2	/* data lost: raid0 short a member, raid6 short three */
#define FR_STATUS_EXIT_ERROR	4	/* no such array, status unreadable */

static int health_exit(const struct fr_status *st)
{
	uint32_t i, dead = 0, sick = 0;

	for (i = 0; i < st->ndevs; i++) {
		dead += st->health[i] == 'D';
		sick += st->health[i] != 'A';
	}
	if (dead > (st->level == FR_LEVEL_RAID6 ? 2u : 0u))
		return FR_STATUS_EXIT_FAILED;
	return sick ? FR_STATUS_EXIT_DEGRADED : 0;
}

/*
 * The target's readahead settings from its TABLE line: what `create` or
 * `set` chose, or "default" where the target picks (docs/fanraid.rst).
 */
static const char *ra_mode(const struct fr_table *t)
{
	return !t->readahead_set ? "default" : t->readahead_on ? "on" : "off";
}

static const char *ra_window(const struct fr_table *t, char *buf, size_t len)
{
	if (!t->ra_window_set)
		return "default";
	snprintf(buf, len, "%u stripes", t->ra_window);
	return buf;
}

static const char *ra_cache(const struct fr_table *t, char *buf, size_t len)
{
	if (!t->ra_cache_set)
		return "default";
	if (!t->ra_cache_mb)
		return "none";
	snprintf(buf, len, "%u MiB", t->ra_cache_mb);
	return buf;
}

/* RAID6 stripe cache size: the table's stripe_cache_mb, or the default. */
static const char *stripe_cache(const struct fr_table *t, char *buf, size_t len)
{
	if (t->stripe_cache_set)
		snprintf(buf, len, "%u MiB", t->stripe_cache_mb);
	else
		snprintf(buf, len, "%u MiB (default)",
			 fr_stripe_cache_default_mb(t->ndevs, t->chunk_sectors));
	return buf;
}

/*
 * "readahead" and "flushes_elided" are left out, not null, when the target
 * does not count them: status --json has always printed them that way.
 */
static int json_ra_stats(struct json_object *o, const struct fr_status *st)
{
	struct json_object *r;

	if (!st->has_ra_stats)
		return 0;
	r = fr_json_add_object(o, "readahead");
	if (fr_json_add_u64(r, "hits", st->ra_hits) ||
	    fr_json_add_u64(r, "misses", st->ra_misses) ||
	    fr_json_add_u64(r, "prefetched_sectors", st->ra_prefetched) ||
	    fr_json_add_u64(r, "wasted_sectors", st->ra_wasted))
		return -ENOMEM;
	return fr_json_add_u64(o, "flushes_elided", st->flushes_elided);
}

/*
 * "stripe_cache": null for raid0; held_kib and peak_kib are null when the
 * target is older than 1.1.0 and does not report them.
 */
static int json_stripe_cache(struct json_object *o, const struct fr_table *t,
			     const struct fr_status *st)
{
	struct json_object *c;

	if (t->level != FR_LEVEL_RAID6)
		return fr_json_add_null(o, "stripe_cache");
	c = fr_json_add_object(o, "stripe_cache");
	if (fr_json_add_u64(c, "mb", t->stripe_cache_set ? t->stripe_cache_mb :
			    fr_stripe_cache_default_mb(t->ndevs,
						       t->chunk_sectors)) ||
	    fr_json_add_bool(c, "default", !t->stripe_cache_set) ||
	    fr_json_add_u64_or_null(c, "held_kib", st->has_stripe_cache,
				    st->stripe_cache_kib) ||
	    fr_json_add_u64_or_null(c, "peak_kib", st->has_stripe_cache,
				    st->stripe_cache_peak_kib))
		return -ENOMEM;
	return 0;
}

/* "superblock": null without one, or from a target older than 1.3.0. */
static int json_superblock(struct json_object *o, const struct fr_table *t,
			   const struct fr_status *st)
{
	struct json_object *c;

	if (!st->has_sb || !t->superblock)
		return fr_json_add_null(o, "superblock");
	c = fr_json_add_object(o, "superblock");
	if (fr_json_add_str(c, "state", st->sb_state) ||
	    fr_json_add_u64(c, "events", st->sb_events))
		return -ENOMEM;
	return 0;
}

/* "bitmap": null without one, or from a target older than 1.4.0. */
static int json_bitmap(struct json_object *o, const struct fr_status *st)
{
	struct json_object *c;

	if (!st->has_bitmap || !st->bitmap_region_sectors)
		return fr_json_add_null(o, "bitmap");
	c = fr_json_add_object(o, "bitmap");
	if (fr_json_add_u64(c, "region_sectors", st->bitmap_region_sectors) ||
	    fr_json_add_u64(c, "dirty_regions", st->bitmap_dirty) ||
	    fr_json_add_u64(c, "sync_regions", st->sync_regions))
		return -ENOMEM;
	return 0;
}

static int json_spares(struct json_object *o, char (*spares)[FR_PATH_MAX],
		       int nspares)
{
	struct json_object *a = fr_json_add_array(o, "spares");
	int k;

	if (!a)
		return -ENOMEM;
	for (k = 0; k < nspares; k++)
		if (fr_json_push(a, json_object_new_string(spares[k])))
			return -ENOMEM;
	return 0;
}

/* A missing member has no device, devno or offset: null, not "-". */
static int json_members(struct json_object *o, const struct fr_table *t,
			const struct fr_status *st, char (*paths)[FR_PATH_MAX])
{
	struct json_object *a = fr_json_add_array(o, "members"), *m;
	char devno[24];
	uint32_t i;

	if (!a)
		return -ENOMEM;
	for (i = 0; i < t->ndevs; i++) {
		const struct fr_member_stats *s = &st->members[i];
		const struct fr_table_dev *d = &t->devs[i];

		snprintf(devno, sizeof(devno), "%u:%u", d->major, d->minor);
		m = fr_json_push_object(a);
		if (fr_json_add_u64(m, "slot", i) ||
		    fr_json_add_str(m, "device", d->missing ? NULL : paths[i]) ||
		    fr_json_add_str(m, "devno", d->missing ? NULL : devno) ||
		    fr_json_add_u64_or_null(m, "offset_sectors", !d->missing,
					    d->offset) ||
		    fr_json_add_str(m, "health",
				    fr_health_name(st->health[i])) ||
		    fr_json_add_u64(m, "reads", s->reads) ||
		    fr_json_add_u64(m, "writes", s->writes) ||
		    fr_json_add_u64(m, "read_sectors", s->read_sectors) ||
		    fr_json_add_u64(m, "write_sectors", s->write_sectors) ||
		    fr_json_add_u64(m, "flushes", s->flushes) ||
		    fr_json_add_u64(m, "errors", s->errors) ||
		    fr_json_add_u64(m, "read_errors_corrected",
				    s->read_errors_corrected) ||
		    fr_json_add_u64(m, "check_blamed_sectors",
				    s->check_blamed_sectors))
			return -ENOMEM;
	}
	return 0;
}

/*
 * One array as status --json prints it. The target's settings are named
 * as examine names them, null where the target picks its default; @ra is
 * the block readahead in KiB, -1 when sysfs does not say.
 */
struct json_object *fr_status_json(const char *name, const char *uuid,
				   uint64_t len, const struct fr_table *t,
				   const struct fr_status *st,
				   char (*paths)[FR_PATH_MAX], long ra,
				   char (*spares)[FR_PATH_MAX], int nspares)
{
	struct json_object *o = json_object_new_object();

	if (fr_json_add_str(o, "name", name) ||
	    fr_json_add_str(o, "uuid", uuid) ||
	    fr_json_add_str(o, "level", fr_level_name(t->level)) ||
	    fr_json_add_u64(o, "size_bytes", len << 9) ||
	    fr_json_add_u64(o, "sectors", len) ||
	    fr_json_add_u64(o, "chunk_bytes", (uint64_t)t->chunk_sectors << 9) ||
	    fr_json_add_u64(o, "devices", t->ndevs) ||
	    fr_json_add_str(o, "flush_policy", fr_flush_name(t->flush_policy)) ||
	    fr_json_add_i64(o, "readahead_kb", ra) ||
	    fr_json_add_u64(o, "sync_current", st->sync_cur) ||
	    fr_json_add_u64(o, "sync_total", st->sync_total) ||
	    fr_json_add_str(o, "action", st->action) ||
	    fr_json_add_u64_or_null(o, "grow_old_devices", t->reshape,
				    t->reshape_old_ndevs) ||
	    fr_json_add_u64_or_null(o, "grow_copied_sectors", st->reshape,
				    st->reshape_done) ||
	    fr_json_add_u64_or_null(o, "grow_recorded_sectors", st->reshape,
				    st->reshape_safe) ||
	    fr_json_add_u64(o, "mismatch_sectors", st->mismatch_cnt) ||
	    fr_json_add_str(o, "target_readahead", ra_mode(t)) ||
	    fr_json_add_u64_or_null(o, "ra_window", t->ra_window_set,
				    t->ra_window) ||
	    fr_json_add_u64_or_null(o, "ra_cache_mb", t->ra_cache_set,
				    t->ra_cache_mb) ||
	    json_ra_stats(o, st) || json_stripe_cache(o, t, st) ||
	    fr_json_add_u64_or_null(o, "sync_speed_min_kib",
				    t->min_sync_rate_set && t->min_sync_rate,
				    t->min_sync_rate) ||
	    fr_json_add_u64_or_null(o, "sync_speed_max_kib",
				    t->max_sync_rate_set && t->max_sync_rate,
				    t->max_sync_rate) ||
	    json_superblock(o, t, st) || json_bitmap(o, st) ||
	    fr_json_add_u64_or_null(o, "rebuild_lost_row",
				    st->has_bitmap && st->lost_row != UINT64_MAX,
				    st->lost_row) ||
	    json_spares(o, spares, nspares) || json_members(o, t, st, paths)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* A sync speed limit of @kib KiB/s per member, or @none for not set. */
static const char *sync_speed(bool set, uint32_t kib, const char *none,
			      char *buf, size_t len)
{
	if (!set || !kib)
		return none;
	fr_format_size((uint64_t)kib << 10, buf, len);
	strncat(buf, "/s", len - strlen(buf) - 1);
	return buf;
}

static void print_human(const char *name, const char *uuid, uint64_t len,
			const struct fr_table *t, const struct fr_status *st,
			char (*paths)[FR_PATH_MAX], long ra,
			char (*spares)[FR_PATH_MAX], int nspares)
{
	int k;
	char size[32], chunk[32], rd[32], wr[32], win[32], cache[32], sc[32];
	uint32_t i;

	fr_format_size(len << 9, size, sizeof(size));
	fr_format_size((uint64_t)t->chunk_sectors << 9, chunk, sizeof(chunk));
	printf("%s: %s, %s (%llu sectors), chunk %s, %u members\n", name,
	       fr_level_name(t->level), size, (unsigned long long)len, chunk,
	       t->ndevs);
	printf("  uuid %s, flush %s, block readahead ", uuid,
	       fr_flush_name(t->flush_policy));
	if (ra >= 0)
		printf("%ld KiB\n", ra);
	else
		printf("unknown\n");
	printf("  health %s, sync %llu/%llu, action %s", st->health,
	       (unsigned long long)st->sync_cur,
	       (unsigned long long)st->sync_total, st->action);
	if (t->level == FR_LEVEL_RAID6)
		printf(", parity mismatches %llu sectors",
		       (unsigned long long)st->mismatch_cnt);
	printf("\n");
	if (t->reshape && st->reshape)
		printf("  grow: %u -> %u members, %llu of %llu sectors copied (%.1f%%), %llu recorded%s\n",
		       t->reshape_old_ndevs, t->ndevs,
		       (unsigned long long)st->reshape_done,
		       (unsigned long long)len,
		       len ? 100.0 * (double)st->reshape_done / (double)len : 0,
		       (unsigned long long)st->reshape_safe,
		       strcmp(st->action, "reshape_failed") ? "" :
		       "; the copy failed (see dmesg)");
	printf("  target readahead %s, window %s, cache %s\n",
	       ra_mode(t), ra_window(t, win, sizeof(win)),
	       ra_cache(t, cache, sizeof(cache)));
	if (st->has_ra_stats) {
		fr_format_size(st->ra_prefetched << 9, rd, sizeof(rd));
		fr_format_size(st->ra_wasted << 9, wr, sizeof(wr));
		printf("  target readahead: %llu hits, %llu misses, %s prefetched, %s wasted; %llu flushes elided\n",
		       (unsigned long long)st->ra_hits,
		       (unsigned long long)st->ra_misses, rd, wr,
		       (unsigned long long)st->flushes_elided);
	}
	if (st->has_sb && t->superblock)
		printf("  superblock: %s, events %llu (kept by the kernel)\n",
		       st->sb_state, (unsigned long long)st->sb_events);
	if (st->has_bitmap && st->bitmap_region_sectors) {
		char region[32];

		fr_format_size((uint64_t)st->bitmap_region_sectors << 9, region,
			       sizeof(region));
		printf("  bitmap: %llu regions of %s dirty; the last sync pass covered %llu regions\n",
		       (unsigned long long)st->bitmap_dirty, region,
		       (unsigned long long)st->sync_regions);
	}
	if (st->has_bitmap && st->lost_row != UINT64_MAX)
		printf("  REBUILD STOPPED at row %llu: more than two blocks of that row were lost, so its data is gone; the members being rebuilt are failed (see the kernel log)\n",
		       (unsigned long long)st->lost_row);
	if (t->level == FR_LEVEL_RAID6) {
		printf("  stripe cache %s", stripe_cache(t, sc, sizeof(sc)));
		if (st->has_stripe_cache)
			printf(", %llu KiB held, peak %llu KiB",
			       (unsigned long long)st->stripe_cache_kib,
			       (unsigned long long)st->stripe_cache_peak_kib);
		printf("\n");
		printf("  sync speed: minimum %s, maximum %s per member\n",
		       sync_speed(t->min_sync_rate_set, t->min_sync_rate,
				  "none (never yields)", rd, sizeof(rd)),
		       sync_speed(t->max_sync_rate_set, t->max_sync_rate,
				  "unlimited", wr, sizeof(wr)));
		printf("  spares:");
		for (k = 0; k < nspares; k++)
			printf(" %s", spares[k]);
		printf("%s\n", nspares ? "" : " none");
	}
	printf("  %4s  %-16s %-8s %10s %10s %10s %10s %8s %7s %9s %7s\n", "slot",
	       "device", "health", "reads", "writes", "read", "written",
	       "flushes", "errors", "repaired", "blamed");
	for (i = 0; i < t->ndevs; i++) {
		const struct fr_member_stats *s = &st->members[i];

		fr_format_size(s->read_sectors << 9, rd, sizeof(rd));
		fr_format_size(s->write_sectors << 9, wr, sizeof(wr));
		printf("  %4u  %-16s %-8s %10llu %10llu %10s %10s %8llu %7llu %9llu %7llu\n",
		       i, paths[i], fr_health_name(st->health[i]),
		       (unsigned long long)s->reads,
		       (unsigned long long)s->writes, rd, wr,
		       (unsigned long long)s->flushes,
		       (unsigned long long)s->errors,
		       (unsigned long long)s->read_errors_corrected,
		       (unsigned long long)s->check_blamed_sectors);
	}
}

static struct fr_progress *progress_of(struct fr_status_ctx *ctx,
				       const char *name)
{
	int i;

	for (i = 0; i < ctx->nprog; i++)
		if (!strcmp(ctx->prog[i].name, name))
			return &ctx->prog[i].p;
	if (ctx->nprog == FR_STATUS_PROGRESS_MAX)
		return NULL;
	snprintf(ctx->prog[ctx->nprog].name, sizeof(ctx->prog[0].name), "%s", name);
	memset(&ctx->prog[ctx->nprog].p, 0, sizeof(struct fr_progress));
	return &ctx->prog[ctx->nprog++].p;
}

/*
 * A running resync, rebuild, check or grow's copy: its progress, with a
 * rate. The first report of an array samples it twice, a second apart;
 * --watch samples it once per redraw. NULL if the second read failed.
 */
static struct fr_progress *sample_progress(const char *name,
					   struct fr_status_ctx *ctx,
					   struct fr_status *st)
{
	struct fr_progress *p = progress_of(ctx, name);
	struct fr_dm_target info;

	if (!p)
		return NULL;
	if (p->t <= 0) {
		fr_progress_sample(p, st->sync_cur, st->sync_total, fr_now());
		sleep(1);
		if (fr_dm_status(name, FR_DM_INFO, &info) ||
		    fr_status_parse(info.params, st))
			return NULL;
	}
	fr_progress_sample(p, st->sync_cur, st->sync_total, fr_now());
	return p;
}

/* Percent, speed and time left as md shows them. */
static void print_progress(const char *name, struct fr_status_ctx *ctx,
			   struct fr_status *st)
{
	struct fr_progress *p = sample_progress(name, ctx, st);
	char line[160];

	if (!p)
		return;
	fr_progress_format(p, st->action, line, sizeof(line));
	printf("  progress: %s\n", line);
}

/*
 * --json: a grow's copy speed and time left, null unless a copy runs.
 * Only a running copy costs the second sample; other syncs keep --json
 * instant, as before.
 */
static int json_grow_rate(struct json_object *o, const char *name,
			  struct fr_status_ctx *ctx, struct fr_status *st)
{
	struct fr_progress *p = NULL;
	bool known;

	if (!o)
		return -ENOMEM;
	if (st->reshape && !strcmp(st->action, "reshape") &&
	    st->sync_total)
		p = sample_progress(name, ctx, st);
	known = p && p->rate > 0;
	if (fr_json_add_u64_or_null(o, "grow_sectors_per_second", known,
				    known ? (uint64_t)p->rate : 0) ||
	    fr_json_add_u64_or_null(o, "grow_seconds_left", known,
				    known ? (uint64_t)((p->total - p->cur) /
						       p->rate) : 0))
		return -ENOMEM;
	return 0;
}

/* One array; @quiet: skip non-fanraid devices silently (listing all). */
static int status_one(const char *name, struct fr_status_ctx *ctx, bool quiet)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX], uuid[FR_DM_UUID_LEN];
	char spares[FR_MAX_SPARES][FR_PATH_MAX];
	uint8_t auuid[FR_UUID_LEN];
	int nspares = 0;
	struct fr_dm_target table, info;
	struct fr_dm_info dmi;
	struct fr_status st;
	struct fr_table t;
	size_t plen = strlen(FR_DM_UUID_PREFIX);
	uint32_t i;
	long ra;
	int ret;

	ret = fr_dm_status(name, FR_DM_TABLE, &table);
	if (quiet && ret == -EMEDIUMTYPE)
		return 0;
	if (!ret)
		ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (!ret)
		ret = fr_dm_info(name, &dmi);
	if (ret) {
		if (ret == -ENXIO)
			fr_err("%s: no such array (not running)", name);
		else if (ret == -EMEDIUMTYPE)
			fr_err("%s: not a fanraid array", name);
		else
			fr_err("%s: reading status failed: %s", name,
			       strerror(-ret));
		ctx->failed++;
		return 0;
	}
	if (fr_table_parse(table.params, &t)) {
		fr_err("%s: cannot parse table line '%s'", name, table.params);
		ctx->failed++;
		return 0;
	}
	if (fr_status_parse(info.params, &st) || st.ndevs != t.ndevs) {
		fr_err("%s: cannot parse status line '%s'", name, info.params);
		ctx->failed++;
		return 0;
	}
	snprintf(uuid, sizeof(uuid), "%s",
		 strncmp(dmi.uuid, FR_DM_UUID_PREFIX, plen) ? "-" :
		 dmi.uuid + plen);
	for (i = 0; i < t.ndevs; i++)
		fr_table_dev_path(&t.devs[i], paths[i]);
	/* raid6 only: a raid0 array has nothing to rebuild onto a spare */
	if (t.level == FR_LEVEL_RAID6 && !fr_uuid_parse(uuid, auuid)) {
		nspares = fr_spares_find(auuid, &t, spares);
		if (nspares < 0)
			nspares = 0;
	}
	ra = fr_readahead_kb_read(dmi.major, dmi.minor);
	if (ctx->json) {
		struct json_object *o = fr_status_json(name, uuid, table.len,
						       &t, &st, paths, ra,
						       spares, nspares);

		if (json_grow_rate(o, name, ctx, &st)) {
			json_object_put(o);
			o = NULL;
		}
		if (fr_json_push(ctx->arrays, o))
			ctx->json_err = -ENOMEM;
	} else {
		print_human(name, uuid, table.len, &t, &st, paths, ra,
			    spares, nspares);
		if (strcmp(st.action, "idle") && st.sync_total)
			print_progress(name, ctx, &st);
	}
	ctx->count++;
	if (health_exit(&st) > ctx->worst)
		ctx->worst = health_exit(&st);
	return 0;
}

static int status_each(const char *name, void *arg)
{
	return status_one(name, arg, true);
}

/* One report of NAME (or every array); its exit code. */
static int status_report(const struct fr_opts *o, struct fr_status_ctx *ctx)
{
	struct json_object *doc = NULL;
	int ret = 0;

	ctx->json = o->json;
	ctx->count = ctx->failed = ctx->worst = ctx->json_err = 0;
	/* a failed allocation leaves ctx->arrays NULL, and every push fails */
	if (ctx->json)
		doc = fr_json_arrays_doc(&ctx->arrays);
	if (o->argc)
		status_one(o->argv[0], ctx, false);
	else
		ret = fr_dm_list(status_each, ctx);
	if (ctx->json) {
		/* a report short of a running array misleads: print none */
		if (ctx->json_err)
			json_object_put(doc);
		else
			ctx->json_err = fr_json_print(stdout, doc,
						      FR_JSON_MULTILINE);
		if (ctx->json_err)
			fr_err("status: printing JSON failed: %s",
			       strerror(-ctx->json_err));
	} else if (!ctx->count && !o->argc && !ret) {
		printf("no fanraid arrays running\n");
	}
	if (ret) {
		fr_err("device-mapper: listing devices failed: %s (is dm_mod loaded?)",
		       strerror(-ret));
		return FR_STATUS_EXIT_ERROR;
	}
	return ctx->failed || ctx->json_err ? FR_STATUS_EXIT_ERROR : ctx->worst;
}

/*
 * --watch: the report redrawn every FR_WATCH_SECONDS, as watch(1) would,
 * so a rebuild's percent, speed and time left move on one screen. It runs
 * until interrupted; the progress rate comes from the redraws' samples.
 */
#define FR_WATCH_SECONDS	2

static int status_watch(const struct fr_opts *o, struct fr_status_ctx *ctx)
{
	char stamp[64];
	time_t now;

	for (;;) {
		now = time(NULL);
		strftime(stamp, sizeof(stamp), "%F %T", localtime(&now));
		/* home and clear: the new report over the old one */
		printf("\033[H\033[2JEvery %ds: fanraid status%s%s\t%s\n\n",
		       FR_WATCH_SECONDS, o->argc ? " " : "",
		       o->argc ? o->argv[0] : "", stamp);
		status_report(o, ctx);
		fflush(stdout);
		sleep(FR_WATCH_SECONDS);
	}
	return FR_EXIT_OK;
}

int fr_cmd_status(const struct fr_opts *o)
{
	/* one context for every redraw: its progress samples carry over */
	struct fr_status_ctx ctx = { 0 };

	return o->watch ? status_watch(o, &ctx) : status_report(o, &ctx);
}
