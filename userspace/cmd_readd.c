/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid re-add NAME DEV: take back a raid6 member that failed for a
 * while (a cable, a controller reset, a drive that vanished and came
 * back) and recover only the regions written while it was away, as md's
 * --re-add does (table feature `readd <idx>`).
 *
 * That is safe only while the write-intent bitmap still holds every write
 * the member missed: bits are never cleared while a member is failed, and
 * events_cleared records when they last were. A member whose own events
 * are older than that has missed writes the bitmap forgot; it needs a full
 * rebuild (fanraid replace). The kernel checks this again at load.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "dm.h"
#include "probe.h"
#include "status.h"
#include "table.h"
#include "util.h"

/* Keeps the re-adds and rebuilds of the old table that still run. */
static void keep_running_recoveries(struct fr_table *t, const struct fr_status *st)
{
	uint64_t running = 0;
	uint32_t i;

	for (i = 0; i < t->ndevs; i++)
		if (st->health[i] == 'a')
			running |= 1ull << i;
	t->rebuild_mask &= running;
	t->readd_mask &= running;
	t->resync = t->resync && !strcmp(st->action, "resync");
}

/* DEV's own superblock: this array, a failed slot, recent enough. */
static int check_returning(const char *name, const uint8_t *uuid,
			   const struct fr_member *dev, const struct fr_sb *tmpl,
			   const struct fr_status *st)
{
	const struct fr_sb *sb = &dev->sb;

	if (dev->sb_err) {
		fr_err("%s: %s; only a member of %s can be re-added (a new device: fanraid replace)",
		       dev->path, fr_sb_strerror(dev->sb_err), name);
		return -EINVAL;
	}
	if (memcmp(sb->array_uuid, uuid, FR_UUID_LEN)) {
		fr_err("%s: is a member of array '%s', not of %s", dev->path,
		       sb->name, name);
		return -EINVAL;
	}
	if (sb->slot >= st->ndevs || st->health[sb->slot] != 'D') {
		fr_err("%s: slot %u of %s is not failed (health %c); nothing to re-add",
		       dev->path, sb->slot, name,
		       sb->slot < st->ndevs ? st->health[sb->slot] : '?');
		return -EINVAL;
	}
	if (!tmpl->bitmap_region_sectors) {
		fr_err("%s: has no write-intent bitmap, so what slot %u missed is unknown; rebuild it fully: fanraid replace %s %u %s --force",
		       name, sb->slot, name, sb->slot, dev->path);
		return -EINVAL;
	}
	if (sb->events < tmpl->events_cleared || sb->events > tmpl->events) {
		fr_err("%s: its events %llu are outside what the bitmap covers (bits cleared at events %llu, the array is at %llu); rebuild it fully: fanraid replace %s %u %s --force",
		       dev->path, (unsigned long long)sb->events,
		       (unsigned long long)tmpl->events_cleared,
		       (unsigned long long)tmpl->events, name, sb->slot,
		       dev->path);
		return -EINVAL;
	}
	return 0;
}

static int readd(const struct fr_opts *o)
{
	const char *name = o->argv[0];
	char paths[FR_MAX_DEVS][FR_PATH_MAX], params[FR_TABLE_MAX];
	struct fr_member m[FR_MAX_DEVS], dev;
	const struct fr_sb *tmpl = NULL;
	uint8_t uuid[FR_UUID_LEN];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_table t;
	struct stat sst;
	uint64_t len;
	uint32_t slot, i;
	bool in_table = false;
	int ret, rc = FR_EXIT_FAIL;

	if (fr_array_open(name, &t, &len, uuid))
		return FR_EXIT_FAIL;
	if (t.level != FR_LEVEL_RAID6) {
		fr_err("%s: re-add needs raid6", name);
		return FR_EXIT_FAIL;
	}
	ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret || fr_status_parse(info.params, &st) || st.ndevs != t.ndevs) {
		fr_err("%s: cannot read member health", name);
		return FR_EXIT_FAIL;
	}
	if (stat(o->argv[1], &sst)) {
		fr_open_error(o->argv[1], -errno);
		return FR_EXIT_FAIL;
	}
	if (!S_ISBLK(sst.st_mode)) {
		fr_open_error(o->argv[1], -ENOTBLK);
		return FR_EXIT_FAIL;
	}

	fr_members_from_table(&t, uuid, FR_OPEN_SHARED, m, paths);
	for (i = 0; i < t.ndevs; i++)
		if (st.health[i] == 'A' && m[i].fd >= 0 && !tmpl)
			tmpl = &m[i].sb;
	fr_member_init(&dev, o->argv[1]);
	if (!tmpl) {
		fr_err("%s: no healthy member's superblock could be read", name);
		goto out;
	}
	/* a failed member the table still holds: the array has it open */
	for (i = 0; i < t.ndevs; i++)
		if (!t.devs[i].missing &&
		    makedev(t.devs[i].major, t.devs[i].minor) == sst.st_rdev) {
			if (st.health[i] != 'D') {
				fr_err("%s: is slot %u of %s and in service", o->argv[1],
				       i, name);
				goto out;
			}
			in_table = true;
		}
	ret = fr_member_open(&dev, in_table ? FR_OPEN_SHARED : FR_OPEN_EXCL);
	if (!ret)
		ret = fr_sb_read(&dev);
	if (ret) {
		fr_open_error(dev.path, ret);
		goto out;
	}
	if (check_returning(name, uuid, &dev, tmpl, &st))
		goto out;
	slot = dev.sb.slot;
	if (in_table && makedev(t.devs[slot].major, t.devs[slot].minor) !=
			sst.st_rdev) {
		fr_err("%s: its superblock says slot %u, but the table has it elsewhere",
		       dev.path, slot);
		goto out;
	}

	keep_running_recoveries(&t, &st);
	t.devs[slot].missing = false;
	t.devs[slot].major = major(dev.rdev);
	t.devs[slot].minor = minor(dev.rdev);
	t.devs[slot].offset = tmpl->data_offset;
	t.readd_mask |= 1ull << slot;
	if (fr_table_build(&t, params, sizeof(params))) {
		fr_err("%s: cannot re-add slot %u: more than two members would be missing or recovering",
		       name, slot);
		goto out;
	}
	if (fr_dm_check_version(&t))
		goto out;
	/* dm claims the device exclusively: our descriptor must go first */
	fr_member_close(&dev);
	if (fr_dm_swap_table_or_err(name, len, params))
		goto out;
	printf("%s: slot %u is %s again; recovering the regions it missed (fanraid status %s)\n",
	       name, slot, dev.path, name);
	rc = FR_EXIT_OK;
out:
	fr_member_close(&dev);
	for (i = 0; i < t.ndevs; i++)
		fr_member_close(&m[i]);
	return rc;
}

/* The array's lock (fr_dm_lock()) from the first read to the swap. */
int fr_cmd_readd(const struct fr_opts *o)
{
	int rc;

	fr_dm_lock(o->argv[0]);
	rc = readd(o);
	fr_dm_unlock();
	return rc;
}
