// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid I/O path: remap bios onto members through the shared geometry.
 *
 * Layered as the geometry (fanraid/geom.h) -> fanraid_map_bio() /
 * fanraid_map_range() -> fanraid_map(). Nothing here sleeps; the locks
 * are the readahead cache's spinlock and, during a grow, the reshape's
 * (fanraid-reshape.c, which also allocates the old-layout twin of a write
 * without waiting). The DM core has already
 * split every bio at chunk boundaries (dm_set_target_max_io_len in the ctr);
 * RAID6 trims its writes further, to stripe windows, here.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>

#include "fanraid.h"

/*
 * Trim a RAID6 write, or a read of a row with a lost block, to its stripe
 * window, which is what the gatherer and the stripe cache work in; the DM
 * core maps the rest next, in this same context. Map only: the length it
 * shortens lives in the DM core's frame.
 */
static void fanraid_r6_trim(struct fanraid_c *fc, struct bio *bio,
			    sector_t logical)
{
	u32 left = fanraid_r6_window_left(&fc->geom, logical);

	if (bio_sectors(bio) > left)
		dm_accept_partial_bio(bio, left);
}

/*
 * A read or write that lies inside one chunk goes to that chunk's member.
 * RAID6 writes, and reads of a row with a lost data block, need other
 * members' data first and go to the worker.
 */
static int fanraid_map_bio(struct fanraid_c *fc, struct bio *bio)
{
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	struct fanraid_bio *fb;
	struct fr_loc loc;

	if (WARN_ON_ONCE(bio_sectors(bio) >
			 fr_geom_chunk_remaining(&fc->geom, logical)))
		return DM_MAPIO_KILL;
	/* Window boundaries are the same in both layouts of a grow. */
	if (fc->r6 && op_is_write(bio_op(bio)))
		fanraid_r6_trim(fc, bio, logical);
	/* A grow under way: which layout depends on how far the copy got. */
	if (fc->rs)
		return fanraid_reshape_map(fc, bio);
	fr_geom_map(&fc->geom, logical, &loc);
	if (fc->r6 && (op_is_write(bio_op(bio)) ||
		       fanraid_r6_row_lost(fc, &fc->geom, &loc,
					   bio_sectors(bio)))) {
		fanraid_r6_trim(fc, bio, logical);
		return fanraid_r6_queue(fc, bio, &loc, true);
	}
	/* May trim the bio to one cache segment; the start stays the same. */
	/*
	 * The page cache's own readahead (REQ_RAHEAD) is already windowed and
	 * asynchronous: fetching ahead of it again only adds copies.
	 */
	if (bio_op(bio) == REQ_OP_READ && fc->ra &&
	    !(bio->bi_opf & REQ_RAHEAD) && READ_ONCE(fc->features.readahead)) {
		if (fanraid_ra_map(fc, bio) == DM_MAPIO_SUBMITTED)
			return DM_MAPIO_SUBMITTED;
		/* How busy the readers keep the members decides whether to fetch ahead. */
		fb = dm_per_bio_data(bio, sizeof(*fb));
		fb->ra_sectors = bio_sectors(bio);
		fanraid_ra_inflight_add(fc, fb->ra_sectors);
	}
	if (fc->r6) {
		fb = dm_per_bio_data(bio, sizeof(*fb));
		fb->iter = bio->bi_iter;
	}
	return fanraid_remap(fc, bio, loc.dev, loc.sector);
}

/*
 * First sector of member @dev's data area at or after @logical. Past the
 * end of the array this is member_sectors, so it also serves as an
 * exclusive end.
 */
static sector_t fanraid_member_boundary(const struct fr_geom *g, u32 dev,
					sector_t logical)
{
	struct fr_loc loc;
	sector_t row_start;

	fr_geom_map(g, logical, &loc);
	if (loc.dev == dev)
		return loc.sector;
	row_start = loc.row << g->chunk_shift;
	/* RAID0 only: member index == data index within the row */
	return dev > loc.data_idx ? row_start : row_start + g->chunk_sectors;
}

/*
 * Discard, secure erase and write zeroes arrive once per member for the
 * whole range (num_*_bios); each copy becomes the one contiguous range of
 * that member the logical range covers, or completes at once when it
 * covers none.
 */
static int fanraid_map_range(struct fanraid_c *fc, struct bio *bio, u32 dev)
{
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	sector_t begin, end;

	if (WARN_ON_ONCE(dev >= fc->ndevs))
		return DM_MAPIO_KILL;
	begin = fanraid_member_boundary(&fc->geom, dev, logical);
	end = fanraid_member_boundary(&fc->geom, dev,
				      logical + bio_sectors(bio));
	if (begin >= end) {
		struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));

		fb->dev = dev;
		fb->handled = true;
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}
	bio->bi_iter.bi_size = to_bytes(end - begin);
	return fanraid_remap(fc, bio, dev, begin);
}

/*
 * The DM core sends flushes empty, once per member (num_flush_bios). A
 * failed member has nothing to flush; with flush_policy dirty neither has a
 * member that completed no write since its last flush, unless a flush is
 * still in flight to it: the write may be covered only by that one, which
 * has not said yet whether it worked, so this one is sent too. The flush
 * counts itself in flight before it looks, so of two racing flushes at
 * least one sees the other.
 */
static int fanraid_map_flush(struct fanraid_c *fc, struct bio *bio)
{
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	u32 dev = dm_bio_get_target_bio_nr(bio);
	struct fanraid_dev *d;
	bool elide;

	if (WARN_ON_ONCE(dev >= fc->ndevs))
		return DM_MAPIO_KILL;
	d = &fc->devs[dev];
	elide = fanraid_is_failed(fc, dev);
	if (!elide && fc->features.flush_policy == FANRAID_FLUSH_DIRTY) {
		atomic_inc(&d->flushes_inflight);
		fb->flush_counted = true;
		if (!atomic_xchg(&d->dirty, 0) &&
		    atomic_read(&d->flushes_inflight) == 1) {
			atomic_dec(&d->flushes_inflight);
			fb->flush_counted = false;
			atomic64_inc(&fc->flushes_elided);
			elide = true;
		}
	}
	if (elide) {
		fb->handled = true;
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}
	fanraid_stat_add(d, FANRAID_STAT_FLUSHES, 1);
	return fanraid_remap(fc, bio, dev, 0);
}

int fanraid_map(struct dm_target *ti, struct bio *bio)
{
	struct fanraid_c *fc = ti->private;
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));

	fb->wlen = 0;
	fb->ra_sectors = 0;
	fb->ra_gen = 0;
	fb->flush_counted = false;
	fb->rs_epoch = 0;
	fb->g = &fc->geom;
	/*
	 * REQ_NOWAIT ends here: map itself never sleeps (DM_TARGET_NOWAIT),
	 * but a member with no free tag would end the clone BLK_STS_AGAIN,
	 * and io_uring issues a request again only when it fails in the
	 * submitting task. The DM core completes a bio it split when the last
	 * piece ends, often in a member's interrupt, so the reader would get
	 * -EAGAIN (dm-stripe's readers do on 6.1). The submitter waits for
	 * the member's tag instead, as a libaio submitter does.
	 */
	bio->bi_opf &= ~REQ_NOWAIT;
	if (fc->r6) {
		this_cpu_inc(*fc->r6->mapped);
		if (unlikely(bio->bi_opf & (REQ_PREFLUSH | REQ_FUA)) &&
		    bio_sectors(bio) <= FANRAID_R6_YIELD_SECTORS)
			fanraid_r6_waiter_seen(fc->r6);
	}
	if (unlikely(bio->bi_opf & REQ_PREFLUSH))
		return fanraid_map_flush(fc, bio);

	/* Cached readahead must not outlive a write: drop it now and on completion. */
	if (fc->ra && op_is_write(bio_op(bio))) {
		fb->wstart = dm_target_offset(ti, bio->bi_iter.bi_sector);
		fb->wlen = bio_sectors(bio);
		fanraid_ra_invalidate(fc, fb->wstart, fb->wlen);
	}

	switch (bio_op(bio)) {
	case REQ_OP_DISCARD:
	case REQ_OP_SECURE_ERASE:
	case REQ_OP_WRITE_ZEROES:
		/* RAID6: one bio for the range, zeroed rows at a time. */
		if (fc->r6)
			return fanraid_r6_queue_range(fc, bio);
		return fanraid_map_range(fc, bio, dm_bio_get_target_bio_nr(bio));
	default:
		break;
	}

	if (fc->features.flush_policy == FANRAID_FLUSH_DROP)
		bio->bi_opf &= ~REQ_FUA;
	return fanraid_map_bio(fc, bio);
}

void fanraid_trigger_event(struct work_struct *work)
{
	struct fanraid_c *fc = container_of(work, struct fanraid_c,
					    trigger_event);

	/*
	 * A member may have failed: the survivors' superblocks must say so
	 * soon even if no write comes (fanraid-meta.c); the member state
	 * below cannot call up there itself.
	 */
	fanraid_meta_member_failed(fc);
	dm_table_event(fc->ti->table);
}

/*
 * A RAID6 flush that failed on one member completes as a success, but only
 * after the failure is on the surviving members' superblocks: the writes
 * that flush covered may be lost from that member's cache, so after a
 * crash it must not be taken back as in sync.
 */
static void fanraid_flush_failed_work(struct work_struct *work)
{
	struct fanraid_bio *fb = container_of(work, struct fanraid_bio, work);
	struct bio *bio = dm_bio_from_per_bio_data(fb, sizeof(*fb));

	if (fanraid_meta_sync_failed(fb->fc))
		bio->bi_status = BLK_STS_IOERR;
	bio_endio(bio);
}

/*
 * Count member errors and tell userspace through a table event. Readahead
 * failures and unsupported operations are not member faults.
 *
 * RAID6 keeps a member in service through a read error: the worker
 * rebuilds the range from parity, completes the read with it and writes
 * it back (fanraid_r6_read_work()). A flush that fails fails its member
 * instead of the flush: the writes it covered are on the other members'
 * data and parity, whose flushes decide. RAID0 has nothing to rebuild
 * from: the error goes to the bio that met it, and only to it.
 */
static int fanraid_end_io_member(struct fanraid_c *fc, struct bio *bio,
				 blk_status_t *error)
{
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	bool flush = bio->bi_opf & REQ_PREFLUSH;

	if (fb->wlen)
		fanraid_ra_invalidate(fc, fb->wstart, fb->wlen);
	if (fb->ra_sectors) {
		fanraid_ra_inflight_add(fc, -(s64)fb->ra_sectors);
		fb->ra_sectors = 0;
	}
	fanraid_ra_done(fc, fb);
	if (fb->handled)
		return DM_ENDIO_DONE;
	/*
	 * flush_policy dirty: the next flush must reach a member that
	 * completed any write since its last flush (write-zeroes and discards
	 * land in a volatile cache too), or whose last flush failed, so a
	 * retried fsync is not elided. A failed write may have reached the
	 * cache in part: count it as well. The mark goes before the flush
	 * leaves flushes_inflight, so a flush that finds none in flight also
	 * finds the mark a failed one left.
	 */
	if (op_is_write(bio_op(bio)) && (!flush || *error))
		atomic_set(&fc->devs[fb->dev].dirty, 1);
	if (fb->flush_counted) {
		smp_mb__before_atomic();
		atomic_dec(&fc->devs[fb->dev].flushes_inflight);
		fb->flush_counted = false;
	}
	if (!*error || *error == BLK_STS_NOTSUPP)
		return DM_ENDIO_DONE;
	if (bio->bi_opf & REQ_RAHEAD)
		return DM_ENDIO_DONE;
	if (WARN_ON_ONCE(fb->dev >= fc->ndevs))
		return DM_ENDIO_DONE;

	if (atomic64_inc_return(&fc->devs[fb->dev].errors) <
	    FANRAID_EVENT_THRESHOLD)
		schedule_work(&fc->trigger_event);

	if (!fc->r6)
		return DM_ENDIO_DONE;
	if (flush) {
		fanraid_member_fail(fc, fb->dev, "flush error",
				    blk_status_to_errno(*error));
		if (bitmap_weight(fc->failed, fc->ndevs) > 2)
			return DM_ENDIO_DONE;
		/* Acknowledged only once the survivors record the failure. */
		fb->fc = fc;
		fb->handled = true;
		bio->bi_status = BLK_STS_OK;
		INIT_WORK(&fb->work, fanraid_flush_failed_work);
		queue_work(fc->r6->wq, &fb->work);
		return DM_ENDIO_INCOMPLETE;
	}
	if (bio_op(bio) == REQ_OP_READ) {
		bio->bi_iter = fb->iter;
		bio->bi_status = BLK_STS_OK;
		fanraid_r6_queue_repair(fc, bio);
		return DM_ENDIO_INCOMPLETE;
	}
	return DM_ENDIO_DONE;
}

/*
 * During a grow a bio through the old layout holds back the copy of its
 * rows until it ends (fanraid-reshape.c): a read retried from parity
 * (DM_ENDIO_INCOMPLETE) has not ended yet.
 */
int fanraid_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *error)
{
	struct fanraid_c *fc = ti->private;
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	int r = fanraid_end_io_member(fc, bio, error);

	if (r != DM_ENDIO_INCOMPLETE && fb->rs_epoch)
		fanraid_reshape_io_done(fc, fb);
	return r;
}

int fanraid_iterate_devices(struct dm_target *ti,
			    iterate_devices_callout_fn fn, void *data)
{
	struct fanraid_c *fc = ti->private;
	int r = 0;
	u32 i;

	for (i = 0; i < fc->ndevs && !r; i++)
		if (fc->devs[i].dm_dev)
			r = fn(ti, fc->devs[i].dm_dev, fc->devs[i].offset,
			       fc->geom.member_sectors, data);
	return r;
}

/*
 * RAID6 zeroes whole rows on every member (fanraid-r6-discard.c), so it
 * needs write-zeroes on every member it has: the stacked limit is then not
 * zero. The discard granularity is one row, rounded up to a power of two
 * as md's raid5 does, since the block layer aligns discards with
 * round_up(); a request is at most FANRAID_R6_ZERO_ROWS rows' worth of
 * granules, at least one. Without write-zeroes on some member there is
 * neither, and the block layer refuses discards and writes zero pages for
 * zero-outs, as before.
 */
static void fanraid_r6_discard_limits(struct fanraid_c *fc,
				      struct queue_limits *limits)
{
	u32 row = fc->geom.chunk_sectors * fc->geom.data_devs;
	u32 gran = roundup_pow_of_two(row);
	u32 max = gran * max_t(u32, 1, FANRAID_R6_ZERO_ROWS * row / gran);

	if (!limits->max_write_zeroes_sectors) {
		limits->max_discard_sectors = 0;
		limits->max_hw_discard_sectors = 0;
		limits->discard_granularity = 0;
		limits->discard_alignment = 0;
		return;
	}
	limits->max_write_zeroes_sectors = max;
	limits->max_discard_sectors = max;
	limits->max_hw_discard_sectors = max;
	limits->discard_granularity = gran << SECTOR_SHIFT;
	limits->discard_alignment = 0;
	limits->discard_misaligned = 0;
}

/*
 * io_min is one chunk and io_opt one full stripe of data chunks, so mkfs
 * aligns to the stripe and the block layer's readahead (twice io_opt)
 * keeps every member busy.
 */
void fanraid_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	struct fanraid_c *fc = ti->private;
	unsigned int chunk_bytes = fc->geom.chunk_sectors << SECTOR_SHIFT;

	blk_limits_io_min(limits, chunk_bytes);
	blk_limits_io_opt(limits, chunk_bytes * fc->geom.data_devs);
	if (fc->r6)
		fanraid_r6_discard_limits(fc, limits);
}
