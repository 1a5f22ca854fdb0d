// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid add NAME DEV [--force]: give a running raid6 array a hot spare.
 *
 * DEV gets a superblock of the array with the spare slot
 * (FR_SB_SLOT_SPARE) and nothing else: no table holds it, and the array
 * keeps its redundancy as it was. When a member fails, fanraid monitor
 * rebuilds onto a spare with replace's steps; on an array that already
 * has a dead or missing slot, add does so at once, as mdadm --add does.
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

int fr_cmd_add(const struct fr_opts *o)
{
	const char *name = o->argv[0], *dev = o->argv[1];
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	struct fr_member m[FR_MAX_DEVS], nm;
	const struct fr_sb *tmpl = NULL;
	uint8_t uuid[FR_UUID_LEN];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_table t;
	struct fr_sb sb;
	struct stat sst;
	uint64_t len;
	uint32_t i, dead = FR_MAX_DEVS;
	bool wipe = false;
	int ret, rc = FR_EXIT_FAIL;

	if (fr_array_open(name, &t, &len, uuid))
		return FR_EXIT_FAIL;
	if (t.level != FR_LEVEL_RAID6) {
		fr_err("%s: add needs raid6 (nothing can be rebuilt onto a raid0 spare)",
		       name);
		return FR_EXIT_FAIL;
	}
	ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret || fr_status_parse(info.params, &st) || st.ndevs != t.ndevs) {
		fr_err("%s: cannot read member health", name);
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
	for (i = 0; i < t.ndevs; i++) {
		if (!t.devs[i].missing &&
		    makedev(t.devs[i].major, t.devs[i].minor) == sst.st_rdev) {
			fr_err("%s: is already slot %u of %s", dev, i, name);
			return FR_EXIT_FAIL;
		}
		if (st.health[i] == 'D' && dead == FR_MAX_DEVS)
			dead = i;
	}
	/* a slot to fill now: that is a replace */
	if (dead < FR_MAX_DEVS) {
		printf("%s: slot %u is dead or missing: rebuilding onto %s now instead of keeping it spare\n",
		       name, dead, dev);
		return fr_replace_slot(name, dead, dev,
				       o->force ? FR_REPLACE_FORCE : 0);
	}

	fr_members_from_table(&t, uuid, FR_OPEN_SHARED, m, paths);
	for (i = 0; i < t.ndevs && !tmpl; i++)
		if (st.health[i] == 'A' && m[i].fd >= 0 &&
		    m[i].sb_err == FR_SB_OK)
			tmpl = &m[i].sb;
	fr_member_init(&nm, dev);
	if (!tmpl) {
		fr_err("%s: no healthy member's superblock could be read", name);
		goto out;
	}
	if (fr_check_new_member(o->force ? FR_REPLACE_FORCE : 0, &nm, tmpl,
				&wipe))
		goto out;
	if (nm.sb_err == FR_SB_OK && fr_sb_is_spare(&nm.sb) &&
	    !memcmp(nm.sb.array_uuid, uuid, FR_UUID_LEN)) {
		fr_err("%s: is already a spare of %s", dev, name);
		goto out;
	}
	if (wipe) {
		ret = fr_wipe_signatures(&nm);
		if (ret) {
			fr_err("%s: erasing old signatures failed: %s", nm.path,
			       strerror(-ret));
			goto out;
		}
	}
	/* the array's block, as a spare: no slot, no state of its own */
	sb = *tmpl;
	sb.slot = FR_SB_SLOT_SPARE;
	sb.state = 0;
	sb.failed_mask = 0;
	fr_uuid_generate(sb.member_uuid);
	fr_sb_touch(&sb, 0, 0);
	ret = fr_sb_write(&nm, &sb);
	if (ret) {
		fr_err("%s: writing the superblock failed: %s", nm.path,
		       strerror(-ret));
		goto out;
	}
	printf("%s: %s added as a spare\n", name, nm.path);
	rc = FR_EXIT_OK;
out:
	fr_member_close(&nm);
	for (i = 0; i < t.ndevs; i++)
		fr_member_close(&m[i]);
	return rc;
}
