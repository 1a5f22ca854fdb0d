// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 parity memory: P and Q of pages written lately, so the
 * next small write to the same stripe page reads only its old data.
 *
 * A 4 KiB read-modify-write reads old data, P and Q, and writes all three.
 * Writes have locality (a database's hot pages, a journal, metadata), and
 * md's stripe cache keeps whole stripes for them: md tuned (4096 stripes)
 * read 1.4 bytes per byte written where fanraid read 4.0
 * (docs/benchmarking.md, cpu-raid6-randwrite-4k). Keeping P and Q alone
 * takes two pages per stripe page whatever the member count, where a
 * whole stripe takes one per member.
 *
 * Coherence comes from the page locks. The entry of a page is made
 * (fanraid_r6_pq_keep()) and taken (fanraid_r6_pq_take()) only by
 * whoever holds its lock, and every member write drops those of its
 * pages first (fanraid_r6_io_send(); a discard, which writes no pages,
 * drops its rows). A write keeps its parity once every member write
 * succeeded, before it lets go of the locks. So an entry is always the P
 * and Q on the members, and after a failure, resync, repair, rebuild,
 * discard or a grow's copy nothing stale is left. Another window's write
 * may only evict an entry, which costs a read, not correctness.
 *
 * Entries are hashed by stripe page into buckets of a few, each with its
 * own lock: kept per lock of a window, as they once were, a small array
 * with fewer windows than locks left most of the memory unused. The memory is
 * a share of stripe_cache_mb, allocated when the table loads: the I/O
 * path only swaps page pointers.
 */
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "fanraid-raid6.h"

/* The share of stripe_cache_mb's pool kept for parity: a quarter. */
#define FANRAID_R6_PQ_SHARE_SHIFT	2

/* How much of @pool (bytes) goes to parity, leaving @keep bytes at least. */
u64 fanraid_r6_pq_bytes(u64 pool, u64 keep)
{
	u64 want = pool >> FANRAID_R6_PQ_SHARE_SHIFT;

	return pool - want >= keep ? want : 0;
}

int fanraid_r6_pq_create(struct fanraid_r6 *r6, u64 bytes, gfp_t gfp)
{
	u64 buckets = div_u64(bytes >> (PAGE_SHIFT + 1), FANRAID_R6_PQ_WAYS);
	struct fanraid_r6_pq *e;
	u32 b, w;

	r6->pq_buckets = min_t(u64, buckets, U32_MAX);
	if (!r6->pq_buckets)
		return 0;
	r6->pq = kvcalloc(r6->pq_buckets, sizeof(*r6->pq), gfp);
	if (!r6->pq)
		return -ENOMEM;
	for (b = 0; b < r6->pq_buckets; b++) {
		spin_lock_init(&r6->pq[b].lock);
		for (w = 0; w < FANRAID_R6_PQ_WAYS; w++) {
			e = &r6->pq[b].ent[w];
			e->p = alloc_page(gfp);
			e->q = alloc_page(gfp);
			if (!e->p || !e->q)
				return -ENOMEM;
		}
	}
	return 0;
}

void fanraid_r6_pq_destroy(struct fanraid_r6 *r6)
{
	struct fanraid_r6_pq *e;
	u32 b, w;

	if (!r6->pq)
		return;
	for (b = 0; b < r6->pq_buckets; b++) {
		for (w = 0; w < FANRAID_R6_PQ_WAYS; w++) {
			e = &r6->pq[b].ent[w];
			if (e->p)
				__free_page(e->p);
			if (e->q)
				__free_page(e->q);
		}
	}
	kvfree(r6->pq);
	r6->pq = NULL;
}

/* Stripe pages kept at most: for the table's load message. */
u32 fanraid_r6_pq_capacity(struct fanraid_r6 *r6)
{
	return r6->pq ? FANRAID_R6_PQ_WAYS * r6->pq_buckets : 0;
}

static struct fanraid_r6_pq_bucket *fanraid_r6_pq_bucket(struct fanraid_r6op *op,
							 u32 page)
{
	struct fanraid_r6 *r6 = op->fc->r6;
	u64 key = (op->row << 16 | page) ^ (unsigned long)op->g;

	return &r6->pq[reciprocal_scale(hash_64(key, 32), r6->pq_buckets)];
}

static bool fanraid_r6_pq_is(const struct fanraid_r6_pq *e,
			     const struct fanraid_r6op *op, u32 page)
{
	return e->g == op->g && e->row == op->row && e->page == page;
}

/*
 * Swap page @i of @op's P and Q slots with a free entry, or the least
 * recently kept: the op's become kept, and the op holds what the entry
 * held. Called with the bucket's lock. The page has no entry of its own
 * left (its lock is held, and the op's member writes dropped
 * any, or fanraid_r6_pq_take() freed the one it took), so a page is
 * never kept twice.
 */
static void fanraid_r6_pq_put(struct fanraid_r6_pq_bucket *b,
			      struct fanraid_r6op *op, u32 i)
{
	u32 n = op->g->ndevs, page = op->first_page + i, w;
	struct fanraid_r6_pq *e = b->ent, *old = b->ent;

	for (w = 0; w < FANRAID_R6_PQ_WAYS; w++, e++) {
		if (!e->g || fanraid_r6_pq_is(e, op, page))
			break;
		if ((s32)(e->used - old->used) < 0)
			old = e;
	}
	if (w == FANRAID_R6_PQ_WAYS)
		e = old;
	swap(e->p, op->pages[n - 2][i]);
	swap(e->q, op->pages[n - 1][i]);
	e->g = op->g;
	e->row = op->row;
	e->page = page;
	e->used = b->clock++;
}

/*
 * Take P and Q of every page of @op into its P and Q slots, its window's
 * lock held: all of them or none. Taken entries leave the memory, and
 * the op's write keeps them again (fanraid_r6_pq_keep()).
 */
bool fanraid_r6_pq_take(struct fanraid_r6op *op)
{
	u32 n = op->g->ndevs, i, w;
	struct fanraid_r6_pq_bucket *b;
	struct fanraid_r6_pq *e;
	unsigned long flags;

	if (!op->fc->r6->pq)
		return false;
	for (i = 0; i < op->npages; i++) {
		b = fanraid_r6_pq_bucket(op, op->first_page + i);
		spin_lock_irqsave(&b->lock, flags);
		for (w = 0, e = b->ent; w < FANRAID_R6_PQ_WAYS; w++, e++)
			if (fanraid_r6_pq_is(e, op, op->first_page + i))
				break;
		if (w < FANRAID_R6_PQ_WAYS) {
			swap(e->p, op->pages[n - 2][i]);
			swap(e->q, op->pages[n - 1][i]);
			e->g = NULL;
		}
		spin_unlock_irqrestore(&b->lock, flags);
		if (w == FANRAID_R6_PQ_WAYS)
			goto miss;
	}
	return true;

miss:
	/* What was taken is still the members' parity: back it goes. */
	while (i--) {
		b = fanraid_r6_pq_bucket(op, op->first_page + i);
		spin_lock_irqsave(&b->lock, flags);
		fanraid_r6_pq_put(b, op, i);
		spin_unlock_irqrestore(&b->lock, flags);
	}
	return false;
}

/*
 * @op's P and Q, just written to every member, its pages' locks held:
 * kept for the next write to these pages. Any context (a write's
 * completion).
 */
void fanraid_r6_pq_keep(struct fanraid_r6op *op)
{
	struct fanraid_r6_pq_bucket *b;
	unsigned long flags;
	u32 i;

	if (!op->fc->r6->pq)
		return;
	for (i = 0; i < op->npages; i++) {
		b = fanraid_r6_pq_bucket(op, op->first_page + i);
		spin_lock_irqsave(&b->lock, flags);
		fanraid_r6_pq_put(b, op, i);
		spin_unlock_irqrestore(&b->lock, flags);
	}
}

/* Drop what is kept of @op's pages: the members are about to change. */
void fanraid_r6_pq_forget(struct fanraid_r6op *op)
{
	struct fanraid_r6_pq_bucket *b;
	struct fanraid_r6_pq *e;
	unsigned long flags;
	u32 i, w;

	if (!op->fc->r6->pq)
		return;
	for (i = 0; i < op->npages; i++) {
		b = fanraid_r6_pq_bucket(op, op->first_page + i);
		spin_lock_irqsave(&b->lock, flags);
		for (w = 0, e = b->ent; w < FANRAID_R6_PQ_WAYS; w++, e++)
			if (fanraid_r6_pq_is(e, op, op->first_page + i))
				e->g = NULL;
		spin_unlock_irqrestore(&b->lock, flags);
	}
}

/*
 * Drop what is kept of rows @row .. @row + @nrows - 1 of layout @g, their
 * page locks held: a discard zeroes them without pages of its own.
 */
void fanraid_r6_pq_forget_rows(struct fanraid_r6 *r6, const struct fr_geom *g,
			       u64 row, u32 nrows)
{
	struct fanraid_r6_pq *e;
	u32 b, w;

	for (b = 0; r6->pq && b < r6->pq_buckets; b++) {
		spin_lock_irq(&r6->pq[b].lock);
		for (w = 0, e = r6->pq[b].ent; w < FANRAID_R6_PQ_WAYS; w++, e++)
			if (e->g == g && e->row - row < nrows)
				e->g = NULL;
		spin_unlock_irq(&r6->pq[b].lock);
	}
}
