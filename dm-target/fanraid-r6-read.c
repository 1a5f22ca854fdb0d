// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 repairing reads: a read that failed at its member, read
 * again, and what fails again rebuilt from the others and written back,
 * in a worker, since it must wait for their I/O. Reads of rows with a lost
 * block (a failed member, or one not yet rebuilt there) are gathered by
 * window instead (fanraid-r6-gather.c); reads of healthy rows never leave
 * fanraid_map().
 */
#include <linux/bio.h>

#include "fanraid-raid6.h"

/*
 * The op's target, read from its member, or rebuilt from the others where
 * it is lost. A read that failed at its member is sent there again:
 * fanraid_r6_read_slots() rebuilds only the pages that fail once more, and
 * they are written back.
 */
static blk_status_t fanraid_r6_do_read(struct fanraid_r6op *op)
{
	bool lost = test_bit(op->target, &op->missing);

	if (fanraid_r6_read_slots(op, lost ? fanraid_r6_survivors(op) :
					     BIT(op->target)))
		return BLK_STS_IOERR;
	if (test_bit(op->target, &op->missing) && fanraid_r6_recover(op))
		return BLK_STS_IOERR;
	fanraid_r6_copy_bio(op, op->bio, op->target, op->page_skip);
	fanraid_r6_rewrite(op);
	return BLK_STS_OK;
}

/*
 * The part of @bio in one stripe window, @in_chunk sectors into its chunk
 * of row @row: read, rebuilt where lost, and copied into the bio.
 */
static blk_status_t fanraid_r6_read_window(struct fanraid_c *fc,
					   struct fanraid_bio *fb,
					   struct bio *bio, const struct fr_loc *loc,
					   u32 in_chunk)
{
	u32 skip = (in_chunk << SECTOR_SHIFT) & ~PAGE_MASK;
	u32 npages = DIV_ROUND_UP(skip + bio->bi_iter.bi_size, PAGE_SIZE);
	struct fanraid_r6op *op;
	blk_status_t status;

	op = fanraid_r6_op_get(fc, fb->g, loc->row,
			       in_chunk >> (PAGE_SHIFT - SECTOR_SHIFT), npages);
	op->bio = bio;
	op->target = loc->data_idx;
	op->page_skip = skip;

	fanraid_r6_op_lock(op);
	op->missing = fanraid_r6_lost_slots(op);
	status = fanraid_r6_do_read(op);
	fanraid_r6_op_unlock(op);
	fanraid_r6_op_put(op);
	return status;
}

/*
 * A read that failed at its member (fanraid_r6_queue_repair()), read
 * again, its lost pages rebuilt and written back; or a read of a row with
 * a lost block that map could not trim to its stripe window
 * (fanraid_r6_queue()). Up to a chunk: one operation per window, since the
 * stripe cache holds a window per slot and page locks are taken a window
 * at a time.
 */
void fanraid_r6_read_work(struct work_struct *work)
{
	struct fanraid_bio *fb = container_of(work, struct fanraid_bio, work);
	struct fanraid_c *fc = fb->fc;
	struct bio *bio = dm_bio_from_per_bio_data(fb, sizeof(*fb));
	const struct fr_geom *g = fb->g;
	struct bvec_iter whole = bio->bi_iter;
	blk_status_t status = BLK_STS_OK;
	struct fr_loc loc;

	fr_geom_map(g, dm_target_offset(fc->ti, bio->bi_iter.bi_sector), &loc);
	while (bio->bi_iter.bi_size && status == BLK_STS_OK) {
		sector_t logical = dm_target_offset(fc->ti,
						    bio->bi_iter.bi_sector);
		u32 in_chunk = logical & (g->chunk_sectors - 1);
		u32 len = min_t(u32, bio->bi_iter.bi_size,
				fanraid_r6_window_left(g, logical) << SECTOR_SHIFT);
		struct bvec_iter rest = bio->bi_iter;

		bio_advance_iter(bio, &rest, len);
		bio->bi_iter.bi_size = len;
		status = fanraid_r6_read_window(fc, fb, bio, &loc, in_chunk);
		bio->bi_iter = rest;
	}
	bio->bi_iter = whole;
	bio->bi_status = status;
	bio_endio(bio);
}
