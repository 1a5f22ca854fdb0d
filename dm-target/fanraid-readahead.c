// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid readahead: per-member prefetch queues and a bounded cache.
 *
 * A reader that issues one request at a time (O_DIRECT at queue depth 1,
 * dd, iozone) keeps one member busy on a plain stripe however many members
 * there are. fanraid watches read streams; once a stream is sequential it
 * prefetches whole stripes ahead of it, queued per member so that every
 * member works at once and a slow member holds up only its own queue. Reads
 * that find their segment cached (or being fetched) are served from it.
 *
 * The cache holds fixed segments of at most FANRAID_RA_SEG_SECTORS of one
 * chunk, so each segment lives on one member. A read that finds its first
 * segment cached is trimmed to it with dm_accept_partial_bio(); other reads
 * keep their size. A stream whose reader queues requests (a quarter of a
 * stripe outstanding behind a new one) keeps the members busy by itself
 * and is not fetched for; since hits hide a queue, a stream the cache serves
 * now and then sends a few requests to the members to look for one. Writes
 * drop the segments they overlap twice: when mapped, and when complete, so
 * a prefetch that raced with the write can never be served to a read issued
 * after it completed.
 *
 * Locking: no lock is the whole array's. Each member owns a share of the
 * segments (a segment lives on one member) with its own irq-safe lock over
 * their hash, free and LRU lists and states, and a second one over its
 * fetch queues, which completions take. Each stream has its own lock; a
 * reader finds its stream without one and locks only that stream. The
 * order is stream, then member, then queue. Nothing on the map path sleeps
 * or allocates. A read or write in a zone that counts no cached segment
 * takes no segment lock at all: the segments in the hashes are counted per
 * zone, and fanraid_ra_map() and fanraid_ra_invalidate() read the counts
 * first.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/percpu_counter.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "fanraid.h"

enum fanraid_ra_state {
	FANRAID_RA_FREE,
	FANRAID_RA_QUEUED,	/* on a member queue, not yet submitted */
	FANRAID_RA_READING,
	FANRAID_RA_VALID,
};

struct fanraid_ra_seg {
	struct hlist_node hash;		/* while findable: not stale */
	struct list_head lru;		/* free list, or LRU of valid segments */
	struct list_head queue;		/* member submit or done queue */
	struct fanraid_ra *ra;
	u64 index;			/* logical sector >> seg_shift */
	u32 dev;
	sector_t member_sector;
	enum fanraid_ra_state state;
	bool stale;			/* overlapped by a write: never serve */
	bool used;			/* served at least one read */
	blk_status_t status;
	int refs;			/* copies in progress */
	struct bio_list waiters;	/* reads waiting for the fetch */
	struct page *pages[FANRAID_RA_SEG_PAGES];
};

struct fanraid_ra_stream {
	spinlock_t lock;		/* everything below */
	sector_t next;			/* where the stream is expected to read next */
	sector_t fetched;		/* prefetch issued up to here */
	sector_t grow_at;		/* the window doubles when the stream gets here */
	u32 window;			/* current window, in stripes */
	bool deep;			/* its reader keeps members busy: never fetch */
	unsigned long used;		/* jiffies, to recycle the oldest; 0 = unused */
	u32 gen;			/* bumped on reuse: counts of older reads are void */
	u64 outstanding;		/* sectors it has at members or waiting on fetches */
	const struct bio_vec *last_req;	/* pages of its latest request */
	sector_t probe_at;		/* the next probe starts here; 0 = not set */
	u32 probe_interval;		/* stripes between probes */
	u32 probe_reqs;			/* requests sent past the cache, probing */
	bool probing;			/* fetching paused to look for a queue */
} ____cacheline_aligned_in_smp;

/* One member's segments, its fetch queue and its worker. */
struct fanraid_ra_member {
	spinlock_t lock;		/* hash, free, lru, and its segments' state */
	struct hlist_head *hash;
	struct list_head free;
	struct list_head lru;
	spinlock_t qlock;		/* submit, done */
	struct list_head submit;
	struct list_head done;
	struct work_struct work;
	struct fanraid_ra *ra;
} ____cacheline_aligned_in_smp;

/*
 * Where a recent read that continued no stream ended, and how many reads
 * in a row led there: a stream before it is one (fanraid_ra_stream_get()).
 */
struct fanraid_ra_ghost {
	sector_t end;			/* 0 = none: no read continues sector 0 */
	u32 reads;
};

struct fanraid_ra {
	struct fanraid_c *fc;
	bool stopped;			/* suspending: queue no new fetches */
	u32 hash_mask;			/* of each member's hash */
	struct fanraid_ra_stream streams[FANRAID_RA_STREAMS];
	struct fanraid_ra_ghost ghosts[FANRAID_RA_GHOSTS];
	u32 seg_sectors;
	u32 seg_shift;
	u32 nsegs;			/* in all, the same number per member */
	u32 max_window;			/* stripes: half the cache, so windows never thrash */
	struct fanraid_ra_seg *segs;	/* member d's are segs[d * nsegs / ndevs ...] */
	struct hlist_head *hashes;	/* every member's hash, one allocation */
	struct workqueue_struct *wq;
	struct bio_set bs;
	struct fanraid_ra_member *members;
	/* Segments in the hashes, per zone (fanraid_ra_zone()); changed under member locks. */
	atomic_t zone_segs[FANRAID_RA_ZONES];
	/*
	 * Sectors of reads at members or waiting for fetches: a hint of how
	 * busy the readers keep the members (fanraid_ra_observe()). Per CPU,
	 * since every read adds to it and every completion takes away; see
	 * fanraid_ra_inflight_batch() for how far off a read of it may be.
	 */
	struct percpu_counter inflight;
	s32 inflight_batch;
};

static struct fanraid_ra_member *fanraid_ra_seg_member(struct fanraid_ra_seg *seg)
{
	return &seg->ra->members[seg->dev];
}

static struct hlist_head *fanraid_ra_bucket(struct fanraid_ra *ra,
					    struct fanraid_ra_member *m,
					    u64 index)
{
	return &m->hash[hash_64(index, 32) & ra->hash_mask];
}

/* The member segment @index lives on: its chunk's. */
static u32 fanraid_ra_index_dev(struct fanraid_ra *ra, u64 index)
{
	struct fr_loc loc;

	fr_geom_map(&ra->fc->geom, index << ra->seg_shift, &loc);
	return loc.dev;
}

static atomic_t *fanraid_ra_zone(struct fanraid_ra *ra, u64 index)
{
	return &ra->zone_segs[(index >> FANRAID_RA_ZONE_SHIFT) &
			      (FANRAID_RA_ZONES - 1)];
}

/*
 * Make @seg findable, and count it in its zone before anything else is
 * done for it: the full barrier orders the count before the fetch is
 * queued, hence before the member is read (see fanraid_ra_invalidate()).
 * Its member's lock held.
 */
static void fanraid_ra_hash(struct fanraid_ra *ra, struct fanraid_ra_seg *seg)
{
	hlist_add_head(&seg->hash, fanraid_ra_bucket(ra, fanraid_ra_seg_member(seg),
						     seg->index));
	atomic_inc(fanraid_ra_zone(ra, seg->index));
	smp_mb__after_atomic();
}

/* Make @seg unfindable. Its member's lock held, @seg hashed. */
static void fanraid_ra_unhash(struct fanraid_ra *ra, struct fanraid_ra_seg *seg)
{
	hlist_del_init(&seg->hash);
	atomic_dec(fanraid_ra_zone(ra, seg->index));
}

/* Segment @index in member @m's share; @m's lock held. */
static struct fanraid_ra_seg *fanraid_ra_find(struct fanraid_ra *ra,
					      struct fanraid_ra_member *m,
					      u64 index)
{
	struct fanraid_ra_seg *seg;

	hlist_for_each_entry(seg, fanraid_ra_bucket(ra, m, index), hash)
		if (seg->index == index)
			return seg;
	return NULL;
}

/* Back to the free list; its member's lock held, nobody references @seg. */
static void fanraid_ra_release(struct fanraid_ra *ra, struct fanraid_ra_seg *seg)
{
	if (!seg->used)
		fanraid_ra_stat_add(ra->fc, FANRAID_RA_WASTED, ra->seg_sectors);
	seg->state = FANRAID_RA_FREE;
	seg->stale = false;
	list_move(&seg->lru, &fanraid_ra_seg_member(seg)->free);
}

/* Make @seg unfindable; free it now if nothing still uses it. Member lock held. */
static void fanraid_ra_drop(struct fanraid_ra *ra, struct fanraid_ra_seg *seg)
{
	fanraid_ra_unhash(ra, seg);
	seg->stale = true;
	if (seg->state == FANRAID_RA_VALID && !seg->refs)
		fanraid_ra_release(ra, seg);
}

/*
 * A segment of member @m to fetch into: a free one, else the least
 * recently used idle one. @m's lock held.
 */
static struct fanraid_ra_seg *fanraid_ra_grab(struct fanraid_ra *ra,
					      struct fanraid_ra_member *m)
{
	struct fanraid_ra_seg *seg;

	if (!list_empty(&m->free))
		return list_first_entry(&m->free, struct fanraid_ra_seg, lru);
	list_for_each_entry_reverse(seg, &m->lru, lru) {
		if (seg->refs)
			continue;
		fanraid_ra_unhash(ra, seg);
		fanraid_ra_release(ra, seg);
		return seg;
	}
	return NULL;
}

/*
 * Queue the fetch of segment @index on its member. A stream's lock held.
 * Returns the member whose queue got it; -EEXIST or -ENODEV when the
 * segment needs no fetch (cached, or past the end, or in a row read only
 * degraded); -ENOSPC when every segment of its member is in use.
 */
static int fanraid_ra_fetch(struct fanraid_ra *ra, u64 index)
{
	struct fanraid_c *fc = ra->fc;
	sector_t logical = index << ra->seg_shift;
	struct fanraid_ra_member *m;
	struct fanraid_ra_seg *seg;
	struct fr_loc loc;

	if (logical >= fc->ti->len)
		return -ENODEV;
	fr_geom_map(&fc->geom, logical, &loc);
	/* A row with a lost block is read by the RAID6 gatherer, all of it. */
	if (fc->r6 && fanraid_r6_row_lost(fc, &fc->geom, &loc,
					  (sector_t)1 << ra->seg_shift))
		return -ENODEV;
	m = &ra->members[loc.dev];
	spin_lock(&m->lock);
	if (fanraid_ra_find(ra, m, index)) {
		spin_unlock(&m->lock);
		return -EEXIST;
	}
	seg = fanraid_ra_grab(ra, m);
	if (!seg) {
		spin_unlock(&m->lock);
		return -ENOSPC;
	}

	list_del_init(&seg->lru);
	seg->index = index;
	seg->member_sector = loc.sector;
	seg->state = FANRAID_RA_QUEUED;
	seg->used = false;
	seg->status = BLK_STS_OK;
	bio_list_init(&seg->waiters);
	fanraid_ra_hash(ra, seg);
	spin_lock(&m->qlock);
	list_add_tail(&seg->queue, &m->submit);
	spin_unlock(&m->qlock);
	spin_unlock(&m->lock);
	fanraid_ra_stat_add(fc, FANRAID_RA_PREFETCHED, ra->seg_sectors);
	return loc.dev;
}

/*
 * Forget a stream's history; reads still counted against it no longer are.
 * Its lock held.
 */
static void fanraid_ra_stream_reset(struct fanraid_ra_stream *st)
{
	u32 gen = st->gen + 1;

	memset_startat(st, 0, next);
	/* Generation 0 marks a read counted against no stream. */
	st->gen = gen ? gen : 1;
}

/* Count a read that will complete later against its stream, locked. */
static void fanraid_ra_track(struct fanraid_ra *ra,
			     struct fanraid_ra_stream *st,
			     struct fanraid_bio *fb, u32 sectors)
{
	if (!st)
		return;
	st->outstanding += sectors;
	fb->ra_stream = st - ra->streams;
	fb->ra_gen = st->gen;
	fb->ra_stream_sectors = sectors;
}

/*
 * Count @sectors (negative when they complete) of reads at members or
 * waiting on fetches; any context. Only a read with readahead on counts,
 * so fc->ra is set.
 */
void fanraid_ra_inflight_add(struct fanraid_c *fc, s64 sectors)
{
	struct fanraid_ra *ra = fc->ra;

	percpu_counter_add_batch(&ra->inflight, sectors, ra->inflight_batch);
}

/* A read counted by fanraid_ra_track() completed (called from end_io). */
void fanraid_ra_done(struct fanraid_c *fc, struct fanraid_bio *fb)
{
	struct fanraid_ra *ra = fc->ra;
	struct fanraid_ra_stream *st;
	unsigned long flags;

	if (!ra || !fb->ra_gen)
		return;
	st = &ra->streams[fb->ra_stream];
	spin_lock_irqsave(&st->lock, flags);
	if (st->gen == fb->ra_gen)
		st->outstanding -= min_t(u64, st->outstanding, fb->ra_stream_sectors);
	spin_unlock_irqrestore(&st->lock, flags);
	fb->ra_gen = 0;
}

/*
 * Whether @st pauses fetching to look for a queue. A reader served from a
 * warm cache shows no depth: its requests complete at once, before the next
 * one arrives. A deep reader whose first requests came too slowly to show
 * their queue (a busy CPU) would be copied through the cache for good, at a
 * third of the direct rate (measured at 16 members). So every so often the
 * stream stops fetching; once its reads have used up what was fetched, a
 * few requests go to the members, where a queue builds up and marks the
 * stream deep. A reader that shows none costs a few direct requests and is
 * probed half as often next time. @st's lock held.
 */
static bool fanraid_ra_probing(struct fanraid_ra_stream *st, sector_t start,
			       bool new_req, sector_t stripe)
{
	if (!st->probe_at) {
		st->probe_interval = FANRAID_RA_PROBE_FIRST;
		st->probe_at = st->next + stripe * st->probe_interval;
	}
	if (!st->probing) {
		if (st->next < st->probe_at)
			return false;
		st->probing = true;
		st->probe_reqs = 0;
	}
	/*
	 * Requests the cache still serves cannot show a queue. Requests that
	 * were never seen to start (pieces of a bio split above) end the
	 * probe after a few stripes instead.
	 */
	if (new_req && start >= st->fetched)
		st->probe_reqs++;
	if (st->probe_reqs <= FANRAID_RA_PROBE_REQS &&
	    st->next < st->fetched + stripe * FANRAID_RA_PROBE_STRIPES)
		return true;
	st->probing = false;
	st->window = 0;
	st->probe_interval = min_t(u32, st->probe_interval * 2,
				   FANRAID_RA_PROBE_MAX);
	st->probe_at = st->next + stripe * st->probe_interval;
	return false;
}

/*
 * Whether a read at @start continues a stream last used at @used that
 * ended at @next: it starts within a segment of there (the DM core and
 * the page cache may reorder a stream's reads a little).
 */
static bool fanraid_ra_continues(struct fanraid_ra *ra, sector_t start,
				 unsigned long used, sector_t next)
{
	return used && start + ra->seg_sectors >= next &&
	       start <= next + ra->seg_sectors;
}

/* Whether a stream may be taken over before older ones: unused, or idle for a second. */
static bool fanraid_ra_expendable(unsigned long used)
{
	return !used || time_after(jiffies, used + HZ);
}

static struct fanraid_ra_ghost *fanraid_ra_ghost(struct fanraid_ra *ra,
						 sector_t sector)
{
	return &ra->ghosts[hash_64(sector, ilog2(FANRAID_RA_GHOSTS))];
}

/*
 * The stream a read at [@start, @end) continues, locked with interrupts
 * off (their state in @flags), or NULL. A read that continues no stream
 * takes none, so that a random read stores two words and takes no lock,
 * here or at its completion: it leaves where it ended in a ghost, with the
 * number of reads in a row that led there. A read that starts where
 * FANRAID_RA_SEQ_READS + 1 reads in a row ended is a sequential stream's:
 * it takes over the least recently used expendable stream, else the least
 * recently used one, and continues it. Not before: a ghost is forgotten
 * within some FANRAID_RA_GHOSTS reads (any read whose end hashes there
 * overwrites it), a stream only once another displaces it, so pairs of
 * random reads that met by chance, made streams, lived long enough to be
 * continued by chance too (64 random 4 KiB reads in flight over 256 MiB
 * then fetched 25-35 MiB in 6 seconds). The search reads the streams
 * unlocked and checks again under the lock: a stream moved meanwhile is
 * passed over, and a reader that finds the stream to take locked (another
 * new one took it) goes untracked rather than wait; a sequential reader is
 * found again by its next reads.
 */
static struct fanraid_ra_stream *fanraid_ra_stream_get(struct fanraid_ra *ra,
							 sector_t start,
							 sector_t end,
							 unsigned long *flags)
{
	struct fanraid_ra_stream *st, *oldest = NULL, *victim = NULL;
	unsigned long oldest_used = 0, victim_used = 0;
	sector_t oldest_next = 0, victim_next = 0;
	struct fanraid_ra_ghost *ghost;
	u32 reads;
	int i;

	for (i = 0; i < FANRAID_RA_STREAMS; i++) {
		unsigned long used;
		sector_t next;

		st = &ra->streams[i];
		used = READ_ONCE(st->used);
		next = READ_ONCE(st->next);
		if (fanraid_ra_continues(ra, start, used, next)) {
			spin_lock_irqsave(&st->lock, *flags);
			if (fanraid_ra_continues(ra, start, st->used, st->next))
				return st;
			spin_unlock_irqrestore(&st->lock, *flags);
			continue;
		}
		if (!oldest || time_before(used, oldest_used)) {
			oldest = st;
			oldest_used = used;
			oldest_next = next;
		}
		if (fanraid_ra_expendable(used) &&
		    (!victim || time_before(used, victim_used))) {
			victim = st;
			victim_used = used;
			victim_next = next;
		}
	}
	ghost = fanraid_ra_ghost(ra, start);
	reads = start && READ_ONCE(ghost->end) == start ?
		READ_ONCE(ghost->reads) + 1 : 1;
	if (reads <= FANRAID_RA_SEQ_READS + 1) {
		ghost = fanraid_ra_ghost(ra, end);
		if (READ_ONCE(ghost->end) != end ||
		    READ_ONCE(ghost->reads) != reads) {
			WRITE_ONCE(ghost->end, end);
			WRITE_ONCE(ghost->reads, reads);
		}
		return NULL;
	}
	if (victim) {
		oldest = victim;
		oldest_used = victim_used;
		oldest_next = victim_next;
	}
	if (!oldest || !spin_trylock_irqsave(&oldest->lock, *flags))
		return NULL;
	/* Used since it was chosen: a reader continued it, leave it be. */
	if (oldest->used != oldest_used || oldest->next != oldest_next) {
		spin_unlock_irqrestore(&oldest->lock, *flags);
		return NULL;
	}
	/* Sequential already: this read, which continues it, fetches ahead. */
	fanraid_ra_stream_reset(oldest);
	oldest->next = start;
	oldest->fetched = start;
	oldest->used = jiffies;
	return oldest;
}

/*
 * A read at [@start, @end) continues @st (locked): prefetch ahead of it
 * once it is sequential.
 */
static void fanraid_ra_follow(struct fanraid_ra *ra, struct fanraid_ra_stream *st,
			      struct bio *bio, sector_t start, sector_t end)
{
	struct fanraid_c *fc = ra->fc;
	sector_t stripe = fr_geom_full_stripe_sectors(&fc->geom);
	u32 window = min(READ_ONCE(fc->features.ra_window), ra->max_window);
	DECLARE_BITMAP(kick, FR_MAX_DEVS);
	u64 index, last;
	sector_t goal;
	u32 dev;
	int fetched = 0;
	bool new_req;

	bitmap_zero(kick, FR_MAX_DEVS);
	st->used = jiffies;
	st->next = max(st->next, end);
	/*
	 * A reader with a quarter of a stripe queued behind its newest request
	 * keeps the members busy enough by itself (measured: 1 MiB requests
	 * at queue depth 4 on 16 members read faster direct than through the
	 * cache, 128 KiB ones at depth 8 slower) and would only pay for the
	 * copies. The DM core's pieces of one request share its pages, so
	 * a new request is one with other pages; the stream's earlier
	 * requests still outstanding then show its queue. One request at a
	 * time may get the same pages each time (a freed vector reused), but
	 * its first piece starts at the start of them. A full stripe
	 * outstanding overall counts too. Once seen, the stream stays direct.
	 * Served from a warm cache a deep reader no longer looks deep, so
	 * fanraid_ra_probing() lets it show its queue now and then.
	 */
	new_req = bio->bi_io_vec != st->last_req ||
		  (!bio->bi_iter.bi_idx && !bio->bi_iter.bi_bvec_done);
	if (new_req && st->outstanding >= stripe / 4)
		st->deep = true;
	st->last_req = bio->bi_io_vec;
	if (percpu_counter_read(&ra->inflight) >= (s64)stripe)
		st->deep = true;
	if (st->deep)
		return;
	if (fanraid_ra_probing(st, start, new_req, stripe))
		return;
	/* Read under the lock presuspend takes after setting it. */
	if (READ_ONCE(ra->stopped))
		return;
	/*
	 * One more stripe read at this window before it doubles: the DM core
	 * cuts a request into many reads, and a deep queue must show itself
	 * before much is fetched in vain.
	 */
	if (!st->window || st->next >= st->grow_at) {
		st->window = clamp_t(u32, st->window * 2, 1, window);
		st->grow_at = st->next + stripe;
	}
	st->window = min(st->window, window);
	goal = min_t(sector_t, st->next + stripe * st->window, fc->ti->len);
	if (st->fetched < st->next)
		st->fetched = st->next;
	if (st->fetched >= goal)
		return;

	index = st->fetched >> ra->seg_shift;
	last = (goal - 1) >> ra->seg_shift;
	for (; index <= last && fetched < FANRAID_RA_MAX_FETCH; index++) {
		int r = fanraid_ra_fetch(ra, index);

		if (r == -ENOSPC)
			break;	/* the cache is full of segments in use */
		if (r >= 0) {
			set_bit(r, kick);
			fetched++;
		}
	}
	st->fetched = min_t(sector_t, (sector_t)index << ra->seg_shift, goal);

	for_each_set_bit(dev, kick, FR_MAX_DEVS)
		queue_work(ra->wq, &ra->members[dev].work);
}

/*
 * Follow the stream a read at [@start, @end) belongs to and prefetch ahead
 * of it; with @track, count the read against it until fanraid_ra_done().
 * A read continues a stream when it starts within a segment of where the
 * stream ended. A stream is made once reads started exactly where others
 * ended FANRAID_RA_SEQ_READS + 1 times in a row (fanraid_ra_stream_get());
 * the window starts at one stripe and doubles with every stripe read, up
 * to the configured window, while it stays so. A stream is locked with
 * interrupts off (end_io takes stream locks); a read that locks none
 * leaves them on.
 */
static void fanraid_ra_observe(struct fanraid_ra *ra, struct bio *bio,
			       sector_t start, sector_t end,
			       struct fanraid_bio *track)
{
	struct fanraid_ra_stream *st;
	unsigned long flags;

	if (READ_ONCE(ra->stopped))
		return;
	st = fanraid_ra_stream_get(ra, start, end, &flags);
	if (!st)
		return;
	fanraid_ra_follow(ra, st, bio, start, end);
	if (track)
		fanraid_ra_track(ra, st, track, bio_sectors(bio));
	spin_unlock_irqrestore(&st->lock, flags);
}

/* Copy the segment's bytes that @bio asks for into @bio. */
static void fanraid_ra_copy(struct fanraid_ra *ra, struct fanraid_ra_seg *seg,
			    struct bio *bio)
{
	sector_t logical = dm_target_offset(ra->fc->ti, bio->bi_iter.bi_sector);
	unsigned int pos = (logical & (ra->seg_sectors - 1)) << SECTOR_SHIFT;
	struct bio_vec bv;
	struct bvec_iter iter;

	bio_for_each_segment(bv, bio, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			struct page *page = seg->pages[pos >> PAGE_SHIFT];
			unsigned int off = offset_in_page(pos);
			unsigned int len = min(bv.bv_len - done,
					       (unsigned int)PAGE_SIZE - off);
			void *mem = bvec_kmap_local(&bv);

			memcpy(mem + done, page_address(page) + off, len);
			kunmap_local(mem);
			done += len;
			pos += len;
		}
	}
}

/* Drop a reference to a segment whose fetch has ended. */
static void fanraid_ra_put(struct fanraid_ra *ra, struct fanraid_ra_seg *seg)
{
	struct fanraid_ra_member *m = fanraid_ra_seg_member(seg);
	unsigned long flags;

	spin_lock_irqsave(&m->lock, flags);
	if (!--seg->refs && seg->stale)
		fanraid_ra_release(ra, seg);
	spin_unlock_irqrestore(&m->lock, flags);
}

static void fanraid_ra_resubmit(struct fanraid_c *fc, struct bio *bio);

/*
 * The cached segment a read at @logical starts in, pinned (refs), and
 * whether its fetch has ended; NULL if there is none. A zone that counts
 * no segment has none: the common case of a random reader is answered
 * without a lock. (A fetch hashed meanwhile is missed, and the read goes
 * to its member, as it would have a moment earlier.)
 */
static struct fanraid_ra_seg *fanraid_ra_lookup(struct fanraid_ra *ra,
						sector_t logical, bool *valid)
{
	u64 index = logical >> ra->seg_shift;
	struct fanraid_ra_member *m;
	struct fanraid_ra_seg *seg;
	unsigned long flags;

	if (!atomic_read(fanraid_ra_zone(ra, index)))
		return NULL;
	m = &ra->members[fanraid_ra_index_dev(ra, index)];
	spin_lock_irqsave(&m->lock, flags);
	seg = fanraid_ra_find(ra, m, index);
	if (seg) {
		seg->refs++;
		seg->used = true;
		*valid = seg->state == FANRAID_RA_VALID;
		/* A stream reads a segment once: read ones go first when space is needed. */
		if (*valid)
			list_move_tail(&seg->lru, &m->lru);
	}
	spin_unlock_irqrestore(&m->lock, flags);
	return seg;
}

/*
 * A read found @seg still being fetched, pinned it and counted itself
 * against its stream: wait for the fetch, unless it ended meanwhile. Then
 * serve the read from it, or send it to its member if the fetch failed or
 * a write overlapped the segment.
 */
static void fanraid_ra_wait(struct fanraid_ra *ra, struct fanraid_ra_seg *seg,
			    struct bio *bio)
{
	struct fanraid_ra_member *m = fanraid_ra_seg_member(seg);
	unsigned long flags;
	bool good;

	/* A waiting read is as busy as one at a member. */
	fanraid_ra_inflight_add(ra->fc, bio_sectors(bio));
	spin_lock_irqsave(&m->lock, flags);
	if (seg->state != FANRAID_RA_VALID) {
		/* fanraid_ra_complete() frees it if it fails unreferenced. */
		bio_list_add(&seg->waiters, bio);
		seg->refs--;
		spin_unlock_irqrestore(&m->lock, flags);
		return;
	}
	good = !seg->stale;
	if (good)
		list_move_tail(&seg->lru, &m->lru);
	else if (!--seg->refs)
		fanraid_ra_release(ra, seg);
	spin_unlock_irqrestore(&m->lock, flags);

	fanraid_ra_inflight_add(ra->fc, -(s64)bio_sectors(bio));
	if (!good) {
		fanraid_ra_resubmit(ra->fc, bio);
		return;
	}
	fanraid_ra_copy(ra, seg, bio);
	fanraid_ra_put(ra, seg);
	bio_endio(bio);
}

/*
 * Map path for a read: trim it to one segment, feed the stream detector,
 * and serve it from the cache when the segment is there or on its way.
 * Returns DM_MAPIO_SUBMITTED when the cache took the bio, else
 * DM_MAPIO_REMAPPED for the caller to send it to its member.
 */
int fanraid_ra_map(struct fanraid_c *fc, struct bio *bio)
{
	struct fanraid_ra *ra = fc->ra;
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	u32 left = ra->seg_sectors - (logical & (ra->seg_sectors - 1));
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	struct fanraid_ra_seg *seg;
	bool valid;

	seg = fanraid_ra_lookup(ra, logical, &valid);
	if (!seg) {
		/* A miss keeps its full size: members serve large requests best. */
		fanraid_ra_observe(ra, bio, logical, logical + bio_sectors(bio), fb);
		fanraid_ra_stat_add(fc, FANRAID_RA_MISSES, 1);
		return DM_MAPIO_REMAPPED;
	}
	if (bio_sectors(bio) > left)
		dm_accept_partial_bio(bio, left);
	fb->handled = true;
	fb->dev = seg->dev;
	fanraid_ra_stat_add(fc, FANRAID_RA_HITS, 1);
	/*
	 * Pinned before the stream detector runs: fetching ahead recycles
	 * idle cached segments, and this one is idle until pinned.
	 */
	if (!valid) {
		fanraid_ra_observe(ra, bio, logical, logical + bio_sectors(bio), fb);
		fanraid_ra_wait(ra, seg, bio);
		return DM_MAPIO_SUBMITTED;
	}
	fanraid_ra_observe(ra, bio, logical, logical + bio_sectors(bio), NULL);
	fanraid_ra_copy(ra, seg, bio);
	fanraid_ra_put(ra, seg);
	bio_endio(bio);
	return DM_MAPIO_SUBMITTED;
}

/* Drop every cached segment, taking each member's lock in turn. */
static void fanraid_ra_drop_all(struct fanraid_ra *ra)
{
	u32 per = ra->nsegs / ra->fc->ndevs, d, i;
	unsigned long flags;

	for (d = 0; d < ra->fc->ndevs; d++) {
		struct fanraid_ra_member *m = &ra->members[d];

		spin_lock_irqsave(&m->lock, flags);
		for (i = d * per; i < (d + 1) * per; i++)
			if (!hlist_unhashed(&ra->segs[i].hash))
				fanraid_ra_drop(ra, &ra->segs[i]);
		spin_unlock_irqrestore(&m->lock, flags);
	}
}

/* Whether any zone of segments @index to @last counts a segment in the hash. */
static bool fanraid_ra_zones_busy(struct fanraid_ra *ra, u64 index, u64 last)
{
	u64 zone = index >> FANRAID_RA_ZONE_SHIFT;
	u64 end = last >> FANRAID_RA_ZONE_SHIFT;

	/* Past FANRAID_RA_ZONES zones the counters repeat. */
	if (end - zone >= FANRAID_RA_ZONES)
		end = zone + FANRAID_RA_ZONES - 1;
	for (; zone <= end; zone++)
		if (atomic_read(&ra->zone_segs[zone & (FANRAID_RA_ZONES - 1)]))
			return true;
	return false;
}

/*
 * Drop every cached segment that overlaps logical [@start, @start + @len).
 *
 * A write whose zones count no segment returns without the lock. What
 * must hold is the guarantee of the second drop, from end_io: a read
 * issued after the write completed never gets data from before it. Take a
 * fetch that read the member before the write reached it. The fetch
 * counted its segment (fanraid_ra_hash(): increment, full barrier) before
 * it was queued, so before that member read; the write reached the member
 * before end_io, which issues the full barrier below before it reads the
 * count. With the member as one more memory location, that is the store
 * buffering pattern with a full barrier on each side: the fetch cannot
 * read the old data while this read of the count misses its increment.
 * So either this call sees the count and drops the segment under its
 * member's lock as before, or the count was already back down, the segment unhashed
 * under the lock, and no later read can find it; or the fetch read the
 * member after the write and holds the new data. Decrements are not
 * ordered: one seen late only sends a write through the lock for nothing.
 * The drop at map time needs no such argument; it only narrows the window
 * in which reads that race the write may still be served old data.
 */
void fanraid_ra_invalidate(struct fanraid_c *fc, sector_t start, sector_t len)
{
	struct fanraid_ra *ra = fc->ra;
	struct fanraid_ra_seg *seg;
	unsigned long flags;
	u64 index, last;

	if (!ra || !len)
		return;
	index = start >> ra->seg_shift;
	last = (start + len - 1) >> ra->seg_shift;
	/* Pairs with the barrier in fanraid_ra_hash(). */
	smp_mb();
	if (!fanraid_ra_zones_busy(ra, index, last))
		return;
	if (last - index >= ra->nsegs) {
		/* A large discard: cheaper to drop everything. */
		fanraid_ra_drop_all(ra);
		return;
	}
	for (; index <= last; index++) {
		struct fanraid_ra_member *m =
			&ra->members[fanraid_ra_index_dev(ra, index)];

		spin_lock_irqsave(&m->lock, flags);
		seg = fanraid_ra_find(ra, m, index);
		if (seg)
			fanraid_ra_drop(ra, seg);
		spin_unlock_irqrestore(&m->lock, flags);
	}
}

static void fanraid_ra_endio(struct bio *bio)
{
	struct fanraid_ra_seg *seg = bio->bi_private;
	struct fanraid_ra_member *m = fanraid_ra_seg_member(seg);
	unsigned long flags;

	seg->status = bio->bi_status;
	bio_put(bio);
	spin_lock_irqsave(&m->qlock, flags);
	list_add_tail(&seg->queue, &m->done);
	spin_unlock_irqrestore(&m->qlock, flags);
	queue_work(seg->ra->wq, &m->work);
}

/* Send a read that the cache cannot serve to its member after all. */
static void fanraid_ra_resubmit(struct fanraid_c *fc, struct bio *bio)
{
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	struct fanraid_bio *fb = dm_per_bio_data(bio, sizeof(*fb));
	struct fr_loc loc;

	fr_geom_map(&fc->geom, logical, &loc);
	if (fc->r6 && fanraid_r6_row_lost(fc, &fc->geom, &loc,
					  bio_sectors(bio))) {
		fanraid_r6_queue(fc, bio, &loc, false);
		return;
	}
	fb->handled = false;
	fb->dev = loc.dev;
	fb->iter = bio->bi_iter;
	fb->ra_sectors = bio_sectors(bio);
	fanraid_ra_inflight_add(fc, fb->ra_sectors);
	bio_set_dev(bio, fc->devs[loc.dev].dm_dev->bdev);
	bio->bi_iter.bi_sector = fc->devs[loc.dev].offset + loc.sector;
	fanraid_stat_add(&fc->devs[loc.dev], FANRAID_STAT_READS, 1);
	fanraid_stat_add(&fc->devs[loc.dev], FANRAID_STAT_READ_SECTORS,
			 bio_sectors(bio));
	submit_bio_noacct(bio);
}

/* A fetch ended: serve its waiters, or send them to the member if it failed. */
static void fanraid_ra_complete(struct fanraid_ra *ra, struct fanraid_ra_seg *seg)
{
	struct fanraid_ra_member *m = fanraid_ra_seg_member(seg);
	struct fanraid_c *fc = ra->fc;
	struct bio_list waiters;
	unsigned long flags;
	bool good;
	struct bio *bio;

	spin_lock_irqsave(&m->lock, flags);
	waiters = seg->waiters;
	bio_list_init(&seg->waiters);
	good = seg->status == BLK_STS_OK && !seg->stale;
	seg->state = FANRAID_RA_VALID;
	if (good) {
		seg->refs++;
		/* Served at once to waiters: as good as read, so evict it first. */
		if (bio_list_empty(&waiters))
			list_add(&seg->lru, &m->lru);
		else
			list_add_tail(&seg->lru, &m->lru);
	} else {
		/* Failed fetches are not member faults: the reads retry directly. */
		seg->used = true;
		if (!hlist_unhashed(&seg->hash))
			fanraid_ra_unhash(ra, seg);
		seg->stale = true;
		INIT_LIST_HEAD(&seg->lru);
		if (!seg->refs)
			fanraid_ra_release(ra, seg);
	}
	spin_unlock_irqrestore(&m->lock, flags);

	while ((bio = bio_list_pop(&waiters))) {
		fanraid_ra_inflight_add(fc, -(s64)bio_sectors(bio));
		if (good) {
			fanraid_ra_copy(ra, seg, bio);
			bio_endio(bio);
		} else {
			fanraid_ra_resubmit(fc, bio);
		}
	}
	if (good)
		fanraid_ra_put(ra, seg);
}

/* Member worker: submit queued fetches in one plug, finish completed ones. */
static void fanraid_ra_work(struct work_struct *work)
{
	struct fanraid_ra_member *m = container_of(work, struct fanraid_ra_member,
						   work);
	struct fanraid_ra *ra = m->ra;
	struct fanraid_c *fc = ra->fc;
	struct fanraid_ra_seg *seg, *tmp;
	struct blk_plug plug;
	LIST_HEAD(submit);
	LIST_HEAD(done);
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&m->qlock, flags);
	list_splice_init(&m->submit, &submit);
	list_splice_init(&m->done, &done);
	spin_unlock_irqrestore(&m->qlock, flags);

	list_for_each_entry_safe(seg, tmp, &done, queue) {
		list_del_init(&seg->queue);
		fanraid_ra_complete(ra, seg);
	}

	blk_start_plug(&plug);
	list_for_each_entry_safe(seg, tmp, &submit, queue) {
		struct fanraid_dev *d = &fc->devs[seg->dev];
		struct bio *bio;

		list_del_init(&seg->queue);
		spin_lock_irqsave(&m->lock, flags);
		seg->state = FANRAID_RA_READING;
		spin_unlock_irqrestore(&m->lock, flags);

		bio = bio_alloc_bioset(d->dm_dev->bdev, FANRAID_RA_SEG_PAGES,
				       REQ_OP_READ | REQ_RAHEAD, GFP_NOIO,
				       &ra->bs);
		bio->bi_iter.bi_sector = d->offset + seg->member_sector;
		bio->bi_private = seg;
		bio->bi_end_io = fanraid_ra_endio;
		for (i = 0; i < ra->seg_sectors >> (PAGE_SHIFT - SECTOR_SHIFT); i++)
			__bio_add_page(bio, seg->pages[i], PAGE_SIZE, 0);
		fanraid_stat_add(d, FANRAID_STAT_READS, 1);
		fanraid_stat_add(d, FANRAID_STAT_READ_SECTORS, ra->seg_sectors);
		submit_bio_noacct(bio);
	}
	blk_finish_plug(&plug);
}

/* Wait until no fetch is queued, in flight or unfinished. */
static void fanraid_ra_drain(struct fanraid_ra *ra)
{
	unsigned long flags;
	bool busy;
	u32 i;

	do {
		flush_workqueue(ra->wq);
		busy = false;
		for (i = 0; i < ra->nsegs; i++) {
			struct fanraid_ra_seg *seg = &ra->segs[i];
			struct fanraid_ra_member *m = fanraid_ra_seg_member(seg);

			spin_lock_irqsave(&m->lock, flags);
			if (seg->state == FANRAID_RA_QUEUED ||
			    seg->state == FANRAID_RA_READING)
				busy = true;
			spin_unlock_irqrestore(&m->lock, flags);
		}
		if (busy)
			msleep(1);
	} while (busy);
}

/*
 * Presuspend: queue nothing new, let every fetch finish and forget the
 * cache, since the members may be written behind our back (a reload, a
 * rebuild from userspace) before resume.
 */
void fanraid_ra_presuspend(struct fanraid_c *fc)
{
	struct fanraid_ra *ra = fc->ra;
	unsigned long flags;
	int i;

	if (!ra)
		return;
	/*
	 * Fetches are queued only under a stream's lock, by a reader that
	 * found stopped clear under it: once each lock has been taken after
	 * the store, none can be queued any more.
	 */
	WRITE_ONCE(ra->stopped, true);
	for (i = 0; i < FANRAID_RA_STREAMS; i++) {
		spin_lock_irqsave(&ra->streams[i].lock, flags);
		spin_unlock_irqrestore(&ra->streams[i].lock, flags);
	}
	fanraid_ra_drain(ra);
	fanraid_ra_drop_all(ra);
	for (i = 0; i < FANRAID_RA_STREAMS; i++) {
		spin_lock_irqsave(&ra->streams[i].lock, flags);
		fanraid_ra_stream_reset(&ra->streams[i]);
		spin_unlock_irqrestore(&ra->streams[i].lock, flags);
	}
	for (i = 0; i < FANRAID_RA_GHOSTS; i++)
		WRITE_ONCE(ra->ghosts[i].end, 0);
}

void fanraid_ra_resume(struct fanraid_c *fc)
{
	struct fanraid_ra *ra = fc->ra;

	if (!ra)
		return;
	WRITE_ONCE(ra->stopped, false);
}

/*
 * The readahead counters (struct fanraid_ra_stats) are allocated whether
 * or not the array has a cache, since INFO status always prints them.
 */
int fanraid_ra_stats_alloc(struct fanraid_c *fc)
{
	fc->ra_stats = alloc_percpu(struct fanraid_ra_stats);
	return fc->ra_stats ? 0 : -ENOMEM;
}

void fanraid_ra_stats_free(struct fanraid_c *fc)
{
	free_percpu(fc->ra_stats);
	fc->ra_stats = NULL;
}

u64 fanraid_ra_stat(struct fanraid_c *fc, enum fanraid_ra_stat k)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(fc->ra_stats, cpu)->v[k];
	return sum;
}

/* Races harmlessly with increments in flight, as the member counters' reset. */
void fanraid_ra_stats_reset(struct fanraid_c *fc)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(fc->ra_stats, cpu), 0,
		       sizeof(struct fanraid_ra_stats));
}

/*
 * How far each CPU's share of ra->inflight may drift before it is folded
 * into the shared count. fanraid_ra_observe() compares the shared count,
 * which is off by less than the batch times the CPUs, with one stripe; a
 * quarter of a stripe over all CPUs keeps that error below a quarter of
 * the threshold. It is a hint, not an invariant: read wrong, it marks a
 * stream deep a little early or late, which costs copies or direct reads,
 * never data, so an exact sum (a lock and a walk over every CPU, on every
 * read) is not worth it. At least 32 sectors, so that on many CPUs and a
 * small stripe a 4 KiB read does not fold, taking the counter's lock, on
 * every call; the error may then pass a quarter of the stripe.
 */
static s32 fanraid_ra_inflight_batch(struct fanraid_c *fc)
{
	u64 batch = div_u64(fr_geom_full_stripe_sectors(&fc->geom),
			    4 * num_possible_cpus());

	return clamp_t(u64, batch, 32, S32_MAX);
}

int fanraid_ra_create(struct fanraid_c *fc, char **error)
{
	u64 bytes = (u64)fc->features.ra_cache_mb << 20;
	u32 seg_sectors = min_t(u32, fc->geom.chunk_sectors,
				FANRAID_RA_SEG_SECTORS);
	u32 pages = seg_sectors >> (PAGE_SHIFT - SECTOR_SHIFT);
	struct fanraid_ra *ra;
	u32 i, p, buckets, per;

	ra = kzalloc(sizeof(*ra), GFP_KERNEL);
	if (!ra) {
		*error = "Cannot allocate readahead state";
		return -ENOMEM;
	}
	fc->ra = ra;
	ra->fc = fc;
	if (percpu_counter_init(&ra->inflight, 0, GFP_KERNEL)) {
		*error = "Cannot allocate readahead in-flight count";
		return -ENOMEM;
	}
	ra->inflight_batch = fanraid_ra_inflight_batch(fc);
	BUILD_BUG_ON_NOT_POWER_OF_2(FANRAID_RA_GHOSTS);
	for (i = 0; i < FANRAID_RA_STREAMS; i++)
		spin_lock_init(&ra->streams[i].lock);
	ra->seg_sectors = seg_sectors;
	ra->seg_shift = ilog2(seg_sectors);
	/* Every member the same share: a stream's window reads them evenly. */
	per = max_t(u64, div_u64(bytes, (u64)fc->ndevs * (seg_sectors << SECTOR_SHIFT)), 1);
	ra->nsegs = per * fc->ndevs;
	ra->max_window = max_t(u64, div64_u64((u64)ra->nsegs * seg_sectors,
					      2 * fr_geom_full_stripe_sectors(&fc->geom)), 1);
	buckets = roundup_pow_of_two(per);
	ra->hash_mask = buckets - 1;

	ra->hashes = kvcalloc((size_t)buckets * fc->ndevs, sizeof(*ra->hashes),
			      GFP_KERNEL);
	ra->segs = kvcalloc(ra->nsegs, sizeof(*ra->segs), GFP_KERNEL);
	ra->members = kvcalloc(fc->ndevs, sizeof(*ra->members), GFP_KERNEL);
	if (!ra->hashes || !ra->segs || !ra->members) {
		*error = "Cannot allocate readahead cache";
		return -ENOMEM;
	}
	for (i = 0; i < fc->ndevs; i++) {
		struct fanraid_ra_member *m = &ra->members[i];

		spin_lock_init(&m->lock);
		m->hash = &ra->hashes[(size_t)i * buckets];
		INIT_LIST_HEAD(&m->free);
		INIT_LIST_HEAD(&m->lru);
		spin_lock_init(&m->qlock);
		INIT_LIST_HEAD(&m->submit);
		INIT_LIST_HEAD(&m->done);
		INIT_WORK(&m->work, fanraid_ra_work);
		m->ra = ra;
	}
	for (i = 0; i < ra->nsegs; i++) {
		struct fanraid_ra_seg *seg = &ra->segs[i];

		seg->ra = ra;
		seg->dev = i / per;
		seg->used = true;
		INIT_HLIST_NODE(&seg->hash);
		INIT_LIST_HEAD(&seg->queue);
		list_add_tail(&seg->lru, &ra->members[seg->dev].free);
		for (p = 0; p < pages; p++) {
			seg->pages[p] = alloc_page(GFP_KERNEL);
			if (!seg->pages[p]) {
				*error = "Cannot allocate readahead cache";
				return -ENOMEM;
			}
		}
	}
	if (bioset_init(&ra->bs, FR_MAX_DEVS, 0, BIOSET_NEED_BVECS)) {
		*error = "Cannot allocate readahead bio set";
		return -ENOMEM;
	}
	/* High priority: a fetch is what the reader is waiting for. */
	ra->wq = alloc_workqueue("kfanraid_ra", WQ_MEM_RECLAIM | WQ_HIGHPRI |
				 WQ_UNBOUND, 0);
	if (!ra->wq) {
		*error = "Cannot allocate readahead workqueue";
		return -ENOMEM;
	}
	return 0;
}

void fanraid_ra_destroy(struct fanraid_c *fc)
{
	struct fanraid_ra *ra = fc->ra;
	u32 i, p;

	if (!ra)
		return;
	if (ra->wq) {
		fanraid_ra_drain(ra);
		destroy_workqueue(ra->wq);
	}
	bioset_exit(&ra->bs);
	if (ra->segs)
		for (i = 0; i < ra->nsegs; i++)
			for (p = 0; p < FANRAID_RA_SEG_PAGES; p++)
				if (ra->segs[i].pages[p])
					__free_page(ra->segs[i].pages[p]);
	kvfree(ra->segs);
	kvfree(ra->hashes);
	kvfree(ra->members);
	/* Tolerates a counter never initialised (ra was zeroed). */
	percpu_counter_destroy(&ra->inflight);
	kfree(ra);
	fc->ra = NULL;
}
