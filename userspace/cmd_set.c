/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid set NAME SETTING VALUE [SETTING VALUE]...: retune readahead on a
 * running array.
 *
 *   readahead on|off	the target's readahead queues (message "readahead")
 *   ra-window N	its window, 1 to 64 stripes (message "ra_window")
 *   read-ahead-kb N|auto
 *			the block device's readahead (sysfs read_ahead_kb);
 *			auto is two full stripes, the kernel's io_opt rule
 *
 * Every setting is checked before anything is touched. Each one the kernel
 * took is then recorded in the members' superblocks, as fail does, so the
 * next assemble loads it again.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dm.h"
#include "probe.h"
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

/*
 * Parses SETTING VALUE pairs into @s. Pure: no I/O besides the message
 * that names the bad argument. Returns 0 or -EINVAL.
 */
int fr_set_parse(int argc, char **argv, struct fr_settings *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	if (!argc) {
		fr_err("set: no setting given (readahead, ra-window or read-ahead-kb)");
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
		else {
			fr_err("%s: unknown setting (readahead, ra-window or read-ahead-kb)",
			       key);
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
			    s->ra_window > FR_SB_RA_WINDOW_MAX) {
				fr_err("ra-window %s: must be 1 to %d stripes",
				       val, FR_SB_RA_WINDOW_MAX);
				return -EINVAL;
			}
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
	uint32_t i, present = 0;
	int opened, ret;

	opened = fr_members_from_table(t, uuid, FR_OPEN_SHARED, m, paths);
	for (i = 0; i < t->ndevs; i++) {
		slots[i] = &m[i];
		present += !t->devs[i].missing;
		if (m[i].fd < 0)
			continue;
		if (done->readahead_given)
			m[i].sb.ra_mode = want->ra_mode;
		if (done->ra_window_given)
			m[i].sb.ra_window = want->ra_window;
		if (done->read_ahead_kb_given)
			m[i].sb.readahead_sectors = want->readahead_sectors;
	}
	ret = fr_members_write(slots, t->ndevs, 0, 0, 0, 0);
	for (i = 0; i < t->ndevs; i++)
		fr_member_close(&m[i]);
	if (ret || (uint32_t)opened != present) {
		fr_err("%s: the kernel runs with the new settings, but not every superblock records them",
		       name);
		return -EIO;
	}
	return 0;
}

/*
 * Applies @s in the order the kernel should see it, stopping at the first
 * failure; @done and @want say what was applied, for the superblocks.
 */
static int apply(const char *name, const struct fr_table *t,
		 const struct fr_settings *s, struct fr_settings *done,
		 struct fr_sb *want)
{
	uint32_t kept;
	char msg[32];
	uint64_t kb;
	int ret;

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

int fr_cmd_set(const struct fr_opts *o)
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
	/* the target would refuse both messages; say why, touching nothing */
	if ((s.readahead_given || s.ra_window_given) && t.ra_cache_set &&
	    !t.ra_cache_mb) {
		fr_err("%s: the target has no readahead cache (created with --ra-cache-mb 0)",
		       name);
		return FR_EXIT_FAIL;
	}
	ret = apply(name, &t, &s, &done, &want);
	/* what the kernel took is recorded even when a later setting failed */
	if ((done.readahead_given || done.ra_window_given ||
	     done.read_ahead_kb_given) &&
	    record(name, &t, uuid, &want, &done) && !ret)
		ret = -EIO;
	return ret ? FR_EXIT_FAIL : FR_EXIT_OK;
}
