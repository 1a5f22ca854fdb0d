// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 writes, and reads of rows with a lost block: gathering
 * bios by stripe window.
 *
 * A stripe window is one row and one aligned run of at most
 * FANRAID_R6_MAX_IO_SECTORS inside its chunks: the same member sectors on
 * every slot, so one P/Q computation covers it. The DM core has split every
 * write at that size, so each write lies in one window of one data slot.
 *
 * Writes to a window are gathered in one entry. Once they cover every data
 * slot over the whole window, P and Q come from the new data alone and
 * nothing is read: sequential writers reach the members' write speed.
 * Waiting for that only pays while more writes may come to fill it (see
 * fanraid_r6_kick()); otherwise an entry goes at once, as one
 * read-modify-write or reconstruct-write over the pages its bios touch,
 * whichever reads less.
 *
 * Gathering only links bios: an entry holds no pages. The page buffers of
 * the write come from the stripe cache when the entry is written, on
 * kfanraid6w; the cache also bounds how many entries may gather at once
 * (fanraid-r6-cache.c). An entry leaves
 * the hash when it is dispatched; a write arriving later for the same
 * window starts a new entry. Both take the window's lock in turn, and two
 * writes in flight at once were never ordered for the submitter anyway.
 *
 * Reads of a row with a lost data block gather the same way, in entries
 * of their own: an entry reads each survivor once, rebuilds the lost
 * block from them only if one of its bios wants it, and serves every bio.
 * A reader of the whole row then costs one read per data block, where
 * rebuilding per bio read the row once for the lost block and again for
 * the reader (md's stripe cache shares the row the same way).
 */
#include <linux/bio.h>
#include <linux/hash.h>
#include <linux/highmem.h>
#include <linux/mempool.h>
#include <linux/raid/pq.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "fanraid-raid6.h"

#define FANRAID_R6_WIN_LONGS	BITS_TO_LONGS(FANRAID_R6_MAX_IO_SECTORS)

/* Writes gathered for one stripe window. */
struct fanraid_r6_stripe {
	struct hlist_node node;		/* in gather_hash until dispatched */
	struct list_head parked;	/* in r6->parked, oldest first, until dispatched */
	struct work_struct work;
	struct fanraid_c *fc;
	const struct fr_geom *g;	/* the layout of its row (two during a grow) */
	u64 row;
	u32 window;			/* index of the window in its chunk */
	u32 first, end;			/* sectors of the window the bios cover */
	u32 covered;			/* distinct data sectors the bios write */
	ktime_t since;			/* when the first bio arrived */
	bool stream;			/* a bio continues one still in flight */
	bool read;			/* reads, not writes */
	struct bio_list bios;		/* in arrival order: overlaps apply in it */
	unsigned long touched;		/* data slots with a bio */
	/* per data slot, FANRAID_R6_WIN_LONGS longs: sectors of the window written */
	unsigned long cover[];
};

static u32 fanraid_r6_win_sectors(const struct fr_geom *g)
{
	return min_t(u32, g->chunk_sectors, FANRAID_R6_MAX_IO_SECTORS);
}

size_t fanraid_r6_stripe_size(const struct fr_geom *g)
{
	return struct_size_t(struct fanraid_r6_stripe, cover,
			     g->data_devs * FANRAID_R6_WIN_LONGS);
}

static struct hlist_head *fanraid_r6_stripe_bucket(struct fanraid_r6 *r6,
						   u64 row, u32 window)
{
	/* Windows per chunk: at most 32768 / FANRAID_R6_MAX_IO_SECTORS. */
	return &r6->gather_hash[hash_64((row << 12) | window,
					FANRAID_R6_GATHER_BITS)];
}

static struct fanraid_r6_stripe *fanraid_r6_stripe_find(struct fanraid_r6 *r6,
							const struct fr_geom *g,
							u64 row, u32 window,
							bool read)
{
	struct fanraid_r6_stripe *st;

	hlist_for_each_entry(st, fanraid_r6_stripe_bucket(r6, row, window), node)
		if (st->row == row && st->window == window && st->read == read &&
		    st->g == g)
			return st;
	return NULL;
}

/*
 * Does a write (@read: a read) starting at array sector @start continue
 * one whose window is still parked or being written? Called with
 * gather_lock held.
 */
static bool fanraid_r6_tail_find(struct fanraid_r6 *r6, sector_t start,
				 bool read)
{
	unsigned int i;

	for (i = 0; i < FANRAID_R6_TAILS; i++)
		if (r6->tail_st[i] && r6->tail_end[i] == start &&
		    r6->tail_st[i]->read == read)
			return true;
	return false;
}

static void fanraid_r6_tail_add(struct fanraid_r6 *r6, sector_t end,
				struct fanraid_r6_stripe *st)
{
	unsigned int i = r6->tail_next++ % FANRAID_R6_TAILS;

	r6->tail_end[i] = end;
	r6->tail_st[i] = st;
}

/* @st is written: what follows its bios is no longer a stream's next write. */
static void fanraid_r6_tail_forget(struct fanraid_r6 *r6,
				   struct fanraid_r6_stripe *st)
{
	unsigned int i;

	for (i = 0; i < FANRAID_R6_TAILS; i++)
		if (r6->tail_st[i] == st)
			r6->tail_st[i] = NULL;
}

/*
 * Hand an entry to the writer; the gatherer that holds it in r6->inline_st
 * writes it itself. Called with gather_lock held.
 */
static void fanraid_r6_stripe_go(struct fanraid_r6 *r6,
				 struct fanraid_r6_stripe *st)
{
	if (!st->stream)
		r6->lone--;
	hlist_del_init(&st->node);
	list_del_init(&st->parked);
	r6->writing++;
	if (st == r6->inline_st)
		r6->inline_go = true;
	else
		queue_work(r6->write_wq, &st->work);
}

/*
 * Whether the last task to map a write is still running. Map records its
 * thread id, not the task: holding a task needs a reference, taken and
 * dropped under a lock whenever the writer changes. A thread id can be
 * reused, and the answer is a hint either way: wrong, a window is sent on
 * a little early or looked at again a little later.
 */
static bool fanraid_r6_submitter_runs(struct fanraid_r6 *r6)
{
	pid_t nr = READ_ONCE(r6->submitter);
	struct task_struct *t;
	bool runs;

	if (!nr)
		return false;
	rcu_read_lock();
	t = pid_task(find_pid_ns(nr, &init_pid_ns), PIDTYPE_PID);
	runs = t && task_is_running(t);
	rcu_read_unlock();
	return runs;
}

/*
 * Dispatch what should not wait longer, and return when to look again
 * (KTIME_MAX: nothing parked). A partial window is worth holding only
 * while more writes may still fill it:
 * - while writes wait to be gathered;
 * - while the task that mapped the last write still runs: the DM core maps
 *   the pieces of a split bio one after another in the submitter's context.
 *   Once it sleeps (waiting for its I/O), nothing more is coming from it;
 * - for a stream's window (a write into it continues one still in flight),
 *   also while FANRAID_R6_GATHER_BUSY windows or more are being written:
 *   the members are busy anyway and those windows' completions bring the
 *   writes that fill it (the stream's next bios).
 * So a lone write, such as a small write an fsync then waits on beside a
 * streaming writer, does not wait for the stream: while the members are
 * that busy, at most FANRAID_R6_GATHER_LONE_USEC, time enough for the
 * other pieces of its bio, which the DM core maps one right after another.
 * (With the members not busy, a lone window waits only for its submitter
 * to sleep, so a queue-depth-1 writer's whole stripes are never split.)
 * No window waits longer than FANRAID_R6_GATHER_MAX_USEC. Called with
 * gather_lock held.
 */
static ktime_t fanraid_r6_kick(struct fanraid_r6 *r6)
{
	bool idle = !atomic_read(&r6->gathering) &&
		    !fanraid_r6_submitter_runs(r6);
	bool busy = r6->writing >= FANRAID_R6_GATHER_BUSY;
	/* No room for another window: those waiting make room. */
	bool full = atomic_read(&r6->windows) >= r6->max_windows;
	ktime_t now = ktime_get(), next = KTIME_MAX;
	struct fanraid_r6_stripe *st, *tmp;

	if (full || (idle && !busy)) {
		list_for_each_entry_safe(st, tmp, &r6->parked, parked)
			fanraid_r6_stripe_go(r6, st);
		return KTIME_MAX;
	}
	list_for_each_entry_safe(st, tmp, &r6->parked, parked) {
		ktime_t due = ktime_add_us(st->since, st->stream || !busy ?
					   FANRAID_R6_GATHER_MAX_USEC :
					   FANRAID_R6_GATHER_LONE_USEC);

		if (!ktime_before(now, due) || (idle && !st->stream)) {
			fanraid_r6_stripe_go(r6, st);
			continue;
		}
		next = min(next, due);
		/* Oldest first: the streams' windows after it are due later. */
		if (!r6->lone)
			break;
	}
	/* Look at the submitter again soon. */
	if (next != KTIME_MAX && (r6->lone || !busy))
		next = min(next, ktime_add_us(now, FANRAID_R6_GATHER_POLL_USEC));
	return next;
}

/* Process context, gather_lock held: make sure the timer fires by @next. */
static void fanraid_r6_arm(struct fanraid_r6 *r6, ktime_t next)
{
	if (next == KTIME_MAX)
		return;
	if (hrtimer_is_queued(&r6->gather_timer) &&
	    !ktime_before(next, hrtimer_get_expires(&r6->gather_timer)))
		return;
	hrtimer_start(&r6->gather_timer, next, HRTIMER_MODE_ABS);
}

static enum hrtimer_restart fanraid_r6_gather_timer(struct hrtimer *timer)
{
	struct fanraid_r6 *r6 = container_of(timer, struct fanraid_r6,
					     gather_timer);
	unsigned long flags;
	ktime_t next;

	spin_lock_irqsave(&r6->gather_lock, flags);
	next = fanraid_r6_kick(r6);
	/*
	 * fanraid_r6_arm() may have started the timer again meanwhile: then
	 * it is queued with the expiry it needs, and must not be changed.
	 */
	if (next != KTIME_MAX && !hrtimer_is_queued(timer))
		hrtimer_set_expires(timer, next);
	else
		next = KTIME_MAX;
	spin_unlock_irqrestore(&r6->gather_lock, flags);
	return next == KTIME_MAX ? HRTIMER_NORESTART : HRTIMER_RESTART;
}

/*
 * Room for one more gathering window; at the limit, windows parked to
 * gather more writes are sent on at once, so room comes soon.
 */
static void fanraid_r6_window_get(struct fanraid_r6 *r6)
{
	if (atomic_add_unless(&r6->windows, 1, r6->max_windows))
		return;
	spin_lock_irq(&r6->gather_lock);
	fanraid_r6_arm(r6, fanraid_r6_kick(r6));
	spin_unlock_irq(&r6->gather_lock);
	wait_event(r6->window_wait,
		   atomic_add_unless(&r6->windows, 1, r6->max_windows));
}

static void fanraid_r6_window_put(struct fanraid_r6 *r6)
{
	atomic_dec(&r6->windows);
	wake_up(&r6->window_wait);
}

/*
 * Overlay every write onto its slot's pages, in arrival order; copy the
 * pages out to every read.
 */
static void fanraid_r6_stripe_fill(struct fanraid_r6op *op,
				   struct fanraid_r6_stripe *st)
{
	struct fanraid_c *fc = op->fc;
	const struct fr_geom *g = op->g;
	struct bio *bio;

	bio_list_for_each(bio, &st->bios) {
		sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
		u32 in_chunk = logical & (g->chunk_sectors - 1);
		struct fr_loc loc;

		unsigned int pos = (in_chunk << SECTOR_SHIFT) -
				   (op->first_page << PAGE_SHIFT);

		fr_geom_map(g, logical, &loc);
		if (bio_op(bio) == REQ_OP_WRITE_ZEROES)
			fanraid_r6_zero_pages(op, loc.data_idx, pos,
					      bio->bi_iter.bi_size);
		else
			fanraid_r6_copy_bio(op, bio, loc.data_idx, pos);
	}
}

/*
 * Add (or remove: the same operation) the syndrome share of the touched
 * data slots to P and Q. xor_syndrome() folds in data slots start..stop;
 * the untouched ones between them read as zero, so they add nothing.
 */
static void fanraid_r6_stripe_xor(struct fanraid_r6op *op,
				  unsigned long touched)
{
	u32 n = op->g->ndevs, lo = __ffs(touched), hi = __fls(touched);
	void *ptrs[FR_MAX_DEVS];
	u32 p, i;

	for (p = 0; p < op->npages; p++) {
		for (i = 0; i < n - 2; i++)
			ptrs[i] = test_bit(i, &touched) ?
				  page_address(op->pages[i][p]) :
				  (void *)raid6_empty_zero_page;
		ptrs[n - 2] = page_address(op->pages[n - 2][p]);
		ptrs[n - 1] = page_address(op->pages[n - 1][p]);
		raid6_call.xor_syndrome(n, lo, hi, PAGE_SIZE, ptrs);
	}
}

/*
 * A resync has not reached this window yet (called under its lock,
 * which the sync takes for each window): its P and Q may disagree with the
 * data, so a read-modify-write would carry the error into the new parity.
 * A reconstruct-write computes them from the data alone and leaves the
 * window consistent, as md does above its resync point. The sync point
 * moves window by window, so it can stand inside a row: the op's own
 * position is compared, not its row's start.
 */
static bool fanraid_r6_parity_unsure(struct fanraid_r6op *op)
{
	struct fanraid_c *fc = op->fc;
	enum fanraid_sync_action a = READ_ONCE(fc->r6->action);
	sector_t pos = ((sector_t)op->row << op->g->chunk_shift) +
		       ((sector_t)op->first_page << PAGE_SECTORS_SHIFT);

	if (a != FANRAID_SYNC_RESYNC &&
	    !(a == FANRAID_SYNC_RECOVER && fc->features.resync))
		return false;
	return pos >= READ_ONCE(fc->sync_cp);
}

/*
 * Update data, P and Q for every bio of the entry. Full slots are those
 * the bios overwrite over the whole page range; a reconstruct-write reads
 * the others, a read-modify-write reads the touched slots, P and Q. With
 * every slot full nothing is read, degraded or not.
 */
static blk_status_t fanraid_r6_stripe_write(struct fanraid_r6op *op,
					    struct fanraid_r6_stripe *st)
{
	u32 n = op->g->ndevs, ndata = n - 2, slot;
	u32 lo = round_down(st->first, PAGE_SECTORS);
	u32 hi = round_up(st->end, PAGE_SECTORS);
	unsigned long full = 0, rcw, rmw, write;
	blk_opf_t fua = 0;
	struct bio *bio;

	/* Nothing to keep P and Q correct with: fail, and leave the members be. */
	if (hweight_long(op->missing) > 2)
		return BLK_STS_IOERR;
	for (slot = 0; slot < ndata; slot++)
		if (find_next_zero_bit(st->cover + slot * FANRAID_R6_WIN_LONGS,
				       hi, lo) >= hi)
			__set_bit(slot, &full);
	rcw = GENMASK(ndata - 1, 0) & ~full;
	rmw = st->touched | BIT(n - 2) | BIT(n - 1);

	if (!rcw) {
		/* Full stripe: P and Q from the new data alone. */
	} else if (!op->missing && raid6_call.xor_syndrome &&
		   !fanraid_r6_parity_unsure(op) &&
		   hweight_long(rmw) < hweight_long(rcw) &&
		   !fanraid_r6_io(op, rmw, REQ_OP_READ)) {
		/* Take the old data's share out, put the new data's in. */
		fanraid_r6_stripe_xor(op, st->touched);
		fanraid_r6_stripe_fill(op, st);
		fanraid_r6_stripe_xor(op, st->touched);
		goto write;
	} else {
		/*
		 * Degraded (or a member failed during the RMW reads): every
		 * survivor, so the lost slots can be rebuilt under the bios.
		 */
		if (op->missing)
			rcw = GENMASK(n - 1, 0);
		if (fanraid_r6_read_slots(op, rcw) || fanraid_r6_recover(op))
			return BLK_STS_IOERR;
	}
	fanraid_r6_stripe_fill(op, st);
	fanraid_r6_gen(op, false);

write:
	bio_list_for_each(bio, &st->bios)
		fua |= bio->bi_opf & REQ_FUA;
	/*
	 * A member being rebuilt is written: this window is then in sync on
	 * it. So is a slot whose read failed, rebuilt above: that repairs it.
	 */
	write = st->touched | BIT(n - 2) | BIT(n - 1) | op->read_bad;
	fanraid_r6_io(op, write & ~fanraid_r6_failed_slots(op),
		      REQ_OP_WRITE | fua);
	/* Data is safe while at most two slots of the row are lost. */
	return hweight_long(op->missing) > 2 ? BLK_STS_IOERR : BLK_STS_OK;
}

/*
 * Read what the entry's bios want: the slots they touch, if none of those
 * is lost and their reads work (even with more than two members lost).
 * Otherwise every survivor the lost ones are rebuilt from: P and the other
 * data for one lost data block, so Q is not read. A slot whose read
 * failed is rebuilt too and rewritten (fanraid_r6_rewrite()).
 */
static blk_status_t fanraid_r6_stripe_read(struct fanraid_r6op *op,
					   struct fanraid_r6_stripe *st)
{
	if (!(st->touched & op->missing) &&
	    !fanraid_r6_io(op, st->touched, REQ_OP_READ))
		goto fill;
	if (fanraid_r6_read_slots(op, fanraid_r6_survivors(op)) ||
	    fanraid_r6_recover(op))
		return BLK_STS_IOERR;
fill:
	fanraid_r6_stripe_fill(op, st);
	fanraid_r6_rewrite(op);
	return BLK_STS_OK;
}

static void fanraid_r6_stripe_work(struct work_struct *work)
{
	struct fanraid_r6_stripe *st = container_of(work,
						    struct fanraid_r6_stripe,
						    work);
	struct fanraid_c *fc = st->fc;
	struct fanraid_r6 *r6 = fc->r6;
	u32 win_pages = fanraid_r6_win_sectors(&fc->geom) >> PAGE_SECTORS_SHIFT;
	u32 first = st->first >> PAGE_SECTORS_SHIFT;
	u32 end = DIV_ROUND_UP(st->end, PAGE_SECTORS);
	struct fanraid_r6op *op;
	struct mutex *lock;
	blk_status_t status;
	struct bio *bio;

	if (st->read) {
		op = fanraid_r6_op_get(fc, st->g, st->row,
				       st->window * win_pages + first,
				       end - first);
		lock = fanraid_r6_op_lock(op);
		mutex_lock(lock);
		op->missing = fanraid_r6_lost_slots(op);
		status = fanraid_r6_stripe_read(op, st);
		mutex_unlock(lock);
		fanraid_r6_op_put(op);
		goto end_bios;
	}
	/*
	 * DIRTY, then the region's bitmap bit, on the media before any
	 * member is written (fanraid-meta.c, fanraid-bitmap.c).
	 */
	if (fanraid_meta_write_start(fc)) {
		status = BLK_STS_IOERR;
		goto done;
	}
	if (fanraid_bitmap_write_start(fc, st->row)) {
		status = BLK_STS_IOERR;
		goto done;
	}
	/* Pages before the window lock: whoever holds it only waits for I/O. */
	op = fanraid_r6_op_get(fc, st->g, st->row,
			       st->window * win_pages + first, end - first);
	lock = fanraid_r6_op_lock(op);
	mutex_lock(lock);
	op->missing = fanraid_r6_lost_slots(op);
	status = fanraid_r6_stripe_write(op, st);
	mutex_unlock(lock);
	fanraid_r6_op_put(op);
	/*
	 * A write that skipped a failed member is acknowledged only once the
	 * survivors record the failure: after a crash that member is stale.
	 */
	if (!status && fanraid_meta_sync_failed(fc))
		status = BLK_STS_IOERR;
	fanraid_bitmap_write_end(fc, st->row);
done:
	/*
	 * The member writes are done: before the bios end, or a suspend
	 * waiting for them could look for a clean moment while this write
	 * still counts as active, and leave the array dirty.
	 */
	fanraid_meta_write_end(fc);
end_bios:
	while ((bio = bio_list_pop(&st->bios))) {
		bio->bi_status = status;
		bio_endio(bio);
	}

	fanraid_r6_window_put(r6);
	spin_lock_irq(&r6->gather_lock);
	fanraid_r6_tail_forget(r6, st);
	r6->writing--;
	fanraid_r6_arm(r6, fanraid_r6_kick(r6));
	spin_unlock_irq(&r6->gather_lock);
	mempool_free(st, &r6->stripe_pool);
}

/*
 * kfanraid6: add a write or read to its window's entry (its row in layout
 * @g), and dispatch what is ready.
 * The caller counted it in r6->gathering.
 */
static void fanraid_r6_gather_bio(struct fanraid_c *fc, struct bio *bio,
				  const struct fr_geom *g)
{
	struct fanraid_r6 *r6 = fc->r6;
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	u32 win_sectors = fanraid_r6_win_sectors(g);
	u32 in_chunk = logical & (g->chunk_sectors - 1);
	u32 window = in_chunk / win_sectors;
	u32 start = in_chunk & (win_sectors - 1);
	u32 end = start + bio_sectors(bio), s;
	struct fanraid_r6_stripe *st, *spare = NULL;
	bool read = !op_is_write(bio_op(bio));
	unsigned long *cover;
	struct fr_loc loc;
	bool go;

	if (WARN_ON_ONCE(end > win_sectors) || start == end) {
		atomic_dec(&r6->gathering);
		bio->bi_status = start == end ? BLK_STS_OK : BLK_STS_IOERR;
		bio_endio(bio);
		return;
	}
	fr_geom_map(g, logical, &loc);

	/* Allocation may sleep, so it happens outside the lock, and only when needed. */
	for (;;) {
		spin_lock_irq(&r6->gather_lock);
		st = fanraid_r6_stripe_find(r6, g, loc.row, window, read);
		if (st || spare)
			break;
		spin_unlock_irq(&r6->gather_lock);
		fanraid_r6_window_get(r6);
		spare = mempool_alloc(&r6->stripe_pool, GFP_NOIO);
		memset(spare, 0, fanraid_r6_stripe_size(g));
		spare->fc = fc;
		spare->g = g;
		spare->row = loc.row;
		spare->window = window;
		spare->read = read;
		spare->first = start;
		spare->end = end;
		bio_list_init(&spare->bios);
		INIT_WORK(&spare->work, fanraid_r6_stripe_work);
	}
	if (!st) {
		st = spare;
		spare = NULL;
		st->since = ktime_get();
		hlist_add_head(&st->node, fanraid_r6_stripe_bucket(r6, loc.row,
								   window));
		list_add_tail(&st->parked, &r6->parked);
		r6->lone++;
	}
	if (!st->stream && fanraid_r6_tail_find(r6, logical, read)) {
		st->stream = true;
		r6->lone--;
	}
	fanraid_r6_tail_add(r6, logical + bio_sectors(bio), st);

	bio_list_add(&st->bios, bio);
	st->first = min(st->first, start);
	st->end = max(st->end, end);
	__set_bit(loc.data_idx, &st->touched);
	cover = st->cover + loc.data_idx * FANRAID_R6_WIN_LONGS;
	for (s = start; s < end; s++)
		if (!__test_and_set_bit(s, cover))
			st->covered++;
	atomic_dec(&r6->gathering);

	/*
	 * The only window to write (queue depth 1) is written here, saving
	 * the latency of a second worker; under load kfanraid6w writes them,
	 * which keeps the operations in flight bounded.
	 */
	if (!r6->writing)
		r6->inline_st = st;
	/*
	 * A FUA write's submitter waits for it to be stable (a journal
	 * commit, a log record): it sends nothing that would fill the window
	 * until then.
	 */
	if (st->covered == g->data_devs * win_sectors || (bio->bi_opf & REQ_FUA))
		fanraid_r6_stripe_go(r6, st);
	fanraid_r6_arm(r6, fanraid_r6_kick(r6));
	go = r6->inline_go;
	r6->inline_st = NULL;
	r6->inline_go = false;
	spin_unlock_irq(&r6->gather_lock);

	if (spare) {
		mempool_free(spare, &r6->stripe_pool);
		fanraid_r6_window_put(r6);
	}
	if (go)
		fanraid_r6_stripe_work(&st->work);
}

static void fanraid_r6_gather_work(struct work_struct *work)
{
	struct fanraid_bio *fb = container_of(work, struct fanraid_bio, work);

	fanraid_r6_gather_bio(fb->fc, dm_bio_from_per_bio_data(fb, sizeof(*fb)),
			      fb->g);
}

/*
 * A write of zeroes to the part of one stripe window that @bio covers
 * (fanraid-r6-discard.c: the partial rows of a write-zeroes request). It
 * carries no pages: the entry zeroes the range instead of copying, and is
 * written like any other, parity included. Worker context.
 */
void fanraid_r6_gather_zeroes(struct fanraid_c *fc, struct bio *bio)
{
	atomic_inc(&fc->r6->gathering);
	fanraid_r6_gather_bio(fc, bio, &fc->geom);
}

/*
 * From map: no allocation there, the worker gathers. Remember who maps
 * writes: while that task runs, more pieces of its bio may follow.
 */
void fanraid_r6_gather_queue(struct fanraid_c *fc, struct fanraid_bio *fb)
{
	struct fanraid_r6 *r6 = fc->r6;

	atomic_inc(&r6->gathering);
	/* Stored only when the writer changes, so one writer dirties no shared line. */
	if (READ_ONCE(r6->submitter) != current->pid)
		WRITE_ONCE(r6->submitter, current->pid);
	INIT_WORK(&fb->work, fanraid_r6_gather_work);
	queue_work(fc->r6->wq, &fb->work);
}

void fanraid_r6_gather_init(struct fanraid_r6 *r6)
{
	spin_lock_init(&r6->gather_lock);
	INIT_LIST_HEAD(&r6->parked);
	hrtimer_init(&r6->gather_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	r6->gather_timer.function = fanraid_r6_gather_timer;
}

/*
 * No bios are in flight at destruction, so nothing is parked; dispatch
 * anything left anyway so no bio is ever lost, then drain the writer.
 */
void fanraid_r6_gather_exit(struct fanraid_r6 *r6)
{
	struct fanraid_r6_stripe *st, *tmp;

	hrtimer_cancel(&r6->gather_timer);
	if (!r6->write_wq)
		return;
	spin_lock_irq(&r6->gather_lock);
	list_for_each_entry_safe(st, tmp, &r6->parked, parked)
		fanraid_r6_stripe_go(r6, st);
	spin_unlock_irq(&r6->gather_lock);
	flush_workqueue(r6->write_wq);
}
