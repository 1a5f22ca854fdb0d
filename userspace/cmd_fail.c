/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid fail NAME SLOT: tell the target to stop using one member
 * (message "fail <idx>"), then record it in the other members'
 * superblocks so a later assemble knows. The array is running, so the
 * members are opened shared: the target holds them exclusively, and only
 * touches the data area, never the superblock block.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dm.h"
#include "probe.h"
#include "table.h"
#include "util.h"

int fr_cmd_fail(const struct fr_opts *o)
{
	const char *name = o->argv[0];
	char paths[FR_MAX_DEVS][FR_PATH_MAX], msg[32];
	struct fr_member m[FR_MAX_DEVS], *slots[FR_MAX_DEVS];
	uint8_t uuid[FR_UUID_LEN];
	struct fr_table t;
	uint64_t len;
	uint32_t slot, i;
	int ret;

	if (fr_parse_u32(o->argv[1], &slot) || slot >= FR_MAX_DEVS) {
		fr_err("%s: invalid slot number", o->argv[1]);
		return FR_EXIT_USAGE;
	}
	if (fr_array_open(name, &t, &len, uuid))
		return FR_EXIT_FAIL;
	if (slot >= t.ndevs) {
		fr_err("%s: slot %u does not exist (the array has %u members)",
		       name, slot, t.ndevs);
		return FR_EXIT_USAGE;
	}
	if (t.level == FR_LEVEL_RAID0) {
		fr_err("%s: raid0 has no redundancy; a member cannot be failed (stop the array instead)",
		       name);
		return FR_EXIT_FAIL;
	}
	if (t.devs[slot].missing) {
		fr_err("%s: slot %u is already missing", name, slot);
		return FR_EXIT_FAIL;
	}
	snprintf(msg, sizeof(msg), "fail %u", slot);
	if (fr_dm_message_or_err(name, msg))
		return FR_EXIT_FAIL;
	/* the kernel has written it to the survivors before answering */
	if (t.superblock) {
		fr_table_dev_path(&t.devs[slot], paths[slot]);
		printf("%s: slot %u (%s) marked failed\n", name, slot,
		       paths[slot]);
		return FR_EXIT_OK;
	}
	fr_members_from_table(&t, uuid, FR_OPEN_SHARED, m, paths);
	for (i = 0; i < t.ndevs; i++)
		slots[i] = &m[i];
	/* the failed member keeps its old events: assemble will call it stale */
	fr_member_close(&m[slot]);
	ret = fr_members_write(slots, t.ndevs, 0, 0, 1ull << slot, 0);
	for (i = 0; i < t.ndevs; i++)
		fr_member_close(&m[i]);
	if (ret) {
		fr_err("%s: slot %u failed in the kernel, but not every superblock records it",
		       name, slot);
		return FR_EXIT_FAIL;
	}
	printf("%s: slot %u (%s) marked failed\n", name, slot, paths[slot]);
	return FR_EXIT_OK;
}
