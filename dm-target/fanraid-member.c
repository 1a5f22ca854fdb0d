// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid member state: which members are failed, which are still being
 * rebuilt, and the one place a member becomes failed; and a bio pointed
 * at a member, counted there (fanraid_remap()).
 *
 * This layer sits below map, readahead and RAID6: they ask it, it calls
 * none of them. A member fails here for a write error, a read error that
 * could not be repaired, a flush error, a "fail" message or an aborted
 * rebuild; every one of those logs once, raises one table event and (with
 * an on-disk superblock) is recorded before writes that skip the member
 * complete. It calls nothing above it: the table event's work item
 * records the failure in the superblocks.
 */
#include <linux/bio.h>

#include "fanraid.h"

bool fanraid_is_failed(struct fanraid_c *fc, u32 dev)
{
	return test_bit(dev, fc->failed);
}

/* Member @dev is being rebuilt and has not been rebuilt at member sector @pos yet. */
bool fanraid_is_stale(struct fanraid_c *fc, u32 dev, sector_t pos)
{
	return test_bit(dev, fc->rebuilding) && pos >= READ_ONCE(fc->sync_cp);
}

/*
 * RAID6: is a data block of @loc's row (in layout @g) on a member that cannot
 * be read there, for the @sectors from @loc on (failed, or not rebuilt that
 * far)? Then every read of the row goes to the gatherer, not only the lost
 * block's (fanraid_map(), and the readahead cache, which fetches none of
 * the row): the survivors read to rebuild that block serve the row's other
 * readers too, where reading them straight from the members would fetch
 * them twice. The last sector decides: the rebuild stops at window edges,
 * inside a chunk, and a read of a whole chunk that starts below it would
 * read the rest of the rebuilt member's chunk as it is, not yet rebuilt.
 */
bool fanraid_r6_row_lost(struct fanraid_c *fc, const struct fr_geom *g,
			 const struct fr_loc *loc, sector_t sectors)
{
	sector_t last = loc->sector + max_t(sector_t, sectors, 1) - 1;
	DECLARE_BITMAP(lost, FR_MAX_DEVS);
	u32 dev;

	bitmap_or(lost, fc->failed, fc->rebuilding, fc->ndevs);
	if (bitmap_empty(lost, fc->ndevs))
		return false;
	for_each_set_bit(dev, lost, fc->ndevs) {
		if (dev == fr_geom_p_dev(g, loc->row) ||
		    dev == fr_geom_q_dev(g, loc->row))
			continue;
		if (fanraid_is_failed(fc, dev) ||
		    fanraid_is_stale(fc, dev, last))
			return true;
	}
	return false;
}

/*
 * Take member @dev out of service for @why (errno @err, 0 for none).
 * Returns true when this call failed it, false when it already was. Any
 * context: the table event is raised from a work item.
 */
bool fanraid_member_fail(struct fanraid_c *fc, u32 dev, const char *why,
			 int err)
{
	if (WARN_ON_ONCE(dev >= fc->ndevs) || test_and_set_bit(dev, fc->failed))
		return false;
	if (err)
		DMERR("%s: member %u failed: %s (error %d)",
		      dm_table_device_name(fc->ti->table), dev, why, err);
	else
		DMERR("%s: member %u failed: %s",
		      dm_table_device_name(fc->ti->table), dev, why);
	if (bitmap_weight(fc->failed, fc->ndevs) > 2)
		DMERR("%s: more than two members failed: I/O that needs them fails",
		      dm_table_device_name(fc->ti->table));
	/* The event also records it on the survivors (fanraid_trigger_event()). */
	schedule_work(&fc->trigger_event);
	return true;
}

void fanraid_member_init(struct fanraid_c *fc)
{
	u32 i;

	spin_lock_init(&fc->err_lock);
	for (i = 0; i < fc->ndevs; i++)
		fc->devs[i].recent_since = jiffies;
}

/*
 * A read error on @dev was repaired: the data was rebuilt from parity and
 * written back, and the write succeeded, so the member stays in service
 * (an SSD remaps the sector on write). One that keeps needing it is
 * failing: past max_read_errors recent repairs it is failed.
 */
void fanraid_member_read_repaired(struct fanraid_c *fc, u32 dev)
{
	struct fanraid_dev *d = &fc->devs[dev];
	unsigned long flags, hours;
	u32 recent;

	atomic64_inc(&d->read_errors_corrected);
	spin_lock_irqsave(&fc->err_lock, flags);
	hours = (jiffies - d->recent_since) / FANRAID_READ_ERROR_DECAY;
	if (hours) {
		d->recent_read_errors = hours >= 32 ? 0 :
					d->recent_read_errors >> hours;
		d->recent_since = jiffies;
	}
	recent = ++d->recent_read_errors;
	spin_unlock_irqrestore(&fc->err_lock, flags);
	DMWARN_LIMIT("%s: member %u: read error repaired from parity (%u recent)",
		     dm_table_device_name(fc->ti->table), dev, recent);
	if (recent > fc->features.max_read_errors)
		fanraid_member_fail(fc, dev, "too many read errors", 0);
	else
		schedule_work(&fc->trigger_event);
}

/* Per-CPU I/O counters for every member (see struct fanraid_stats). */
int fanraid_member_stats_alloc(struct fanraid_c *fc)
{
	u32 i;

	for (i = 0; i < fc->ndevs; i++) {
		fc->devs[i].stats = alloc_percpu(struct fanraid_stats);
		if (!fc->devs[i].stats)
			return -ENOMEM;
	}
	return 0;
}

void fanraid_member_stats_free(struct fanraid_c *fc)
{
	u32 i;

	for (i = 0; i < fc->ndevs; i++) {
		free_percpu(fc->devs[i].stats);
		fc->devs[i].stats = NULL;
	}
}

u64 fanraid_member_stat(struct fanraid_dev *d, enum fanraid_stat k)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(d->stats, cpu)->v[k];
	return sum;
}

void fanraid_member_stats_reset(struct fanraid_dev *d)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(d->stats, cpu), 0, sizeof(struct fanraid_stats));
	atomic64_set(&d->errors, 0);
}

static void fanraid_count(struct fanraid_dev *d, struct bio *bio)
{
	switch (bio_op(bio)) {
	case REQ_OP_READ:
		fanraid_stat_add(d, FANRAID_STAT_READS, 1);
		fanraid_stat_add(d, FANRAID_STAT_READ_SECTORS, bio_sectors(bio));
		break;
	case REQ_OP_WRITE:
		fanraid_stat_add(d, FANRAID_STAT_WRITES, 1);
		fanraid_stat_add(d, FANRAID_STAT_WRITE_SECTORS, bio_sectors(bio));
		break;
	default:
		break;
	}
}

/* Point a bio of the array at member @dev, counted there. */
int fanraid_remap(struct fanraid_c *fc, struct bio *bio, u32 dev,
		  sector_t member_sector)
{
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	struct fanraid_dev *d = &fc->devs[dev];

	fb->dev = dev;
	fb->handled = false;
	bio_set_dev(bio, d->dm_dev->bdev);
	bio->bi_iter.bi_sector = d->offset + member_sector;
	fanraid_count(d, bio);
	return DM_MAPIO_REMAPPED;
}
