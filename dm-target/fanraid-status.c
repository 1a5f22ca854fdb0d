// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid status and messages.
 */
#include <linux/string.h>

#include "fanraid.h"

/*
 * Health of a member: 'D' failed (RAID6), or returned I/O errors since load
 * (RAID0, which has no parity to repair them from); 'a' alive but still
 * being rebuilt; 'A' alive and in sync. A RAID6 member whose read errors
 * were repaired stays 'A': its counters tell.
 */
static char fanraid_dev_health(struct fanraid_c *fc, u32 i)
{
	if (fanraid_is_failed(fc, i) ||
	    (!fc->r6 && atomic64_read(&fc->devs[i].errors)))
		return 'D';
	if (fc->r6 && test_bit(i, fc->rebuilding))
		return 'a';
	return 'A';
}

/* Logical sectors known in sync: the whole device unless a sync is running. */
static sector_t fanraid_sync_done(struct fanraid_c *fc)
{
	sector_t done;

	if (!fc->r6 || READ_ONCE(fc->r6->action) == FANRAID_SYNC_IDLE)
		return fc->ti->len;
	done = READ_ONCE(fc->sync_cp) * fc->geom.data_devs;
	return min_t(sector_t, done, fc->ti->len);
}

static void fanraid_emit_member(struct fanraid_dev *dev, char *result,
				unsigned int maxlen, unsigned int *szp)
{
	unsigned int sz = *szp;

	if (dev->dm_dev)
		DMEMIT(" %s %llu", dev->dm_dev->name,
		       (unsigned long long)dev->offset);
	else
		DMEMIT(" - -");
	*szp = sz;
}

/* Words the features take in TABLE output, for <#feature_args>. */
static unsigned int fanraid_feature_words(const struct fanraid_features *f)
{
	return (f->flush_policy_set ? 2 : 0) + (f->max_sync_rate_set ? 2 : 0) +
	       (f->min_sync_rate_set ? 2 : 0) +
	       2 * bitmap_weight(f->rebuild, FR_MAX_DEVS) + (f->resync ? 1 : 0) +
	       (f->readahead_set ? 2 : 0) + (f->ra_window_set ? 2 : 0) +
	       (f->ra_cache_mb_set ? 2 : 0) + (f->stripe_cache_mb_set ? 2 : 0) +
	       (f->max_read_errors_set ? 2 : 0) +
	       (f->superblock ? 1 : 0) + (f->safe_mode_delay_set ? 2 : 0) +
	       (f->bitmap_set ? 2 : 0) + 2 * bitmap_weight(f->readd, FR_MAX_DEVS) +
	       (f->reshape ? 3 : 0);
}

#define DMEMIT_FANRAID_STATS(d)						\
	DMEMIT(" %llu %llu %llu %llu %llu %lld",			\
	       fanraid_member_stat(d, FANRAID_STAT_READS),		\
	       fanraid_member_stat(d, FANRAID_STAT_WRITES),		\
	       fanraid_member_stat(d, FANRAID_STAT_READ_SECTORS),	\
	       fanraid_member_stat(d, FANRAID_STAT_WRITE_SECTORS),	\
	       fanraid_member_stat(d, FANRAID_STAT_FLUSHES),		\
	       (long long)atomic64_read(&(d)->errors))

/*
 * INFO:  <level> <#devs> <health chars> <sync_ratio> <action>
 *        then per member: <reads> <writes> <read_sectors> <write_sectors>
 *        <flushes> <errors>, then <mismatch_cnt> <ra_hits> <ra_misses>
 *        <ra_prefetched_sectors> <ra_wasted_sectors> <flushes_elided>
 *        <stripe_cache_kib> <stripe_cache_peak_kib>
 *        then per member: <read_errors_corrected>, then per member:
 *        <check_blamed_sectors>
 *        <sb_events> <sb_state> (v1.3.0+: superblock events and clean,
 *        dirty or none)
 *        <bitmap_region_sectors> <bitmap_dirty_regions> <sync_regions>
 *        (v1.4.0+: 0 without a bitmap; regions the current or last sync
 *        pass covered) <rebuild_lost_row> (v1.4.0+: the row where the last
 *        rebuild stopped because its data is lost, or -)
 *        <reshape_done> <reshape_safe> (v1.7.0+: array sectors a grow has
 *        copied, and recorded as copied; "- -" without one; while the copy
 *        runs, <sync_ratio> is <reshape_done>/<len> and <action> reshape)
 * TABLE: the constructor line, features in canonical order:
 *        <level> <chunk_sectors> <#feature_args> [<feature> [<value>]]*
 *        <#devs> <dev> <offset> [<dev> <offset>]*
 * IMA:   target name and version, then ,key=value pairs, then ;
 */
void fanraid_status(struct dm_target *ti, status_type_t type,
		    unsigned int status_flags, char *result, unsigned int maxlen)
{
	struct fanraid_c *fc = ti->private;
	const struct fanraid_features *f = &fc->features;
	unsigned int sz = 0;
	u64 cache_now = 0, cache_peak = 0, bm_dirty, bm_synced, lost;
	sector_t rs_done = 0, rs_safe = 0;
	u32 i, region, rs_old = 0;
	bool reshape = fanraid_reshape_progress(fc, &rs_done, &rs_safe, &rs_old);

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("raid%u %u ", fc->geom.level, fc->ndevs);
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT("%c", fanraid_dev_health(fc, i));
		if (reshape && rs_done < ti->len)
			DMEMIT(" %llu/%llu %s", (unsigned long long)rs_done,
			       (unsigned long long)ti->len,
			       fanraid_reshape_failed(fc) ? "reshape_failed" :
			       "reshape");
		else
			DMEMIT(" %llu/%llu %s",
			       (unsigned long long)fanraid_sync_done(fc),
			       (unsigned long long)ti->len,
			       fanraid_sync_action_name(fc->r6 ? READ_ONCE(fc->r6->action) :
							FANRAID_SYNC_IDLE));
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT_FANRAID_STATS(&fc->devs[i]);
		DMEMIT(" %lld", fc->r6 ?
		       (long long)atomic64_read(&fc->r6->mismatches) : 0LL);
		DMEMIT(" %lld %lld %lld %lld %lld",
		       (long long)fanraid_ra_stat(fc, FANRAID_RA_HITS),
		       (long long)fanraid_ra_stat(fc, FANRAID_RA_MISSES),
		       (long long)fanraid_ra_stat(fc, FANRAID_RA_PREFETCHED),
		       (long long)fanraid_ra_stat(fc, FANRAID_RA_WASTED),
		       (long long)atomic64_read(&fc->flushes_elided));
		if (fc->r6)
			fanraid_r6_cache_usage(fc->r6, &cache_now, &cache_peak);
		DMEMIT(" %llu %llu", cache_now, cache_peak);
		/* v1.2.0+: read errors repaired, then sectors check blamed, per member */
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT(" %lld", (long long)atomic64_read(&fc->devs[i].read_errors_corrected));
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT(" %lld", (long long)atomic64_read(&fc->devs[i].check_blamed));
		/* v1.3.0+: what the superblocks say now */
		DMEMIT(" %llu %s", fanraid_meta_events(fc),
		       !fc->meta ? "none" :
		       fanraid_meta_is_dirty(fc) ? "dirty" : "clean");
		/* v1.4.0+: the write-intent bitmap */
		fanraid_bitmap_status(fc, &region, &bm_dirty, &bm_synced);
		DMEMIT(" %u %llu %llu", region, bm_dirty, bm_synced);
		lost = fc->r6 ? READ_ONCE(fc->r6->lost_row) : U64_MAX;
		if (lost == U64_MAX)
			DMEMIT(" -");
		else
			DMEMIT(" %llu", lost);
		/* v1.7.0+: a grow's sectors copied and recorded as copied */
		if (reshape)
			DMEMIT(" %llu %llu", (unsigned long long)rs_done,
			       (unsigned long long)rs_safe);
		else
			DMEMIT(" - -");
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("raid%u %u %u", fc->geom.level, fc->geom.chunk_sectors,
		       fanraid_feature_words(f));
		if (f->flush_policy_set)
			DMEMIT(" flush_policy %s",
			       fanraid_flush_policy_name(f->flush_policy));
		if (f->max_sync_rate_set)
			DMEMIT(" max_sync_rate %u", f->max_sync_rate);
		if (f->min_sync_rate_set)
			DMEMIT(" min_sync_rate %u", f->min_sync_rate);
		for_each_set_bit(i, f->rebuild, FR_MAX_DEVS)
			DMEMIT(" rebuild %u", i);
		if (f->resync)
			DMEMIT(" resync");
		if (f->readahead_set)
			DMEMIT(" readahead %s", f->readahead ? "on" : "off");
		if (f->ra_window_set)
			DMEMIT(" ra_window %u", f->ra_window);
		if (f->ra_cache_mb_set)
			DMEMIT(" ra_cache_mb %u", f->ra_cache_mb);
		if (f->stripe_cache_mb_set)
			DMEMIT(" stripe_cache_mb %u", f->stripe_cache_mb);
		if (f->max_read_errors_set)
			DMEMIT(" max_read_errors %u", f->max_read_errors);
		if (f->superblock)
			DMEMIT(" superblock");
		if (f->safe_mode_delay_set)
			DMEMIT(" safe_mode_delay %u", f->safe_mode_delay);
		if (f->bitmap_set)
			DMEMIT(" bitmap %u", f->bitmap_region);
		for_each_set_bit(i, f->readd, FR_MAX_DEVS)
			DMEMIT(" readd %u", i);
		/* Where a reload would resume: what is recorded now. */
		if (reshape)
			DMEMIT(" reshape %u %llu", rs_old,
			       (unsigned long long)rs_safe);
		DMEMIT(" %u", fc->ndevs);
		for (i = 0; i < fc->ndevs; i++)
			fanraid_emit_member(&fc->devs[i], result, maxlen, &sz);
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",level=raid%u,chunk_sectors=%u,flush_policy=%s,readahead=%s,num_devs=%u",
		       fc->geom.level, fc->geom.chunk_sectors,
		       fanraid_flush_policy_name(f->flush_policy),
		       f->readahead && fc->ra ? "on" : "off", fc->ndevs);
		for (i = 0; i < fc->ndevs; i++)
			DMEMIT(",dev_%u=%s,offset_%u=%llu", i,
			       fc->devs[i].dm_dev ? fc->devs[i].dm_dev->name : "-",
			       i, (unsigned long long)fc->devs[i].offset);
		DMEMIT(";");
		break;
	}
}

/*
 * "readahead on|off" and "ra_window <stripes>": retune a live array. They
 * count as given, so TABLE output re-creates the array as it now runs.
 */
static int fanraid_message_readahead(struct fanraid_c *fc, const char *name,
				     const char *value)
{
	struct fanraid_features *f = &fc->features;
	bool on;
	u32 window;

	if (!fc->ra) {
		DMWARN("%s: no readahead cache (ra_cache_mb 0)", name);
		return -EINVAL;
	}
	if (!strcasecmp(name, "readahead")) {
		if (fanraid_parse_on_off(value, &on))
			return -EINVAL;
		WRITE_ONCE(f->readahead, on);
		f->readahead_set = true;
		return 0;
	}
	if (kstrtou32(value, 10, &window) || !window ||
	    window > FR_RA_MAX_WINDOW)
		return -EINVAL;
	WRITE_ONCE(f->ra_window, window);
	f->ra_window_set = true;
	return 0;
}

/* "fail <idx>": take a RAID6 member out of service, as an I/O error would. */
static int fanraid_message_fail(struct fanraid_c *fc, const char *arg)
{
	u32 idx;

	if (!fc->r6) {
		DMWARN("fail: raid0 has no redundancy; refusing");
		return -EINVAL;
	}
	if (kstrtou32(arg, 10, &idx) || idx >= fc->ndevs) {
		DMWARN("fail: invalid member index %s", arg);
		return -EINVAL;
	}
	fanraid_member_fail(fc, idx, "failed by message", 0);
	/* What "fanraid fail" returns to: the superblocks record it. */
	if (fanraid_meta_sync_failed(fc))
		DMERR("%s: member %u failed, but no superblock records it",
		      dm_table_device_name(fc->ti->table), idx);
	return 0;
}

/*
 * "max_sync_rate <KiB/s>" and "min_sync_rate <KiB/s>": retune a running pass
 * without restarting it: its next batch starts now, under the new value.
 */
static int fanraid_message_sync_rate(struct fanraid_c *fc, const char *name,
				     const char *value)
{
	struct fanraid_features *f = &fc->features;
	u32 rate;

	if (!fc->r6) {
		DMWARN("%s: raid0 has no sync pass", name);
		return -EINVAL;
	}
	if (kstrtou32(value, 10, &rate)) {
		DMWARN("%s: not a number of KiB/s: %s", name, value);
		return -EINVAL;
	}
	if (!strcasecmp(name, "min_sync_rate")) {
		WRITE_ONCE(f->min_sync_rate, rate);
		f->min_sync_rate_set = true;
	} else {
		WRITE_ONCE(f->max_sync_rate, rate);
		f->max_sync_rate_set = true;
	}
	fanraid_sync_retune(fc);
	return 0;
}

static int fanraid_message_sync(struct fanraid_c *fc, const char *verb)
{
	enum fanraid_sync_action action;

	if (!fc->r6) {
		DMWARN("%s: raid0 has no parity to check", verb);
		return -EINVAL;
	}
	if (!strcasecmp(verb, "check"))
		action = FANRAID_SYNC_CHECK;
	else if (!strcasecmp(verb, "repair"))
		action = FANRAID_SYNC_REPAIR;
	else
		action = FANRAID_SYNC_IDLE;
	return fanraid_sync_request(fc, action);
}

/*
 * Messages: "stats reset", "fail <idx>", "check", "repair", "idle",
 * "readahead on|off", "ra_window <stripes>", "max_sync_rate <KiB/s>",
 * "min_sync_rate <KiB/s>", "reshape_safe <sectors>".
 */
int fanraid_message(struct dm_target *ti, unsigned int argc, char **argv,
		    char *result, unsigned int maxlen)
{
	struct fanraid_c *fc = ti->private;
	u32 i;

	if (argc == 2 && !strcasecmp(argv[0], "stats") &&
	    !strcasecmp(argv[1], "reset")) {
		for (i = 0; i < fc->ndevs; i++) {
			fanraid_member_stats_reset(&fc->devs[i]);
			atomic64_set(&fc->devs[i].read_errors_corrected, 0);
			atomic64_set(&fc->devs[i].check_blamed, 0);
		}
		fanraid_ra_stats_reset(fc);
		atomic64_set(&fc->flushes_elided, 0);
		if (fc->r6)
			fanraid_r6_cache_reset_peak(fc->r6);
		return 0;
	}
	if (argc == 2 && (!strcasecmp(argv[0], "readahead") ||
			  !strcasecmp(argv[0], "ra_window")))
		return fanraid_message_readahead(fc, argv[0], argv[1]);
	if (argc == 2 && (!strcasecmp(argv[0], "max_sync_rate") ||
			  !strcasecmp(argv[0], "min_sync_rate")))
		return fanraid_message_sync_rate(fc, argv[0], argv[1]);
	if (argc == 2 && !strcasecmp(argv[0], "fail"))
		return fanraid_message_fail(fc, argv[1]);
	if (argc == 2 && !strcasecmp(argv[0], "reshape_safe")) {
		if (fanraid_reshape_set_safe(fc, argv[1])) {
			DMWARN("reshape_safe %s: no grow, or not a row edge in [safe, done]",
			       argv[1]);
			return -EINVAL;
		}
		return 0;
	}
	if (argc == 1 && (!strcasecmp(argv[0], "check") ||
			  !strcasecmp(argv[0], "repair") ||
			  !strcasecmp(argv[0], "idle")))
		return fanraid_message_sync(fc, argv[0]);
	DMWARN("Unrecognised message received");
	return -EINVAL;
}
