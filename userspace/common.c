/* SPDX-License-Identifier: GPL-2.0-only */
/* Steps several verbs share: superblock updates, table building, uuids. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>

#include <raidcalc.h>
#include <uuid/uuid.h>

#include "cli.h"
#include "dm.h"
#include "probe.h"
#include "table.h"

/* One wording per open failure, starting with the device. */
void fr_open_error(const char *path, int err)
{
	switch (err) {
	case -EBUSY:
		fr_err("%s: device is busy (mounted, part of a running array, or open exclusively elsewhere)",
		       path);
		break;
	case -ENOTBLK:
		fr_err("%s: not a block device", path);
		break;
	default:
		fr_err("%s: cannot open: %s", path, strerror(-err));
	}
}

/*
 * Every superblock write is a new event, so stale members can be told
 * apart, and writes the current format: a format 1 array is upgraded by
 * the first assembly that writes it.
 */
void fr_sb_touch(struct fr_sb *sb, uint32_t set, uint32_t clear)
{
	uint64_t now = (uint64_t)time(NULL);

	sb->format_version = FR_SB_FORMAT_VERSION;
	sb->events++;
	sb->state = (sb->state | set) & ~clear;
	sb->utime = now > sb->ctime ? now : sb->ctime;
}

/*
 * A random (version 4) UUID, never a time-based one: it would carry the
 * host's MAC address onto every member. libuuid reads getrandom() and
 * cannot fail (without it, /dev/urandom, then a pseudo-random generator:
 * uuid_generate(3)), so neither does this.
 */
void fr_uuid_generate(uint8_t *uuid)
{
	uuid_generate_random(uuid);
}

/* The dm uuid marks the device as ours, so list/status can find arrays. */
void fr_dm_uuid(const uint8_t *uuid, char *out, size_t len)
{
	char s[FR_UUID_STR_LEN + 1];

	fr_uuid_format(uuid, s);
	snprintf(out, len, "%s%s", FR_DM_UUID_PREFIX, s);
}

/*
 * Table for members in slot order, NULL for a missing one; geometry and
 * policy from the first member present (fr_array_order made them agree).
 */
void fr_table_from_members(struct fr_member *const *slots, uint32_t n,
			   struct fr_table *t)
{
	const struct fr_sb *sb = NULL;
	uint32_t i;

	for (i = 0; i < n && !sb; i++)
		if (slots[i])
			sb = &slots[i]->sb;
	memset(t, 0, sizeof(*t));
	t->level = sb->level;
	t->chunk_sectors = sb->chunk_sectors;
	t->flush_policy = sb->flush_policy;
	/* the target's readahead features, only those the user chose */
	t->readahead_set = sb->ra_mode != FR_RA_DEFAULT;
	t->readahead_on = sb->ra_mode == FR_RA_ON;
	t->ra_window_set = sb->ra_window != FR_RA_WINDOW_DEFAULT;
	t->ra_window = sb->ra_window;
	t->ra_cache_set = sb->ra_cache_mb != FR_RA_CACHE_DEFAULT;
	t->ra_cache_mb = t->ra_cache_set ? sb->ra_cache_mb : 0;
	t->stripe_cache_set = fr_sb_stripe_cache_given(sb);
	t->stripe_cache_mb = t->stripe_cache_set ? sb->stripe_cache_mb : 0;
	t->max_sync_rate_set = sb->sync_speed_max != 0;
	t->max_sync_rate = sb->sync_speed_max;
	t->min_sync_rate_set = sb->sync_speed_min != 0;
	t->min_sync_rate = sb->sync_speed_min;
	/* raid6: the kernel records failures and clean/dirty from now on */
	t->superblock = sb->level == FR_LEVEL_RAID6;
	t->bitmap_set = sb->bitmap_region_sectors != 0;
	t->bitmap_region = sb->bitmap_region_sectors;
	t->ndevs = n;
	for (i = 0; i < n; i++) {
		if (!slots[i]) {
			t->devs[i].missing = true;
			continue;
		}
		t->devs[i].major = major(slots[i]->rdev);
		t->devs[i].minor = minor(slots[i]->rdev);
		t->devs[i].offset = slots[i]->sb.data_offset;
	}
}

/*
 * Updates the superblock on every open member in @slots (NULL entries and
 * closed members are skipped): state bits @set and @clear, failed-slot
 * bits @fail_set and @fail_clear. Reports each failure and carries on, so
 * one bad member does not leave the others behind; returns the first error.
 */
int fr_members_write(struct fr_member *const *slots, uint32_t n,
		     uint32_t set, uint32_t clear, uint64_t fail_set,
		     uint64_t fail_clear)
{
	int ret = 0, err;
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct fr_sb sb;

		if (!slots[i] || slots[i]->fd < 0)
			continue;
		sb = slots[i]->sb;
		sb.failed_mask = (sb.failed_mask | fail_set) & ~fail_clear;
		/* DEGRADED summarises the mask, whatever the caller asked */
		fr_sb_touch(&sb, sb.failed_mask ? set | FR_SB_STATE_DEGRADED :
				 set, sb.failed_mask ? clear :
				 clear | FR_SB_STATE_DEGRADED);
		err = fr_sb_write(slots[i], &sb);
		if (err) {
			fr_err("%s: writing the superblock failed: %s",
			       slots[i]->path, strerror(-err));
			if (!ret)
				ret = err;
		}
	}
	return ret;
}

/*
 * Refuses a table the loaded target cannot understand, naming the feature.
 * A target that is not loaded yet passes: the kernel autoloads dm-fanraid
 * when the table arrives, and a failure then is reported by the caller.
 */
int fr_dm_check_version(const struct fr_table *t)
{
	struct fr_version have, need;
	const char *feature;
	int ret;

	feature = fr_table_required_version(t, &need);
	ret = fr_dm_target_version(FR_TARGET_NAME, &have);
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		fr_err("device-mapper: cannot list target versions: %s (is dm_mod loaded?)",
		       strerror(-ret));
		return ret;
	}
	if (have.major != need.major ||
	    (have.minor < need.minor ||
	     (have.minor == need.minor && have.patch < need.patch))) {
		fr_err("%s: kernel target is v%u.%u.%u; %s needs v%u.%u.%u",
		       FR_TARGET_NAME, have.major, have.minor, have.patch,
		       feature, need.major, need.minor, need.patch);
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * fr_dm_info(), printing why when device-mapper cannot be asked at all:
 * then no verb can go on, and the usual cause is dm_mod not being loaded.
 */
int fr_dm_info_or_err(const char *name, struct fr_dm_info *info)
{
	int ret = fr_dm_info(name, info);

	if (ret)
		fr_err("%s: cannot query device-mapper: %s (is dm_mod loaded?)",
		       name, strerror(-ret));
	return ret;
}

/*
 * fr_dm_message(), printing a refusal with the target's version: a
 * message the module does not know yet usually means an older module.
 */
int fr_dm_message_or_err(const char *name, const char *msg)
{
	struct fr_version v = { 0 };
	int ret = fr_dm_message(name, msg);

	if (ret) {
		fr_dm_target_version(FR_TARGET_NAME, &v);
		fr_err("%s: the kernel target (v%u.%u.%u) refused '%s': %s",
		       name, v.major, v.minor, v.patch, msg, strerror(-ret));
	}
	return ret;
}

/*
 * Loads @params as @name's new table and swaps it in (set, replace). On a
 * failed load the old table keeps running; says so either way.
 */
int fr_dm_swap_table_or_err(const char *name, uint64_t len,
			    const char *params)
{
	int ret = fr_dm_reload(name, len, params);

	if (ret) {
		fr_err("%s: loading table '%s' failed: %s (see dmesg); the old table still runs",
		       name, params, strerror(-ret));
		return ret;
	}
	ret = fr_dm_resume(name);
	if (ret)
		fr_err("%s: resuming with the new table failed: %s (the device may be left suspended: dmsetup resume %s)",
		       name, strerror(-ret), name);
	return ret;
}

/*
 * Looks up a running array by dm name: its table and its array UUID (from
 * the dm uuid). Prints the reason and returns -errno when @name is not one.
 */
int fr_array_open(const char *name, struct fr_table *t, uint64_t *len,
		  uint8_t *uuid)
{
	size_t plen = strlen(FR_DM_UUID_PREFIX);
	struct fr_dm_target tgt;
	struct fr_dm_info info;
	int ret;

	ret = fr_dm_info_or_err(name, &info);
	if (ret)
		return ret;
	if (!info.exists) {
		fr_err("%s: no such array (not running)", name);
		return -ENXIO;
	}
	ret = fr_dm_status(name, FR_DM_TABLE, &tgt);
	if (ret == -EMEDIUMTYPE || (!ret && fr_table_parse(tgt.params, t)) ||
	    strncmp(info.uuid, FR_DM_UUID_PREFIX, plen) ||
	    fr_uuid_parse(info.uuid + plen, uuid)) {
		fr_err("%s: not a fanraid array", name);
		return -EMEDIUMTYPE;
	}
	if (ret) {
		fr_err("%s: reading the table failed: %s", name, strerror(-ret));
		return ret;
	}
	*len = tgt.len;
	return 0;
}

/*
 * What a table member is called in messages: its /dev path, "missing", or
 * MAJ:MIN when sysfs does not name the device.
 */
void fr_table_dev_path(const struct fr_table_dev *d, char path[FR_PATH_MAX])
{
	if (d->missing)
		snprintf(path, FR_PATH_MAX, "missing");
	else if (rc_devno_path(d->major, d->minor, path, FR_PATH_MAX))
		snprintf(path, FR_PATH_MAX, "%u:%u", d->major, d->minor);
}

/*
 * Opens the members a running table names and reads their superblocks.
 * Each member that cannot be opened, read, or is not what the table says
 * is reported and left closed (fd -1), as is a missing raid6 member;
 * returns how many were opened.
 */
int fr_members_from_table(const struct fr_table *t, const uint8_t *uuid,
			  enum fr_open_mode mode, struct fr_member *m,
			  char (*paths)[FR_PATH_MAX])
{
	uint32_t i;
	int ret, opened = 0;

	for (i = 0; i < t->ndevs; i++) {
		fr_table_dev_path(&t->devs[i], paths[i]);
		fr_member_init(&m[i], paths[i]);
		if (t->devs[i].missing)
			continue;
		ret = fr_member_open(&m[i], mode);
		if (ret) {
			fr_open_error(paths[i], ret);
			continue;
		}
		ret = fr_sb_read(&m[i]);
		if (ret || m[i].sb_err) {
			fr_err("%s: %s", paths[i], ret ? strerror(-ret) :
			       fr_sb_strerror(m[i].sb_err));
		} else if (memcmp(m[i].sb.array_uuid, uuid, FR_UUID_LEN) ||
			   m[i].sb.slot != i) {
			fr_err("%s: superblock says slot %u of array '%s', but the table has it as slot %u",
			       paths[i], m[i].sb.slot, m[i].sb.name, i);
		} else {
			opened++;
			continue;
		}
		fr_member_close(&m[i]);
	}
	return opened;
}

/*
 * The array's block-device readahead lives in sysfs under its dm-X node;
 * /sys/dev/block/M:m leads there from the numbers libdevmapper reports.
 */
static void readahead_kb_path(uint32_t major, uint32_t minor, char *path,
			      size_t len)
{
	snprintf(path, len, "/sys/dev/block/%u:%u/queue/read_ahead_kb", major,
		 minor);
}

/* Block-device readahead of the array in KiB, or -1 when unknown. */
long fr_readahead_kb_read(uint32_t major, uint32_t minor)
{
	char path[96];
	long kb = -1;
	FILE *f;

	readahead_kb_path(major, minor, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &kb) != 1)
		kb = -1;
	fclose(f);
	return kb;
}

/* Sets it; the kernel rounds down to whole pages. Returns 0 or -errno. */
int fr_readahead_kb_write(uint32_t major, uint32_t minor, uint32_t kb)
{
	char path[96];
	int ret = 0;
	FILE *f;

	readahead_kb_path(major, minor, path, sizeof(path));
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (fprintf(f, "%u\n", kb) < 0)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
