// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid grow: copy a RAID0 array onto more members while it runs (table
 * feature "reshape <old_ndevs> <position>").
 *
 * The table has every new member and the old length. Array sectors below
 * "done" are in the new layout, the rest in the old one (both from
 * fanraid/geom.h, same chunk and member data area). A worker copies whole
 * new rows in array order with kcopyd: a window [done, win_end) at a time,
 * bios to the window waiting until it is copied.
 *
 * Crash safety is md's: a new row overwrites an old row, which must hold
 * only data recorded as copied ("safe", the superblocks' reshape_position,
 * which the tool writes and then reports with the reshape_safe message),
 * so after a crash the copy resumes at safe and reads every old chunk it
 * needs intact (fr_reshape_row_limit()). The first rows cannot meet that
 * rule; the tool copies them through a backup before it loads the table
 * (fr_reshape_critical_sectors()), and the constructor refuses a position
 * below them. When the rule leaves no room the copy waits for the tool.
 *
 * I/O while it runs, by array sector L:
 * - L >= win_end: old layout. Such bios are counted in one of two epochs;
 *   a window starts only once the epoch before it has drained, so no copy
 *   reads a chunk an earlier write is still changing, and no old chunk is
 *   overwritten under a read still in flight.
 * - done <= L < win_end: deferred until the window is copied.
 * - safe <= L < done: reads from the new layout; writes to both, so the
 *   old copy, which a resume after a crash copies again, stays current.
 * - L < safe: new layout only.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/dm-kcopyd.h>
#include <linux/highmem.h>
#include <linux/slab.h>

#include "fanraid-raid6.h"

/* Array data one window copies at most (at least one new row). */
#define FANRAID_RESHAPE_WINDOW_SECTORS	16384

struct fanraid_reshape {
	struct fanraid_c *fc;
	struct fr_geom old;		/* the layout being copied from */
	u32 old_ndevs;
	struct workqueue_struct *wq;
	struct work_struct work;
	struct dm_kcopyd_client *kc;
	struct bio_set bs;		/* the old-layout twins of writes */

	spinlock_t lock;		/* the positions, epoch and deferred */
	sector_t safe;			/* recorded as copied (reshape_safe) */
	sector_t done;			/* copied and completed */
	sector_t win_end;		/* end of the window in flight; done when idle */
	u32 epoch;			/* which old_io counts new old-layout bios */
	struct bio_list deferred;	/* bios to the window in flight */
	bool stop;			/* presuspend: no new window */
	bool failed;			/* a copy failed: no new window until reload */

	atomic_t old_io[2];		/* old-layout bios in flight, by epoch */
	wait_queue_head_t wait;		/* for old_io and the copies */
	atomic_t copies;		/* kcopyd jobs of the window in flight */
	int copy_error;
};

static void fanraid_reshape_copied(int read_err, unsigned long write_err,
				   void *context)
{
	struct fanraid_reshape *rs = context;

	if (read_err || write_err)
		WRITE_ONCE(rs->copy_error, -EIO);
	if (atomic_dec_and_test(&rs->copies))
		wake_up(&rs->wait);
}

/* Copy array sectors [@start, @end) from the old layout to the new, and wait. */
static int fanraid_reshape_copy(struct fanraid_reshape *rs, sector_t start,
				sector_t end)
{
	struct fanraid_c *fc = rs->fc;
	u32 chunk = fc->geom.chunk_sectors;
	sector_t l;

	rs->copy_error = 0;
	atomic_set(&rs->copies, 1);
	for (l = start; l < end; l += chunk) {
		struct dm_io_region from, to;
		struct fr_loc o, n;

		fr_geom_map(&rs->old, l, &o);
		fr_geom_map(&fc->geom, l, &n);
		from.bdev = fc->devs[o.dev].dm_dev->bdev;
		from.sector = fc->devs[o.dev].offset + o.sector;
		from.count = chunk;
		to.bdev = fc->devs[n.dev].dm_dev->bdev;
		to.sector = fc->devs[n.dev].offset + n.sector;
		to.count = chunk;
		atomic_inc(&rs->copies);
		dm_kcopyd_copy(rs->kc, &from, 1, &to, 0, fanraid_reshape_copied, rs);
	}
	if (!atomic_dec_and_test(&rs->copies))
		wait_event(rs->wait, !atomic_read(&rs->copies));
	return READ_ONCE(rs->copy_error);
}

/* Send a bio on through layout @g: RAID6 may need the workers. */
static int fanraid_reshape_send(struct fanraid_c *fc, struct bio *bio,
				const struct fr_geom *g)
{
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	struct fr_loc loc;

	if (fc->r6)
		return fanraid_r6_map(fc, bio, g);
	fr_geom_map(g, logical, &loc);
	return fanraid_remap(fc, bio, loc.dev, loc.sector);
}

/*
 * RAID6: the data of new row @row's pages [@first_page, + @npages) from
 * the old layout into @nop, old row by old row (consecutive data chunks
 * mostly share one), each read under its pages' locks: writes past the
 * copy still change the old rows' other chunks and their parity. A chunk
 * that cannot be read is rebuilt from the old row's survivors. Past the
 * old length there is no data: zeroes.
 */
static int fanraid_reshape_r6_gather(struct fanraid_reshape *rs,
				     struct fanraid_r6op *nop)
{
	struct fanraid_c *fc = rs->fc;
	const struct fr_geom *g = &fc->geom;
	u32 slot = 0, p;

	while (slot < g->data_devs) {
		sector_t l = ((nop->row * g->data_devs + slot) << g->chunk_shift) +
			     ((sector_t)nop->first_page << PAGE_SECTORS_SHIFT);
		unsigned long want = 0;
		struct fanraid_r6op *oop;
		struct fr_loc loc;
		u32 first = slot, s;
		int r = 0;

		if (l >= fc->ti->len) {
			fanraid_r6_zero_pages(nop, slot++, 0,
					      nop->npages << PAGE_SHIFT);
			continue;
		}
		fr_geom_map(&rs->old, l, &loc);
		/* The next slots of the new row, while in the same old row. */
		for (s = slot; s < g->data_devs &&
		     loc.data_idx + s - first < rs->old.data_devs &&
		     l + ((sector_t)(s - first) << g->chunk_shift) < fc->ti->len;
		     s++)
			__set_bit(loc.data_idx + s - first, &want);
		oop = fanraid_r6_op_get(fc, &rs->old, loc.row, nop->first_page,
					nop->npages);
		fanraid_r6_op_lock(oop);
		oop->missing = fanraid_r6_lost_slots(oop);
		if ((want & oop->missing) || fanraid_r6_io(oop, want, REQ_OP_READ)) {
			if (fanraid_r6_read_slots(oop, fanraid_r6_survivors(oop)) ||
			    fanraid_r6_recover(oop))
				r = -EIO;
			else
				fanraid_r6_rewrite(oop);
		}
		fanraid_r6_op_unlock(oop);
		for (; !r && slot < s; slot++)
			for (p = 0; p < nop->npages; p++)
				memcpy(page_address(nop->pages[slot][p]),
				       page_address(oop->pages[loc.data_idx + slot - first][p]),
				       PAGE_SIZE);
		fanraid_r6_op_put(oop);
		if (r)
			return r;
	}
	return 0;
}

/*
 * RAID6: new rows [@start, @end) from the old layout, with their P and Q,
 * one stripe window at a time. Nothing else reaches these member sectors:
 * the rows' array sectors are held back, and the old rows there hold
 * only data already copied (fr_reshape_row_limit()). A failed member is
 * skipped, as a degraded write does; more than two lost fail the copy.
 */
static int fanraid_reshape_copy_r6(struct fanraid_reshape *rs, u64 start,
				   u64 end)
{
	struct fanraid_c *fc = rs->fc;
	const struct fr_geom *g = &fc->geom;
	u32 win_pages = fr_r6_window_sectors(g->chunk_sectors) >>
			PAGE_SECTORS_SHIFT;
	u32 chunk_pages = g->chunk_sectors >> PAGE_SECTORS_SHIFT;
	u64 row;
	u32 first;

	for (row = start; row < end; row++) {
		for (first = 0; first < chunk_pages; first += win_pages) {
			struct fanraid_r6op *nop;
			unsigned long slots;
			int r;

			nop = fanraid_r6_op_get(fc, g, row, first, win_pages);
			r = fanraid_reshape_r6_gather(rs, nop);
			if (!r) {
				fanraid_r6_gen(nop, false);
				nop->missing = fanraid_r6_failed_slots(nop);
				slots = GENMASK(g->ndevs - 1, 0) & ~nop->missing;
				fanraid_r6_io(nop, slots, REQ_OP_WRITE);
				if (hweight_long(nop->missing) > 2)
					r = -EIO;
			}
			fanraid_r6_op_put(nop);
			if (r)
				return r;
		}
	}
	return 0;
}

/*
 * RAID6, once the last data is copied: the new rows past it hold no data,
 * and their parity must match: zeroes everywhere (all-zero data has
 * all-zero P and Q), with unmap allowed.
 */
static int fanraid_reshape_zero_tail(struct fanraid_reshape *rs)
{
	struct fanraid_c *fc = rs->fc;
	const struct fr_geom *g = &fc->geom;
	u64 stripe = fr_geom_full_stripe_sectors(g);
	sector_t from = div64_u64(fc->ti->len + stripe - 1, stripe) <<
			g->chunk_shift;
	u32 i;
	int r;

	if (from >= g->member_sectors)
		return 0;
	for (i = 0; i < fc->ndevs; i++) {
		if (!fc->devs[i].dm_dev || fanraid_is_failed(fc, i))
			continue;
		r = blkdev_issue_zeroout(fc->devs[i].dm_dev->bdev,
					 fc->devs[i].offset + from,
					 g->member_sectors - from, GFP_NOIO, 0);
		if (r && fanraid_member_fail(fc, i, "zeroing the grown rows failed", r) &&
		    bitmap_weight(fc->failed, fc->ndevs) > 2)
			return r;
	}
	return 0;
}

/*
 * RAID6: copy array sectors [@start, @end) (whole new rows, or up to the
 * old length), then record @end in the superblocks, whose writes flush
 * each member first (fanraid-meta.c): the kernel keeps RAID6 superblocks,
 * so it also records the copy's progress, after every window.
 */
static int fanraid_reshape_step_r6(struct fanraid_reshape *rs, sector_t start,
				   sector_t end)
{
	struct fanraid_c *fc = rs->fc;
	u64 stripe = fr_geom_full_stripe_sectors(&fc->geom);
	int r;

	r = fanraid_reshape_copy_r6(rs, div64_u64(start, stripe),
				    div64_u64(end + stripe - 1, stripe));
	if (!r && end == fc->ti->len)
		r = fanraid_reshape_zero_tail(rs);
	if (!r)
		r = fanraid_meta_reshape_record(fc, end);
	return r;
}

/*
 * RAID6: at most max_sync_rate KiB/s written per member, as the sync pass
 * (md's speed_limit_max covers its reshape too). Array sectors [@start,
 * @end) took a chunk per new row on each member; the wait ends early for
 * a suspend, and comes after the window's bios went on.
 */
static void fanraid_reshape_pace(struct fanraid_reshape *rs, sector_t start,
				 sector_t end, unsigned long since)
{
	struct fanraid_c *fc = rs->fc;
	u32 rate = READ_ONCE(fc->features.max_sync_rate);
	u64 stripe = fr_geom_full_stripe_sectors(&fc->geom);
	u64 rows = div64_u64(end - start + stripe - 1, stripe);
	unsigned long want;

	if (!rate || !fc->r6)
		return;
	want = since + msecs_to_jiffies(div64_u64(rows * fc->geom.chunk_sectors *
						  1000, (u64)rate * 2));
	if (time_before(jiffies, want))
		wait_event_timeout(rs->wait, READ_ONCE(rs->stop), want - jiffies);
}

/*
 * Route a data bio inside one chunk. @may_block: the worker resubmitting a
 * deferred bio, which may wait for memory; map may not.
 */
static int fanraid_reshape_route(struct fanraid_c *fc, struct bio *bio,
				 bool may_block)
{
	struct fanraid_reshape *rs = fc->rs;
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	unsigned long flags;
	struct fr_loc loc;
	struct bio *twin;
	bool both;

	spin_lock_irqsave(&rs->lock, flags);
	if (logical >= rs->win_end) {
		fb->rs_epoch = rs->epoch + 1;
		atomic_inc(&rs->old_io[rs->epoch]);
		spin_unlock_irqrestore(&rs->lock, flags);
		return fanraid_reshape_send(fc, bio, &rs->old);
	}
	if (logical >= rs->done)
		goto defer;
	both = !fc->r6 && op_is_write(bio_op(bio)) && logical >= rs->safe;
	spin_unlock_irqrestore(&rs->lock, flags);

	if (both) {
		fr_geom_map(&rs->old, logical, &loc);
		twin = bio_alloc_clone(fc->devs[loc.dev].dm_dev->bdev, bio,
				       may_block ? GFP_NOIO : GFP_NOWAIT, &rs->bs);
		if (!twin) {
			spin_lock_irqsave(&rs->lock, flags);
			goto defer;
		}
		twin->bi_iter.bi_sector = fc->devs[loc.dev].offset + loc.sector;
		bio_chain(twin, bio);
		fanraid_stat_add(&fc->devs[loc.dev], FANRAID_STAT_WRITES, 1);
		fanraid_stat_add(&fc->devs[loc.dev], FANRAID_STAT_WRITE_SECTORS,
				 bio_sectors(bio));
		submit_bio_noacct(twin);
	}
	return fanraid_reshape_send(fc, bio, &fc->geom);

defer:
	bio_list_add(&rs->deferred, bio);
	spin_unlock_irqrestore(&rs->lock, flags);
	queue_work(rs->wq, &rs->work);
	return DM_MAPIO_SUBMITTED;
}

int fanraid_reshape_map(struct fanraid_c *fc, struct bio *bio)
{
	return fanraid_reshape_route(fc, bio, false);
}

void fanraid_reshape_io_done(struct fanraid_c *fc, struct fanraid_bio *fb)
{
	struct fanraid_reshape *rs = fc->rs;

	if (!fb->rs_epoch)
		return;
	if (atomic_dec_and_test(&rs->old_io[fb->rs_epoch - 1]))
		wake_up(&rs->wait);
	fb->rs_epoch = 0;
}

static void fanraid_reshape_resubmit(struct fanraid_reshape *rs)
{
	struct bio_list bios;
	struct bio *bio;

	spin_lock_irq(&rs->lock);
	bios = rs->deferred;
	bio_list_init(&rs->deferred);
	spin_unlock_irq(&rs->lock);
	while ((bio = bio_list_pop(&bios)))
		if (fanraid_reshape_route(rs->fc, bio, true) ==
		    DM_MAPIO_REMAPPED)
			submit_bio_noacct(bio);
}

/* The next window, or 0 when there is none to copy now. */
static sector_t fanraid_reshape_next(struct fanraid_reshape *rs)
{
	struct fanraid_c *fc = rs->fc;
	u64 stripe = fr_geom_full_stripe_sectors(&fc->geom);
	u64 rows = max_t(u64, 1, FANRAID_RESHAPE_WINDOW_SECTORS / stripe);
	u64 row = div64_u64(rs->done, stripe);
	u64 limit = fr_reshape_row_limit(&rs->old, rs->safe);

	if (rs->stop || rs->failed || rs->done >= fc->ti->len || row >= limit)
		return 0;
	return min_t(u64, min(row + rows, limit) * stripe, fc->ti->len);
}

static void fanraid_reshape_work(struct work_struct *work)
{
	struct fanraid_reshape *rs = container_of(work, struct fanraid_reshape,
						  work);
	struct fanraid_c *fc = rs->fc;
	unsigned long since;
	sector_t start, end;
	u32 drained;
	int r;

	fanraid_reshape_resubmit(rs);
	for (;;) {
		spin_lock_irq(&rs->lock);
		end = fanraid_reshape_next(rs);
		if (!end) {
			spin_unlock_irq(&rs->lock);
			break;
		}
		start = rs->done;
		rs->win_end = end;
		drained = rs->epoch;
		rs->epoch ^= 1;
		spin_unlock_irq(&rs->lock);

		wait_event(rs->wait, !atomic_read(&rs->old_io[drained]));
		since = jiffies;
		if (fc->r6)
			r = fanraid_reshape_step_r6(rs, start, end);
		else
			r = fanraid_reshape_copy(rs, start, end);

		spin_lock_irq(&rs->lock);
		if (r) {
			rs->failed = true;
			rs->win_end = rs->done;
		} else {
			rs->done = end;
			/* RAID6 recorded it already: no writes to both layouts. */
			if (fc->r6)
				rs->safe = end;
		}
		spin_unlock_irq(&rs->lock);
		fanraid_reshape_resubmit(rs);
		if (r) {
			DMERR("%s: reshape copy of sectors %llu-%llu failed; stopped",
			      dm_table_device_name(fc->ti->table),
			      (unsigned long long)start,
			      (unsigned long long)end);
			schedule_work(&fc->trigger_event);
			break;
		}
		if (end == fc->ti->len) {
			DMINFO("%s: reshape copy complete",
			       dm_table_device_name(fc->ti->table));
			schedule_work(&fc->trigger_event);
		}
		fanraid_reshape_pace(rs, start, end, since);
	}
}

/* reshape_safe <sectors>: the tool recorded this much as copied. */
int fanraid_reshape_set_safe(struct fanraid_c *fc, const char *value)
{
	struct fanraid_reshape *rs = fc->rs;
	u32 stripe = fr_geom_full_stripe_sectors(&fc->geom);
	u64 safe, rows;
	int r = 0;

	if (!rs || fc->r6)
		return -EINVAL;
	if (kstrtou64(value, 10, &safe))
		return -EINVAL;
	rows = safe;
	spin_lock_irq(&rs->lock);
	if (safe < rs->safe || safe > rs->done ||
	    (safe != fc->ti->len && do_div(rows, stripe)))
		r = -EINVAL;
	else
		rs->safe = safe;
	spin_unlock_irq(&rs->lock);
	if (!r)
		queue_work(rs->wq, &rs->work);
	return r;
}

/* Positions for status; false without a reshape. */
bool fanraid_reshape_progress(struct fanraid_c *fc, sector_t *done,
			      sector_t *safe, u32 *old_ndevs)
{
	struct fanraid_reshape *rs = fc->rs;

	if (!rs)
		return false;
	spin_lock_irq(&rs->lock);
	*done = rs->done;
	*safe = rs->safe;
	spin_unlock_irq(&rs->lock);
	*old_ndevs = rs->old_ndevs;
	return true;
}

bool fanraid_reshape_failed(struct fanraid_c *fc)
{
	return fc->rs && READ_ONCE(fc->rs->failed);
}

void fanraid_reshape_presuspend(struct fanraid_c *fc)
{
	struct fanraid_reshape *rs = fc->rs;

	if (!rs)
		return;
	spin_lock_irq(&rs->lock);
	rs->stop = true;
	spin_unlock_irq(&rs->lock);
	wake_up(&rs->wait);
	/* The window in flight finishes and its waiting bios go out. */
	flush_work(&rs->work);
}

void fanraid_reshape_resume(struct fanraid_c *fc)
{
	struct fanraid_reshape *rs = fc->rs;
	sector_t pos;

	if (!rs)
		return;
	/* RAID6: another table may have copied further since the ctr. */
	pos = fc->meta ? fanraid_meta_reshape_pos(fc) : 0;
	spin_lock_irq(&rs->lock);
	if (fc->meta) {
		if (pos > rs->done && rs->win_end == rs->done) {
			rs->done = pos;
			rs->safe = pos;
			rs->win_end = pos;
		}
	}
	rs->stop = false;
	spin_unlock_irq(&rs->lock);
	queue_work(rs->wq, &rs->work);
}

/*
 * After the geometry and members: the old layout from the feature, and
 * the recorded position checked against it.
 */
int fanraid_reshape_create(struct fanraid_c *fc, char **error)
{
	const struct fanraid_features *f = &fc->features;
	struct fanraid_reshape *rs;
	u64 pos = f->reshape_pos;
	u32 stripe;

	if (!f->reshape)
		return 0;
	/* RAID6 records its progress itself, in the superblocks. */
	if (fc->r6 && !f->superblock) {
		*error = "Feature reshape on raid6 requires superblock";
		return -EINVAL;
	}
	if (!bitmap_empty(f->rebuild, FR_MAX_DEVS) ||
	    !bitmap_empty(f->readd, FR_MAX_DEVS)) {
		*error = "Feature reshape cannot run with rebuild or readd";
		return -EINVAL;
	}
	if (f->reshape_old_ndevs < fr_level_min_devs(fc->geom.level) ||
	    f->reshape_old_ndevs >= fc->ndevs) {
		*error = "Invalid reshape member count: must be below the table's";
		return -EINVAL;
	}
	rs = kzalloc(sizeof(*rs), GFP_KERNEL);
	if (!rs) {
		*error = "Cannot allocate reshape state";
		return -ENOMEM;
	}
	rs->fc = fc;
	fc->rs = rs;
	rs->old_ndevs = f->reshape_old_ndevs;
	if (fr_geom_init(&rs->old, fc->geom.level, rs->old_ndevs,
			 fc->geom.chunk_sectors, fc->geom.member_sectors) ||
	    rs->old.capacity != fc->ti->len) {
		*error = "Target length is not the old layout's capacity";
		return -EINVAL;
	}
	stripe = fr_geom_full_stripe_sectors(&fc->geom);
	if (pos > fc->ti->len ||
	    (pos != fc->ti->len && do_div(pos, stripe))) {
		*error = "Invalid reshape position: not a new row boundary";
		return -EINVAL;
	}
	if (f->reshape_pos < fr_reshape_critical_sectors(&rs->old, &fc->geom)) {
		*error = "Reshape position inside the critical section (copy it first)";
		return -EINVAL;
	}
	rs->safe = f->reshape_pos;
	rs->done = rs->safe;
	rs->win_end = rs->done;
	rs->stop = true;		/* until resume */
	spin_lock_init(&rs->lock);
	bio_list_init(&rs->deferred);
	init_waitqueue_head(&rs->wait);
	INIT_WORK(&rs->work, fanraid_reshape_work);
	if (bioset_init(&rs->bs, 64, 0, 0)) {
		*error = "Cannot allocate reshape bio set";
		return -ENOMEM;
	}
	rs->wq = alloc_workqueue("kfanraid_reshape", WQ_MEM_RECLAIM, 1);
	if (!rs->wq) {
		*error = "Cannot allocate reshape workqueue";
		return -ENOMEM;
	}
	rs->kc = dm_kcopyd_client_create(NULL);
	if (IS_ERR(rs->kc)) {
		rs->kc = NULL;
		*error = "Cannot create reshape copier";
		return -ENOMEM;
	}
	return 0;
}

void fanraid_reshape_destroy(struct fanraid_c *fc)
{
	struct fanraid_reshape *rs = fc->rs;

	if (!rs)
		return;
	if (rs->wq)
		destroy_workqueue(rs->wq);
	if (rs->kc)
		dm_kcopyd_client_destroy(rs->kc);
	bioset_exit(&rs->bs);
	kfree(rs);
	fc->rs = NULL;
}
