// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 member I/O and parity: what every RAID6 path (writes,
 * degraded reads, resync, rebuild, scrub) does to an operation's pages.
 *
 * An operation covers some 4 KiB pages of one stripe window on every slot
 * (a bio over more is trimmed in map, or read a window at a time), is done under
 * those pages' locks so two writes never interleave their parity updates, and
 * works on whole pages so lib/raid6 sees the same block for every slot.
 * Slots are lib/raid6's pointer order: data 0..n-3 in logical order, P at
 * n-2, Q at n-1, so userspace (ISA-L) computes the same bytes.
 *
 * Layering (R22): below the paths (fanraid-r6-gather.c, fanraid-r6-read.c,
 * fanraid-sync.c), above the stripe cache; it asks the member state, and
 * calls no path.
 */
#include <linux/bio.h>
#include <linux/hash.h>
#include <linux/blkdev.h>
#include <linux/highmem.h>
#include <linux/raid/pq.h>
#include <linux/raid/xor.h>

#include "fanraid-raid6.h"

u32 fanraid_r6_slot_dev(const struct fr_geom *g, u64 row, u32 slot)
{
	if (slot == g->data_devs)
		return fr_geom_p_dev(g, row);
	if (slot == g->data_devs + 1)
		return fr_geom_q_dev(g, row);
	return fr_geom_data_dev(g, row, slot);
}

/*
 * Which lock serialises page @page of stripe window @window of @row: the
 * same page of every member, P and Q included. An operation on some pages
 * of a window waits only for those that touch the same pages: 256 window
 * locks serialised random 4 KiB writes that met in a window or a lock (64
 * in flight over some 150 windows: 0.71-1.18 of md's rate, 0.95-1.40 with
 * page locks, cpu-raid6-randwrite-4k). A window's locks are consecutive,
 * one block of FANRAID_R6_MAX_PAGES, so every locker takes its locks in
 * ascending order (an operation its pages', a discard those of whole rows,
 * fanraid-r6-discard.c) and none waits for another in a circle.
 */
u32 fanraid_r6_lock_index(const struct fr_geom *g, u64 row, u32 window,
			  u32 page)
{
	u32 per_row = g->chunk_sectors / fr_r6_window_sectors(g->chunk_sectors);
	u32 page_bits = ilog2(FANRAID_R6_MAX_PAGES);

	return (hash_64(row * per_row + window, FANRAID_R6_LOCK_BITS - page_bits)
		<< page_bits) + page;
}

/* The lock of the op's first page (an op never crosses a window). */
static struct semaphore *fanraid_r6_op_first_lock(struct fanraid_r6op *op)
{
	const struct fr_geom *g = op->g;
	u32 win_pages = fr_r6_window_sectors(g->chunk_sectors) >>
			(PAGE_SHIFT - SECTOR_SHIFT);

	return &op->fc->r6->page_locks[fanraid_r6_lock_index(g, op->row,
					op->first_page / win_pages,
					op->first_page % win_pages)];
}

/* Take the locks of the op's pages, in ascending order. */
void fanraid_r6_op_lock(struct fanraid_r6op *op)
{
	struct semaphore *lock = fanraid_r6_op_first_lock(op);
	u32 i;

	for (i = 0; i < op->npages; i++)
		down(&lock[i]);
}

/* The same without waiting (from map): false, holding none, if one is taken. */
bool fanraid_r6_op_trylock(struct fanraid_r6op *op)
{
	struct semaphore *lock = fanraid_r6_op_first_lock(op);
	u32 i;

	for (i = 0; i < op->npages; i++) {
		if (down_trylock(&lock[i])) {
			while (i--)
				up(&lock[i]);
			return false;
		}
	}
	return true;
}

/* Any context: a write's member completion lets go of its pages. */
void fanraid_r6_op_unlock(struct fanraid_r6op *op)
{
	struct semaphore *lock = fanraid_r6_op_first_lock(op);
	u32 i;

	for (i = 0; i < op->npages; i++)
		up(&lock[i]);
}

/* One reference of the op's member I/O gone: the last ends it. */
static void fanraid_r6_io_put(struct fanraid_r6op *op)
{
	if (!atomic_dec_and_test(&op->pending))
		return;
	if (op->end_io)
		op->end_io(op);
	else
		complete(&op->done);
}

static void fanraid_r6_endio(struct bio *bio)
{
	struct fanraid_r6io *io = bio->bi_private;

	io->status = bio->bi_status;
	bio_put(bio);
	fanraid_r6_io_put(io->op);
}

/* A bio for the op's pages of @slot, or NULL if @gfp cannot have one. */
static struct bio *fanraid_r6_io_bio(struct fanraid_r6op *op, u32 slot,
				     blk_opf_t opf, gfp_t gfp)
{
	const struct fr_geom *g = op->g;
	struct fanraid_dev *d = &op->fc->devs[fanraid_r6_slot_dev(g, op->row, slot)];
	struct fanraid_r6io *io = &op->io[slot];
	struct bio *bio;
	u32 i;

	bio = bio_alloc_bioset(d->dm_dev->bdev, op->npages, opf, gfp,
			       &op->fc->r6->bs);
	if (!bio)
		return NULL;
	io->op = op;
	io->slot = slot;
	io->status = BLK_STS_OK;
	bio->bi_iter.bi_sector = d->offset + (op->row << g->chunk_shift) +
				 ((sector_t)op->first_page << PAGE_SECTORS_SHIFT);
	bio->bi_private = io;
	bio->bi_end_io = fanraid_r6_endio;
	for (i = 0; i < op->npages; i++)
		__bio_add_page(bio, op->pages[slot][i], PAGE_SIZE, 0);
	return bio;
}

/*
 * Send the op's pages of every slot in @slots; op->pending holds one more.
 * The slots sent, and how, are left in op->io_slots and op->io_opf for
 * fanraid_r6_io_status(). From map (op->nowait) every bio is had first, or
 * none is sent and this returns false: a send cut short would leave the op
 * half at its members. Otherwise one bio at a time: bios held from the
 * pool while waiting for more could empty it for good.
 */
static bool fanraid_r6_io_send(struct fanraid_r6op *op, unsigned long slots,
			       blk_opf_t opf)
{
	const struct fr_geom *g = op->g;
	bool nowait = op->nowait;
	struct bio_list ready;
	struct bio *bio;
	u32 slot;

	/*
	 * A slot without pages would send a member what is not there; its
	 * status, not sent, would be a stale one.
	 */
	if (WARN_ON_ONCE(!fanraid_r6_op_holds(op, slots)))
		slots &= op->held_slots;
	op->io_slots = slots;
	op->io_opf = opf;
	bio_list_init(&ready);
	if (nowait) {
		for_each_set_bit(slot, &slots, g->ndevs) {
			bio = fanraid_r6_io_bio(op, slot, opf, GFP_NOWAIT);
			if (!bio) {
				while ((bio = bio_list_pop(&ready)))
					bio_put(bio);
				return false;
			}
			bio_list_add(&ready, bio);
		}
		/* What follows runs on workers and completions, which may wait. */
		op->nowait = false;
	}
	/* Parity kept of these pages goes: the members change under it. */
	if (op_is_write(opf))
		fanraid_r6_pq_forget(op);
	atomic_set(&op->pending, 1);
	for_each_set_bit(slot, &slots, g->ndevs) {
		struct fanraid_dev *d;

		bio = nowait ? bio_list_pop(&ready) :
			       fanraid_r6_io_bio(op, slot, opf, GFP_NOIO);
		d = &op->fc->devs[fanraid_r6_slot_dev(g, op->row, slot)];
		if (op_is_write(opf)) {
			fanraid_stat_add(d, FANRAID_STAT_WRITES, 1);
			fanraid_stat_add(d, FANRAID_STAT_WRITE_SECTORS,
					 bio_sectors(bio));
		} else {
			fanraid_stat_add(d, FANRAID_STAT_READS, 1);
			fanraid_stat_add(d, FANRAID_STAT_READ_SECTORS,
					 bio_sectors(bio));
		}
		atomic_inc(&op->pending);
		submit_bio_noacct(bio);
	}
	return true;
}

/*
 * The outcome of the op's I/O to @slots, once all of it completed. A slot
 * that failed is added to op->missing. A write error fails the member:
 * what it holds is now wrong. A read error does not: the slot is marked in
 * op->read_bad, so the caller rebuilds it from parity and rewrites it
 * (fanraid_r6_rewrite()); a rewrite that succeeds repairs it. Any context.
 * Returns the number of slots that failed.
 */
static int fanraid_r6_io_status(struct fanraid_r6op *op, unsigned long slots,
				blk_opf_t opf)
{
	struct fanraid_c *fc = op->fc;
	const struct fr_geom *g = op->g;
	bool write = op_is_write(opf);
	int failures = 0;
	u32 slot;

	for_each_set_bit(slot, &slots, g->ndevs) {
		u32 dev = fanraid_r6_slot_dev(g, op->row, slot);
		blk_status_t status = op->io[slot].status;

		if (status == BLK_STS_OK) {
			if (!write)
				continue;
			/* The next flush must reach this member (flush_policy dirty). */
			atomic_set(&fc->devs[dev].dirty, 1);
			/* Rewritten after a read error: whole again. */
			if (__test_and_clear_bit(slot, &op->read_bad)) {
				__clear_bit(slot, &op->missing);
				fanraid_member_read_repaired(fc, dev);
			}
			continue;
		}
		if (atomic64_inc_return(&fc->devs[dev].errors) <
		    FANRAID_EVENT_THRESHOLD)
			schedule_work(&fc->trigger_event);
		if (write) {
			/* Part of it may have reached the cache: flush it next time. */
			atomic_set(&fc->devs[dev].dirty, 1);
			fanraid_member_fail(fc, dev, __test_and_clear_bit(slot, &op->read_bad) ?
					    "rewrite after a read error failed" :
					    "write error",
					    blk_status_to_errno(status));
		} else {
			__set_bit(slot, &op->read_bad);
			op->io[slot].bad_pages = GENMASK(op->npages - 1, 0);
		}
		__set_bit(slot, &op->missing);
		failures++;
	}
	return failures;
}

/*
 * Read or write the op's pages of every slot in @slots, in parallel, and
 * wait; fanraid_r6_io_status() gives the outcome.
 */
int fanraid_r6_io(struct fanraid_r6op *op, unsigned long slots, blk_opf_t opf)
{
	op->end_io = NULL;
	reinit_completion(&op->done);
	fanraid_r6_io_send(op, slots, opf);
	if (!atomic_dec_and_test(&op->pending))
		wait_for_completion_io(&op->done);
	return fanraid_r6_io_status(op, op->io_slots, opf);
}

/*
 * The same, without waiting: @end_io runs once it all completed, from the
 * last member's completion (an interrupt, often), or from here if that
 * came first. It calls fanraid_r6_io_async_status() for the outcome. A
 * writer then needs no task asleep per operation, and no wakeup to go on.
 */
int fanraid_r6_io_async(struct fanraid_r6op *op, unsigned long slots,
			blk_opf_t opf, void (*end_io)(struct fanraid_r6op *op))
{
	op->end_io = end_io;
	if (!fanraid_r6_io_send(op, slots, opf))
		return -EAGAIN;
	fanraid_r6_io_put(op);
	return 0;
}

int fanraid_r6_io_async_status(struct fanraid_r6op *op)
{
	return fanraid_r6_io_status(op, op->io_slots, op->io_opf);
}

/*
 * Write back the slots whose reads failed, now rebuilt in the op's pages,
 * unless their member failed meanwhile. Called with the op's locks held,
 * after fanraid_r6_recover(), so what is written agrees with P and Q.
 */
void fanraid_r6_rewrite(struct fanraid_r6op *op)
{
	unsigned long slots = op->read_bad & ~fanraid_r6_failed_slots(op);

	op->read_bad &= slots;
	if (slots)
		fanraid_r6_io(op, slots, REQ_OP_WRITE);
}

/*
 * XOR the @nsrc pages at @srcs into @dst. xor_blocks() is the kernel's
 * XOR, the fastest for the CPU picked when it loads (AVX where there is),
 * up to MAX_XOR_BLOCKS sources a pass: a plain loop over longs, one
 * source at a time, took a quarter of the CPU of a rebuild.
 */
static void fanraid_r6_xor_into(void *dst, void **srcs, u32 nsrc)
{
	u32 count;

	for (; nsrc; srcs += count, nsrc -= count) {
		count = min_t(u32, nsrc, MAX_XOR_BLOCKS);
		xor_blocks(count, PAGE_SIZE, dst, srcs);
	}
}

/* XOR @src into @dst, one page. */
void fanraid_r6_xor_page(u8 *dst, const u8 *src)
{
	void *srcs[1] = { (void *)src };

	fanraid_r6_xor_into(dst, srcs, 1);
}

/*
 * Rebuild the missing slots of page @p from the others, and only those: a
 * scrub or resync then compares the other parity as it was read. lib/raid6
 * exports the two-data and data+P recoveries; the module dispatches the
 * rest: one data block from P by XOR, P or Q alone by regenerating the
 * syndrome, its other half to the scribble page. Regenerated whole, a Q
 * whose read failed during a resync replaced the P read beside it, which
 * then compared equal to the data and was never written: the row kept its
 * random P.
 */
static void fanraid_r6_recover_page(struct fanraid_r6op *op, u32 p, u32 fa,
				    u32 fb)
{
	u32 n = op->g->ndevs, pslot = n - 2, qslot = n - 1, i;
	void *ptrs[FR_MAX_DEVS];

	for (i = 0; i < n; i++)
		ptrs[i] = page_address(op->pages[i][p]);

	if (fa >= pslot) {
		/* Only P and/or Q lost: the data is whole. */
		if (fb == n)
			ptrs[fa == pslot ? qslot : pslot] =
				page_address(op->fc->r6->scribble);
		raid6_call.gen_syndrome(n, PAGE_SIZE, ptrs);
	} else if (fb == qslot || fb == n) {
		/* One data block (and maybe Q): D = P ^ the other data. */
		memcpy(ptrs[fa], ptrs[pslot], PAGE_SIZE);
		fanraid_r6_xor_into(ptrs[fa], ptrs, fa);
		fanraid_r6_xor_into(ptrs[fa], ptrs + fa + 1, pslot - fa - 1);
		if (fb == qslot)
			raid6_call.gen_syndrome(n, PAGE_SIZE, ptrs);
	} else if (fb == pslot) {
		raid6_datap_recov(n, PAGE_SIZE, fa, ptrs);
	} else {
		raid6_2data_recov(n, PAGE_SIZE, fa, fb, ptrs);
	}
}

/*
 * The slots page @p cannot be had from: a slot whose read failed counts
 * only at the pages that failed (fanraid_r6_reread_pages()).
 */
static unsigned long fanraid_r6_page_missing(struct fanraid_r6op *op, u32 p)
{
	unsigned long missing = op->missing, bad = op->missing & op->read_bad;
	u32 slot;

	for_each_set_bit(slot, &bad, op->g->ndevs)
		if (!test_bit(p, &op->io[slot].bad_pages))
			__clear_bit(slot, &missing);
	return missing;
}

/* The most slots any one page of the op is missing. */
static u32 fanraid_r6_most_missing(struct fanraid_r6op *op)
{
	u32 p, most = 0;

	if (!(op->missing & op->read_bad))
		return hweight_long(op->missing);
	for (p = 0; p < op->npages; p++)
		most = max_t(u32, most,
			     hweight_long(fanraid_r6_page_missing(op, p)));
	return most;
}

/*
 * Rebuild the missing pages of every slot from the others; -EIO, with
 * nothing changed, when a page has more than two lost.
 */
int fanraid_r6_recover(struct fanraid_r6op *op)
{
	u32 n = op->g->ndevs, fa, fb, p;

	if (!op->missing)
		return 0;
	if (fanraid_r6_most_missing(op) > 2)
		return -EIO;
	for (p = 0; p < op->npages; p++) {
		unsigned long missing = fanraid_r6_page_missing(op, p);

		if (!missing)
			continue;
		fa = find_first_bit(&missing, n);
		fb = find_next_bit(&missing, n, fa + 1);
		fanraid_r6_recover_page(op, p, fa, fb);
	}
	return 0;
}

/*
 * Copy between @bio and slot @slot's pages, in the bio's direction; @pos is
 * the bio's byte offset from the op's first page.
 */
void fanraid_r6_copy_bio(struct fanraid_r6op *op, struct bio *bio, u32 slot,
			 unsigned int pos)
{
	bool to_pages = op_is_write(bio_op(bio));
	struct bio_vec bv;
	struct bvec_iter iter;

	bio_for_each_segment(bv, bio, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			struct page *page = op->pages[slot][pos >> PAGE_SHIFT];
			unsigned int off = offset_in_page(pos);
			unsigned int len = min(bv.bv_len - done,
					       (unsigned int)PAGE_SIZE - off);
			void *mem = bvec_kmap_local(&bv);

			if (to_pages)
				memcpy(page_address(page) + off, mem + done, len);
			else
				memcpy(mem + done, page_address(page) + off, len);
			kunmap_local(mem);
			done += len;
			pos += len;
		}
	}
}

/* Zero @len bytes of slot @slot's pages from byte @pos of the op's first page. */
void fanraid_r6_zero_pages(struct fanraid_r6op *op, u32 slot, unsigned int pos,
			   unsigned int len)
{
	while (len) {
		unsigned int off = offset_in_page(pos);
		unsigned int n = min(len, (unsigned int)PAGE_SIZE - off);

		memset(page_address(op->pages[slot][pos >> PAGE_SHIFT]) + off,
		       0, n);
		pos += n;
		len -= n;
	}
}

/* Slots on failed members: never read or written. */
unsigned long fanraid_r6_failed_slots(struct fanraid_r6op *op)
{
	const struct fr_geom *g = op->g;
	unsigned long slots = 0;
	u32 slot;

	/* Every write asks, several times: the healthy case maps no slot. */
	if (bitmap_empty(op->fc->failed, op->fc->ndevs))
		return 0;
	for (slot = 0; slot < g->ndevs; slot++)
		if (fanraid_is_failed(op->fc, fanraid_r6_slot_dev(g, op->row, slot)))
			set_bit(slot, &slots);
	return slots;
}

/*
 * Slots whose contents cannot be trusted here: failed members, and members
 * being rebuilt in the part of the array the rebuild has not reached. The
 * caller holds the op's page locks, so the sync point cannot pass them.
 */
unsigned long fanraid_r6_lost_slots(struct fanraid_r6op *op)
{
	struct fanraid_c *fc = op->fc;
	const struct fr_geom *g = op->g;
	sector_t pos = (op->row << g->chunk_shift) +
		       ((sector_t)op->first_page << (PAGE_SHIFT - SECTOR_SHIFT));
	unsigned long slots = fanraid_r6_failed_slots(op);
	u32 slot;

	if (bitmap_empty(fc->rebuilding, fc->ndevs))
		return slots;
	for (slot = 0; slot < g->ndevs; slot++)
		if (fanraid_is_stale(fc, fanraid_r6_slot_dev(g, op->row, slot), pos))
			set_bit(slot, &slots);
	return slots;
}

/*
 * The slots to read to rebuild op->missing: every other one, but Q only
 * when needed: one lost data block comes from P and the other data.
 */
unsigned long fanraid_r6_survivors(struct fanraid_r6op *op)
{
	u32 n = op->g->ndevs;
	unsigned long want = GENMASK(n - 1, 0) & ~op->missing;

	if (hweight_long(op->missing) == 1 && __ffs(op->missing) < n - 2)
		want &= ~BIT(n - 1);
	return want;
}

/* Read page @p of @slot alone, and wait: whether it was read. */
static bool fanraid_r6_page_read(struct fanraid_r6op *op, u32 slot, u32 p)
{
	const struct fr_geom *g = op->g;
	struct fanraid_dev *d = &op->fc->devs[fanraid_r6_slot_dev(g, op->row, slot)];
	struct bio *bio;
	int r;

	bio = bio_alloc_bioset(d->dm_dev->bdev, 1, REQ_OP_READ, GFP_NOIO,
			       &op->fc->r6->bs);
	bio->bi_iter.bi_sector = d->offset + (op->row << g->chunk_shift) +
				 ((sector_t)(op->first_page + p) << PAGE_SECTORS_SHIFT);
	__bio_add_page(bio, op->pages[slot][p], PAGE_SIZE, 0);
	fanraid_stat_add(d, FANRAID_STAT_READS, 1);
	fanraid_stat_add(d, FANRAID_STAT_READ_SECTORS, PAGE_SECTORS);
	r = submit_bio_wait(bio);
	bio_put(bio);
	return !r;
}

/*
 * Slots in @slots whose read failed, read again a page at a time: only
 * the pages that fail again stay lost (op->io[].bad_pages), as md rebuilds
 * only the 4 KiB stripe that failed. Rebuilt whole from parity, the pages
 * around a bad sector took what P said, which is wrong wherever P is: a
 * row torn by a crash above the resync point, or a P silently corrupted
 * that a repair then "confirmed" by rewriting Q. A slot read whole again
 * is no longer lost.
 */
static void fanraid_r6_reread_pages(struct fanraid_r6op *op,
				    unsigned long slots)
{
	u32 slot, p;

	slots &= op->read_bad & op->missing & ~fanraid_r6_failed_slots(op);
	for_each_set_bit(slot, &slots, op->g->ndevs) {
		struct fanraid_dev *d = &op->fc->devs[fanraid_r6_slot_dev(op->g, op->row, slot)];
		unsigned long *bad = &op->io[slot].bad_pages;

		/*
		 * Every page is tried, however many fail: one not tried would
		 * be rebuilt from parity, the very error this avoids. A
		 * member that times out page after page costs a timeout a
		 * page, as in md, until its driver takes it offline.
		 */
		for_each_set_bit(p, bad, op->npages) {
			if (fanraid_r6_page_read(op, slot, p))
				__clear_bit(p, bad);
			else
				atomic64_inc(&d->errors);
		}
		if (!*bad) {
			__clear_bit(slot, &op->read_bad);
			__clear_bit(slot, &op->missing);
		}
	}
}

/*
 * Read the slots in @want the op does not have. A slot whose read fails is
 * read again page by page; if pages stay lost, every other slot is read to
 * rebuild them. Ends, since each pass that goes on adds a slot to
 * op->missing for good.
 */
int fanraid_r6_read_slots(struct fanraid_r6op *op, unsigned long want)
{
	fanraid_r6_reread_pages(op, op->read_bad);
	for (;;) {
		unsigned long todo = want & ~op->missing;

		if (fanraid_r6_most_missing(op) > 2)
			return -EIO;
		if (!fanraid_r6_io(op, todo, REQ_OP_READ))
			return 0;
		fanraid_r6_reread_pages(op, todo);
		if (!(todo & op->missing))
			return 0;
		want = GENMASK(op->g->ndevs - 1, 0);
	}
}

/*
 * P and Q of every page from the data slots, into the P and Q slots or,
 * for a scrub that compares, into the scratch slots.
 */
void fanraid_r6_gen(struct fanraid_r6op *op, bool into_scratch)
{
	u32 n = op->g->ndevs, p, i;
	void *ptrs[FR_MAX_DEVS];

	for (p = 0; p < op->npages; p++) {
		for (i = 0; i < n; i++)
			ptrs[i] = page_address(op->pages[i][p]);
		if (into_scratch) {
			ptrs[n - 2] = page_address(op->scratch[FANRAID_R6_SCRATCH_P][p]);
			ptrs[n - 1] = page_address(op->scratch[FANRAID_R6_SCRATCH_Q][p]);
		}
		raid6_call.gen_syndrome(n, PAGE_SIZE, ptrs);
		cond_resched();
	}
}

