/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tool's only door to device-mapper: one libdevmapper wrapper per verb,
 * each returning 0 or -errno.
 */
#ifndef FR_DM_H
#define FR_DM_H

#include <stdbool.h>
#include <stdint.h>

#include "table.h"

#define FR_DM_UUID_PREFIX	"FANRAID-"
#define FR_DM_UUID_LEN		129	/* DM_UUID_LEN */

/* The one target of a fanraid device, as DM_DEVICE_STATUS or _TABLE shows it. */
struct fr_dm_target {
	uint64_t start;
	uint64_t len;
	char type[32];
	char params[FR_TABLE_MAX];
};

/* One target of a device fanraid builds besides arrays. */
struct fr_dm_seg {
	uint64_t len;
	const char *type;
	const char *params;
};

struct fr_dm_info {
	bool exists;
	uint32_t major;
	uint32_t minor;
	int32_t open_count;
	char uuid[FR_DM_UUID_LEN];
};

enum fr_dm_status_kind {
	FR_DM_INFO,		/* the INFO line: health, sync, counters */
	FR_DM_TABLE,		/* the TABLE line: what the device was built from */
};

typedef int (*fr_dm_list_fn)(const char *name, void *arg);

void fr_dm_init(void);
int fr_dm_create(const char *name, const char *uuid, uint64_t len,
		 const char *params, uint32_t read_ahead);
int fr_dm_create_other(const char *name, const struct fr_dm_seg *segs,
		       unsigned int n);
int fr_dm_status_other(const char *name, enum fr_dm_status_kind kind,
		       const char *type, struct fr_dm_target *tgt);
int fr_dm_reload(const char *name, uint64_t len, const char *params);
void fr_dm_lock(const char *name);
void fr_dm_unlock(void);
int fr_dm_resume(const char *name);
int fr_dm_suspend(const char *name);
int fr_dm_remove(const char *name);
int fr_dm_status(const char *name, enum fr_dm_status_kind kind,
		 struct fr_dm_target *tgt);
int fr_dm_message(const char *name, const char *msg);
int fr_dm_info(const char *name, struct fr_dm_info *info);
int fr_dm_list(fr_dm_list_fn fn, void *arg);
int fr_dm_target_version(const char *target, struct fr_version *v);

#endif /* FR_DM_H */
