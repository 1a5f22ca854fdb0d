/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RAID6 operations shared by the I/O worker (fanraid-raid6.c) and the
 * resync, rebuild and scrub worker (fanraid-sync.c).
 */
#ifndef DM_FANRAID_RAID6_H
#define DM_FANRAID_RAID6_H

#include "fanraid.h"

/* An operation's scratch rows (op->scratch): P and Q recomputed by a scrub. */
#define FANRAID_R6_SCRATCH_P	0
#define FANRAID_R6_SCRATCH_Q	1

struct fanraid_r6op;

/* Carries a member bio's slot to its completion. */
struct fanraid_r6io {
	struct fanraid_r6op *op;
	u32 slot;
	blk_status_t status;
	/* pages of the op whose read failed, while the slot is in op->read_bad */
	unsigned long bad_pages;
};

/*
 * One operation on one window of one row: the same pages of every slot it
 * holds (every slot, but for a read-modify-write only the data it writes,
 * P and Q). Slots are lib/raid6's pointer order: data 0..n-3 in logical
 * order, P at n-2, Q at n-1.
 */
struct fanraid_r6op {
	struct list_head node;		/* in the stripe cache's free list */
	struct fanraid_c *fc;
	/* the layout of its row: every slot, P and Q are placed through it */
	const struct fr_geom *g;
	struct bio *bio;		/* degraded read; NULL otherwise */
	u64 row;
	u32 target;			/* data slot the read addresses */
	u32 first_page;			/* page within the chunk */
	u32 npages;
	u32 page_skip;			/* bytes from the first page to the bio's start */
	unsigned long missing;		/* slots that cannot be read */
	unsigned long read_bad;		/* ... because a read failed: rewrite once rebuilt */
	atomic_t pending;
	struct completion done;
	/*
	 * Member I/O sent with fanraid_r6_io_async(): what runs once it all
	 * completed, instead of a waiting task.
	 */
	void (*end_io)(struct fanraid_r6op *op);
	void *private;
	struct llist_node cont;		/* in a CPU's fanraid_r6_cont, to go on */
	unsigned long io_slots;		/* the slots last sent */
	blk_opf_t io_opf;		/* ... and how */
	unsigned long held_slots;	/* member slots with pages from the cache */
	u32 held_npages;		/* ... pages each, scratch slots too if held_scratch */
	bool held_scratch;
	bool pq_keep;			/* a write whose P and Q are kept once written */
	bool nowait;			/* from map: sends all its bios or none, never waits */
	/* a sync pass's recomputed P and Q, compared with the members' */
	struct page *scratch[2][FANRAID_R6_MAX_PAGES];
	/*
	 * The pages it works on, per member slot, from the cache. This table
	 * and io[] have a row per member of the array, not FR_MAX_DEVS: at 64
	 * rows an operation took 18 KiB, and the cache's share for them held
	 * a few hundred, fewer than the small writes its pages can carry.
	 */
	struct page *(*pages)[FANRAID_R6_MAX_PAGES];
	struct fanraid_r6io io[];
};

/* fanraid-r6-cache.c: the stripe cache (memory; calls nothing above it) */
int fanraid_r6_cache_check(struct fanraid_c *fc, char **error);
int fanraid_r6_cache_create(struct fanraid_c *fc, size_t window_entry,
			    char **error);
void fanraid_r6_cache_destroy(struct fanraid_r6 *r6);
struct fanraid_r6op *fanraid_r6_op_get(struct fanraid_c *fc,
				       const struct fr_geom *g, u64 row,
				       u32 first_page, u32 npages);
struct fanraid_r6op *fanraid_r6_op_get_slots(struct fanraid_c *fc,
					     const struct fr_geom *g, u64 row,
					     u32 first_page, u32 npages,
					     unsigned long slots);
struct fanraid_r6op *fanraid_r6_op_get_nowait(struct fanraid_c *fc,
					      const struct fr_geom *g, u64 row,
					      u32 first_page, u32 npages,
					      unsigned long slots);
struct fanraid_r6op *fanraid_r6_op_get_scratch(struct fanraid_c *fc,
					       const struct fr_geom *g, u64 row,
					       u32 first_page, u32 npages);
void fanraid_r6_op_put(struct fanraid_r6op *op);

/* Every member slot of layout @g. */
static inline unsigned long fanraid_r6_all_slots(const struct fr_geom *g)
{
	return GENMASK(g->ndevs - 1, 0);
}

/* Whether @op has pages on every slot in @slots. */
static inline bool fanraid_r6_op_holds(const struct fanraid_r6op *op,
				       unsigned long slots)
{
	return !(slots & ~op->held_slots);
}

/* fanraid-r6-pq.c: parity kept after writes (memory; calls nothing above it) */
u64 fanraid_r6_pq_bytes(u64 pool, u64 keep);
int fanraid_r6_pq_create(struct fanraid_r6 *r6, u64 bytes, gfp_t gfp);
void fanraid_r6_pq_destroy(struct fanraid_r6 *r6);
u32 fanraid_r6_pq_capacity(struct fanraid_r6 *r6);
bool fanraid_r6_pq_take(struct fanraid_r6op *op);
void fanraid_r6_pq_keep(struct fanraid_r6op *op);
void fanraid_r6_pq_forget(struct fanraid_r6op *op);
void fanraid_r6_pq_forget_rows(struct fanraid_r6 *r6, const struct fr_geom *g,
			       u64 row, u32 nrows);

/* fanraid-r6-io.c: member I/O and parity for an operation */
u32 fanraid_r6_lock_index(const struct fr_geom *g, u64 row, u32 window,
			  u32 page);
void fanraid_r6_op_lock(struct fanraid_r6op *op);
bool fanraid_r6_op_trylock(struct fanraid_r6op *op);
void fanraid_r6_op_unlock(struct fanraid_r6op *op);
u32 fanraid_r6_slot_dev(const struct fr_geom *g, u64 row, u32 slot);
unsigned long fanraid_r6_failed_slots(struct fanraid_r6op *op);
unsigned long fanraid_r6_lost_slots(struct fanraid_r6op *op);
int fanraid_r6_io(struct fanraid_r6op *op, unsigned long slots, blk_opf_t opf);
int fanraid_r6_io_async(struct fanraid_r6op *op, unsigned long slots,
			blk_opf_t opf, void (*end_io)(struct fanraid_r6op *op));
int fanraid_r6_io_async_status(struct fanraid_r6op *op);
unsigned long fanraid_r6_survivors(struct fanraid_r6op *op);
int fanraid_r6_read_slots(struct fanraid_r6op *op, unsigned long want);
int fanraid_r6_recover(struct fanraid_r6op *op);
void fanraid_r6_rewrite(struct fanraid_r6op *op);
void fanraid_r6_xor_page(u8 *dst, const u8 *src);
void fanraid_r6_gen(struct fanraid_r6op *op, bool into_scratch);
void fanraid_r6_copy_bio(struct fanraid_r6op *op, struct bio *bio, u32 slot,
			 unsigned int pos);
void fanraid_r6_zero_pages(struct fanraid_r6op *op, u32 slot, unsigned int pos,
			   unsigned int len);

/* fanraid-r6-read.c: degraded reads */
void fanraid_r6_read_work(struct work_struct *work);

/* fanraid-r6-gather.c: writes, gathered by stripe window */
size_t fanraid_r6_stripe_size(const struct fr_geom *g);
void fanraid_r6_gather_queue(struct fanraid_c *fc, struct fanraid_bio *fb,
			     u64 row, bool in_map);
void fanraid_r6_gather_zeroes(struct fanraid_c *fc, struct bio *bio);
void fanraid_r6_cont_work(struct work_struct *work);
void fanraid_r6_cont_urgent_work(struct work_struct *work);
void fanraid_r6_batch_work(struct work_struct *work);
void fanraid_r6_batch_urgent_work(struct work_struct *work);
int fanraid_r6_gather_init(struct fanraid_r6 *r6);
void fanraid_r6_gather_exit(struct fanraid_r6 *r6);

/* fanraid-r6-discard.c: discard and write-zeroes */
void fanraid_r6_range_work(struct work_struct *work);

#endif /* DM_FANRAID_RAID6_H */
