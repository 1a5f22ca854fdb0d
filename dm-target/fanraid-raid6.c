// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 entry: hands writes and the reads of rows with a lost
 * block to the gatherer (fanraid-r6-gather.c), reads that failed at their
 * member to the repairing reader (fanraid-r6-read.c), and builds and
 * tears down the RAID6 state: the stripe cache, the pools and the workers.
 * It calls nothing of the sync pass (fanraid-sync.c), which the table
 * starts and stops: the pass drops what a repair rewrote from the
 * readahead cache, and the readahead hands reads back to this file.
 *
 * Layering (R22), bottom up: the stripe cache (fanraid-r6-cache.c), member
 * I/O and parity (fanraid-r6-io.c), the paths (gather, discard, read),
 * this file, then the sync pass; no file calls one above it.
 */
#include <linux/bio.h>
#include <linux/mempool.h>
#include <linux/slab.h>

#include "fanraid-raid6.h"

/*
 * Queue a write, or a read of a row with a lost block, for the gatherer:
 * @in_map, gathered here in the submitter's context when that needs no
 * sleep. @loc is where fb->g maps it: the gatherer's domain is found from
 * its row without dividing again. Map trimmed writes to their stripe
 * window (fanraid_r6_trim()), and reads but those it sends on during a
 * grow and those the readahead gives back: a read over more than one
 * window goes to the repairing reader instead, one window at a time.
 */
int fanraid_r6_queue(struct fanraid_c *fc, struct bio *bio,
		     const struct fr_loc *loc, bool in_map)
{
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);

	fb->dev = loc->dev;
	fb->fc = fc;
	fb->handled = true;
	if (!op_is_write(bio_op(bio)) &&
	    bio_sectors(bio) > fanraid_r6_window_left(fb->g, logical)) {
		INIT_WORK(&fb->work, fanraid_r6_read_work);
		queue_work(fc->r6->wq, &fb->work);
		return DM_MAPIO_SUBMITTED;
	}
	fanraid_r6_gather_queue(fc, fb, loc->row, in_map);
	return DM_MAPIO_SUBMITTED;
}

/* A read that failed at its member (fb->dev), for the repairing reader. */
void fanraid_r6_queue_repair(struct fanraid_c *fc, struct bio *bio)
{
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));

	fb->fc = fc;
	fb->handled = true;
	INIT_WORK(&fb->work, fanraid_r6_read_work);
	queue_work(fc->r6->wq, &fb->work);
}

/*
 * A read or write inside one chunk, through layout @g (during a grow, the
 * one its position is in; fanraid-reshape.c): a read of a healthy row
 * straight to its member, the rest to the workers. No readahead here: a
 * grow runs without its cache.
 */
int fanraid_r6_map(struct fanraid_c *fc, struct bio *bio,
		   const struct fr_geom *g)
{
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	struct fr_loc loc;

	fr_geom_map(g, dm_target_offset(fc->ti, bio->bi_iter.bi_sector), &loc);
	fb->g = g;
	if (op_is_write(bio_op(bio)) ||
	    fanraid_r6_row_lost(fc, g, &loc, bio_sectors(bio)))
		return fanraid_r6_queue(fc, bio, &loc, true);
	fb->iter = bio->bi_iter;
	return fanraid_remap(fc, bio, loc.dev, loc.sector);
}

/* Queue a discard or write-zeroes: one bio for the whole range. */
int fanraid_r6_queue_range(struct fanraid_c *fc, struct bio *bio)
{
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));

	fb->dev = 0;
	fb->fc = fc;
	fb->handled = true;
	INIT_WORK(&fb->work, fanraid_r6_range_work);
	queue_work(fc->r6->wq, &fb->work);
	return DM_MAPIO_SUBMITTED;
}

int fanraid_r6_create(struct fanraid_c *fc, char **error)
{
	struct fanraid_r6 *r6;
	unsigned int cpu;
	int i, r;

	r6 = kzalloc(sizeof(*r6), GFP_KERNEL);
	if (!r6) {
		*error = "Cannot allocate RAID6 state";
		return -ENOMEM;
	}
	fc->r6 = r6;
	r6->page_locks = kvmalloc_array(1 << FANRAID_R6_LOCK_BITS,
					sizeof(*r6->page_locks), GFP_KERNEL);
	if (!r6->page_locks) {
		*error = "Cannot allocate RAID6 page locks";
		return -ENOMEM;
	}
	for (i = 0; i < 1 << FANRAID_R6_LOCK_BITS; i++)
		sema_init(&r6->page_locks[i], 1);
	mutex_init(&r6->zero_lock);

	r = fanraid_r6_gather_init(r6);
	if (r) {
		*error = "Cannot allocate RAID6 gathering domains";
		return r;
	}
	r = fanraid_r6_cache_check(fc, error);
	if (!r)
		r = fanraid_r6_cache_create(fc, fanraid_r6_stripe_size(&fc->geom),
					    error);
	if (r)
		return r;
	r = mempool_init_kmalloc_pool(&r6->stripe_pool, FANRAID_R6_GATHER_BUSY,
				      fanraid_r6_stripe_size(&fc->geom));
	if (!r)
		r = bioset_init(&r6->bs, FR_MAX_DEVS, 0, BIOSET_NEED_BVECS);
	if (!r)
		r = bioset_init(&r6->zero_bs, FR_MAX_DEVS, 0, 0);
	if (!r) {
		r6->scribble = alloc_page(GFP_KERNEL);
		if (!r6->scribble)
			r = -ENOMEM;
	}
	if (r) {
		*error = "Cannot allocate RAID6 memory pools";
		return r;
	}
	/*
	 * As many work items at once as the cache has operations: more would
	 * only wait for one.
	 */
	r6->wq = alloc_workqueue("kfanraid6", WQ_MEM_RECLAIM | WQ_UNBOUND,
				 clamp_t(u32, r6->nops, FANRAID_R6_MAX_ACTIVE,
					 WQ_MAX_ACTIVE));
	if (!r6->wq) {
		*error = "Cannot allocate RAID6 workqueue";
		return -ENOMEM;
	}
	/*
	 * Pieces shorter than a window while a stream is written
	 * (fanraid_r6_beside_stream()): a task mostly waits on each (an
	 * fsync's write, a database's page), and kfanraid6 is busy copying the
	 * stream's windows in (small writes waited there 5-10 ms). Apart from
	 * kfanraid6l: gatherers may wait for windows that the entries there
	 * free.
	 */
	r6->small_wq = alloc_workqueue("kfanraid6s", WQ_MEM_RECLAIM | WQ_UNBOUND |
				       WQ_HIGHPRI, clamp_t(u32, r6->nops,
				       FANRAID_R6_MAX_ACTIVE, WQ_MAX_ACTIVE));
	if (!r6->small_wq) {
		*error = "Cannot allocate RAID6 workqueue";
		return -ENOMEM;
	}
	/* Apart from kfanraid6, whose gatherers may wait for windows these free. */
	r6->write_wq = alloc_workqueue("kfanraid6w", WQ_MEM_RECLAIM | WQ_UNBOUND,
				       min_t(u32, r6->nops, WQ_MAX_ACTIVE));
	if (!r6->write_wq) {
		*error = "Cannot allocate RAID6 workqueue";
		return -ENOMEM;
	}
	/*
	 * Entries not a stream's, while a stream is written: a stream's window
	 * may wait on kfanraid6w for its turn at the members
	 * (fanraid_r6_stream_start()), and a small write queued behind such
	 * workers waited 70 ms.
	 */
	r6->lone_wq = alloc_workqueue("kfanraid6l", WQ_MEM_RECLAIM | WQ_UNBOUND |
				      WQ_HIGHPRI, min_t(u32, r6->nops, WQ_MAX_ACTIVE));
	if (!r6->lone_wq) {
		*error = "Cannot allocate RAID6 workqueue";
		return -ENOMEM;
	}
	/*
	 * Unbound: a worker bound to the CPU whose completions queued it
	 * left the other CPUs idle while that one was busy (37% idle at
	 * 4 KiB random writes, against 25%).
	 */
	r6->cont_wq = alloc_workqueue("kfanraid6c", WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	/* Beside a stream, as kfanraid6s and kfanraid6l. */
	r6->cont_hp_wq = alloc_workqueue("kfanraid6ch", WQ_MEM_RECLAIM |
					 WQ_UNBOUND | WQ_HIGHPRI, 0);
	r6->cont = alloc_percpu(struct fanraid_r6_cont);
	r6->batch = alloc_percpu(struct fanraid_r6_batch);
	if (!r6->cont_wq || !r6->cont_hp_wq || !r6->cont || !r6->batch) {
		*error = "Cannot allocate RAID6 workqueue";
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct fanraid_r6_cont *c = per_cpu_ptr(r6->cont, cpu);

		init_llist_head(&c->ops);
		INIT_WORK(&c->work, fanraid_r6_cont_work);
		INIT_WORK(&c->urgent, fanraid_r6_cont_urgent_work);
	}
	for_each_possible_cpu(cpu) {
		struct fanraid_r6_batch *b = per_cpu_ptr(r6->batch, cpu);

		init_llist_head(&b->entries);
		INIT_WORK(&b->work, fanraid_r6_batch_work);
		INIT_WORK(&b->urgent, fanraid_r6_batch_urgent_work);
	}
	/* Per CPU: map counts every bio, and a shared counter would bounce. */
	r6->mapped = alloc_percpu(unsigned long);
	if (!r6->mapped) {
		*error = "Cannot allocate RAID6 I/O counters";
		return -ENOMEM;
	}
	return 0;
}

void fanraid_r6_destroy(struct fanraid_c *fc)
{
	struct fanraid_r6 *r6 = fc->r6;

	if (!r6)
		return;
	if (r6->wq)
		destroy_workqueue(r6->wq);
	if (r6->small_wq)
		destroy_workqueue(r6->small_wq);
	fanraid_r6_gather_exit(r6);
	if (r6->write_wq)
		destroy_workqueue(r6->write_wq);
	if (r6->lone_wq)
		destroy_workqueue(r6->lone_wq);
	if (r6->cont_wq)
		destroy_workqueue(r6->cont_wq);
	if (r6->cont_hp_wq)
		destroy_workqueue(r6->cont_hp_wq);
	free_percpu(r6->cont);
	free_percpu(r6->batch);
	if (r6->scribble)
		__free_page(r6->scribble);
	bioset_exit(&r6->zero_bs);
	bioset_exit(&r6->bs);
	mempool_exit(&r6->stripe_pool);
	fanraid_r6_cache_destroy(r6);
	free_percpu(r6->mapped);
	kvfree(r6->page_locks);
	kfree(r6);
	fc->r6 = NULL;
}
