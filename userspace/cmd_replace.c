/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid replace NAME SLOT DEV [--force]: put DEV in place of a dead or
 * missing raid6 member and let the target rebuild it in the background
 * (the `rebuild <idx>` feature), without stopping the array.
 *
 * The new member's slot stays in every superblock's failed mask until a
 * clean stop finds it in sync (health A): an array that crashes
 * mid-rebuild is assembled without it, never trusting half a member.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "dm.h"
#include "probe.h"
#include "spare.h"
#include "status.h"
#include "table.h"
#include "util.h"

/*
 * Checks the new member like create does: exclusive, clean unless @force,
 * large enough. A spare or an old member of this array needs no @force.
 */
int fr_check_new_member(unsigned int flags, struct fr_member *nm,
			const struct fr_sb *tmpl, bool *wipe)
{
	bool force = flags & FR_REPLACE_FORCE;
	char desc[FR_PROBE_DESC_MAX], need[32], have[32];
	uint64_t bytes = (tmpl->data_offset + tmpl->member_sectors) << 9;
	int ret;

	ret = fr_member_open(nm, FR_OPEN_EXCL);
	if (ret) {
		fr_open_error(nm->path, ret);
		return ret;
	}
	ret = fr_probe_topology(nm);
	if (!ret)
		ret = fr_sb_read(nm);
	if (ret) {
		fr_err("%s: reading failed: %s", nm->path, strerror(-ret));
		return ret;
	}
	if (nm->size < bytes) {
		fr_format_size(nm->size, have, sizeof(have));
		fr_format_size(bytes, need, sizeof(need));
		fr_err("%s: too small (%s); the array needs %s per member",
		       nm->path, have, need);
		return -ENOSPC;
	}
	/* an old member of this very array may come back without --force */
	if (nm->sb_err == FR_SB_OK &&
	    memcmp(nm->sb.array_uuid, tmpl->array_uuid, FR_UUID_LEN) &&
	    !force && !(fr_sb_is_spare(&nm->sb) &&
			(flags & FR_REPLACE_SPARE_GROUP))) {
		if (fr_sb_is_spare(&nm->sb))
			fr_err("%s: is already a spare of fanraid array '%s' (use --force)",
			       nm->path, nm->sb.name);
		else
			fr_err("%s: is already slot %u of fanraid array '%s' (use --force)",
			       nm->path, nm->sb.slot, nm->sb.name);
		return -EEXIST;
	}
	ret = fr_probe_signatures(nm, desc, sizeof(desc));
	if (ret < 0) {
		fr_err("%s: probing for existing signatures failed: %s",
		       nm->path, strerror(-ret));
		return ret;
	}
	*wipe = ret == 0;
	if (ret == 0 && !force) {
		fr_err("%s: appears to contain %s (use --force)", nm->path, desc);
		return -EEXIST;
	}
	return 0;
}

int fr_replace_slot(const char *name, uint32_t slot, const char *dev,
		    unsigned int flags)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX], params[FR_TABLE_MAX];
	struct fr_member m[FR_MAX_DEVS], *slots[FR_MAX_DEVS], nm;
	const struct fr_sb *tmpl = NULL;
	uint8_t uuid[FR_UUID_LEN];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_table t;
	struct fr_sb sb;
	struct stat sst;
	uint64_t len;
	uint32_t i;
	bool wipe = false;
	int ret, rc = FR_EXIT_FAIL;

	if (fr_array_open(name, &t, &len, uuid))
		return FR_EXIT_FAIL;
	if (t.level != FR_LEVEL_RAID6) {
		fr_err("%s: replace needs raid6 (a raid0 member cannot be rebuilt)",
		       name);
		return FR_EXIT_FAIL;
	}
	if (slot >= t.ndevs) {
		fr_err("%s: slot %u does not exist (the array has %u members)",
		       name, slot, t.ndevs);
		return FR_EXIT_USAGE;
	}
	ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret || fr_status_parse(info.params, &st) || st.ndevs != t.ndevs) {
		fr_err("%s: cannot read member health", name);
		return FR_EXIT_FAIL;
	}
	if (st.health[slot] != 'D') {
		fr_err(st.health[slot] == 'a' ?
		       "%s: slot %u is already being rebuilt" :
		       "%s: slot %u is healthy; fail it first (fanraid fail %s %u)",
		       name, slot, name, slot);
		return FR_EXIT_FAIL;
	}
	if (stat(dev, &sst)) {
		fr_open_error(dev, -errno);
		return FR_EXIT_FAIL;
	}
	if (!S_ISBLK(sst.st_mode)) {
		fr_open_error(dev, -ENOTBLK);
		return FR_EXIT_FAIL;
	}
	for (i = 0; i < t.ndevs; i++)
		if (!t.devs[i].missing && i != slot &&
		    makedev(t.devs[i].major, t.devs[i].minor) == sst.st_rdev) {
			fr_err("%s: is already slot %u of %s", dev, i,
			       name);
			return FR_EXIT_FAIL;
		}

	fr_members_from_table(&t, uuid, FR_OPEN_SHARED, m, paths);
	for (i = 0; i < t.ndevs; i++) {
		slots[i] = st.health[i] == 'A' ? &m[i] : NULL;
		if (slots[i] && m[i].fd >= 0 && !tmpl)
			tmpl = &m[i].sb;
	}
	fr_member_init(&nm, dev);
	if (!tmpl) {
		fr_err("%s: no healthy member's superblock could be read", name);
		goto out;
	}
	if (fr_check_new_member(flags, &nm, tmpl, &wipe))
		goto out;

	/* the old table's finished work is not redone: keep only what still runs */
	t.devs[slot].missing = false;
	t.devs[slot].major = major(nm.rdev);
	t.devs[slot].minor = minor(nm.rdev);
	t.devs[slot].offset = tmpl->data_offset;
	t.rebuild_mask = 1ull << slot;
	for (i = 0; i < t.ndevs; i++) {
		if (st.health[i] != 'a')
			t.readd_mask &= ~(1ull << i);
		else if (!(t.readd_mask >> i & 1))
			t.rebuild_mask |= 1ull << i;
	}
	t.readd_mask &= ~(1ull << slot);
	t.resync = t.resync && !strcmp(st.action, "resync");
	if (fr_table_build(&t, params, sizeof(params))) {
		fr_err("%s: cannot replace slot %u: more than two members would be missing or rebuilding",
		       name, slot);
		goto out;
	}
	if (fr_dm_check_version(&t))
		goto out;

	if (wipe) {
		ret = fr_wipe_signatures(&nm);
		if (ret) {
			fr_err("%s: erasing old signatures failed: %s", nm.path,
			       strerror(-ret));
			goto out;
		}
	}
	sb = *tmpl;
	sb.slot = slot;
	if (fr_uuid_generate(sb.member_uuid)) {
		fr_err("%s: cannot generate a UUID: %s", nm.path, strerror(errno));
		goto out;
	}
	/* a crash mid-rebuild must never let it back in as a re-add */
	sb.state |= FR_SB_STATE_REBUILDING;
	nm.sb = sb;
	slots[slot] = &nm;
	/* every writer lands on the same events; the new slot stays failed until in sync */
	if (fr_members_write(slots, t.ndevs, FR_SB_STATE_DIRTY, 0, 1ull << slot,
			     0))
		goto out;
	fr_member_close(&nm);

	if (fr_dm_swap_table_or_err(name, len, params))
		goto out;
	printf("%s: slot %u is now %s; rebuilding in the background (fanraid status %s)\n",
	       name, slot, nm.path, name);
	rc = FR_EXIT_OK;
out:
	fr_member_close(&nm);
	for (i = 0; i < t.ndevs; i++)
		fr_member_close(&m[i]);
	return rc;
}

int fr_cmd_replace(const struct fr_opts *o)
{
	uint32_t slot;

	if (fr_parse_u32(o->argv[1], &slot) || slot >= FR_MAX_DEVS) {
		fr_err("%s: invalid slot number", o->argv[1]);
		return FR_EXIT_USAGE;
	}
	return fr_replace_slot(o->argv[0], slot, o->argv[2],
			       o->force ? FR_REPLACE_FORCE : 0);
}
