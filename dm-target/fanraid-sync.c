// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 resync, rebuild and scrub.
 *
 * One delayed work item walks the members from sector 0 to the end in
 * windows of at most FANRAID_R6_MAX_IO_SECTORS of one chunk, several at
 * once (fanraid_sync_wave()), each taking its pages' locks as the I/O
 * worker does, so writes and the sync never interleave on a page. sync_cp records
 * how far it got: a member being rebuilt is trusted below it and rebuilt
 * from the others above it. The walk stops on presuspend and continues
 * from sync_cp on resume.
 */
#include <linux/jiffies.h>
#include <linux/mm.h>

#include <fanraid/syndrome.h>

#include "fanraid-raid6.h"

/*
 * How long one run of the work item goes before it yields: with rate limits
 * set, a number of member sectors, so the pass is paced finely; without
 * them, a time, since every run ends by waiting for all its windows and
 * leaves the members idle meanwhile. 8 MiB per run did so every 110 ms at
 * 75 MiB/s, and would every 3 ms on NVMe.
 */
#define FANRAID_SYNC_BATCH_SECTORS	2048
#define FANRAID_SYNC_RUN_MSECS		1000
/* Windows the pass keeps in flight at most, each in a stripe cache operation. */
#define FANRAID_SYNC_DEPTH		16

const char *fanraid_sync_action_name(enum fanraid_sync_action action)
{
	switch (action) {
	case FANRAID_SYNC_RESYNC:
		return "resync";
	case FANRAID_SYNC_RECOVER:
		return "recover";
	case FANRAID_SYNC_CHECK:
		return "check";
	case FANRAID_SYNC_REPAIR:
		return "repair";
	case FANRAID_SYNC_IDLE:
		break;
	}
	return "idle";
}

/* Member sector of page @p of the op, for messages. */
static sector_t fanraid_sync_page_sector(struct fanraid_r6op *op, u32 p)
{
	return (op->row << op->g->chunk_shift) +
	       ((sector_t)(op->first_page + p) << (PAGE_SHIFT - SECTOR_SHIFT));
}

/*
 * One page of a whole row (no slot lost) whose P or Q disagrees: the
 * scratch pages hold dP and dQ. When they name one wrong block, blame its
 * member and, for repair, correct that block; otherwise say so and, for
 * repair, make P and Q agree with the data as it is. Returns the slots to
 * write.
 */
static unsigned long fanraid_sync_locate(struct fanraid_r6op *op, u32 p,
					 bool fix)
{
	struct fanraid_c *fc = op->fc;
	const struct fr_geom *g = op->g;
	u32 n = g->ndevs, slot, data_idx;
	u8 *dp = page_address(op->scratch[FANRAID_R6_SCRATCH_P][p]);
	u8 *dq = page_address(op->scratch[FANRAID_R6_SCRATCH_Q][p]);
	sector_t sector = fanraid_sync_page_sector(op, p);
	enum fr_block_kind kind;

	if (fr_syndrome_locate(dp, dq, PAGE_SIZE, n - 2, &kind, &data_idx) !=
	    FR_SYNDROME_ONE) {
		DMWARN_LIMIT("%s: row %llu, member sectors %llu-%llu: P and Q do not name one wrong block%s",
			     dm_table_device_name(fc->ti->table), op->row,
			     (unsigned long long)sector,
			     (unsigned long long)sector + PAGE_SECTORS - 1,
			     fix ? ": parity rewritten from the data" : "");
		if (!fix)
			return 0;
		fanraid_r6_xor_page(page_address(op->pages[n - 2][p]), dp);
		fanraid_r6_xor_page(page_address(op->pages[n - 1][p]), dq);
		return BIT(n - 2) | BIT(n - 1);
	}
	slot = kind == FR_BLOCK_DATA ? data_idx :
	       kind == FR_BLOCK_P ? n - 2 : n - 1;
	atomic64_add(PAGE_SECTORS,
		     &fc->devs[fanraid_r6_slot_dev(g, op->row, slot)].check_blamed);
	DMWARN_LIMIT("%s: row %llu, member %u sectors %llu-%llu: %s block does not match P and Q%s",
		     dm_table_device_name(fc->ti->table), op->row,
		     fanraid_r6_slot_dev(g, op->row, slot),
		     (unsigned long long)sector,
		     (unsigned long long)sector + PAGE_SECTORS - 1,
		     kind == FR_BLOCK_DATA ? "data" : kind == FR_BLOCK_P ? "P" : "Q",
		     fix ? ": rewritten" : "");
	if (!fix)
		return 0;
	fanraid_r6_xor_page(page_address(op->pages[slot][p]),
			    kind == FR_BLOCK_Q ? dq : dp);
	return BIT(slot);
}

/*
 * Data blocks in @slots of the op were rewritten by a repair: the readahead
 * cache may hold what they said before. Dropped once the write completed,
 * as end_io drops a bio's range, so that a fetch which read the old data
 * is caught too (the argument is above fanraid_ra_invalidate()).
 */
static void fanraid_sync_forget(struct fanraid_r6op *op, unsigned long slots)
{
	const struct fr_geom *g = op->g;
	u32 slot;

	for_each_set_bit(slot, &slots, g->data_devs)
		fanraid_ra_invalidate(op->fc,
				      ((op->row * g->data_devs + slot) << g->chunk_shift) +
				      ((sector_t)op->first_page << PAGE_SECTORS_SHIFT),
				      (sector_t)op->npages << PAGE_SECTORS_SHIFT);
}

/*
 * Pages of P/Q that differ from what the data says; rewrites them when
 * asked. A scrub (@count) with every slot read lets the syndrome name the
 * wrong block where one block explains the difference (silent corruption
 * of data, P or Q), and repair corrects that block instead of rewriting
 * parity from bad data. A resync after an unclean stop only makes P and Q
 * agree with the data, as md does: a torn write is not corruption, and
 * either its old or its new data is right. Degraded, a scrub checks only
 * rows whose data is whole; a resync also rebuilds a lost data block.
 */
static void fanraid_sync_parity(struct fanraid_r6op *op, bool count, bool fix)
{
	u32 n = op->g->ndevs, p;
	unsigned long data = GENMASK(n - 3, 0), write = 0;
	bool have_p = !test_bit(n - 2, &op->missing);
	bool have_q = !test_bit(n - 1, &op->missing);
	bool degraded_resync = fix && !count && have_p && have_q &&
			       hweight_long(op->missing & data) == 1;
	bool differs = false;

	if (degraded_resync) {
		/*
		 * A resync that lost a member: its data block comes from P,
		 * and Q is made to agree, as md does. Left as it was, a row
		 * torn by the crash would keep a Q that disagrees with its
		 * data once the array is clean, and a second failure there
		 * would rebuild garbage.
		 */
		if (fanraid_r6_recover(op))
			return;
	} else if ((op->missing & data) || (!have_p && !have_q)) {
		/* Parity can only be checked against complete data, and where it was read. */
		return;
	}
	fanraid_r6_gen(op, true);
	for (p = 0; p < op->npages; p++) {
		u8 *dp = page_address(op->scratch[FANRAID_R6_SCRATCH_P][p]);
		u8 *dq = page_address(op->scratch[FANRAID_R6_SCRATCH_Q][p]);
		bool bad = (have_p &&
			    memcmp(page_address(op->pages[n - 2][p]), dp, PAGE_SIZE)) ||
			   (have_q &&
			    memcmp(page_address(op->pages[n - 1][p]), dq, PAGE_SIZE));

		if (!bad)
			continue;
		if (count)
			atomic64_add(PAGE_SECTORS, &op->fc->r6->mismatches);
		if (count && have_p && have_q) {
			fanraid_r6_xor_page(dp, page_address(op->pages[n - 2][p]));
			fanraid_r6_xor_page(dq, page_address(op->pages[n - 1][p]));
			write |= fanraid_sync_locate(op, p, fix);
			continue;
		}
		differs = true;
	}
	if (differs && fix) {
		/* Resync, or one parity lost: P and Q recomputed from the data. */
		for (p = 0; p < op->npages; p++) {
			swap(op->pages[n - 2][p], op->scratch[FANRAID_R6_SCRATCH_P][p]);
			swap(op->pages[n - 1][p], op->scratch[FANRAID_R6_SCRATCH_Q][p]);
		}
		write |= BIT(n - 2) | BIT(n - 1);
	}
	if (write) {
		fanraid_r6_io(op, write & ~op->missing, REQ_OP_WRITE);
		fanraid_sync_forget(op, write & data);
	}
}

/* To the end of the stripe window @pos lies in: an op never crosses one. */
static u32 fanraid_sync_window_len(const struct fr_geom *g, sector_t pos)
{
	u32 win = fr_r6_window_sectors(g->chunk_sectors);

	return win - (pos & (win - 1));
}

/*
 * @npages pages of one window from member sector @pos, as one operation.
 * Returns 0; -EIO when a rebuild finds too few members left to rebuild
 * from; -ENODATA when another pass finds more than two blocks of some
 * page unreadable, and has left every page as it was.
 */
static int fanraid_sync_pages(struct fanraid_c *fc, sector_t pos, u32 npages)
{
	const struct fr_geom *g = &fc->geom;
	struct fanraid_r6 *r6 = fc->r6;
	u32 in_chunk = pos & (g->chunk_sectors - 1);
	u32 n = g->ndevs, slot;
	unsigned long rebuild = 0, want = GENMASK(n - 1, 0);
	struct fanraid_r6op *op;
	int r = 0;

	op = fanraid_r6_op_get_scratch(fc, g, pos >> g->chunk_shift,
				       in_chunk >> PAGE_SECTORS_SHIFT, npages);
	fanraid_r6_op_lock(op);
	op->missing = fanraid_r6_lost_slots(op);
	/*
	 * One lost data block of a rebuild comes from P and the other data:
	 * Q is not read (a resync owed too makes Q anew, from all the data).
	 * A read that fails meanwhile makes fanraid_r6_read_slots() read all.
	 */
	if (r6->action == FANRAID_SYNC_RECOVER && !fc->features.resync)
		want = fanraid_r6_survivors(op);
	if (fanraid_r6_read_slots(op, want)) {
		/*
		 * More than two lost: nothing to check against or rebuild
		 * from. A rebuild stops (fanraid_sync_abort()).
		 */
		r = r6->action == FANRAID_SYNC_RECOVER ? -EIO : -ENODATA;
		goto out;
	}

	/*
	 * Pages whose reads failed twice on a member still in service
	 * (fanraid_r6_read_slots()) are rebuilt from parity and written back
	 * first, so the pass goes on and checks the repaired window like any
	 * other.
	 */
	if (op->read_bad && r6->action != FANRAID_SYNC_RECOVER) {
		if (fanraid_r6_recover(op))
			goto out;
		op->missing &= ~op->read_bad;
		fanraid_r6_rewrite(op);
		/* Not rewritten: its member failed meanwhile. */
		op->missing |= op->read_bad | fanraid_r6_failed_slots(op);
	}

	switch (r6->action) {
	case FANRAID_SYNC_RECOVER:
		for (slot = 0; slot < n; slot++)
			if (test_bit(fanraid_r6_slot_dev(g, op->row, slot),
				     fc->rebuilding))
				set_bit(slot, &rebuild);
		if (fanraid_r6_recover(op)) {
			r = -EIO;
			goto out;
		}
		/*
		 * A resync due as well (a member replaced while P and Q were
		 * still being made to agree) is done in the same pass: P and
		 * Q are written afresh from the data, now whole, or the rows
		 * the resync had not reached would stay inconsistent behind
		 * an idle, clean-looking array. Both are written whatever
		 * was read: nothing is gained by comparing them first.
		 */
		if (fc->features.resync) {
			fanraid_r6_gen(op, false);
			rebuild |= BIT(n - 2) | BIT(n - 1);
		}
		/* Slots whose reads failed were rebuilt too: write them back. */
		fanraid_r6_io(op, (rebuild | op->read_bad) &
			      ~fanraid_r6_failed_slots(op), REQ_OP_WRITE);
		break;
	case FANRAID_SYNC_RESYNC:
		fanraid_sync_parity(op, false, true);
		break;
	case FANRAID_SYNC_CHECK:
		fanraid_sync_parity(op, true, false);
		break;
	case FANRAID_SYNC_REPAIR:
		fanraid_sync_parity(op, true, true);
		break;
	case FANRAID_SYNC_IDLE:
		break;
	}
out:
	fanraid_r6_op_unlock(op);
	fanraid_r6_op_put(op);
	return r;
}

/*
 * One window at member sector @pos; returns its length in sectors, or
 * -EIO when a rebuild finds too few members left to rebuild from. A
 * window with more than two blocks unreadable at some page is done again
 * a page at a time, as md works in 4 KiB stripes: the pages beside that
 * one are still resynced, checked or repaired, and only it is left as it
 * is, logged and counted.
 */
static int fanraid_sync_window(struct fanraid_c *fc, sector_t pos)
{
	u32 len = fanraid_sync_window_len(&fc->geom, pos);
	int r = fanraid_sync_pages(fc, pos, len >> PAGE_SECTORS_SHIFT);
	u32 s;

	for (s = 0; r == -ENODATA && s < len; s += PAGE_SECTORS) {
		int rp = fanraid_sync_pages(fc, pos + s, 1);

		if (rp == -EIO)
			return rp;
		if (rp != -ENODATA)
			continue;
		atomic_inc(&fc->r6->unreadable);
		DMERR_LIMIT("%s: %s: row %llu, member sectors %llu-%llu: more than two blocks unreadable, left as they are",
			    dm_table_device_name(fc->ti->table),
			    fanraid_sync_action_name(fc->r6->action),
			    (unsigned long long)(pos >> fc->geom.chunk_shift),
			    (unsigned long long)(pos + s),
			    (unsigned long long)(pos + s + PAGE_SECTORS - 1));
	}
	return r && r != -ENODATA ? r : len;
}

struct fanraid_sync_item {
	struct work_struct work;
	struct fanraid_c *fc;
	sector_t pos;
	int r;
};

static void fanraid_sync_item_work(struct work_struct *work)
{
	struct fanraid_sync_item *it = container_of(work,
						    struct fanraid_sync_item,
						    work);

	it->r = fanraid_sync_window(it->fc, it->pos);
}

/*
 * Whether bios were mapped since @seen was taken; takes it anew. The sum
 * over CPUs is not a snapshot, but one look later the next sum catches
 * what it missed.
 */
static bool fanraid_sync_busy(struct fanraid_r6 *r6, unsigned long *seen)
{
	unsigned long sum = 0;
	bool busy;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(r6->mapped, cpu);
	busy = sum != *seen;
	*seen = sum;
	return busy;
}

/*
 * The windows from sync_cp on, up to @budget sectors or until jiffies
 * @until, whichever comes first, up to half the whole-window
 * operations the stripe cache holds (a quarter while bios come in, which
 * need it too) and FANRAID_SYNC_DEPTH in flight at once on kfanraid6w's
 * workers: as the oldest ends, the next is queued.
 * One window at a time left each member idle while the others were read
 * and the rebuilt one written; waves that waited for all their windows
 * left the survivors idle while the last ones were written. Each window
 * takes its own lock, so the windows of one row run side by side too.
 *
 * sync_cp moves up to the oldest window still in flight (every one below
 * it is done, and regions the bitmap holds clear need nothing). Until
 * then a write or read there treats the rows as not in sync yet
 * (reconstruct-write, the member being rebuilt counted lost), which is
 * right before, during and after the window's pass. Returns the sectors
 * synced, or -EIO with sync_cp at the first window a rebuild could not
 * rebuild.
 */
static int fanraid_sync_wave(struct fanraid_c *fc, sector_t end, u32 budget,
			     unsigned long until)
{
	struct fanraid_r6 *r6 = fc->r6;
	struct fanraid_sync_item items[FANRAID_SYNC_DEPTH], *it;
	u32 share = fanraid_sync_busy(r6, &r6->wave_mapped) ? 4 : 2;
	u32 depth = clamp_t(u32, r6->full_ops / share, 1, FANRAID_SYNC_DEPTH);
	sector_t pos = fc->sync_cp, failed = 0;
	u32 head = 0, queued = 0, total = 0;
	int r = 0;

	for (;;) {
		while (!r && queued < depth && pos < end && total < budget &&
		       time_before(jiffies, until) &&
		       !READ_ONCE(r6->sync_stop)) {
			/*
			 * Regions the bitmap holds clear are in sync already
			 * (see fanraid-bitmap.c); a write landing there
			 * meanwhile set its bit first, and is correct either
			 * side of the checkpoint.
			 */
			sector_t next = fanraid_bitmap_sync_next(fc, pos, end,
								 r6->sync_partial);
			u32 len;

			if (next != pos) {
				pos = next;
				continue;
			}
			it = &items[(head + queued) % depth];
			it->fc = fc;
			it->pos = pos;
			INIT_WORK_ONSTACK(&it->work, fanraid_sync_item_work);
			/*
			 * Not on kfanraid6, which runs this pass: under memory
			 * pressure its rescuer alone could be running it, and
			 * would never get to the windows it waits for.
			 */
			queue_work(r6->write_wq, &it->work);
			len = fanraid_sync_window_len(&fc->geom, pos);
			pos += len;
			total += len;
			queued++;
		}
		if (!queued)
			break;
		it = &items[head];
		flush_work(&it->work);
		destroy_work_on_stack(&it->work);
		if (it->r < 0 && !r) {
			r = it->r;
			failed = it->pos;
		}
		head = (head + 1) % depth;
		queued--;
		if (!r)
			WRITE_ONCE(fc->sync_cp, queued ? items[head].pos : pos);
	}
	if (r) {
		WRITE_ONCE(fc->sync_cp, failed);
		return r;
	}
	/* Past regions the bitmap holds clear too, even with no window queued. */
	WRITE_ONCE(fc->sync_cp, pos);
	return total;
}

/*
 * A rebuild that cannot go on: at member sector @pos more than two blocks
 * of a row are lost, so that row's data is gone. The members being rebuilt
 * fail, so what they hold beyond the sync point is never read as data (I/O
 * that needs them fails with EIO instead); the log and status say which row.
 * Returns whether a pass goes on: a rebuild that was doing a resync's work
 * too becomes that resync from @pos, as md keeps its resync point when a
 * recovery stops. Left idle, the array was marked clean with the rows
 * above @pos never made to agree, and a later failure there rebuilds
 * garbage.
 */
static bool fanraid_sync_abort(struct fanraid_c *fc, sector_t pos)
{
	struct fanraid_r6 *r6 = fc->r6;
	bool resync = fc->features.resync;
	u32 dev;

	DMERR("%s: rebuild stopped at row %llu (member sector %llu): more than two blocks of the row lost, its data cannot be rebuilt%s",
	      dm_table_device_name(fc->ti->table),
	      (unsigned long long)(pos >> fc->geom.chunk_shift),
	      (unsigned long long)pos,
	      resync ? "; the resync goes on from there" : "");
	WRITE_ONCE(r6->lost_row, pos >> fc->geom.chunk_shift);
	for_each_set_bit(dev, fc->rebuilding, FR_MAX_DEVS)
		fanraid_member_fail(fc, dev, "rebuild could not finish", 0);
	bitmap_zero(fc->rebuilding, FR_MAX_DEVS);
	WRITE_ONCE(r6->action, resync ? FANRAID_SYNC_RESYNC : FANRAID_SYNC_IDLE);
	schedule_work(&fc->trigger_event);
	return resync;
}

static void fanraid_sync_finish(struct fanraid_c *fc)
{
	struct fanraid_r6 *r6 = fc->r6;
	u32 unreadable = atomic_read(&r6->unreadable);
	DECLARE_BITMAP(rebuilt, FR_MAX_DEVS);

	if (unreadable)
		DMERR("%s: %s complete, but pages left as they were, more than two blocks unreadable: %u",
		      dm_table_device_name(fc->ti->table),
		      fanraid_sync_action_name(r6->action), unreadable);
	else
		DMINFO("%s: %s complete%s", dm_table_device_name(fc->ti->table),
		       fanraid_sync_action_name(r6->action),
		       r6->action >= FANRAID_SYNC_CHECK ? ", see mismatch_cnt" : "");
	bitmap_copy(rebuilt, fc->rebuilding, FR_MAX_DEVS);
	bitmap_zero(fc->rebuilding, FR_MAX_DEVS);
	WRITE_ONCE(r6->action, FANRAID_SYNC_IDLE);
	fanraid_bitmap_sync_done(fc, rebuilt);
	/* Only now idle: the superblocks may be marked clean after a resync. */
	fanraid_meta_sync_done(fc, rebuilt);
	schedule_work(&fc->trigger_event);
}

/*
 * KiB/s per member for the next batch, 0 unlimited. As md's speed_limit_min
 * and _max: the pass runs at the maximum while the array is idle and drops
 * to the minimum while I/O comes in; a minimum above the maximum wins. With
 * no minimum the pass never yields.
 */
static u32 fanraid_sync_rate(struct fanraid_c *fc)
{
	u32 min = READ_ONCE(fc->features.min_sync_rate);
	u32 max = READ_ONCE(fc->features.max_sync_rate);

	if (!min)
		return max;
	if (fanraid_sync_busy(fc->r6, &fc->r6->sync_mapped))
		return min;
	return max ? max_t(u32, min, max) : 0;
}

/* Delay that keeps @done sectors per member, done since @start, under the rate. */
static unsigned long fanraid_sync_delay(struct fanraid_c *fc, u32 done,
					unsigned long start)
{
	u32 rate = fanraid_sync_rate(fc);
	unsigned long want;

	if (!rate)
		return 0;
	/* In u64: rate * 2 wraps a u32 to 0 at 2^31 KiB/s. */
	want = msecs_to_jiffies(div64_u64((u64)done * 1000, (u64)rate * 2));
	return time_after(start + want, jiffies) ? start + want - jiffies : 0;
}

static void fanraid_sync_work(struct work_struct *work)
{
	struct fanraid_r6 *r6 = container_of(to_delayed_work(work),
					     struct fanraid_r6, sync_work);
	struct fanraid_c *fc = r6->fc;
	sector_t end = fc->geom.member_sectors;
	unsigned long start = jiffies;
	bool limited = READ_ONCE(fc->features.min_sync_rate) ||
		       READ_ONCE(fc->features.max_sync_rate);
	u32 batch = limited ? FANRAID_SYNC_BATCH_SECTORS : U32_MAX;
	unsigned long until = start + (limited ? MAX_JIFFY_OFFSET :
				       msecs_to_jiffies(FANRAID_SYNC_RUN_MSECS));
	u32 done = 0;

	while (done < batch && time_before(jiffies, until) &&
	       fc->sync_cp < end) {
		int r;

		if (READ_ONCE(r6->sync_stop))
			return;
		r = fanraid_sync_wave(fc, end, batch - done, until);
		if (r < 0) {
			if (!fanraid_sync_abort(fc, fc->sync_cp))
				return;
			r = 0;
		}
		done += r;
	}
	if (fc->sync_cp >= end) {
		fanraid_sync_finish(fc);
		return;
	}
	/*
	 * A batch that ran unlimited is not paid for afterwards: a minimum
	 * set while it ran would otherwise turn a second's worth of sectors
	 * into minutes of sleep.
	 */
	if (!READ_ONCE(r6->sync_stop))
		queue_delayed_work(r6->wq, &r6->sync_work,
				   limited ? fanraid_sync_delay(fc, done, start) : 0);
}

/*
 * A sync rate changed: a pass that sleeps off its last batch at the old
 * rate starts its next batch now, under the new one.
 */
void fanraid_sync_retune(struct fanraid_c *fc)
{
	struct fanraid_r6 *r6 = fc->r6;

	if (READ_ONCE(r6->action) != FANRAID_SYNC_IDLE && !fc->rs &&
	    !READ_ONCE(r6->sync_stop))
		mod_delayed_work(r6->wq, &r6->sync_work, 0);
}

/*
 * From the table's features: rebuild named members (and resync in the same
 * pass when both are given), or resync, or nothing.
 */
void fanraid_sync_init(struct fanraid_c *fc)
{
	struct fanraid_r6 *r6 = fc->r6;

	r6->fc = fc;
	r6->lost_row = U64_MAX;
	atomic_set(&r6->unreadable, 0);
	mutex_init(&r6->sync_lock);
	INIT_DELAYED_WORK(&r6->sync_work, fanraid_sync_work);
	bitmap_or(fc->rebuilding, fc->features.rebuild, fc->features.readd,
		  FR_MAX_DEVS);
	/*
	 * With a bitmap, a resync and the recovery of re-added members cover
	 * only its set bits; a member rebuilt from scratch needs everything.
	 */
	r6->sync_partial = fc->features.bitmap_set &&
			   bitmap_empty(fc->features.rebuild, FR_MAX_DEVS);
	fc->sync_cp = 0;
	if (!bitmap_empty(fc->rebuilding, FR_MAX_DEVS))
		r6->action = FANRAID_SYNC_RECOVER;
	else if (fc->features.resync)
		r6->action = FANRAID_SYNC_RESYNC;
	else
		fc->sync_cp = fc->geom.member_sectors;
}

void fanraid_sync_resume(struct fanraid_c *fc)
{
	struct fanraid_r6 *r6 = fc->r6;

	mutex_lock(&r6->sync_lock);
	WRITE_ONCE(r6->sync_stop, false);
	mutex_unlock(&r6->sync_lock);
	/*
	 * A pass walks one layout; during a grow it waits for the table of
	 * the new one, which keeps the resync (the copy itself writes fresh
	 * parity, but rows written before a crash may not match).
	 */
	if (r6->action != FANRAID_SYNC_IDLE && !fc->rs) {
		/* A monitor learns that a pass (re)starts, not only that it ended. */
		schedule_work(&fc->trigger_event);
		queue_delayed_work(r6->wq, &r6->sync_work, 0);
	}
}

void fanraid_sync_presuspend(struct fanraid_c *fc)
{
	struct fanraid_r6 *r6 = fc->r6;

	mutex_lock(&r6->sync_lock);
	WRITE_ONCE(r6->sync_stop, true);
	mutex_unlock(&r6->sync_lock);
	cancel_delayed_work_sync(&r6->sync_work);
}

/*
 * "check", "repair" and "idle" messages. A resync or rebuild cannot be
 * interrupted (the array is not redundant until it ends): -EBUSY.
 */
int fanraid_sync_request(struct fanraid_c *fc, enum fanraid_sync_action action)
{
	struct fanraid_r6 *r6 = fc->r6;
	enum fanraid_sync_action now = READ_ONCE(r6->action);
	u32 i;

	if (action == FANRAID_SYNC_IDLE) {
		bool suspended;

		if (now == FANRAID_SYNC_RESYNC || now == FANRAID_SYNC_RECOVER)
			return -EBUSY;
		/*
		 * Messages do not wait for a suspend: one that came between
		 * here and the end would be undone by putting back what was
		 * read, and a pass could then start on a suspended table.
		 */
		mutex_lock(&r6->sync_lock);
		suspended = r6->sync_stop;
		WRITE_ONCE(r6->sync_stop, true);
		cancel_delayed_work_sync(&r6->sync_work);
		WRITE_ONCE(r6->action, FANRAID_SYNC_IDLE);
		WRITE_ONCE(fc->sync_cp, fc->geom.member_sectors);
		WRITE_ONCE(r6->sync_stop, suspended);
		mutex_unlock(&r6->sync_lock);
		return 0;
	}
	if (now != FANRAID_SYNC_IDLE || fc->rs)
		return -EBUSY;
	atomic64_set(&r6->mismatches, 0);
	atomic_set(&r6->unreadable, 0);
	for (i = 0; i < fc->ndevs; i++)
		atomic64_set(&fc->devs[i].check_blamed, 0);
	WRITE_ONCE(fc->sync_cp, 0);
	/* A scrub reads everything, whatever the bitmap says. */
	r6->sync_partial = false;
	fanraid_bitmap_sync_start(fc);
	WRITE_ONCE(r6->action, action);
	schedule_work(&fc->trigger_event);
	mutex_lock(&r6->sync_lock);
	if (!r6->sync_stop)
		queue_delayed_work(r6->wq, &r6->sync_work, 0);
	mutex_unlock(&r6->sync_lock);
	return 0;
}
