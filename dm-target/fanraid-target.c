// SPDX-License-Identifier: GPL-2.0-only
/*
 * dm-fanraid: stripe one block device across 1-64 members, RAID0 or RAID6.
 *
 * This file only binds the target type to the hooks in fanraid-table.c,
 * fanraid-map.c and fanraid-status.c. It is not called dm-fanraid.c
 * because the composite module object already has that name.
 */
#include <linux/module.h>

#include "fanraid.h"

/*
 * Stop the RAID6 sync walk and drain the readahead queues so suspend never
 * waits on them; resume restarts both.
 */
static void fanraid_presuspend(struct dm_target *ti)
{
	struct fanraid_c *fc = ti->private;

	if (fc->r6)
		fanraid_sync_presuspend(fc);
	fanraid_reshape_presuspend(fc);
	fanraid_ra_presuspend(fc);
}

/*
 * No I/O is in flight now: the bitmap can be cleared, then the
 * superblocks marked clean.
 */
static void fanraid_postsuspend(struct dm_target *ti)
{
	fanraid_bitmap_postsuspend(ti->private);
	fanraid_meta_postsuspend(ti->private);
}

/* The superblocks first: a resync must find DIRTY on the media. */
static void fanraid_resume(struct dm_target *ti)
{
	struct fanraid_c *fc = ti->private;

	fanraid_meta_resume(fc);
	fanraid_bitmap_resume(fc);
	fanraid_ra_resume(fc);
	if (fc->r6)
		fanraid_sync_resume(fc);
	fanraid_reshape_resume(fc);
}

/*
 * The DM core undoes a presuspend when the suspend does not happen
 * (lock_fs failed, or the wait for in-flight I/O was interrupted): the
 * target runs on as if resumed, or a rebuild would stay frozen and
 * readahead off until the next resume.
 */
static void fanraid_presuspend_undo(struct dm_target *ti)
{
	fanraid_resume(ti);
}

static struct target_type fanraid_target = {
	.name = "fanraid",
	/*
	 * 1.1.0: stripe_cache_mb, and the stripe cache words in INFO status
	 * 1.2.0: read errors repaired from parity, max_read_errors, and
	 *        read_errors_corrected per member in INFO status
	 * 1.3.0: superblock, safe_mode_delay, and the superblock words in INFO
	 * 1.4.0: bitmap, readd, reconstruct-write above the resync point,
	 *        and the bitmap words in INFO
	 * 1.5.0: RAID6 discard and write-zeroes
	 * 1.6.0: min_sync_rate, and the max_sync_rate and min_sync_rate
	 *        messages
	 * 1.7.0: reshape (RAID0 grow), the reshape_safe message, and the
	 *        reshape words in INFO
	 * 1.8.0: reshape on RAID6, its progress recorded by the kernel
	 */
	.version = {1, 8, 0},
	/*
	 * map never sleeps (fanraid-map.c): io_uring submits here from its
	 * own task instead of handing every request to an io-wq worker.
	 */
	.features = DM_TARGET_NOWAIT,
	.module = THIS_MODULE,
	.ctr = fanraid_ctr,
	.dtr = fanraid_dtr,
	.map = fanraid_map,
	.end_io = fanraid_end_io,
	.status = fanraid_status,
	.message = fanraid_message,
	.iterate_devices = fanraid_iterate_devices,
	.io_hints = fanraid_io_hints,
	.presuspend = fanraid_presuspend,
	.presuspend_undo = fanraid_presuspend_undo,
	.postsuspend = fanraid_postsuspend,
	.resume = fanraid_resume,
};

static int __init dm_fanraid_init(void)
{
	int r = dm_register_target(&fanraid_target);

	if (r < 0)
		DMERR("register failed %d", r);
	return r;
}

static void __exit dm_fanraid_exit(void)
{
	dm_unregister_target(&fanraid_target);
}

module_init(dm_fanraid_init);
module_exit(dm_fanraid_exit);

MODULE_DESCRIPTION(DM_NAME " RAID0/RAID6 striping target for many SSDs");
MODULE_AUTHOR("fanraid developers");
MODULE_LICENSE("GPL");
