/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid set NAME SETTING VALUE [SETTING VALUE]...: retune a running array.
 *
 *   readahead on|off	the target's readahead queues (message "readahead")
 *   ra-window N	its window, 1 to 64 stripes (message "ra_window")
 *   read-ahead-kb N|auto
 *			the block device's readahead (sysfs read_ahead_kb);
 *			auto is two full stripes, the kernel's io_opt rule
 *   stripe-cache-mb N	the raid6 stripe cache, 1 to 4096 MiB: a table
 *			feature, so the table is reloaded as replace does
 *   sync-speed-min RATE|off, sync-speed-max RATE|off
 *			the raid6 sync pass per member, as md's
 *			speed_limit_min and _max (messages "min_sync_rate"
 *			and "max_sync_rate"); RATE is a size per second
 *
 * Every setting is checked before anything is touched. Each one the kernel
 * took is then recorded in the members' superblocks, as fail does, so the
 * next assemble loads it again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "raidcalc.h"
#include "cli.h"
#include "dm.h"
#include "probe.h"
#include "status.h"
#include "table.h"
#include "util.h"

/*
 * Two full stripes of data chunks in KiB: what the block layer gives a
 * device whose io_opt is one stripe (twice io_opt), without its 128 KiB
 * floor.
 */
uint64_t fr_set_auto_kb(uint32_t level, uint32_t ndevs,
			uint32_t chunk_sectors)
{
	uint32_t data = ndevs - fr_level_parity_devs(level);

	/* 2 stripes x chunk_sectors x data x 512 bytes / 1024 */
	return (uint64_t)chunk_sectors * data;
}

/*
 * A rate per member as a size with its unit ("200M", "512K") per second,
 * kept in whole KiB/s as the target takes it; "off" is 0. A bare number is
 * refused: md's speed limits are KiB/s, but a size without a unit is
 * bytes, and one of the two readings would be wrong by 1024 times.
 */
static int parse_sync_speed(const char *key, const char *v, uint32_t *kib)
{
	size_t len = strlen(v);
	uint64_t bytes;

	if (!strcmp(v, "off")) {
		*kib = 0;
		return 0;
	}
	if (len && v[len - 1] >= '0' && v[len - 1] <= '9') {
		fr_err("%s %s: give a unit (%sK is %s KiB/s, as md's speed_limit), or off",
		       key, v, v, v);
		return -EINVAL;
	}
	if (rc_parse_size(v, &bytes) || bytes < 1024 || bytes % 1024 ||
	    bytes / 1024 > UINT32_MAX) {
		fr_err("%s %s: must be whole KiB per second, 1K to %lluK, or off",
		       key, v, (unsigned long long)UINT32_MAX);
		return -EINVAL;
	}
	*kib = (uint32_t)(bytes / 1024);
	return 0;
}

static int parse_on_off(const char *v, bool *on)
{
	if (!strcmp(v, "on"))
		*on = true;
	else if (!strcmp(v, "off"))
		*on = false;
	else
		return -EINVAL;
	return 0;
}

#define FR_SET_NAMES \
	"readahead, ra-window, read-ahead-kb, stripe-cache-mb, sync-speed-min or sync-speed-max"

/*
 * Parses SETTING VALUE pairs into @s. Pure: no I/O besides the message
 * that names the bad argument. Returns 0 or -EINVAL.
 */
int fr_set_parse(int argc, char **argv, struct fr_settings *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	if (!argc) {
		fr_err("set: no setting given (" FR_SET_NAMES ")");
		return -EINVAL;
	}
	for (i = 0; i < argc; i += 2) {
		const char *key = argv[i], *val = i + 1 < argc ? argv[i + 1] :
						   NULL;
		bool *given;

		if (!strcmp(key, "readahead"))
			given = &s->readahead_given;
		else if (!strcmp(key, "ra-window"))
			given = &s->ra_window_given;
		else if (!strcmp(key, "read-ahead-kb"))
			given = &s->read_ahead_kb_given;
		else if (!strcmp(key, "stripe-cache-mb"))
			given = &s->stripe_cache_given;
		else if (!strcmp(key, "sync-speed-min"))
			given = &s->sync_min_given;
		else if (!strcmp(key, "sync-speed-max"))
			given = &s->sync_max_given;
		else {
			fr_err("%s: unknown setting (" FR_SET_NAMES ")", key);
			return -EINVAL;
		}
		if (*given) {
			fr_err("%s: setting given twice", key);
			return -EINVAL;
		}
		if (!val) {
			fr_err("%s: missing value", key);
			return -EINVAL;
		}
		*given = true;
		if (given == &s->readahead_given) {
			if (parse_on_off(val, &s->readahead_on)) {
				fr_err("readahead %s: must be on or off", val);
				return -EINVAL;
			}
		} else if (given == &s->ra_window_given) {
			if (fr_parse_u32(val, &s->ra_window) || !s->ra_window ||
			    s->ra_window > FR_RA_MAX_WINDOW) {
				fr_err("ra-window %s: must be 1 to %d stripes",
				       val, FR_RA_MAX_WINDOW);
				return -EINVAL;
			}
		} else if (given == &s->stripe_cache_given) {
			if (fr_parse_u32(val, &s->stripe_cache_mb) ||
			    !s->stripe_cache_mb ||
			    s->stripe_cache_mb > FR_R6_STRIPE_CACHE_MAX_MB) {
				fr_err("stripe-cache-mb %s: must be 1 to %d (MiB)",
				       val, FR_R6_STRIPE_CACHE_MAX_MB);
				return -EINVAL;
			}
		} else if (given == &s->sync_min_given) {
			if (parse_sync_speed(key, val, &s->sync_min_kib))
				return -EINVAL;
		} else if (given == &s->sync_max_given) {
			if (parse_sync_speed(key, val, &s->sync_max_kib))
				return -EINVAL;
		} else if (!strcmp(val, "auto")) {
			s->read_ahead_kb_auto = true;
		} else if (fr_parse_u32(val, &s->read_ahead_kb) ||
			   !s->read_ahead_kb ||
			   s->read_ahead_kb > FR_SET_READ_AHEAD_KB_MAX) {
			fr_err("read-ahead-kb %s: must be 1 to %d (KiB) or auto",
			       val, FR_SET_READ_AHEAD_KB_MAX);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The running table @t made fit to load again with @stripe_cache_mb. A new
 * table starts every background pass from the beginning, so it keeps only
 * what @st says still runs: resync while the action is resync, rebuild of
 * members still being rebuilt (a). A member the target failed (D) becomes
 * missing, or the new table would bring it back as if it were in sync.
 */
void fr_set_reload_table(struct fr_table *t, const struct fr_status *st,
			 uint32_t stripe_cache_mb)
{
	uint32_t i;

	t->stripe_cache_set = true;
	t->stripe_cache_mb = stripe_cache_mb;
	t->resync = t->resync && !strcmp(st->action, "resync");
	t->rebuild_mask = 0;
	for (i = 0; i < t->ndevs; i++) {
		if (st->health[i] == 'a')
			t->rebuild_mask |= 1ull << i;
		if (st->health[i] == 'D') {
			memset(&t->devs[i], 0, sizeof(t->devs[i]));
			t->devs[i].missing = true;
		}
	}
}

/*
 * Checks that @mb suits the array before anything changes: raid6, and at
 * least the geometry's minimum, which the target would refuse to load.
 */
static int check_stripe_cache(const char *name, const struct fr_table *t,
			      uint32_t mb)
{
	uint32_t min;
	char chunk[32];

	if (t->level != FR_LEVEL_RAID6) {
		fr_err("%s: stripe-cache-mb needs raid6 (raid0 has no stripe cache)",
		       name);
		return -EINVAL;
	}
	min = fr_r6_stripe_cache_min_mb(t->ndevs, t->chunk_sectors);
	if (mb < min) {
		fr_format_size((uint64_t)t->chunk_sectors << 9, chunk,
			       sizeof(chunk));
		fr_err("%s: stripe-cache-mb %u: raid6 over %u members with %s chunks needs at least %u MiB",
		       name, mb, t->ndevs, chunk, min);
		return -EINVAL;
	}
	return 0;
}

/*
 * Loads @t again with the new stripe cache (fr_set_reload_table) and
 * resumes it, as replace does. On success @t is the table now running.
 * A reload the kernel refuses leaves the old table running untouched.
 */
static int reload_stripe_cache(const char *name, struct fr_table *t,
			       uint64_t len, uint32_t mb)
{
	char params[FR_TABLE_MAX];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_table nt = *t;
	int ret;

	ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret || fr_status_parse(info.params, &st) || st.ndevs != t->ndevs) {
		fr_err("%s: cannot read member health", name);
		return ret ? ret : -EINVAL;
	}
	/* a reload would end the pass without a word: let the user decide */
	if (!strcmp(st.action, "check") || !strcmp(st.action, "repair")) {
		fr_err("%s: a %s is running; wait for it, or stop it (dmsetup message %s 0 idle), then retry",
		       name, st.action, name);
		return -EBUSY;
	}
	fr_set_reload_table(&nt, &st, mb);
	if (fr_table_build(&nt, params, sizeof(params))) {
		fr_err("%s: cannot build the table line (more than two members dead or rebuilding?)",
		       name);
		return -EINVAL;
	}
	ret = fr_dm_check_version(&nt);
	if (ret)
		return ret;
	ret = fr_dm_swap_table_or_err(name, len, params);
	if (ret)
		return ret;
	if (nt.resync || nt.rebuild_mask)
		fr_warn("%s: the running %s starts again from the beginning",
			name, nt.resync ? "resync" : "rebuild");
	*t = nt;
	return 0;
}

/*
 * Writes read_ahead_kb and reads back what the kernel kept (whole pages).
 * Returns 0 and the value in @kept, or -errno after saying why.
 */
static int set_block_readahead(const char *name, uint32_t kb, uint32_t *kept)
{
	long page_kb = sysconf(_SC_PAGESIZE) >> 10, now;
	struct fr_dm_info info;
	int ret;

	/* the kernel would round it down to no readahead at all */
	if (page_kb > 0 && kb < (uint32_t)page_kb) {
		fr_err("%s: read-ahead-kb %u is less than one page (%ld KiB)",
		       name, kb, page_kb);
		return -EINVAL;
	}
	ret = fr_dm_info(name, &info);
	if (!ret && !info.exists)
		ret = -ENXIO;
	if (!ret)
		ret = fr_readahead_kb_write(info.major, info.minor, kb);
	if (ret) {
		fr_err("%s: setting read_ahead_kb of %u:%u failed: %s", name,
		       info.major, info.minor, strerror(-ret));
		return ret;
	}
	now = fr_readahead_kb_read(info.major, info.minor);
	*kept = now > 0 ? (uint32_t)now : kb;
	return 0;
}

/*
 * Records the applied settings in every member present. Returns 0, or -EIO
 * when a member could not be opened or written (each one was reported).
 */
static int record(const char *name, const struct fr_table *t,
		  const uint8_t *uuid, const struct fr_sb *want,
		  const struct fr_settings *done)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	struct fr_member m[FR_MAX_DEVS], *slots[FR_MAX_DEVS];
	/*
	 * The kernel updates a raid6 array's blocks at any moment: dirty at
	 * the first write, a member's failure before the writes that skip it
	 * complete, a grow's position. A block read before such an update and
	 * written after it would take it back: clean under writes in flight,
	 * a failed member in sync again, a grow below rows already
	 * overwritten. Suspended, the table writes nothing (and its writes
	 * and copy wait) until the blocks, read then, are written. A member
	 * the kernel failed keeps its block as it is: one written now would
	 * be as fresh as its peers' and could be taken for the newest.
	 */
	bool quiet = t->superblock;
	struct fr_dm_target info;
	struct fr_status st;
	uint32_t i, present = 0;
	int opened = 0, ret;

	if (quiet) {
		ret = fr_dm_suspend(name);
		if (ret) {
			fr_err("%s: suspending to record the settings failed: %s",
			       name, strerror(-ret));
			return ret;
		}
		if (fr_dm_status(name, FR_DM_INFO, &info) ||
		    fr_status_parse(info.params, &st) || st.ndevs != t->ndevs) {
			fr_err("%s: cannot read member health; no superblock records the settings",
			       name);
			fr_dm_resume(name);
			return -EIO;
		}
	}
	fr_members_from_table(t, uuid, FR_OPEN_SHARED, m, paths);
	for (i = 0; i < t->ndevs; i++) {
		slots[i] = &m[i];
		if (quiet && st.health[i] == 'D')
			fr_member_close(&m[i]);
		else
			present += !t->devs[i].missing;
		if (m[i].fd < 0)
			continue;
		opened++;
		if (done->readahead_given)
			m[i].sb.ra_mode = want->ra_mode;
		if (done->ra_window_given)
			m[i].sb.ra_window = want->ra_window;
		if (done->read_ahead_kb_given)
			m[i].sb.readahead_sectors = want->readahead_sectors;
		if (done->stripe_cache_given)
			m[i].sb.stripe_cache_mb = want->stripe_cache_mb;
		if (done->sync_min_given)
			m[i].sb.sync_speed_min = want->sync_speed_min;
		if (done->sync_max_given)
			m[i].sb.sync_speed_max = want->sync_speed_max;
	}
	ret = fr_members_write(slots, t->ndevs, 0, 0, 0, 0);
	for (i = 0; i < t->ndevs; i++)
		fr_member_close(&m[i]);
	if (quiet && fr_dm_resume(name)) {
		fr_err("%s: resuming after recording the settings failed", name);
		return -EIO;
	}
	if (ret || (uint32_t)opened != present) {
		fr_err("%s: the kernel runs with the new settings, but not every superblock records them",
		       name);
		return -EIO;
	}
	return 0;
}

/* "min_sync_rate N" or "max_sync_rate N": the running pass takes it at once. */
static int apply_sync_speed(const char *name, bool min, uint32_t kib)
{
	char msg[32], rate[32];
	int ret;

	snprintf(msg, sizeof(msg), "%s_sync_rate %u", min ? "min" : "max", kib);
	ret = fr_dm_message_or_err(name, msg);
	if (ret)
		return ret;
	if (kib) {
		fr_format_size((uint64_t)kib << 10, rate, sizeof(rate));
		printf("%s: sync speed %s %s/s per member\n", name,
		       min ? "minimum" : "maximum", rate);
	} else {
		printf("%s: sync speed %s off\n", name,
		       min ? "minimum" : "maximum");
	}
	return 0;
}

/*
 * Applies @s in the order the kernel should see it, stopping at the first
 * failure; @done and @want say what was applied, for the superblocks. The
 * reload comes first: it is built from the table read before any message,
 * and the messages then retune the table it loaded.
 */
static int apply(const char *name, struct fr_table *t, uint64_t len,
		 const struct fr_settings *s, struct fr_settings *done,
		 struct fr_sb *want)
{
	uint32_t kept;
	char msg[32];
	uint64_t kb;
	int ret;

	if (s->stripe_cache_given) {
		ret = reload_stripe_cache(name, t, len, s->stripe_cache_mb);
		if (ret)
			return ret;
		want->stripe_cache_mb = s->stripe_cache_mb;
		done->stripe_cache_given = true;
		printf("%s: stripe cache %u MiB\n", name, s->stripe_cache_mb);
	}

	if (s->readahead_given) {
		snprintf(msg, sizeof(msg), "readahead %s",
			 s->readahead_on ? "on" : "off");
		ret = fr_dm_message_or_err(name, msg);
		if (ret)
			return ret;
		want->ra_mode = s->readahead_on ? FR_RA_ON : FR_RA_OFF;
		done->readahead_given = true;
		printf("%s: target readahead %s\n", name,
		       s->readahead_on ? "on" : "off");
	}
	if (s->ra_window_given) {
		snprintf(msg, sizeof(msg), "ra_window %u", s->ra_window);
		ret = fr_dm_message_or_err(name, msg);
		if (ret)
			return ret;
		want->ra_window = s->ra_window;
		done->ra_window_given = true;
		printf("%s: target readahead window %u stripes\n", name,
		       s->ra_window);
	}
	if (s->sync_max_given) {
		ret = apply_sync_speed(name, false, s->sync_max_kib);
		if (ret)
			return ret;
		want->sync_speed_max = s->sync_max_kib;
		done->sync_max_given = true;
	}
	if (s->sync_min_given) {
		ret = apply_sync_speed(name, true, s->sync_min_kib);
		if (ret)
			return ret;
		want->sync_speed_min = s->sync_min_kib;
		done->sync_min_given = true;
	}
	if (!s->read_ahead_kb_given)
		return 0;
	kb = s->read_ahead_kb_auto ?
	     fr_set_auto_kb(t->level, t->ndevs, t->chunk_sectors) :
	     s->read_ahead_kb;
	if (kb > UINT32_MAX / 2) {
		fr_err("%s: two full stripes (%llu KiB) are more readahead than the kernel takes",
		       name, (unsigned long long)kb);
		return -ERANGE;
	}
	ret = set_block_readahead(name, (uint32_t)kb, &kept);
	if (ret)
		return ret;
	/*
	 * More than the superblock holds can only come from auto, which is
	 * then exactly the kernel's default (0): twice io_opt.
	 */
	want->readahead_sectors = 2ull * kept > FR_SB_MAX_READAHEAD ?
				  0 : 2 * kept;
	done->read_ahead_kb_given = true;
	printf("%s: block readahead %u KiB%s\n", name, kept,
	       s->read_ahead_kb_auto ? " (two full stripes)" : "");
	if (kept != kb)
		fr_warn("%s: asked for %llu KiB; the kernel keeps whole pages",
			name, (unsigned long long)kb);
	return 0;
}

static int set(const struct fr_opts *o)
{
	const char *name = o->argv[0];
	struct fr_settings s, done = { 0 };
	struct fr_sb want = { 0 };
	uint8_t uuid[FR_UUID_LEN];
	struct fr_table t;
	uint64_t len;
	int ret;

	if (fr_set_parse(o->argc - 1, o->argv + 1, &s))
		return FR_EXIT_USAGE;
	if (fr_array_open(name, &t, &len, uuid))
		return FR_EXIT_FAIL;
	/* a size this array cannot take is a usage error, as for create */
	if (s.stripe_cache_given &&
	    check_stripe_cache(name, &t, s.stripe_cache_mb))
		return FR_EXIT_USAGE;
	if ((s.sync_min_given || s.sync_max_given) &&
	    t.level != FR_LEVEL_RAID6) {
		fr_err("%s: sync speed needs raid6 (raid0 has no sync pass)",
		       name);
		return FR_EXIT_USAGE;
	}
	/* the target would refuse both messages; say why, touching nothing */
	if ((s.readahead_given || s.ra_window_given) && t.ra_cache_set &&
	    !t.ra_cache_mb) {
		fr_err("%s: the target has no readahead cache (created with --ra-cache-mb 0)",
		       name);
		return FR_EXIT_FAIL;
	}
	ret = apply(name, &t, len, &s, &done, &want);
	/* what the kernel took is recorded even when a later setting failed */
	if ((done.readahead_given || done.ra_window_given ||
	     done.read_ahead_kb_given || done.stripe_cache_given ||
	     done.sync_min_given || done.sync_max_given) &&
	    record(name, &t, uuid, &want, &done) && !ret)
		ret = -EIO;
	return ret ? FR_EXIT_FAIL : FR_EXIT_OK;
}

/* The array's lock (fr_dm_lock()) from the first read to the last write. */
int fr_cmd_set(const struct fr_opts *o)
{
	int rc;

	fr_dm_lock(o->argv[0]);
	rc = set(o);
	fr_dm_unlock();
	return rc;
}
