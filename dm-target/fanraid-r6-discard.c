// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 discard and write-zeroes.
 *
 * A row whose data is all zeroes has all-zero P and Q, so a request that
 * covers whole rows is sent as REQ_OP_WRITE_ZEROES to every member of
 * those rows, data, P and Q alike, and the rows stay consistent without
 * computing anything. A discard allows the members to unmap (an SSD
 * deallocates); a write-zeroes keeps the caller's REQ_NOUNMAP.
 *
 * The parts of rows a request covers only in part:
 * - a discard leaves them alone: it is advisory, and zeroing a part of a
 *   row costs a parity update, which is a write, which is what a discard
 *   is meant to save;
 * - a write-zeroes must zero them: each window piece goes through the
 *   write path (fanraid-r6-gather.c) as a write of zeroes, parity updated
 *   like any write.
 *
 * Whole rows are zeroed in batches of at most FANRAID_R6_ZERO_ROWS under
 * every page lock of those rows, so no write's read-modify-write and no
 * sync pass interleaves with the zeroing. Batches take their locks under
 * one outer zero_lock, so two batches run one after the other. Like a
 * write: DIRTY and the rows' bitmap bits reach the media first, a failed
 * member simply gets nothing, a member that fails the write-zeroes is
 * failed, and the request completes only once the survivors' superblocks
 * record any failure. A member being rebuilt gets the zeroes too: the row
 * is then in sync on it.
 *
 * Layering (R22): a path, beside the gatherer, which it feeds; it uses the
 * page locks of fanraid-r6-io.c, the on-disk state and the member state.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/slab.h>

#include "fanraid-raid6.h"

/* One batch's member write-zeroes, and how each ended. */
struct fanraid_r6_zero;

struct fanraid_r6_zero_io {
	struct fanraid_r6_zero *z;
	blk_status_t status;
};

struct fanraid_r6_zero {
	atomic_t pending;
	struct completion done;
	struct fanraid_r6_zero_io io[FR_MAX_DEVS];
};

static void fanraid_r6_zero_endio(struct bio *bio)
{
	struct fanraid_r6_zero_io *io = bio->bi_private;
	struct fanraid_r6_zero *z = io->z;

	io->status = bio->bi_status;
	bio_put(bio);
	if (atomic_dec_and_test(&z->pending))
		complete(&z->done);
}

/*
 * The page locks of rows @row .. @row + @nrows - 1, all pages of each
 * window, as a set of lock indices: they are taken in index order under
 * zero_lock, and every other holder takes its run of one window's locks
 * in index order too, so none can wait for another in a circle.
 */
static void fanraid_r6_zero_locks(struct fanraid_c *fc, u64 row, u32 nrows,
				  unsigned long *locks)
{
	const struct fr_geom *g = &fc->geom;
	u32 win_sectors = fr_r6_window_sectors(g->chunk_sectors);
	u32 per_row = g->chunk_sectors / win_sectors;
	u32 win_pages = win_sectors >> PAGE_SECTORS_SHIFT;
	u32 i, w, p;

	bitmap_zero(locks, 1 << FANRAID_R6_LOCK_BITS);
	for (i = 0; i < nrows; i++)
		for (w = 0; w < per_row; w++)
			for (p = 0; p < win_pages; p++)
				__set_bit(fanraid_r6_lock_index(g, row + i, w, p),
					  locks);
}

/*
 * Zero rows @row .. @row + @nrows - 1 on every member that is not failed.
 * Called with their page locks held.
 */
static void fanraid_r6_zero_members(struct fanraid_c *fc, u64 row, u32 nrows,
				    bool unmap)
{
	const struct fr_geom *g = &fc->geom;
	sector_t start = row << g->chunk_shift;
	sector_t len = (sector_t)nrows << g->chunk_shift;
	struct fanraid_r6_zero *z;
	u32 dev;

	/* About 1 KiB at 64 members: not on the worker's stack. */
	z = kmalloc(sizeof(*z), GFP_NOIO | __GFP_NOFAIL);

	atomic_set(&z->pending, 1);
	init_completion(&z->done);
	for (dev = 0; dev < fc->ndevs; dev++) {
		struct fanraid_dev *d = &fc->devs[dev];
		struct bio *bio;

		z->io[dev].z = z;
		z->io[dev].status = BLK_STS_OK;
		if (fanraid_is_failed(fc, dev))
			continue;
		bio = bio_alloc_bioset(d->dm_dev->bdev, 0,
				       REQ_OP_WRITE_ZEROES | (unmap ? 0 : REQ_NOUNMAP),
				       GFP_NOIO, &fc->r6->bs);
		bio->bi_iter.bi_sector = d->offset + start;
		bio->bi_iter.bi_size = to_bytes(len);
		bio->bi_private = &z->io[dev];
		bio->bi_end_io = fanraid_r6_zero_endio;
		atomic_inc(&z->pending);
		submit_bio_noacct(bio);
	}
	if (!atomic_dec_and_test(&z->pending))
		wait_for_completion_io(&z->done);

	for (dev = 0; dev < fc->ndevs; dev++) {
		struct fanraid_dev *d = &fc->devs[dev];
		blk_status_t status = z->io[dev].status;
		int err;

		if (fanraid_is_failed(fc, dev))
			continue;
		/* Zeroes may sit in a volatile cache too (flush_policy dirty). */
		atomic_set(&d->dirty, 1);
		/*
		 * The member took the table's write-zeroes limit but not the
		 * request (a disk that found out it cannot): zero pages then,
		 * as blkdev_issue_zeroout() falls back.
		 */
		if (status == BLK_STS_NOTSUPP) {
			err = blkdev_issue_zeroout(d->dm_dev->bdev, d->offset + start,
						   len, GFP_NOIO,
						   unmap ? 0 : BLKDEV_ZERO_NOUNMAP);
			status = errno_to_blk_status(err);
		}
		if (status == BLK_STS_OK)
			continue;
		if (atomic64_inc_return(&d->errors) < FANRAID_EVENT_THRESHOLD)
			schedule_work(&fc->trigger_event);
		fanraid_member_fail(fc, dev, "write-zeroes error",
				    blk_status_to_errno(status));
	}
	kfree(z);
}

/* Zero whole rows @row .. @row + @nrows - 1, nrows <= FANRAID_R6_ZERO_ROWS. */
static blk_status_t fanraid_r6_zero_batch(struct fanraid_c *fc, u64 row,
					  u32 nrows, bool unmap)
{
	DECLARE_BITMAP(locks, 1 << FANRAID_R6_LOCK_BITS);
	struct semaphore *page_locks = fc->r6->page_locks;
	blk_status_t status = BLK_STS_OK;
	u32 i, set = 0;

	if (fanraid_meta_write_start(fc)) {
		status = BLK_STS_IOERR;
		goto out;
	}
	for (set = 0; set < nrows; set++) {
		if (fanraid_bitmap_write_start(fc, row + set)) {
			status = BLK_STS_IOERR;
			goto out;
		}
	}
	fanraid_r6_zero_locks(fc, row, nrows, locks);
	mutex_lock(&fc->r6->zero_lock);
	for_each_set_bit(i, locks, 1 << FANRAID_R6_LOCK_BITS)
		down(&page_locks[i]);
	fanraid_r6_pq_forget_rows(fc->r6, &fc->geom, row, nrows);
	/* As a write: with more than two members lost, leave the members be. */
	if (bitmap_weight(fc->failed, fc->ndevs) > 2)
		status = BLK_STS_IOERR;
	else
		fanraid_r6_zero_members(fc, row, nrows, unmap);
	for_each_set_bit(i, locks, 1 << FANRAID_R6_LOCK_BITS)
		up(&page_locks[i]);
	mutex_unlock(&fc->r6->zero_lock);
	if (!status && bitmap_weight(fc->failed, fc->ndevs) > 2)
		status = BLK_STS_IOERR;
	/* Skipped members must be on the survivors' superblocks first. */
	if (!status && fanraid_meta_sync_failed(fc))
		status = BLK_STS_IOERR;
out:
	while (set-- > 0)
		fanraid_bitmap_write_end(fc, row + set);
	fanraid_meta_write_end(fc);
	return status;
}

/*
 * The partial rows of a write-zeroes, logical [@start, @end): one zero
 * write per stripe window piece, chained to @parent, through the write
 * path. Their bios come from a pool of their own: they are held until
 * their windows are written, which takes bios from r6->bs.
 */
static void fanraid_r6_zero_partial(struct fanraid_c *fc, struct bio *parent,
				    sector_t start, sector_t end)
{
	u32 win = min_t(u32, fc->geom.chunk_sectors, FANRAID_R6_MAX_IO_SECTORS);

	while (start < end) {
		sector_t next = min_t(sector_t, end, round_down(start, win) + win);
		struct bio *bio = bio_alloc_bioset(NULL, 0, REQ_OP_WRITE_ZEROES,
						   GFP_NOIO, &fc->r6->zero_bs);

		bio->bi_iter.bi_sector = fc->ti->begin + start;
		bio->bi_iter.bi_size = to_bytes(next - start);
		bio_chain(bio, parent);
		fanraid_r6_gather_zeroes(fc, bio);
		start = next;
	}
}

/* kfanraid6: a discard or write-zeroes, one per range (num_*_bios = 1). */
void fanraid_r6_range_work(struct work_struct *work)
{
	struct fanraid_bio *fb = container_of(work, struct fanraid_bio, work);
	struct fanraid_c *fc = fb->fc;
	struct bio *bio = dm_bio_from_per_bio_data(fb, sizeof(*fb));
	const struct fr_geom *g = &fc->geom;
	bool zeroes = bio_op(bio) == REQ_OP_WRITE_ZEROES;
	bool unmap = !zeroes || !(bio->bi_opf & REQ_NOUNMAP);
	u32 row_sectors = g->chunk_sectors * g->data_devs;
	sector_t start = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	sector_t end = start + bio_sectors(bio);
	u64 first = div_u64(start + row_sectors - 1, row_sectors);
	u64 last = div_u64(end, row_sectors);	/* whole rows: first .. last - 1 */
	blk_status_t status = BLK_STS_OK;

	if (zeroes) {
		if (first < last) {
			fanraid_r6_zero_partial(fc, bio, start,
						first * row_sectors);
			fanraid_r6_zero_partial(fc, bio, last * row_sectors,
						end);
		} else {
			fanraid_r6_zero_partial(fc, bio, start, end);
		}
	}
	while (first < last && !status) {
		u32 nrows = min_t(u64, last - first, FANRAID_R6_ZERO_ROWS);

		status = fanraid_r6_zero_batch(fc, first, nrows, unmap);
		first += nrows;
	}
	if (status)
		bio->bi_status = status;
	bio_endio(bio);
}
