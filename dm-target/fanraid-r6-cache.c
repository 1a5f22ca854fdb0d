// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 stripe cache: the memory every RAID6 operation works in.
 *
 * The cache is allocated whole when the table is loaded: a fixed number of
 * operations, each with one window of pages for every member plus the two
 * scratch slots a scrub compares in. How many follows from the feature
 * argument stripe_cache_mb, so RAID6 memory is exactly what the table asks
 * for, whatever the load: writes, degraded reads and syncs that find every
 * operation busy wait for one, and writes being gathered wait for room
 * (fanraid_r6_window_get() in fanraid-r6-gather.c). Nothing on the I/O path allocates pages, so
 * nothing there can fail or stall in the page allocator either.
 *
 * Every worker takes one operation at a time and gives it back after its
 * member I/O completed, which needs no other operation: waiting for one
 * cannot deadlock.
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

/* Bytes one operation costs the cache. */
static size_t fanraid_r6_op_cost(const struct fr_geom *g)
{
	return sizeof(struct fanraid_r6op) +
	       ((size_t)(g->ndevs + 2) * fanraid_r6_win_pages(g) << PAGE_SHIFT);
}

static void fanraid_r6_op_free(struct fanraid_r6op *op)
{
	u32 s, p;

	for (s = 0; s < FANRAID_R6_SLOTS; s++)
		for (p = 0; p < FANRAID_R6_MAX_PAGES; p++)
			if (op->pages[s][p])
				__free_page(op->pages[s][p]);
	kvfree(op);
}

/*
 * The whole cache is allocated when the table loads. A stripe_cache_mb the
 * machine cannot hold must fail that load, not wake the OOM killer (a
 * fuzzed table once had it kill the shell): no retries, no warning.
 */
#define FANRAID_R6_CACHE_GFP	(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)

static struct fanraid_r6op *fanraid_r6_op_alloc(struct fanraid_c *fc)
{
	u32 win_pages = fanraid_r6_win_pages(&fc->geom), s, p;
	struct fanraid_r6op *op = kvzalloc(sizeof(*op), FANRAID_R6_CACHE_GFP);

	if (!op)
		return NULL;
	for (s = 0; s < FANRAID_R6_SLOTS; s++) {
		if (s >= fc->ndevs && s < FANRAID_R6_SCRATCH_P)
			continue;
		for (p = 0; p < win_pages; p++) {
			op->pages[s][p] = alloc_page(FANRAID_R6_CACHE_GFP);
			if (!op->pages[s][p]) {
				fanraid_r6_op_free(op);
				return NULL;
			}
		}
	}
	return op;
}

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
	struct fanraid_r6op *op;
	u32 i;

	spin_lock_init(&r6->cache_lock);
	init_waitqueue_head(&r6->op_wait);
	init_waitqueue_head(&r6->window_wait);
	INIT_LIST_HEAD(&r6->free_ops);
	r6->op_bytes = fanraid_r6_op_cost(&fc->geom);
	/* The minimum size guarantees two; never fewer than one. */
	r6->nops = max_t(u64, 1, div64_u64(budget - window_bytes, r6->op_bytes));
	r6->max_windows = max_t(u64, FANRAID_R6_GATHER_BUSY,
				div64_u64(window_bytes, window_entry));

	for (i = 0; i < r6->nops; i++) {
		op = fanraid_r6_op_alloc(fc);
		if (!op) {
			*error = "Cannot allocate the RAID6 stripe cache (stripe_cache_mb)";
			return -ENOMEM;
		}
		list_add(&op->node, &r6->free_ops);
	}
	DMINFO("%s: stripe cache %u MiB: %u operations of %zu KiB, %u gathering windows",
	       dm_table_device_name(fc->ti->table), fc->features.stripe_cache_mb,
	       r6->nops, r6->op_bytes >> 10, r6->max_windows);
	return 0;
}

void fanraid_r6_cache_destroy(struct fanraid_r6 *r6)
{
	struct fanraid_r6op *op, *tmp;

	if (!r6->free_ops.next)
		return;
	WARN_ON(r6->busy);
	list_for_each_entry_safe(op, tmp, &r6->free_ops, node) {
		list_del(&op->node);
		fanraid_r6_op_free(op);
	}
}

/*
 * An operation on @npages pages from @first_page of row @row's chunks in
 * layout @g (fc->geom, or during a grow the old one), on every slot and
 * the two scratch slots; waits while every one is busy.
 */
struct fanraid_r6op *fanraid_r6_op_get(struct fanraid_c *fc,
				       const struct fr_geom *g, u64 row,
				       u32 first_page, u32 npages)
{
	struct fanraid_r6 *r6 = fc->r6;
	struct fanraid_r6op *op;

	WARN_ON_ONCE(npages > fanraid_r6_win_pages(&fc->geom));
	spin_lock_irq(&r6->cache_lock);
	wait_event_lock_irq(r6->op_wait, !list_empty(&r6->free_ops),
			    r6->cache_lock);
	op = list_first_entry(&r6->free_ops, struct fanraid_r6op, node);
	list_del(&op->node);
	r6->busy++;
	r6->peak = max(r6->peak, r6->busy);
	spin_unlock_irq(&r6->cache_lock);

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
	init_completion(&op->done);
	return op;
}

void fanraid_r6_op_put(struct fanraid_r6op *op)
{
	struct fanraid_r6 *r6 = op->fc->r6;

	spin_lock_irq(&r6->cache_lock);
	list_add(&op->node, &r6->free_ops);
	r6->busy--;
	spin_unlock_irq(&r6->cache_lock);
	wake_up(&r6->op_wait);
}

/* Status: KiB of operations in use now and at most since load or reset. */
void fanraid_r6_cache_usage(struct fanraid_r6 *r6, u64 *now_kib, u64 *peak_kib)
{
	spin_lock_irq(&r6->cache_lock);
	*now_kib = (u64)r6->busy * r6->op_bytes >> 10;
	*peak_kib = (u64)r6->peak * r6->op_bytes >> 10;
	spin_unlock_irq(&r6->cache_lock);
}

void fanraid_r6_cache_reset_peak(struct fanraid_r6 *r6)
{
	spin_lock_irq(&r6->cache_lock);
	r6->peak = r6->busy;
	spin_unlock_irq(&r6->cache_lock);
}
