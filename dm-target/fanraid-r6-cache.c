// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 stripe cache: the memory every RAID6 operation works in.
 *
 * The cache is allocated whole when the table is loaded: a pool of pages
 * and a number of operations that take their pages from it, and a quarter
 * of the pool for the parity kept after writes (fanraid-r6-pq.c). An operation
 * takes what its I/O needs: its pages of the window on the slots it reads
 * or writes (every member slot, but for a read-modify-write only the data
 * it writes, P and Q: fanraid_r6_write_slots() in fanraid-r6-gather.c),
 * and the two scratch slots only for the sync pass, which compares in
 * them. A 4 KiB write pins 3 pages however many members there are from 7
 * on (below, it reconstructs, and takes them all), not the 18 whole
 * windows (2.3 MiB at 16 members) an operation held when each came with
 * its own, nor the page on every member it held next: small writes then
 * had some 26 operations in flight at the default size, and at 64
 * members on 64 CPUs a CPU's front could not keep one. How much
 * there is follows from the feature argument stripe_cache_mb, so RAID6
 * memory is exactly what the table asks for, whatever the load: writes,
 * degraded reads and syncs that find too few pages or no operation free
 * wait, in the order they asked, and writes being gathered wait for room
 * (fanraid_r6_window_get() in fanraid-r6-gather.c). Nothing on the I/O
 * path allocates pages, so nothing there can fail or stall in the page
 * allocator either.
 *
 * A small write's operation comes from its CPU's front when it can
 * (struct fanraid_r6_front): every write of the array took the cache's one
 * lock twice, to take and to give back, a line all CPUs write at NVMe rates.
 *
 * Every worker takes one operation at a time and gives it back after its
 * member I/O completed, which needs no other operation: waiting for one
 * cannot deadlock. (A grow's copy holds two, a new row's and an old row's;
 * the pages always hold two whole-window operations with scratch, so the
 * second comes once the holders ahead of it are done.)
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "fanraid-raid6.h"

/*
 * The share of the cache (1/16) kept for entries gathering writes. They are
 * small (@window_entry bytes each), but a window forced out before its
 * writes arrive costs reads: a 1 MiB, 32-deep writer on 16 members keeps
 * some 20 windows gathering, and at 4 entries per operation a 16 MiB cache
 * forced them out, writing 13 MiB/s instead of 98.
 */
#define FANRAID_R6_WINDOW_SHARE_SHIFT	4

static u32 fanraid_r6_win_pages(const struct fr_geom *g)
{
	return fr_r6_window_sectors(g->chunk_sectors) >> (PAGE_SHIFT - SECTOR_SHIFT);
}

/* Pages of the largest operation: a whole window on every slot, scratch too. */
static u32 fanraid_r6_full_op_pages(const struct fr_geom *g)
{
	return (g->ndevs + 2) * fanraid_r6_win_pages(g);
}

/*
 * The whole cache is allocated when the table loads. A stripe_cache_mb the
 * machine cannot hold must fail that load, not wake the OOM killer (a
 * fuzzed table once had it kill the shell): no retries, no warning.
 */
#define FANRAID_R6_CACHE_GFP	(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)

/*
 * The share of the pool's budget (1/8) that may go to the operations'
 * own structures (fanraid_r6_op_bytes(): 0.7 KiB and 272 bytes a member,
 * 5 KiB at 16 members, 17.7 KiB at 64): enough for a few hundred small
 * writes at once, while the pages keep the rest.
 */
#define FANRAID_R6_OPS_SHARE_SHIFT	3

/* One operation with its page table and I/O slots for @ndevs members. */
static size_t fanraid_r6_op_bytes(u32 ndevs)
{
	struct fanraid_r6op *op = NULL;

	return ALIGN(struct_size(op, io, ndevs) + ndevs * sizeof(*op->pages),
		     SMP_CACHE_BYTES);
}

/*
 * A slab of its own, as md's raid5 has for its stripe heads: kmalloc
 * rounds an operation of 2.9 KiB (8 members) up to 4, of 5 KiB (16) to 8,
 * beyond the share the cache counts for them; packed in 32 KiB slabs they
 * take 3.0 and 5.3 (at 64 members, 17.7 KiB, one a slab either way).
 * Named by a sequence number: a reloaded table's cache exists beside the
 * old one's.
 */
static int fanraid_r6_op_slab_create(struct fanraid_r6 *r6, size_t op_bytes)
{
	static atomic_t seq = ATOMIC_INIT(0);
	char name[32];

	snprintf(name, sizeof(name), "fanraid6_op_%u",
		 (u32)atomic_inc_return(&seq));
	r6->op_slab = kmem_cache_create(name, op_bytes, SMP_CACHE_BYTES, 0,
					NULL);
	return r6->op_slab ? 0 : -ENOMEM;
}

/*
 * Operations a CPU keeps, with their pages, for its next small writes: a
 * write given back on a CPU parks its operation there, and the next write
 * of the same size on that CPU takes it, neither touching the cache's lock.
 * Writes are often taken on one CPU and given back on another (the
 * submitter's, then a worker's or a completion's): one operation at a time
 * served only 21% of the takes of 4 KiB random writes. So the fronts move
 * in batches, as magazines do: a take that finds none of its size fills
 * the front with a batch under the same hold of the cache's lock, and a
 * full front gives back a batch at once.
 * Parked pages still count against the cache, so whoever must wait for
 * memory first calls every front back (fanraid_r6_fronts_drain()), and
 * nothing parks while anyone waits: the memory bound and the order of the
 * tickets stay as they were. Small: up to FANRAID_R6_FRONT_MAX_PAGES a
 * slot, and at most a 1/(4 x CPUs online) share of the pages on each CPU.
 */
#define FANRAID_R6_FRONT_OPS		16
#define FANRAID_R6_FRONT_BATCH		(FANRAID_R6_FRONT_OPS / 2)
#define FANRAID_R6_FRONT_MAX_PAGES	4
#define FANRAID_R6_FRONT_SHARE_SHIFT	2

struct fanraid_r6_front {
	spinlock_t lock;		/* irq-safe: writes give back from their completion */
	u32 count;
	u32 pages;			/* held by the operations parked here */
	struct fanraid_r6op *ops[FANRAID_R6_FRONT_OPS];
};

/*
 * stripe_cache_mb, defaulted and checked against the geometry: the cache
 * must hold two operations (one working, one in reserve), the rule the
 * tool applies too (fr_r6_stripe_cache_min_mb()).
 */
int fanraid_r6_cache_check(struct fanraid_c *fc, char **error)
{
	struct fanraid_features *f = &fc->features;
	u32 min_mb = fr_r6_stripe_cache_min_mb(fc->ndevs, fc->geom.chunk_sectors);

	if (!f->stripe_cache_mb_set) {
		f->stripe_cache_mb = max_t(u32, FR_R6_STRIPE_CACHE_DEFAULT_MB, min_mb);
		return 0;
	}
	if (f->stripe_cache_mb < min_mb) {
		DMERR("stripe_cache_mb %u: raid6 over %u members, chunk %u sectors needs at least %u MiB",
		      f->stripe_cache_mb, fc->ndevs, fc->geom.chunk_sectors,
		      min_mb);
		*error = "Invalid stripe_cache_mb: below the minimum for this raid6 geometry";
		return -EINVAL;
	}
	return 0;
}

int fanraid_r6_cache_create(struct fanraid_c *fc, size_t window_entry,
			    char **error)
{
	struct fanraid_r6 *r6 = fc->r6;
	u64 budget = (u64)fc->features.stripe_cache_mb << 20;
	u64 window_bytes = budget >> FANRAID_R6_WINDOW_SHARE_SHIFT;
	u64 pool = budget - window_bytes;
	u32 full = fanraid_r6_full_op_pages(&fc->geom);
	size_t op_bytes = fanraid_r6_op_bytes(fc->ndevs);
	struct fanraid_r6op *op;
	u64 pq_bytes;
	u32 i;
	int cpu;

	/* Parity kept after writes, while two whole operations still fit. */
	pq_bytes = fanraid_r6_pq_bytes(pool, ((u64)2 * full << PAGE_SHIFT) +
				       (pool >> FANRAID_R6_OPS_SHARE_SHIFT));
	if (fanraid_r6_pq_create(r6, pq_bytes, FANRAID_R6_CACHE_GFP))
		goto nomem;
	pool -= pq_bytes;

	spin_lock_init(&r6->cache_lock);
	init_waitqueue_head(&r6->op_wait);
	INIT_LIST_HEAD(&r6->free_ops);
	r6->front = alloc_percpu_gfp(struct fanraid_r6_front, FANRAID_R6_CACHE_GFP);
	if (!r6->front)
		goto nomem;
	for_each_possible_cpu(cpu)
		spin_lock_init(&per_cpu_ptr(r6->front, cpu)->lock);
	/*
	 * Operations for a 4 KiB write each (one data page, P and Q), within
	 * their share; the pages hold at least two whole-window operations
	 * with scratch, the minimum stripe_cache_mb is made for.
	 */
	r6->nops = clamp_t(u64, div64_u64(pool >> FANRAID_R6_OPS_SHARE_SHIFT,
					  op_bytes),
			   2, WQ_MAX_ACTIVE);
	r6->nops = min_t(u64, r6->nops,
			 max_t(u64, 2, div64_u64(pool, op_bytes +
						 (3 << PAGE_SHIFT))));
	r6->npages = max_t(u64, 2 * full,
			   (pool - min_t(u64, pool, (u64)r6->nops * op_bytes)) >>
			   PAGE_SHIFT);
	r6->full_ops = r6->npages / full;
	/*
	 * Shared by the CPUs online now, not the possible ones: firmware
	 * often lists hotplug slots that never come, as many again as there
	 * are CPUs, which halved every share. A CPU added later parks within
	 * the same pool: whoever waits for memory calls every front back.
	 */
	r6->front_pages = (r6->npages >> FANRAID_R6_FRONT_SHARE_SHIFT) /
			  num_online_cpus();
	r6->max_windows = max_t(u64, FANRAID_R6_GATHER_BUSY,
				div64_u64(window_bytes, window_entry));

	r6->free_pages = kvmalloc_array(r6->npages, sizeof(struct page *),
					FANRAID_R6_CACHE_GFP);
	if (!r6->free_pages) {
		r6->npages = 0;
		goto nomem;
	}
	for (r6->nfree = 0; r6->nfree < r6->npages; r6->nfree++) {
		r6->free_pages[r6->nfree] = alloc_page(FANRAID_R6_CACHE_GFP);
		if (!r6->free_pages[r6->nfree]) {
			r6->npages = r6->nfree;
			goto nomem;
		}
	}
	if (fanraid_r6_op_slab_create(r6, op_bytes))
		goto nomem;
	for (i = 0; i < r6->nops; i++) {
		op = kmem_cache_zalloc(r6->op_slab, FANRAID_R6_CACHE_GFP);
		if (!op)
			goto nomem;
		op->pages = (void *)&op->io[fc->ndevs];
		list_add(&op->node, &r6->free_ops);
	}
	DMINFO("%s: stripe cache %u MiB: %u pages, %u ops (%u whole), %u gathering in %u domains",
	       dm_table_device_name(fc->ti->table), fc->features.stripe_cache_mb,
	       r6->npages, r6->nops, r6->full_ops, r6->max_windows,
	       1U << r6->gather_bits);
	DMINFO("%s: parity of %u pages kept", dm_table_device_name(fc->ti->table),
	       fanraid_r6_pq_capacity(r6));
	return 0;

nomem:
	*error = "Cannot allocate the RAID6 stripe cache (stripe_cache_mb)";
	return -ENOMEM;
}

/* The slots that get pages: those asked for, and scratch when asked. */
static void fanraid_r6_op_pages_take(struct fanraid_r6 *r6,
				     struct fanraid_r6op *op)
{
	u32 s, p;

	for_each_set_bit(s, &op->held_slots, FR_MAX_DEVS)
		for (p = 0; p < op->held_npages; p++)
			op->pages[s][p] = r6->free_pages[--r6->nfree];
	if (!op->held_scratch)
		return;
	for (p = 0; p < op->held_npages; p++) {
		op->scratch[FANRAID_R6_SCRATCH_P][p] = r6->free_pages[--r6->nfree];
		op->scratch[FANRAID_R6_SCRATCH_Q][p] = r6->free_pages[--r6->nfree];
	}
}

static void fanraid_r6_op_pages_give(struct fanraid_r6 *r6,
				     struct fanraid_r6op *op)
{
	u32 s, p;

	for_each_set_bit(s, &op->held_slots, FR_MAX_DEVS)
		for (p = 0; p < op->held_npages; p++)
			r6->free_pages[r6->nfree++] = op->pages[s][p];
	if (!op->held_scratch)
		return;
	for (p = 0; p < op->held_npages; p++) {
		r6->free_pages[r6->nfree++] = op->scratch[FANRAID_R6_SCRATCH_P][p];
		r6->free_pages[r6->nfree++] = op->scratch[FANRAID_R6_SCRATCH_Q][p];
	}
}

static bool fanraid_r6_op_fits(struct fanraid_r6 *r6, u32 need)
{
	return !list_empty(&r6->free_ops) && r6->nfree >= need;
}

/* Under cache_lock: @op and its pages back in the cache. */
static void fanraid_r6_op_give(struct fanraid_r6 *r6, struct fanraid_r6op *op)
{
	fanraid_r6_op_pages_give(r6, op);
	list_add(&op->node, &r6->free_ops);
}

/*
 * Someone sleeps for the cache. Not the tickets: every take from the
 * cache moves those, and the fronts read this on every small write.
 */
static bool fanraid_r6_cache_waited(struct fanraid_r6 *r6)
{
	return READ_ONCE(r6->cache_waiting);
}

/* Under cache_lock: every CPU's parked operations back to the cache. */
static void fanraid_r6_fronts_drain(struct fanraid_r6 *r6)
{
	struct fanraid_r6_front *f;
	int cpu;

	lockdep_assert_held(&r6->cache_lock);
	for_each_possible_cpu(cpu) {
		f = per_cpu_ptr(r6->front, cpu);
		spin_lock(&f->lock);
		while (f->count)
			fanraid_r6_op_give(r6, f->ops[--f->count]);
		f->pages = 0;
		spin_unlock(&f->lock);
	}
}

/* Pages parked on the CPUs' fronts: taken from the cache, not in use. */
static u32 fanraid_r6_fronts_pages(struct fanraid_r6 *r6)
{
	u32 pages = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		pages += READ_ONCE(per_cpu_ptr(r6->front, cpu)->pages);
	return pages;
}

/* Under cache_lock: pages in use now, parked ones not counted. */
static u32 fanraid_r6_pages_used(struct fanraid_r6 *r6)
{
	u32 taken = r6->npages - r6->nfree;

	return taken - min(taken, fanraid_r6_fronts_pages(r6));
}

/*
 * Under cache_lock, after a take: the peak. Summing the fronts reads a
 * line of every CPU, so only when more is taken from the cache than ever
 * before since the last reset; a rise of CPUs taking parked operations
 * again in between is missed, by at most what the fronts hold.
 */
static void fanraid_r6_peak_note(struct fanraid_r6 *r6)
{
	u32 taken = r6->npages - r6->nfree;

	if (taken <= r6->peak_taken)
		return;
	r6->peak_taken = taken;
	r6->peak_pages = max(r6->peak_pages, fanraid_r6_pages_used(r6));
}

/*
 * Move the pages of @op, which holds as many slots as @slots, onto
 * @slots: a parked operation serves any write of its size, whichever data
 * it touches and wherever the row keeps P and Q.
 */
static void fanraid_r6_op_pages_move(struct fanraid_r6op *op,
				     unsigned long slots)
{
	unsigned long from = op->held_slots & ~slots;
	unsigned long to = slots & ~op->held_slots;
	u32 s, d = 0, p;

	for_each_set_bit(s, &from, FR_MAX_DEVS) {
		d = find_next_bit(&to, FR_MAX_DEVS, d);
		for (p = 0; p < op->held_npages; p++)
			op->pages[d][p] = op->pages[s][p];
		d++;
	}
	op->held_slots = slots;
}

/* An operation of this CPU's front with pages on @slots x @npages, or NULL. */
static struct fanraid_r6op *fanraid_r6_front_take(struct fanraid_r6 *r6,
						  unsigned long slots,
						  u32 npages)
{
	u32 nslots = hweight_long(slots);
	struct fanraid_r6op *op = NULL;
	struct fanraid_r6_front *f;
	unsigned long flags;
	u32 i;

	if (npages > FANRAID_R6_FRONT_MAX_PAGES)
		return NULL;
	/* Any CPU's front will do if the task moves: each has its lock. */
	f = raw_cpu_ptr(r6->front);
	spin_lock_irqsave(&f->lock, flags);
	for (i = 0; i < f->count && !fanraid_r6_cache_waited(r6); i++) {
		if (hweight_long(f->ops[i]->held_slots) != nslots ||
		    f->ops[i]->held_npages != npages)
			continue;
		op = f->ops[i];
		f->ops[i] = f->ops[--f->count];
		f->pages -= nslots * npages;
		break;
	}
	spin_unlock_irqrestore(&f->lock, flags);
	if (op)
		fanraid_r6_op_pages_move(op, slots);
	return op;
}

/* Pages @op holds, scratch not counted (scratch ops never park). */
static u32 fanraid_r6_op_held_pages(const struct fanraid_r6op *op)
{
	return hweight_long(op->held_slots) * op->held_npages;
}

/*
 * Under cache_lock, after a take of @slots x @npages that nobody waits
 * behind: a batch more of the same size onto this CPU's front, for its
 * next writes.
 */
static void fanraid_r6_front_fill(struct fanraid_r6 *r6, unsigned long slots,
				  u32 npages)
{
	struct fanraid_r6_front *f = this_cpu_ptr(r6->front);
	u32 pages = hweight_long(slots) * npages;
	struct fanraid_r6op *op;

	lockdep_assert_held(&r6->cache_lock);
	if (npages > FANRAID_R6_FRONT_MAX_PAGES)
		return;
	spin_lock(&f->lock);
	while (f->count < FANRAID_R6_FRONT_BATCH &&
	       f->pages + pages <= r6->front_pages &&
	       fanraid_r6_op_fits(r6, pages)) {
		op = list_first_entry(&r6->free_ops, struct fanraid_r6op, node);
		list_del(&op->node);
		op->held_slots = slots;
		op->held_npages = npages;
		op->held_scratch = false;
		fanraid_r6_op_pages_take(r6, op);
		f->ops[f->count++] = op;
		f->pages += pages;
	}
	spin_unlock(&f->lock);
}

/*
 * Park @op, pages and all, on this CPU's front; false if it must go back
 * to the cache. A full front first hands its oldest batch to @spill
 * (*nspill of them) for the caller to give back under one hold of the
 * cache's lock. Nothing parks while anyone waits for the cache: a waiter
 * counts itself before it drains the fronts, and the count is read here
 * under the front's lock, so an operation parked after that drain cannot
 * be missed by it.
 */
static bool fanraid_r6_front_park(struct fanraid_r6 *r6,
				  struct fanraid_r6op *op,
				  struct fanraid_r6op **spill, u32 *nspill)
{
	u32 pages = fanraid_r6_op_held_pages(op);
	struct fanraid_r6_front *f;
	unsigned long flags;
	bool parked;
	u32 i;

	*nspill = 0;
	if (op->held_scratch || op->held_npages > FANRAID_R6_FRONT_MAX_PAGES)
		return false;
	f = raw_cpu_ptr(r6->front);
	spin_lock_irqsave(&f->lock, flags);
	if (fanraid_r6_cache_waited(r6)) {
		spin_unlock_irqrestore(&f->lock, flags);
		return false;
	}
	if (f->count == FANRAID_R6_FRONT_OPS ||
	    f->pages + pages > r6->front_pages) {
		*nspill = min_t(u32, f->count, FANRAID_R6_FRONT_BATCH);
		for (i = 0; i < *nspill; i++) {
			spill[i] = f->ops[i];
			f->pages -= fanraid_r6_op_held_pages(spill[i]);
		}
		f->count -= *nspill;
		memmove(f->ops, f->ops + *nspill, f->count * sizeof(f->ops[0]));
	}
	parked = f->count < FANRAID_R6_FRONT_OPS &&
		 f->pages + pages <= r6->front_pages;
	if (parked) {
		f->ops[f->count++] = op;
		f->pages += pages;
	}
	spin_unlock_irqrestore(&f->lock, flags);
	return parked;
}

/*
 * Operations go out in the order they were asked for: a whole window (a
 * sync, a full-stripe write) must not wait for ever behind a stream of
 * small writes that each find enough pages. Without @wait (from map), NULL
 * unless it is the first in line and fits now.
 */
static struct fanraid_r6op *fanraid_r6_op_take(struct fanraid_c *fc,
					       unsigned long slots,
					       u32 npages, bool scratch,
					       bool wait)
{
	struct fanraid_r6 *r6 = fc->r6;
	u32 need = (hweight_long(slots) + (scratch ? 2 : 0)) * npages;
	struct fanraid_r6op *op;
	bool waiters;
	u32 ticket;

	if (!scratch) {
		op = fanraid_r6_front_take(r6, slots, npages);
		if (op)
			return op;
	}
	spin_lock_irq(&r6->cache_lock);
	if (!wait && (r6->ticket_next != r6->ticket_served ||
		      !fanraid_r6_op_fits(r6, need))) {
		spin_unlock_irq(&r6->cache_lock);
		return NULL;
	}
	ticket = r6->ticket_next++;
	if (ticket != r6->ticket_served || !fanraid_r6_op_fits(r6, need)) {
		/* What the CPUs keep may be what this one waits for. */
		WRITE_ONCE(r6->cache_waiting, r6->cache_waiting + 1);
		fanraid_r6_fronts_drain(r6);
		wait_event_lock_irq(r6->op_wait,
				    ticket == r6->ticket_served &&
				    fanraid_r6_op_fits(r6, need),
				    r6->cache_lock);
		WRITE_ONCE(r6->cache_waiting, r6->cache_waiting - 1);
	}
	r6->ticket_served++;
	op = list_first_entry(&r6->free_ops, struct fanraid_r6op, node);
	list_del(&op->node);
	op->held_slots = slots;
	op->held_npages = npages;
	op->held_scratch = scratch;
	fanraid_r6_op_pages_take(r6, op);
	waiters = r6->ticket_next != r6->ticket_served;
	if (!scratch && !waiters)
		fanraid_r6_front_fill(r6, slots, npages);
	fanraid_r6_peak_note(r6);
	spin_unlock_irq(&r6->cache_lock);
	/* The next in line may fit in what is left. */
	if (waiters)
		wake_up(&r6->op_wait);
	return op;
}

static struct fanraid_r6op *fanraid_r6_op_init(struct fanraid_c *fc,
					       const struct fr_geom *g,
					       u64 row, u32 first_page,
					       u32 npages, unsigned long slots,
					       bool scratch, bool wait)
{
	struct fanraid_r6op *op;

	WARN_ON_ONCE(npages > fanraid_r6_win_pages(&fc->geom));
	WARN_ON_ONCE(slots & ~fanraid_r6_all_slots(g));
	op = fanraid_r6_op_take(fc, slots, npages, scratch, wait);
	if (!op)
		return NULL;
	op->fc = fc;
	op->g = g;
	op->bio = NULL;
	op->row = row;
	op->target = 0;
	op->first_page = first_page;
	op->npages = npages;
	op->page_skip = 0;
	op->missing = 0;
	op->read_bad = 0;
	op->pq_keep = false;
	op->nowait = !wait;
	init_completion(&op->done);
	op->end_io = NULL;
	op->private = NULL;
	return op;
}

/*
 * An operation on @npages pages from @first_page of row @row's chunks in
 * layout @g (fc->geom, or during a grow the old one), with pages on the
 * member slots in @slots; waits until the cache has them.
 */
struct fanraid_r6op *fanraid_r6_op_get_slots(struct fanraid_c *fc,
					     const struct fr_geom *g, u64 row,
					     u32 first_page, u32 npages,
					     unsigned long slots)
{
	return fanraid_r6_op_init(fc, g, row, first_page, npages, slots,
				  false, true);
}

/* The same on every slot. */
struct fanraid_r6op *fanraid_r6_op_get(struct fanraid_c *fc,
				       const struct fr_geom *g, u64 row,
				       u32 first_page, u32 npages)
{
	return fanraid_r6_op_get_slots(fc, g, row, first_page, npages,
				       fanraid_r6_all_slots(g));
}

/* The same without sleeping (from map): NULL unless the pages are there now. */
struct fanraid_r6op *fanraid_r6_op_get_nowait(struct fanraid_c *fc,
					      const struct fr_geom *g, u64 row,
					      u32 first_page, u32 npages,
					      unsigned long slots)
{
	return fanraid_r6_op_init(fc, g, row, first_page, npages, slots,
				  false, false);
}

/* On every slot, and the two scratch slots the sync pass computes P and Q in. */
struct fanraid_r6op *fanraid_r6_op_get_scratch(struct fanraid_c *fc,
					       const struct fr_geom *g, u64 row,
					       u32 first_page, u32 npages)
{
	return fanraid_r6_op_init(fc, g, row, first_page, npages,
				  fanraid_r6_all_slots(g), true, true);
}

/* Any context: a write gives its op back from its members' completion. */
void fanraid_r6_op_put(struct fanraid_r6op *op)
{
	struct fanraid_r6op *spill[FANRAID_R6_FRONT_BATCH];
	struct fanraid_r6 *r6 = op->fc->r6;
	unsigned long flags;
	bool parked;
	u32 n;

	parked = fanraid_r6_front_park(r6, op, spill, &n);
	if (parked && !n)
		return;
	spin_lock_irqsave(&r6->cache_lock, flags);
	if (!parked)
		fanraid_r6_op_give(r6, op);
	while (n)
		fanraid_r6_op_give(r6, spill[--n]);
	spin_unlock_irqrestore(&r6->cache_lock, flags);
	/* A waiter queues itself under cache_lock: seen here if it is there. */
	if (waitqueue_active(&r6->op_wait))
		wake_up(&r6->op_wait);
}

/*
 * Status: KiB of the cache's pages in use now and at most since load or
 * reset (see fanraid_r6_peak_note()). Parked operations are not in use.
 */
void fanraid_r6_cache_usage(struct fanraid_r6 *r6, u64 *now_kib, u64 *peak_kib)
{
	u32 used;

	spin_lock_irq(&r6->cache_lock);
	used = fanraid_r6_pages_used(r6);
	*now_kib = (u64)used << (PAGE_SHIFT - 10);
	*peak_kib = (u64)max(r6->peak_pages, used) << (PAGE_SHIFT - 10);
	spin_unlock_irq(&r6->cache_lock);
}

/* The fronts go back too: the next takes are counted from the cache. */
void fanraid_r6_cache_reset_peak(struct fanraid_r6 *r6)
{
	spin_lock_irq(&r6->cache_lock);
	fanraid_r6_fronts_drain(r6);
	r6->peak_pages = r6->npages - r6->nfree;
	r6->peak_taken = r6->peak_pages;
	spin_unlock_irq(&r6->cache_lock);
}

void fanraid_r6_cache_destroy(struct fanraid_r6 *r6)
{
	struct fanraid_r6op *op, *tmp;

	fanraid_r6_pq_destroy(r6);
	if (!r6->free_ops.next)
		return;
	if (r6->front) {
		spin_lock_irq(&r6->cache_lock);
		fanraid_r6_fronts_drain(r6);
		spin_unlock_irq(&r6->cache_lock);
		free_percpu(r6->front);
		r6->front = NULL;
	}
	WARN_ON(r6->nfree != r6->npages);
	list_for_each_entry_safe(op, tmp, &r6->free_ops, node) {
		list_del(&op->node);
		kmem_cache_free(r6->op_slab, op);
	}
	kmem_cache_destroy(r6->op_slab);
	r6->op_slab = NULL;
	if (r6->free_pages) {
		while (r6->nfree)
			__free_page(r6->free_pages[--r6->nfree]);
		kvfree(r6->free_pages);
		r6->free_pages = NULL;
	}
}
