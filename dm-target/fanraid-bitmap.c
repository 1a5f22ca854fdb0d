// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid write-intent bitmap (table feature "bitmap", RAID6 with the
 * superblock feature).
 *
 * One bit per region of member sectors (fanraid/bitmap.h), the same copy
 * on every member after its superblock. The rules, md's:
 *
 * - A bit is on the media (REQ_FUA, every survivor) before a write to its
 *   region goes to any member. The fast path is one atomic increment of
 *   the region's write count and a test of its bit: no lock.
 * - Bits are cleared lazily: a region neither written nor being written
 *   for one full cleaner period (FANRAID_BITMAP_CLEAR_MS, two looks) is
 *   cleared with REQ_PREFLUSH, so its data is durable on every member
 *   before its bit goes. Never while a member is failed or being rebuilt,
 *   or while a resync is unfinished: then the bits are exactly what a
 *   crash resync, or a member that comes back, needs.
 * - Before bits are cleared, events_cleared in the superblocks moves to
 *   the new events value: a member whose own events are older may have
 *   missed writes whose bits are gone, and cannot be re-added.
 *
 * A writer that finds its bit clear adds it to "want" and takes the lock;
 * whoever holds the lock writes every wanted bit in one go, so a burst of
 * writes to new regions costs one bitmap write, not one each. The cleaner
 * clears a bit in memory before it looks at the region's write count, and
 * a writer counts itself before it tests the bit (full barriers both
 * sides), so one of them always sees the other.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <fanraid/sb.h>

#include "fanraid.h"

/* ms between the cleaner's looks; a region idle for a whole one is cleared. */
#define FANRAID_BITMAP_CLEAR_MS	5000
#define FANRAID_BITMAP_POOL	16

struct fanraid_bitmap_io {
	struct fanraid_bitmap *b;
	u32 dev;
	struct bio bio;
};

struct fanraid_bitmap {
	struct fanraid_c *fc;
	u32 shift;			/* log2 of the region, in member sectors */
	u32 nregions;
	u32 npages;			/* of the on-disk image */
	u32 area_sectors;		/* the bitmap area on each member */
	struct page **image;		/* what the media hold; under lock */
	struct page **scratch;		/* one member's copy, as read */
	unsigned long *ondisk;		/* bits the media hold (set: on every survivor) */
	unsigned long *want;		/* bits writers wait for */
	unsigned long *recent;		/* written since the cleaner last looked */
	unsigned long *snap;		/* scratch under lock */
	unsigned long *pages_dirty;	/* scratch under lock */
	atomic_t *active;		/* writes in flight, per region */
	struct mutex lock;		/* image, media writes, snap */
	struct bio_set bs;
	struct workqueue_struct *wq;
	struct delayed_work clean_work;
	bool live;			/* resumed: may write, the cleaner runs */
	DECLARE_BITMAP(io_failed, FR_MAX_DEVS);
	atomic_t io_pending;
	struct completion io_done;
	atomic64_t sync_regions;	/* regions the current or last pass covered */
	u32 sync_region;		/* last region counted, +1; 0 none */
};

static void fanraid_bitmap_endio(struct bio *bio)
{
	struct fanraid_bitmap_io *io = container_of(bio, struct fanraid_bitmap_io,
						    bio);
	struct fanraid_bitmap *b = io->b;

	if (bio->bi_status)
		set_bit(io->dev, b->io_failed);
	bio_put(bio);
	if (atomic_dec_and_test(&b->io_pending))
		complete(&b->io_done);
}

/*
 * Pages @pages (bit p: page p) of @buf to or from the bitmap area of every
 * member in @devs, and wait. Members whose I/O failed are left in
 * b->io_failed.
 */
static void fanraid_bitmap_io(struct fanraid_bitmap *b, const unsigned long *devs,
			      const unsigned long *pages, struct page **buf,
			      blk_opf_t opf)
{
	struct fanraid_c *fc = b->fc;
	u32 i, p;

	bitmap_zero(b->io_failed, FR_MAX_DEVS);
	atomic_set(&b->io_pending, 1);
	reinit_completion(&b->io_done);
	for_each_set_bit(i, devs, fc->ndevs) {
		for_each_set_bit(p, pages, b->npages) {
			struct fanraid_bitmap_io *io;
			struct bio *bio;

			bio = bio_alloc_bioset(fc->devs[i].dm_dev->bdev, 1, opf,
					       GFP_NOIO, &b->bs);
			io = container_of(bio, struct fanraid_bitmap_io, bio);
			io->b = b;
			io->dev = i;
			bio->bi_iter.bi_sector = FR_BITMAP_SECTOR +
						 p * FR_BITMAP_PAGE_SECTORS;
			bio->bi_end_io = fanraid_bitmap_endio;
			__bio_add_page(bio, buf[p], FR_BITMAP_PAGE_BYTES, 0);
			atomic_inc(&b->io_pending);
			submit_bio(bio);
		}
	}
	if (!atomic_dec_and_test(&b->io_pending))
		wait_for_completion_io(&b->io_done);
}

/* Members that carry the bitmap now: present and not failed. */
static void fanraid_bitmap_targets(struct fanraid_bitmap *b, unsigned long *devs)
{
	struct fanraid_c *fc = b->fc;
	u32 i;

	bitmap_zero(devs, FR_MAX_DEVS);
	for (i = 0; i < fc->ndevs; i++)
		if (fc->devs[i].dm_dev && !fanraid_is_failed(fc, i))
			__set_bit(i, devs);
}

/*
 * Write the image's @pages to every survivor. A member that cannot take
 * it is failed (its copy would be wrong), and the others still agree. 0,
 * or -EIO when no member took it. Called with b->lock held.
 */
static int fanraid_bitmap_write(struct fanraid_bitmap *b,
				const unsigned long *pages, blk_opf_t flags)
{
	struct fanraid_c *fc = b->fc;
	DECLARE_BITMAP(devs, FR_MAX_DEVS);
	u32 i;

	fanraid_bitmap_targets(b, devs);
	if (bitmap_empty(devs, FR_MAX_DEVS))
		return -EIO;
	fanraid_bitmap_io(b, devs, pages, b->image,
			  REQ_OP_WRITE | REQ_SYNC | REQ_META | flags);
	for_each_set_bit(i, b->io_failed, fc->ndevs) {
		atomic64_inc(&fc->devs[i].errors);
		fanraid_member_fail(fc, i, "bitmap write error", 0);
		__clear_bit(i, devs);
	}
	return bitmap_empty(devs, FR_MAX_DEVS) ? -EIO : 0;
}

static u32 fanraid_bitmap_region(struct fanraid_c *fc, u64 row)
{
	return ((sector_t)row << fc->geom.chunk_shift) >> fc->bitmap->shift;
}

/* Put every wanted bit on the media. Called with b->lock held. */
static int fanraid_bitmap_flush_want(struct fanraid_bitmap *b)
{
	u32 w, r, words = BITS_TO_LONGS(b->nregions);
	bool any = false;
	int ret;

	bitmap_zero(b->pages_dirty, b->npages);
	for (w = 0; w < words; w++)
		b->snap[w] = xchg(&b->want[w], 0);
	for_each_set_bit(r, b->snap, b->nregions) {
		if (test_bit(r, b->ondisk))
			continue;
		__set_bit_le(r % FR_BITMAP_PAGE_BITS,
			     page_address(b->image[r / FR_BITMAP_PAGE_BITS]));
		__set_bit(r / FR_BITMAP_PAGE_BITS, b->pages_dirty);
		any = true;
	}
	if (!any)
		return 0;
	/* Setting needs no flush: nothing written before depends on it. */
	ret = fanraid_bitmap_write(b, b->pages_dirty, REQ_FUA);
	if (ret)
		return ret;
	for_each_set_bit(r, b->snap, b->nregions)
		set_bit(r, b->ondisk);
	return 0;
}

/* Count a write to region @r in; true if its bit is on the media already. */
static bool fanraid_bitmap_write_enter(struct fanraid_bitmap *b, u32 r)
{
	atomic_inc(&b->active[r]);
	/* Counted before ondisk is read; the clearer reads active after clearing it. */
	smp_mb__after_atomic();
	if (!test_bit(r, b->recent))
		set_bit(r, b->recent);
	return test_bit(r, b->ondisk);
}

/*
 * Before a write to @row goes to the members: its region's bit is on the
 * media. May sleep (RAID6 workers only). 0, or -EIO: the write must fail;
 * on 0, pair with fanraid_bitmap_write_end().
 */
int fanraid_bitmap_write_start(struct fanraid_c *fc, u64 row)
{
	struct fanraid_bitmap *b = fc->bitmap;
	u32 r;
	int ret = 0;

	if (!b)
		return 0;
	r = fanraid_bitmap_region(fc, row);
	if (likely(fanraid_bitmap_write_enter(b, r)))
		return 0;
	set_bit(r, b->want);
	mutex_lock(&b->lock);
	if (!test_bit(r, b->ondisk)) {
		/* A holder whose write failed took it from want with its own. */
		set_bit(r, b->want);
		ret = fanraid_bitmap_flush_want(b);
	}
	mutex_unlock(&b->lock);
	if (ret)
		atomic_dec(&b->active[r]);
	return ret;
}

void fanraid_bitmap_write_end(struct fanraid_c *fc, u64 row)
{
	struct fanraid_bitmap *b = fc->bitmap;

	if (b)
		atomic_dec(&b->active[fanraid_bitmap_region(fc, row)]);
}

/*
 * The same without sleeping (from map): false, having started nothing,
 * when the bit is still to be written.
 */
bool fanraid_bitmap_write_try(struct fanraid_c *fc, u64 row)
{
	struct fanraid_bitmap *b = fc->bitmap;

	if (!b || fanraid_bitmap_write_enter(b, fanraid_bitmap_region(fc, row)))
		return true;
	fanraid_bitmap_write_end(fc, row);
	return false;
}

/* Nothing a crash resync or a returning member needs may be cleared now. */
static bool fanraid_bitmap_may_clear(struct fanraid_bitmap *b)
{
	struct fanraid_c *fc = b->fc;
	enum fanraid_sync_action a = READ_ONCE(fc->r6->action);

	return b->live && bitmap_empty(fc->failed, FR_MAX_DEVS) &&
	       bitmap_empty(fc->rebuilding, FR_MAX_DEVS) &&
	       a != FANRAID_SYNC_RESYNC && a != FANRAID_SYNC_RECOVER;
}

/*
 * Clear the bits of regions with no write in flight and, unless @all,
 * none since the last look. Called with b->lock held.
 */
static void fanraid_bitmap_clear(struct fanraid_bitmap *b, bool all)
{
	u32 r, cleared = 0;

	if (!fanraid_bitmap_may_clear(b))
		return;
	bitmap_zero(b->snap, b->nregions);
	for_each_set_bit(r, b->ondisk, b->nregions) {
		if (atomic_read(&b->active[r]))
			continue;
		if (test_and_clear_bit(r, b->recent) && !all)
			continue;
		__set_bit(r, b->snap);
		clear_bit(r, b->ondisk);
	}
	smp_mb();
	bitmap_zero(b->pages_dirty, b->npages);
	for_each_set_bit(r, b->snap, b->nregions) {
		if (atomic_read(&b->active[r])) {
			/* A writer came in: it saw the bit, or waits for the lock. */
			set_bit(r, b->ondisk);
			continue;
		}
		__clear_bit_le(r % FR_BITMAP_PAGE_BITS,
			       page_address(b->image[r / FR_BITMAP_PAGE_BITS]));
		__set_bit(r / FR_BITMAP_PAGE_BITS, b->pages_dirty);
		cleared++;
	}
	if (!cleared)
		return;
	/* A member that left before now must not count on these bits. */
	if (fanraid_meta_bits_cleared(b->fc)) {
		/* Not recorded: the media keep the bits, and so does memory. */
		for_each_set_bit(r, b->snap, b->nregions)
			if (!test_bit_le(r % FR_BITMAP_PAGE_BITS,
					 page_address(b->image[r / FR_BITMAP_PAGE_BITS]))) {
				__set_bit_le(r % FR_BITMAP_PAGE_BITS,
					     page_address(b->image[r / FR_BITMAP_PAGE_BITS]));
				set_bit(r, b->ondisk);
			}
		return;
	}
	/* The preflush makes the regions' data durable before their bits go. */
	fanraid_bitmap_write(b, b->pages_dirty, REQ_PREFLUSH | REQ_FUA);
}

static void fanraid_bitmap_clean_work(struct work_struct *work)
{
	struct fanraid_bitmap *b = container_of(to_delayed_work(work),
						struct fanraid_bitmap, clean_work);

	mutex_lock(&b->lock);
	fanraid_bitmap_clear(b, false);
	mutex_unlock(&b->lock);
	if (READ_ONCE(b->live))
		queue_delayed_work(b->wq, &b->clean_work,
				   msecs_to_jiffies(FANRAID_BITMAP_CLEAR_MS));
}

/*
 * The sync pass is at member sector @pos: where it must work next. A
 * resync, or a recovery of re-added members only, skips regions whose bit
 * is clear: their rows are consistent and the members hold every write
 * there. Counts each region the pass covers.
 */
sector_t fanraid_bitmap_sync_next(struct fanraid_c *fc, sector_t pos,
				  sector_t end, bool partial)
{
	struct fanraid_bitmap *b = fc->bitmap;
	u32 r, next;

	if (!b || pos >= end)
		return pos;
	r = pos >> b->shift;
	if (partial && !test_bit(r, b->ondisk)) {
		next = find_next_bit(b->ondisk, b->nregions, r);
		if (next >= b->nregions)
			return end;
		r = next;
		pos = max_t(sector_t, pos, (sector_t)r << b->shift);
	}
	if (b->sync_region != r + 1) {
		b->sync_region = r + 1;
		atomic64_inc(&b->sync_regions);
	}
	return min(pos, end);
}

/* A new sync pass begins: count its regions from zero. */
void fanraid_bitmap_sync_start(struct fanraid_c *fc)
{
	if (!fc->bitmap)
		return;
	fc->bitmap->sync_region = 0;
	atomic64_set(&fc->bitmap->sync_regions, 0);
}

/*
 * A recovery finished: the rebuilt members' bitmap areas held whatever
 * was there before, so every page goes to every member once.
 */
void fanraid_bitmap_sync_done(struct fanraid_c *fc, const unsigned long *rebuilt)
{
	struct fanraid_bitmap *b = fc->bitmap;

	if (!b || bitmap_empty(rebuilt, FR_MAX_DEVS))
		return;
	mutex_lock(&b->lock);
	if (b->live) {
		bitmap_fill(b->pages_dirty, b->npages);
		fanraid_bitmap_write(b, b->pages_dirty, REQ_FUA);
	}
	mutex_unlock(&b->lock);
}

/* INFO status: region size, bits set, regions the sync pass covered. */
void fanraid_bitmap_status(struct fanraid_c *fc, u32 *region, u64 *dirty,
			   u64 *synced)
{
	struct fanraid_bitmap *b = fc->bitmap;

	*region = b ? 1u << b->shift : 0;
	*dirty = b ? bitmap_weight(b->ondisk, b->nregions) : 0;
	*synced = b ? atomic64_read(&b->sync_regions) : 0;
}

static int fanraid_bitmap_load(struct fanraid_bitmap *b);

/*
 * resume: the table takes over the bitmap. A table loaded beside a
 * running one read it at ctr, and the old one may have cleared bits since
 * (at its postsuspend), so read it again: a bit believed on the media that
 * is not would let a write go out unrecorded. A cancelled suspend leaves
 * the table live, and what it holds is current.
 */
void fanraid_bitmap_resume(struct fanraid_c *fc)
{
	struct fanraid_bitmap *b = fc->bitmap;

	if (!b)
		return;
	mutex_lock(&b->lock);
	if (!b->live) {
		if (fanraid_bitmap_load(b)) {
			DMERR("%s: cannot read the bitmap from any member",
			      dm_table_device_name(fc->ti->table));
		} else {
			/*
			 * The copies may differ: a crash during a bitmap write
			 * leaves a bit on some members only. A write whose bit
			 * is in ondisk writes none, so a member that held the
			 * only copy and then failed would take the bit with
			 * it, and its re-add would miss the region.
			 */
			bitmap_fill(b->pages_dirty, b->npages);
			fanraid_bitmap_write(b, b->pages_dirty, REQ_FUA);
		}
		WRITE_ONCE(b->live, true);
	}
	mutex_unlock(&b->lock);
	queue_delayed_work(b->wq, &b->clean_work,
			   msecs_to_jiffies(FANRAID_BITMAP_CLEAR_MS));
}

/*
 * postsuspend: no write is in flight, so a complete array needs no bit at
 * all; clear them while the superblocks can still be written.
 */
void fanraid_bitmap_postsuspend(struct fanraid_c *fc)
{
	struct fanraid_bitmap *b = fc->bitmap;
	bool was_live;

	if (!b)
		return;
	mutex_lock(&b->lock);
	was_live = b->live;
	WRITE_ONCE(b->live, false);
	mutex_unlock(&b->lock);
	cancel_delayed_work_sync(&b->clean_work);
	/* A table that never went live does not own the bitmap. */
	if (!was_live)
		return;
	mutex_lock(&b->lock);
	b->live = true;
	fanraid_bitmap_clear(b, true);
	b->live = false;
	mutex_unlock(&b->lock);
}

/* OR member @i's copy into ondisk and the image. 0, or -EIO. */
static int fanraid_bitmap_load_one(struct fanraid_bitmap *b, u32 i)
{
	DECLARE_BITMAP(one, FR_MAX_DEVS);
	u32 r;

	bitmap_zero(one, FR_MAX_DEVS);
	__set_bit(i, one);
	bitmap_fill(b->pages_dirty, b->npages);
	fanraid_bitmap_io(b, one, b->pages_dirty, b->scratch,
			  REQ_OP_READ | REQ_SYNC | REQ_META);
	if (test_bit(i, b->io_failed))
		return -EIO;
	for (r = 0; r < b->nregions; r++) {
		u32 p = r / FR_BITMAP_PAGE_BITS, bit = r % FR_BITMAP_PAGE_BITS;

		if (!test_bit_le(bit, page_address(b->scratch[p])))
			continue;
		set_bit(r, b->ondisk);
		__set_bit_le(bit, page_address(b->image[p]));
	}
	return 0;
}

/*
 * The union of the in-sync members' copies (a bit any of them has may
 * matter); members being recovered hold stale copies. A member that
 * cannot be read is failed. Called with b->lock held, or from the ctr.
 * 0, or -EIO when no member could be read.
 */
static int fanraid_bitmap_load(struct fanraid_bitmap *b)
{
	struct fanraid_c *fc = b->fc;
	bool loaded = false;
	u32 i, p;

	bitmap_zero(b->ondisk, b->nregions);
	bitmap_zero(b->recent, b->nregions);
	for (p = 0; p < b->npages; p++)
		memset(page_address(b->image[p]), 0, PAGE_SIZE);
	for (i = 0; i < fc->ndevs; i++) {
		if (!fc->devs[i].dm_dev || fanraid_is_failed(fc, i) ||
		    test_bit(i, fc->rebuilding))
			continue;
		if (fanraid_bitmap_load_one(b, i)) {
			fanraid_member_fail(fc, i, "bitmap read error", 0);
			continue;
		}
		loaded = true;
	}
	return loaded ? 0 : -EIO;
}

static struct page **fanraid_bitmap_pages(u32 n)
{
	struct page **pages = kcalloc(n, sizeof(*pages), GFP_KERNEL);
	u32 p;

	if (!pages)
		return NULL;
	for (p = 0; p < n; p++) {
		pages[p] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!pages[p])
			break;
	}
	return pages;
}

static bool fanraid_bitmap_pages_ok(struct page **pages, u32 n)
{
	u32 p;

	if (!pages)
		return false;
	for (p = 0; p < n; p++)
		if (!pages[p])
			return false;
	return true;
}

static void fanraid_bitmap_pages_free(struct page **pages, u32 n)
{
	u32 p;

	if (!pages)
		return;
	for (p = 0; p < n; p++)
		if (pages[p])
			__free_page(pages[p]);
	kfree(pages);
}

/*
 * ctr, after the superblocks were read: check the feature against them,
 * check that re-added members missed only what the bitmap holds, and load
 * the union of the in-sync members' bitmaps (a bit any of them has may
 * matter). 0, or -errno with *error set.
 */
int fanraid_bitmap_create(struct fanraid_c *fc, char **error)
{
	const struct fanraid_features *f = &fc->features;
	struct fr_sb sb;
	struct fanraid_bitmap *b;
	u64 regions;
	u32 i;
	int r;

	if (!fc->meta)
		return 0;
	fanraid_meta_get_sb(fc, &sb);
	if (!f->bitmap_set) {
		if (sb.bitmap_region_sectors) {
			*error = "Feature bitmap required: the superblocks have a write-intent bitmap";
			return -EINVAL;
		}
		return 0;
	}
	if (sb.bitmap_region_sectors != f->bitmap_region) {
		DMERR("bitmap %u given, the superblocks have %u", f->bitmap_region,
		      sb.bitmap_region_sectors);
		*error = "Feature bitmap differs from the superblocks' region size";
		return -EINVAL;
	}
	for_each_set_bit(i, f->readd, fc->ndevs) {
		if (fanraid_meta_member_rebuilding(fc, i)) {
			DMERR("member %u: its rebuild from scratch did not finish", i);
			*error = "Member cannot be re-added: it was being rebuilt from scratch";
			return -EINVAL;
		}
		if (fanraid_meta_member_events(fc, i) < sb.events_cleared) {
			DMERR("member %u: events %llu, bits cleared at %llu", i,
			      fanraid_meta_member_events(fc, i), sb.events_cleared);
			*error = "Member cannot be re-added: bitmap bits were cleared after it left";
			return -EINVAL;
		}
	}
	regions = fr_bitmap_regions(fc->geom.member_sectors, f->bitmap_region);

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		*error = "Cannot allocate bitmap state";
		return -ENOMEM;
	}
	fc->bitmap = b;
	b->fc = fc;
	b->shift = fr_bitmap_shift(f->bitmap_region);
	b->nregions = regions;
	b->area_sectors = sb.bitmap_sectors;
	b->npages = DIV_ROUND_UP(b->nregions, FR_BITMAP_PAGE_BITS);
	mutex_init(&b->lock);
	init_completion(&b->io_done);
	INIT_DELAYED_WORK(&b->clean_work, fanraid_bitmap_clean_work);
	b->image = fanraid_bitmap_pages(b->npages);
	b->scratch = fanraid_bitmap_pages(b->npages);
	b->ondisk = bitmap_zalloc(b->nregions, GFP_KERNEL);
	b->want = bitmap_zalloc(b->nregions, GFP_KERNEL);
	b->recent = bitmap_zalloc(b->nregions, GFP_KERNEL);
	b->snap = bitmap_zalloc(b->nregions, GFP_KERNEL);
	b->pages_dirty = bitmap_zalloc(b->npages, GFP_KERNEL);
	b->active = kvcalloc(b->nregions, sizeof(*b->active), GFP_KERNEL);
	if (!fanraid_bitmap_pages_ok(b->image, b->npages) ||
	    !fanraid_bitmap_pages_ok(b->scratch, b->npages) || !b->ondisk ||
	    !b->want || !b->recent || !b->snap || !b->pages_dirty || !b->active) {
		*error = "Cannot allocate bitmap";
		return -ENOMEM;
	}
	r = bioset_init(&b->bs, FANRAID_BITMAP_POOL,
			offsetof(struct fanraid_bitmap_io, bio), BIOSET_NEED_BVECS);
	if (r) {
		*error = "Cannot allocate bitmap bios";
		return r;
	}
	b->wq = alloc_workqueue("kfanraidb", WQ_MEM_RECLAIM | WQ_UNBOUND, 1);
	if (!b->wq) {
		*error = "Cannot allocate bitmap workqueue";
		return -ENOMEM;
	}

	if (fanraid_bitmap_load(b)) {
		*error = "Cannot read the bitmap from any member";
		return -EIO;
	}
	DMINFO("%s: bitmap of %u regions of %u sectors, %u set",
	       dm_table_device_name(fc->ti->table), b->nregions,
	       f->bitmap_region, bitmap_weight(b->ondisk, b->nregions));
	return 0;
}

void fanraid_bitmap_destroy(struct fanraid_c *fc)
{
	struct fanraid_bitmap *b = fc->bitmap;

	if (!b)
		return;
	if (b->wq) {
		fanraid_bitmap_postsuspend(fc);
		destroy_workqueue(b->wq);
	}
	bioset_exit(&b->bs);
	fanraid_bitmap_pages_free(b->image, b->npages);
	fanraid_bitmap_pages_free(b->scratch, b->npages);
	bitmap_free(b->ondisk);
	bitmap_free(b->want);
	bitmap_free(b->recent);
	bitmap_free(b->snap);
	bitmap_free(b->pages_dirty);
	kvfree(b->active);
	kfree(b);
	fc->bitmap = NULL;
}
