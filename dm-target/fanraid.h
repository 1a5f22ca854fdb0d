/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared declarations of the fanraid device-mapper target.
 */
#ifndef DM_FANRAID_H
#define DM_FANRAID_H

#include <linux/device-mapper.h>
#include <linux/atomic.h>
#include <linux/workqueue.h>

#include <fanraid/geom.h>

#define DM_MSG_PREFIX "fanraid"

/* Errors a member may return before we stop raising table events for it. */
#define FANRAID_EVENT_THRESHOLD	15

enum fanraid_flush_policy {
	FANRAID_FLUSH_PASSTHROUGH,	/* default: every flush reaches every member */
	FANRAID_FLUSH_DROP,		/* non-volatile caches: flush and FUA acked here */
};

/*
 * Per-member I/O counters, reported in INFO status in this order. Atomic
 * because map and end_io run concurrently on every CPU; a reset races
 * harmlessly with in-flight increments.
 */
struct fanraid_stats {
	atomic64_t reads;
	atomic64_t writes;
	atomic64_t read_sectors;
	atomic64_t write_sectors;
	atomic64_t flushes;
	atomic64_t errors;
};

struct fanraid_dev {
	struct dm_dev *dm_dev;
	sector_t offset;	/* start of the member's data area */
	struct fanraid_stats stats;
};

/* Feature arguments; the *_set flags keep TABLE output byte-exact. */
struct fanraid_features {
	enum fanraid_flush_policy flush_policy;
	bool flush_policy_set;
};

struct fanraid_c {
	struct dm_target *ti;
	struct fr_geom geom;
	struct fanraid_features features;
	/* dm_table_event() may sleep, so end_io defers it here. */
	struct work_struct trigger_event;
	u32 ndevs;
	struct fanraid_dev devs[] __counted_by(ndevs);
};

/* Per-bio data: which member a clone went to, for end_io accounting. */
struct fanraid_bio {
	u32 dev;
};

/* fanraid-table.c */
int fanraid_ctr(struct dm_target *ti, unsigned int argc, char **argv);
void fanraid_dtr(struct dm_target *ti);
const char *fanraid_flush_policy_name(enum fanraid_flush_policy policy);

/* fanraid-map.c */
int fanraid_map(struct dm_target *ti, struct bio *bio);
int fanraid_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *error);
void fanraid_trigger_event(struct work_struct *work);
int fanraid_iterate_devices(struct dm_target *ti,
			    iterate_devices_callout_fn fn, void *data);
void fanraid_io_hints(struct dm_target *ti, struct queue_limits *limits);

/* fanraid-status.c */
void fanraid_status(struct dm_target *ti, status_type_t type,
		    unsigned int status_flags, char *result, unsigned int maxlen);
int fanraid_message(struct dm_target *ti, unsigned int argc, char **argv,
		    char *result, unsigned int maxlen);

#endif /* DM_FANRAID_H */
