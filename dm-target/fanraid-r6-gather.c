// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid RAID6 writes, and reads of rows with a lost block: gathering
 * bios by stripe window.
 *
 * A stripe window is one row and one aligned run of at most
 * FANRAID_R6_MAX_IO_SECTORS inside its chunks: the same member sectors on
 * every slot, so one P/Q computation covers it. Map has trimmed every write
 * to its window (fanraid_r6_trim()), so each lies in one window of one data
 * slot.
 *
 * Writes to a window are gathered in one entry, as long as their pages
 * meet (fanraid_r6_stripe_find()). Once they cover every data slot over
 * the whole window, P and Q come from the new data alone and
 * nothing is read: sequential writers reach the members' write speed.
 * Waiting for that only pays while more writes may come to fill it (see
 * fanraid_r6_kick()); otherwise an entry goes at once, as one
 * read-modify-write or reconstruct-write over the pages its bios touch,
 * whichever reads less.
 *
 * Bios are gathered in map, in the submitter's context, unless that would
 * sleep (kfanraid6 gathers those). Gathering only links bios: an entry
 * holds no pages. The page buffers of the write come from the stripe
 * cache when the entry starts, on the slots it will read or write
 * (fanraid_r6_write_slots()), in map or on a worker: kfanraid6w, or its
 * high-priority twin kfanraid6l for an entry no stream writes to while a
 * stream is written (fanraid_r6_beside_stream()). Entries no stream writes
 * to start in per-CPU batches, one work item each (fanraid_r6_batch_add()).
 * The cache also bounds how many entries may gather at once
 * (fanraid-r6-cache.c). No task sleeps on a write's member I/O: its
 * reads' completion queues the rest for the per-CPU continuation worker,
 * and its member writes' completion ends the entry, page locks included.
 * So under load a small write costs a fraction of a task switch. An entry
 * leaves the hash when it is dispatched; a write arriving later for the
 * same window starts a new entry. Both take their pages' locks in turn, and
 * two writes in flight at once were never ordered for the submitter
 * anyway.
 *
 * Windows are hashed onto gathering domains, about one per CPU, each
 * with its own lock, parked list, timer and counters: writers of different
 * windows share no lock and no cache line. Only the stream detector looks
 * across: a write's predecessor may lie in the previous window, another
 * domain, whose recent write ends it reads without that domain's lock.
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
	struct hlist_node node;		/* in gd->hash until dispatched */
	struct list_head parked;	/* in gd->parked, oldest first, until dispatched */
	struct work_struct work;
	struct llist_node batch;	/* in a CPU's fanraid_r6_batch, to start */
	struct fanraid_c *fc;
	struct fanraid_r6_gather *gd;	/* its domain */
	const struct fr_geom *g;	/* the layout of its row (two during a grow) */
	u64 row;
	u32 window;			/* index of the window in its chunk */
	u32 first, end;			/* sectors of the window the bios cover */
	u32 covered;			/* distinct data sectors the bios write */
	ktime_t since;			/* when it was first parked; 0 before */
	pid_t submitter;		/* thread id of who mapped its last bio, or 0 */
	bool stream;			/* a bio continues one still in flight */
	bool read;			/* reads, not writes */
	bool rcw;			/* a write reading the slots it does not write */
	blk_status_t status;		/* of a write, once its members wrote */
	struct fanraid_r6op *op;	/* of a write, while it is written */
	struct bio_list bios;		/* in arrival order: overlaps apply in it */
	unsigned long touched;		/* data slots with a bio */
	unsigned long full;		/* ... it writes whole over its pages, once it starts */
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

/* Windows per chunk: at most 32768 / FANRAID_R6_MAX_IO_SECTORS. */
static u64 fanraid_r6_window_key(u64 row, u32 window)
{
	return (row << 12) | window;
}

/*
 * The domain of window @window of @row. Not the bits that pick its bucket
 * (the top ones of the same product): the two would go together.
 */
static struct fanraid_r6_gather *fanraid_r6_domain(struct fanraid_r6 *r6,
						   u64 row, u32 window)
{
	u64 key = fanraid_r6_window_key(row, window);

	return &r6->gather[hash_64(key, 32) & ((1U << r6->gather_bits) - 1)];
}

/* The bucket of a window in its domain: of its entries and of gd->pending. */
static u32 fanraid_r6_bucket(u64 row, u32 window)
{
	return hash_64(fanraid_r6_window_key(row, window), FANRAID_R6_GATHER_BITS);
}

static struct hlist_head *fanraid_r6_stripe_bucket(struct fanraid_r6_gather *gd,
						   u64 row, u32 window)
{
	return &gd->hash[fanraid_r6_bucket(row, window)];
}

/*
 * The entry of window @window of @row that a bio over sectors @start to
 * @end of the window joins: one whose pages the bio's overlap or adjoin.
 * An operation covers one run of pages on every slot, so a bio pages away
 * would make its entry read and write every page between: random 4 KiB
 * writes sharing a window then moved twice their bytes. Such a bio starts
 * an entry of its own (apart from the other's pages, it needs none of
 * their locks).
 */
static struct fanraid_r6_stripe *fanraid_r6_stripe_find(struct fanraid_r6_gather *gd,
							const struct fr_geom *g,
							u64 row, u32 window,
							bool read, u32 start,
							u32 end)
{
	u32 first_page = start >> PAGE_SECTORS_SHIFT;
	u32 end_page = DIV_ROUND_UP(end, PAGE_SECTORS);
	struct fanraid_r6_stripe *st;

	hlist_for_each_entry(st, fanraid_r6_stripe_bucket(gd, row, window), node)
		if (st->row == row && st->window == window && st->read == read &&
		    st->g == g &&
		    st->first >> PAGE_SECTORS_SHIFT <= end_page &&
		    first_page <= DIV_ROUND_UP(st->end, PAGE_SECTORS))
			return st;
	return NULL;
}

/*
 * Where a write (or read) ends, as the domains' tails hold it; never 0.
 * FANRAID_R6_TAIL_ENDED is set once its entry is written.
 */
#define FANRAID_R6_TAIL_ENDED	2

static u64 fanraid_r6_tail_key(sector_t end, bool read)
{
	return ((u64)end << 2) | read;
}

/* What a write finds before it (fanraid_r6_tail_find()). */
enum fanraid_r6_follows {
	FANRAID_R6_FOLLOWS_NONE,	/* no recent write ends where it starts */
	FANRAID_R6_FOLLOWS_ENDED,	/* one does, already written */
	FANRAID_R6_FOLLOWS_LIVE,	/* one does, still parked or being written */
};

/*
 * The domain whose windows hold the sector before @loc (@in_chunk sectors
 * into its chunk): where a write that @loc continues was gathered. NULL at
 * the array's start.
 */
static struct fanraid_r6_gather *fanraid_r6_prev_domain(struct fanraid_r6 *r6,
							const struct fr_geom *g,
							const struct fr_loc *loc,
							u32 in_chunk)
{
	u32 win_sectors = fanraid_r6_win_sectors(g);
	u32 last = (g->chunk_sectors - 1) / win_sectors;

	if (in_chunk)
		return fanraid_r6_domain(r6, loc->row, (in_chunk - 1) / win_sectors);
	if (loc->data_idx)
		return fanraid_r6_domain(r6, loc->row, last);
	return loc->row ? fanraid_r6_domain(r6, loc->row - 1, last) : NULL;
}

/*
 * Does a write (@read: a read) whose start gives @key continue a recent
 * one, and is that one's window still parked or being written? @gd is the
 * domain of the sector before it; its lock is not needed: a stale answer
 * only gathers a window a little longer or shorter.
 */
static enum fanraid_r6_follows fanraid_r6_tail_find(struct fanraid_r6_gather *gd,
						    u64 key)
{
	enum fanraid_r6_follows found = FANRAID_R6_FOLLOWS_NONE;
	unsigned int i;

	for (i = 0; i < FANRAID_R6_TAILS; i++) {
		u64 tail = READ_ONCE(gd->tail_key[i]);

		if (tail == key)
			return FANRAID_R6_FOLLOWS_LIVE;
		if (tail == (key | FANRAID_R6_TAIL_ENDED))
			found = FANRAID_R6_FOLLOWS_ENDED;
	}
	return found;
}

/* Called with gd->lock held. */
static void fanraid_r6_tail_add(struct fanraid_r6_gather *gd, u64 key,
				struct fanraid_r6_stripe *st)
{
	unsigned int i = gd->tail_next++ % FANRAID_R6_TAILS;

	WRITE_ONCE(gd->tail_key[i], key);
	gd->tail_st[i] = st;
}

/*
 * @st is written: what follows its bios is no longer a stream's next
 * write, though it may still be a sequential writer's, at queue depth 1
 * or between its batches. Called with gd->lock held.
 */
static void fanraid_r6_tail_forget(struct fanraid_r6_gather *gd,
				   struct fanraid_r6_stripe *st)
{
	unsigned int i;

	for (i = 0; i < FANRAID_R6_TAILS; i++)
		if (gd->tail_st[i] == st) {
			gd->tail_st[i] = NULL;
			WRITE_ONCE(gd->tail_key[i],
				   gd->tail_key[i] | FANRAID_R6_TAIL_ENDED);
		}
}

/*
 * A writer waits: a flush (an fsync, a journal commit, BlueStore's
 * kv_sync) or a small FUA write (a log record). Not a large FUA write: an
 * O_DSYNC stream would hold back itself. Stored at most once a jiffy, so
 * flushes dirty no shared line each.
 */
void fanraid_r6_waiter_seen(struct fanraid_r6 *r6)
{
	unsigned long now = jiffies;

	if (READ_ONCE(r6->waiter_seen) != now)
		WRITE_ONCE(r6->waiter_seen, now);
}

/*
 * Members without a volatile cache (NVMe with power-loss protection,
 * null_blk) never see a flush: the block layer drops them. There a writer
 * that waits shows by its queue depth: its small write goes while no other
 * window but the streams' is gathering or being written. Random writers at
 * depth always find others of theirs, and small writes alone say nothing:
 * holding streams back for those would only cost bandwidth. Looked at only
 * while a stream writes, so other writes read no other domain's line.
 */
static bool fanraid_r6_lone_alone(struct fanraid_r6 *r6)
{
	unsigned int i, others = 0;

	for (i = 0; i < 1U << r6->gather_bits; i++)
		others += READ_ONCE(r6->gather[i].lone) +
			  READ_ONCE(r6->gather[i].lone_writing);
	return !others;
}

static bool fanraid_r6_small(struct fanraid_r6_stripe *st)
{
	return !st->stream && !st->read &&
	       st->covered <= FANRAID_R6_YIELD_SECTORS;
}

/* Whether a stream window may start now; counts it if so. */
static bool fanraid_r6_stream_admit(struct fanraid_r6 *r6)
{
	unsigned long seen = READ_ONCE(r6->waiter_seen);
	int writing;

	if (time_after_eq(jiffies, seen + msecs_to_jiffies(FANRAID_R6_YIELD_MSEC))) {
		atomic_inc(&r6->stream_writing);
		return true;
	}
	writing = atomic_read(&r6->stream_writing);
	do {
		if (writing >= FANRAID_R6_YIELD_WINDOWS)
			return false;
	} while (!atomic_try_cmpxchg(&r6->stream_writing, &writing, writing + 1));
	return true;
}

/*
 * Before a stream's window is written. Members serve their queues in
 * order, and a stream 32 deep keeps some 40 windows there: a waiting
 * writer's read-modify-write sat behind 200 ms of them at 25 MiB/s
 * members (docs/benchmarking.md). So while such a writer is about, a
 * stream keeps only FANRAID_R6_YIELD_WINDOWS windows at the members: the
 * waiter's write queues behind that one alone, and bandwidth-bound members
 * stay nearly busy. The rest wait here, holding no pages.
 */
static void fanraid_r6_stream_start(struct fanraid_r6 *r6)
{
	unsigned long now = jiffies;

	/* Stored at most once a jiffy, as waiter_seen. */
	if (READ_ONCE(r6->stream_seen) != now)
		WRITE_ONCE(r6->stream_seen, now);
	/* Only a window's end wakes the rest: the waiter's time runs out unseen. */
	while (!wait_event_timeout(r6->stream_wait, fanraid_r6_stream_admit(r6),
				   msecs_to_jiffies(FANRAID_R6_YIELD_MSEC)))
		;
}

static void fanraid_r6_stream_end(struct fanraid_r6 *r6)
{
	atomic_dec(&r6->stream_writing);
	if (wq_has_sleeper(&r6->stream_wait))
		wake_up(&r6->stream_wait);
}

/*
 * While a stream's windows are written (one started in the last
 * FANRAID_R6_YIELD_MSEC), work a task waits on (a short
 * piece, a window no stream writes to) goes to high-priority queues, ahead
 * of the stream's copies and syndromes. Otherwise it stays on the ordinary
 * ones: a switch to a high-priority worker for every 4 KiB random write
 * cost 11-17% of their rate (cpu-raid6-randwrite-4k, N=16).
 */
static bool fanraid_r6_beside_stream(struct fanraid_r6 *r6)
{
	return time_before(jiffies, READ_ONCE(r6->stream_seen) +
			   msecs_to_jiffies(FANRAID_R6_YIELD_MSEC));
}

/* Where an entry's work runs (see fanraid_r6_beside_stream()). */
static struct workqueue_struct *fanraid_r6_entry_wq(struct fanraid_r6_stripe *st)
{
	struct fanraid_r6 *r6 = st->fc->r6;

	return !st->stream && fanraid_r6_beside_stream(r6) ? r6->lone_wq :
							      r6->write_wq;
}

/* Read entries being read for thread @nr, and others sharing its bucket. */
static atomic_t *fanraid_r6_reading(struct fanraid_r6 *r6, pid_t nr)
{
	return &r6->reading[hash_32(nr, FANRAID_R6_READING_BITS)];
}

/*
 * Queue a lone write to start: to this CPU's batch, whose one work item
 * starts every entry queued there since it last ran. Under load one
 * wakeup starts many writes, as md's raid5d handles many stripes; a work
 * item per entry woke a worker for each (unbound workers are not
 * concurrency-managed): about one task switch per 4 KiB write. Starting
 * one waits only for its pages' locks, its pages, or the superblock and
 * bitmap: no member I/O (fanraid_r6_stripe_write()). Not a stream's entry:
 * it may wait for its turn at the members (fanraid_r6_stream_start()).
 * Not a read's: it waits for its reads.
 */
static void fanraid_r6_batch_add(struct fanraid_r6_stripe *st)
{
	struct fanraid_r6 *r6 = st->fc->r6;
	struct fanraid_r6_batch *b = get_cpu_ptr(r6->batch);

	/* Only the entry that finds the list empty queues the work item. */
	if (llist_add(&st->batch, &b->entries)) {
		if (fanraid_r6_beside_stream(r6))
			queue_work(r6->lone_wq, &b->urgent);
		else
			queue_work(r6->write_wq, &b->work);
	}
	put_cpu_ptr(r6->batch);
}

/*
 * Hand an entry to the writer; the gatherer that holds it in gd->inline_st
 * writes it itself. Called with gd->lock held.
 */
static void fanraid_r6_stripe_go(struct fanraid_r6_gather *gd,
				 struct fanraid_r6_stripe *st)
{
	if (st->read)
		atomic_inc(fanraid_r6_reading(gd->r6, st->submitter));
	if (st->read && st->stream)
		WRITE_ONCE(gd->stream_reads, gd->stream_reads - 1);
	if (!st->stream) {
		WRITE_ONCE(gd->lone, gd->lone - 1);
		if (fanraid_r6_small(st) &&
		    atomic_read(&gd->r6->stream_writing) &&
		    fanraid_r6_lone_alone(gd->r6))
			fanraid_r6_waiter_seen(gd->r6);
		WRITE_ONCE(gd->lone_writing, gd->lone_writing + 1);
	}
	hlist_del_init(&st->node);
	list_del_init(&st->parked);
	/* Others read it unlocked, summing every domain's. */
	WRITE_ONCE(gd->writing, gd->writing + 1);
	/*
	 * Not a stream's: it may wait in fanraid_r6_stream_start(), and a
	 * gatherer waiting there leaves its stream's next pieces ungathered
	 * until their predecessors ended, so they go unrecognised and unheld.
	 */
	if (st == gd->inline_st && !st->stream)
		gd->inline_go = true;
	else if (st->stream || st->read)
		queue_work(fanraid_r6_entry_wq(st), &st->work);
	else
		fanraid_r6_batch_add(st);
}

/* Windows being written, all domains: a hint, read unlocked. */
static unsigned int fanraid_r6_writing(struct fanraid_r6 *r6)
{
	unsigned int i, writing = 0;

	for (i = 0; i < 1U << r6->gather_bits; i++)
		writing += READ_ONCE(r6->gather[i].writing);
	return writing;
}

/*
 * Entries one domain may hold at once: its share of the stripe cache's
 * (fanraid-r6-cache.c), and never fewer than it takes to keep the members
 * busy.
 */
static int fanraid_r6_domain_windows(struct fanraid_r6 *r6)
{
	return max_t(u32, FANRAID_R6_GATHER_BUSY,
		     r6->max_windows >> r6->gather_bits);
}

/*
 * Whether the task that mapped a write is still running. Map records its
 * thread id, not the task: holding a task needs a reference, taken and
 * dropped under a lock whenever the writer changes. A thread id can be
 * reused, and the answer is a hint either way: wrong, a window is sent on
 * a little early or looked at again a little later.
 */
static bool fanraid_r6_task_runs(pid_t nr)
{
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
 * Whether nothing more can join lone entry @st: no piece waits to be
 * gathered into its window (nor, a hint, into another of its bucket), and
 * the task that mapped its last piece sleeps. Beside a stream the last
 * task to map anything is mostly the stream's, which runs, and its pieces
 * are always waiting, so a queue-depth-1 writer's window waited for the
 * timer: 1 ms, or 100 ms once the stream yielded. @asked and @runs carry
 * the last answer: a random writer's entries share one task.
 */
static bool fanraid_r6_lone_done(struct fanraid_r6_gather *gd,
				 struct fanraid_r6_stripe *st, pid_t *asked,
				 bool *runs)
{
	if (atomic_read(&gd->pending[fanraid_r6_bucket(st->row, st->window)]))
		return false;
	if (st->submitter != *asked) {
		*asked = st->submitter;
		*runs = fanraid_r6_task_runs(*asked);
	}
	return !*runs;
}

/*
 * Whether a stream's partial read window @st is done gathering: once its
 * reader has no entry being read, and sleeps (fanraid_r6_lone_done()).
 * While its earlier entries are read, their end brings its next bios,
 * which fill the window. Sent before them, the window reads every
 * survivor to rebuild its lost block, and the entry of the rest reads its
 * slots again. So a reader 32 deep over 32 members with 512 KiB chunks,
 * whose rows of 15 MiB are half its queue, had the members read 1.18
 * bytes per byte delivered, since the row it was filling went whenever
 * fewer than FANRAID_R6_GATHER_BUSY windows were read. A reader whose last
 * entry ends looks again (fanraid_r6_reader_ended()). @poll: set when
 * only the reader's task holds it back, which nothing reports.
 */
static bool fanraid_r6_reader_done(struct fanraid_r6_gather *gd,
				   struct fanraid_r6_stripe *st, pid_t *asked,
				   bool *runs, bool *poll)
{
	if (atomic_read(fanraid_r6_reading(gd->r6, st->submitter)))
		return false;
	if (fanraid_r6_lone_done(gd, st, asked, runs))
		return true;
	*poll = true;
	return false;
}

/*
 * Dispatch what of domain @gd should not wait longer, and return when to
 * look again (KTIME_MAX: nothing parked). A partial window is worth
 * holding only while more writes may still fill it:
 * - while writes wait to be gathered into this domain (no other domain's
 *   can fill its windows);
 * - while the task that mapped its last write still runs: the DM core maps
 *   the pieces of a split bio one after another in the submitter's context.
 *   Once it sleeps (waiting for its I/O), nothing more is coming from it;
 * - for a stream's window (a write into it continues one still in flight),
 *   also while FANRAID_R6_GATHER_BUSY windows or more are being written:
 *   the members are busy anyway and those windows' completions bring the
 *   writes that fill it (the stream's next bios).
 * A lone window (no stream's) looks at its own window and writer instead
 * (fanraid_r6_lone_done()), and a stream's read window at its reader
 * (fanraid_r6_reader_done()). So a lone write, such as a small write an
 * fsync then waits on beside a streaming writer, does not wait for the
 * stream: it goes once its writer sleeps, or while the members are busy
 * after at most FANRAID_R6_GATHER_LONE_USEC, time enough for the other
 * pieces of its bio, which the DM core maps one right after another. And a
 * queue-depth-1 writer's whole stripes are never split.
 * No window waits longer than FANRAID_R6_GATHER_MAX_USEC. Called with
 * gd->lock held.
 */
static ktime_t fanraid_r6_kick(struct fanraid_r6_gather *gd)
{
	struct fanraid_r6 *r6 = gd->r6;
	bool idle, busy, full, runs = false, poll = false;
	ktime_t now, next = KTIME_MAX;
	struct fanraid_r6_stripe *st, *tmp;
	pid_t asked = 0;

	if (list_empty(&gd->parked))
		return KTIME_MAX;
	idle = !atomic_read(&gd->gathering) &&
	       !fanraid_r6_task_runs(READ_ONCE(gd->submitter));
	busy = fanraid_r6_writing(r6) >= FANRAID_R6_GATHER_BUSY;
	/* No room for another window: those waiting make room. */
	full = atomic_read(&gd->windows) >= fanraid_r6_domain_windows(r6);
	if (full || (idle && !busy && !gd->stream_reads)) {
		list_for_each_entry_safe(st, tmp, &gd->parked, parked)
			fanraid_r6_stripe_go(gd, st);
		return KTIME_MAX;
	}
	/*
	 * The count of stream reads parked is stored before their readers'
	 * entries being read are counted here; fanraid_r6_stripe_end() does
	 * the opposite, so one of the two sees the other. The barrier pairs
	 * with its atomic_dec_and_test().
	 */
	if (gd->stream_reads)
		smp_mb(); /* stream_reads before reading[] */
	/* Only now: with irqs off, a slow clocksource (HPET) costs every writer. */
	now = ktime_get();
	list_for_each_entry_safe(st, tmp, &gd->parked, parked) {
		bool stream_read = st->read && st->stream;
		ktime_t due = ktime_add_us(st->since, st->stream || !busy ?
					   FANRAID_R6_GATHER_MAX_USEC :
					   FANRAID_R6_GATHER_LONE_USEC);

		if (!ktime_before(now, due) ||
		    (stream_read ?
		     fanraid_r6_reader_done(gd, st, &asked, &runs, &poll) :
		     (idle && !busy) ||
		     (!st->stream && (idle || fanraid_r6_lone_done(gd, st,
								  &asked,
								  &runs))))) {
			fanraid_r6_stripe_go(gd, st);
			continue;
		}
		next = min(next, due);
		if (stream_read)
			continue;
		if (!st->stream || !busy)
			poll = true;
		/* Oldest first: the streams' windows after it are due later. */
		if (!gd->lone && !gd->stream_reads)
			break;
	}
	/* Look at the submitters again soon. */
	if (next != KTIME_MAX && poll)
		next = min(next, ktime_add_us(now, FANRAID_R6_GATHER_POLL_USEC));
	return next;
}

/* Any context, gd->lock held: make sure its timer fires by @next. */
static void fanraid_r6_arm(struct fanraid_r6_gather *gd, ktime_t next)
{
	if (next == KTIME_MAX)
		return;
	if (hrtimer_is_queued(&gd->timer) &&
	    !ktime_before(next, hrtimer_get_expires(&gd->timer)))
		return;
	hrtimer_start(&gd->timer, next, HRTIMER_MODE_ABS);
}

static enum hrtimer_restart fanraid_r6_gather_timer(struct hrtimer *timer)
{
	struct fanraid_r6_gather *gd = container_of(timer,
						    struct fanraid_r6_gather,
						    timer);
	unsigned long flags;
	ktime_t next;

	spin_lock_irqsave(&gd->lock, flags);
	next = fanraid_r6_kick(gd);
	/*
	 * fanraid_r6_arm() may have started the timer again meanwhile: then
	 * it is queued with the expiry it needs, and must not be changed.
	 */
	if (next != KTIME_MAX && !hrtimer_is_queued(timer))
		hrtimer_set_expires(timer, next);
	else
		next = KTIME_MAX;
	spin_unlock_irqrestore(&gd->lock, flags);
	return next == KTIME_MAX ? HRTIMER_NORESTART : HRTIMER_RESTART;
}

/*
 * Room for one more gathering window in @gd; at the limit, windows parked
 * there to gather more writes are sent on at once, so room comes soon.
 */
static void fanraid_r6_window_get(struct fanraid_r6_gather *gd)
{
	int max = fanraid_r6_domain_windows(gd->r6);

	if (atomic_add_unless(&gd->windows, 1, max))
		return;
	spin_lock_irq(&gd->lock);
	fanraid_r6_arm(gd, fanraid_r6_kick(gd));
	spin_unlock_irq(&gd->lock);
	wait_event(gd->window_wait, atomic_add_unless(&gd->windows, 1, max));
}

static void fanraid_r6_window_put(struct fanraid_r6_gather *gd)
{
	atomic_dec(&gd->windows);
	wake_up(&gd->window_wait);
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
		cond_resched();
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
 * A resync has not reached these pages yet (called under their locks,
 * which the sync takes for each window): their P and Q may disagree with the
 * data, so a read-modify-write would carry the error into the new parity.
 * A reconstruct-write computes them from the data alone and leaves the
 * window consistent, as md does above its resync point. The sync point
 * moves window by window, so it can stand inside a row: the op's own
 * position is compared, not its row's start.
 */
static bool fanraid_r6_parity_unsure(struct fanraid_c *fc,
				      const struct fr_geom *g, u64 row,
				      u32 first_page)
{
	enum fanraid_sync_action a = READ_ONCE(fc->r6->action);
	sector_t pos = ((sector_t)row << g->chunk_shift) +
		       ((sector_t)first_page << PAGE_SECTORS_SHIFT);

	if (a != FANRAID_SYNC_RESYNC &&
	    !(a == FANRAID_SYNC_RECOVER && fc->features.resync))
		return false;
	return pos >= READ_ONCE(fc->sync_cp);
}

/*
 * A reader's last entry being read ended, and its bios: look again at the
 * stream windows held back for it (fanraid_r6_reader_done()), in every
 * domain, since a row's windows hash onto several. If those bios woke it,
 * its task runs, and its next bios fill them; if not, nothing more is
 * coming and they go.
 */
static void fanraid_r6_reader_ended(struct fanraid_r6 *r6)
{
	unsigned long flags;
	u32 i;

	for (i = 0; i < 1U << r6->gather_bits; i++) {
		struct fanraid_r6_gather *gd = &r6->gather[i];

		if (!READ_ONCE(gd->stream_reads))
			continue;
		spin_lock_irqsave(&gd->lock, flags);
		fanraid_r6_arm(gd, fanraid_r6_kick(gd));
		spin_unlock_irqrestore(&gd->lock, flags);
	}
}

/*
 * The end of an entry: its room and its place in the domain go back, and
 * its bios end, last. Once they have, the table may be destroyed (the DM
 * core waits for nothing else), so only a read's end runs after them: it
 * looks at the domains (fanraid_r6_reader_ended()), on one of the workers
 * fanraid_r6_gather_exit() flushes before the domains go. Any context: a
 * write ends from its members' completion.
 */
static void fanraid_r6_stripe_end(struct fanraid_r6_stripe *st,
				  blk_status_t status)
{
	struct fanraid_r6_gather *gd = st->gd;
	struct fanraid_r6 *r6 = gd->r6;
	struct bio_list bios = st->bios;
	atomic_t *reading = NULL;
	unsigned long flags;
	struct bio *bio;

	if (st->read)
		reading = fanraid_r6_reading(r6, st->submitter);
	fanraid_r6_window_put(gd);
	spin_lock_irqsave(&gd->lock, flags);
	fanraid_r6_tail_forget(gd, st);
	WRITE_ONCE(gd->writing, gd->writing - 1);
	/* Dispatched, it left the hash: st->stream can no longer change. */
	if (!st->stream)
		WRITE_ONCE(gd->lone_writing, gd->lone_writing - 1);
	fanraid_r6_arm(gd, fanraid_r6_kick(gd));
	spin_unlock_irqrestore(&gd->lock, flags);
	mempool_free(st, &r6->stripe_pool);

	while ((bio = bio_list_pop(&bios))) {
		bio->bi_status = status;
		bio_endio(bio);
	}
	/* After its bios: whether they woke the reader is the question. */
	if (reading && atomic_dec_and_test(reading))
		fanraid_r6_reader_ended(r6);
}

/* A write's member I/O is over: its window, pages and stream slot go back. */
static void fanraid_r6_write_unlock(struct fanraid_r6_stripe *st,
				    struct fanraid_r6op *op)
{
	struct fanraid_r6 *r6 = st->fc->r6;

	fanraid_r6_op_unlock(op);
	fanraid_r6_op_put(op);
	if (st->stream)
		fanraid_r6_stream_end(r6);
}

/*
 * The rest of a write, in process context when a member failure must
 * reach the superblocks first: a write that skipped a failed member is
 * acknowledged only once the survivors record the failure, or after a
 * crash that member would be taken as in sync.
 */
static void fanraid_r6_write_finish(struct fanraid_r6_stripe *st,
				    bool may_sleep)
{
	struct fanraid_c *fc = st->fc;

	if (may_sleep && !st->status && fanraid_meta_sync_failed(fc))
		st->status = BLK_STS_IOERR;
	fanraid_bitmap_write_end(fc, st->row);
	/*
	 * The member writes are done: before the bios end, or a suspend
	 * waiting for them could look for a clean moment while this write
	 * still counts as active, and leave the array dirty.
	 */
	fanraid_meta_write_end(fc);
	fanraid_r6_stripe_end(st, st->status);
}

static void fanraid_r6_write_finish_work(struct work_struct *work)
{
	fanraid_r6_write_finish(container_of(work, struct fanraid_r6_stripe,
					     work), true);
}

/*
 * The op->end_io of an entry's member writes: any context, an interrupt
 * mostly. Only a failure still to be recorded needs a task.
 */
static void fanraid_r6_stripe_written(struct fanraid_r6op *op)
{
	struct fanraid_r6_stripe *st = op->private;
	struct fanraid_c *fc = st->fc;

	bool failed = fanraid_r6_io_async_status(op);

	/*
	 * Data is safe while at most two slots of the row are lost, counting
	 * members failed since the op was locked: those were skipped, or
	 * hold what was sent only until they are replaced.
	 */
	op->missing |= fanraid_r6_failed_slots(op);
	st->status = hweight_long(op->missing) > 2 ? BLK_STS_IOERR : BLK_STS_OK;
	/* Only parity every member now holds is kept. */
	if (op->pq_keep && !failed && !op->missing)
		fanraid_r6_pq_keep(op);
	fanraid_r6_write_unlock(st, op);
	if (!st->status && fanraid_meta_sync_pending(fc)) {
		INIT_WORK(&st->work, fanraid_r6_write_finish_work);
		queue_work(fanraid_r6_entry_wq(st), &st->work);
		return;
	}
	fanraid_r6_write_finish(st, false);
}

/*
 * What a member write keeps of the writes it carries: FUA, and whether a
 * task waits on it. The members' writeback throttling (wbt) takes a write
 * without REQ_SYNC | REQ_IDLE for background writeback and cuts its depth
 * whenever reads there run slow: O_DIRECT writes through RAID6 went out at
 * a few in flight once member reads took 2 ms (md's still do: raid5 keeps
 * REQ_SYNC alone).
 */
#define FANRAID_R6_WRITE_HINTS	(REQ_FUA | REQ_SYNC | REQ_IDLE)

/* Send the entry's new data, P and Q; their completion ends it. */
static void fanraid_r6_stripe_send(struct fanraid_r6op *op,
				   struct fanraid_r6_stripe *st)
{
	u32 n = op->g->ndevs;
	unsigned long write;
	blk_opf_t hints = 0;
	struct bio *bio;

	bio_list_for_each(bio, &st->bios)
		hints |= bio->bi_opf & FANRAID_R6_WRITE_HINTS;
	/*
	 * A member being rebuilt is written: this window is then in sync on
	 * it. So is a slot whose read failed, rebuilt above: that repairs it.
	 */
	write = st->touched | BIT(n - 2) | BIT(n - 1) | op->read_bad;
	fanraid_r6_io_async(op, write & ~fanraid_r6_failed_slots(op),
			    REQ_OP_WRITE | hints, fanraid_r6_stripe_written);
}

/* The reads of a reconstruct-write are in: P and Q from the data. */
static void fanraid_r6_rcw_send(struct fanraid_r6op *op,
				struct fanraid_r6_stripe *st)
{
	fanraid_r6_stripe_fill(op, st);
	fanraid_r6_gen(op, false);
	op->pq_keep = true;
	fanraid_r6_stripe_send(op, st);
}

/*
 * Reconstruct-write, waiting for its reads: every survivor, so the lost
 * slots can be rebuilt under the bios. False when they cannot be had:
 * nothing was written.
 */
static bool fanraid_r6_stripe_rcw(struct fanraid_r6op *op,
				  struct fanraid_r6_stripe *st)
{
	if (fanraid_r6_read_slots(op, GENMASK(op->g->ndevs - 1, 0)) ||
	    fanraid_r6_recover(op))
		return false;
	fanraid_r6_rcw_send(op, st);
	return true;
}

/* A write that cannot go on: it fails, and its members are left be. */
static void fanraid_r6_stripe_fail(struct fanraid_r6op *op,
				   struct fanraid_r6_stripe *st)
{
	st->status = BLK_STS_IOERR;
	fanraid_r6_write_unlock(st, op);
	fanraid_r6_write_finish(st, true);
}

/*
 * A write whose reads failed: again as a reconstruct-write, reading every
 * survivor, and waiting for them.
 */
static void fanraid_r6_write_retry_work(struct work_struct *work)
{
	struct fanraid_r6_stripe *st = container_of(work,
						    struct fanraid_r6_stripe,
						    work);
	struct fanraid_r6op *op = st->op;

	if (!fanraid_r6_stripe_rcw(op, st))
		fanraid_r6_stripe_fail(op, st);
}

/* Pages on @slots of @st's window, its locks taken, set to write @st. */
static struct fanraid_r6op *fanraid_r6_write_op(struct fanraid_r6_stripe *st,
						unsigned long slots)
{
	struct fanraid_c *fc = st->fc;
	u32 win_pages = fanraid_r6_win_sectors(st->g) >> PAGE_SECTORS_SHIFT;
	u32 first = st->first >> PAGE_SECTORS_SHIFT;
	u32 end = DIV_ROUND_UP(st->end, PAGE_SECTORS);
	struct fanraid_r6op *op;

	/* Pages before their locks: whoever holds those only waits for I/O. */
	op = fanraid_r6_op_get_slots(fc, st->g, st->row,
				     st->window * win_pages + first,
				     end - first, slots);
	fanraid_r6_op_lock(op);
	op->missing = fanraid_r6_lost_slots(op);
	op->private = st;
	st->op = op;
	return op;
}

/* Before anything is sent: @st's op given back, pages and locks. */
static void fanraid_r6_write_op_drop(struct fanraid_r6_stripe *st,
				     struct fanraid_r6op *op)
{
	st->op = NULL;
	fanraid_r6_op_unlock(op);
	fanraid_r6_op_put(op);
}

/*
 * A write whose read-modify-write cannot go on in the pages it has: as a
 * reconstruct-write, with pages on every slot. On kfanraid6w or kfanraid6l,
 * where items wait for pages, holding none meanwhile.
 */
static void fanraid_r6_write_again_work(struct work_struct *work)
{
	struct fanraid_r6_stripe *st = container_of(work,
						    struct fanraid_r6_stripe,
						    work);
	struct fanraid_r6op *op = fanraid_r6_write_op(st, fanraid_r6_all_slots(st->g));

	if (!fanraid_r6_stripe_rcw(op, st))
		fanraid_r6_stripe_fail(op, st);
}

/*
 * A write's read failed, and a reconstruct-write must read every
 * survivor: in the op it has if that holds every slot, or in a new one.
 * Its pages and locks go back before it waits for the new one: nothing is
 * written yet, and a continuation worker waiting for pages could hold up
 * the very continuations that would give them back.
 */
static void fanraid_r6_write_retry(struct fanraid_r6op *op,
				   struct fanraid_r6_stripe *st)
{
	struct fanraid_r6 *r6 = st->fc->r6;

	if (fanraid_r6_op_holds(op, fanraid_r6_all_slots(op->g))) {
		INIT_WORK(&st->work, fanraid_r6_write_retry_work);
		queue_work(r6->cont_wq, &st->work);
		return;
	}
	fanraid_r6_write_op_drop(st, op);
	INIT_WORK(&st->work, fanraid_r6_write_again_work);
	/*
	 * Not a stream's on kfanraid6w: it still counts as written there
	 * (fanraid_r6_stream_end() comes at its end), and every worker there
	 * may be a window waiting for its turn behind it.
	 */
	queue_work(st->stream ? r6->lone_wq : fanraid_r6_entry_wq(st),
		   &st->work);
}

/*
 * The reads of a write are in. A read-modify-write takes the old data's
 * share out of P and Q and puts the new data's in; a reconstruct-write
 * rebuilds any lost slot and computes P and Q from the data. Then it
 * writes. On kfanraid6c (kfanraid6ch beside a stream), the CPU's
 * continuation worker, which runs every operation whose reads completed
 * since it last ran: under load one wakeup serves many writes, as md's
 * raid5d does. A failed read is retried in its own item
 * (fanraid_r6_write_retry()): on kfanraid6c when the op holds every slot,
 * where waiting for the retry holds up no other write and no item waits
 * for pages (on kfanraid6w or kfanraid6l every worker could be waiting
 * for the very pages the retry holds); on those when the op must first
 * give its pages back for one with every slot.
 */
static void fanraid_r6_write_continue(struct fanraid_r6op *op)
{
	struct fanraid_r6_stripe *st = op->private;

	if (fanraid_r6_io_async_status(op) ||
	    (st->rcw && fanraid_r6_recover(op))) {
		fanraid_r6_write_retry(op, st);
		return;
	}
	if (st->rcw) {
		fanraid_r6_rcw_send(op, st);
		return;
	}
	fanraid_r6_stripe_xor(op, st->touched);
	fanraid_r6_stripe_fill(op, st);
	fanraid_r6_stripe_xor(op, st->touched);
	fanraid_r6_stripe_send(op, st);
}

static void fanraid_r6_cont_run(struct fanraid_r6_cont *c)
{
	struct llist_node *ops = llist_reverse_order(llist_del_all(&c->ops));
	struct fanraid_r6op *op, *tmp;

	llist_for_each_entry_safe(op, tmp, ops, cont)
		fanraid_r6_write_continue(op);
}

void fanraid_r6_cont_work(struct work_struct *work)
{
	fanraid_r6_cont_run(container_of(work, struct fanraid_r6_cont, work));
}

void fanraid_r6_cont_urgent_work(struct work_struct *work)
{
	fanraid_r6_cont_run(container_of(work, struct fanraid_r6_cont, urgent));
}

/*
 * op->end_io of a write's reads: any context. Only the op that finds the
 * list empty queues a work item; whichever of the two runs takes the list.
 */
static void fanraid_r6_write_read(struct fanraid_r6op *op)
{
	struct fanraid_r6 *r6 = op->fc->r6;
	struct fanraid_r6_cont *c = get_cpu_ptr(r6->cont);

	if (llist_add(&op->cont, &c->ops)) {
		if (fanraid_r6_beside_stream(r6))
			queue_work(r6->cont_hp_wq, &c->urgent);
		else
			queue_work(r6->cont_wq, &c->work);
	}
	put_cpu_ptr(r6->cont);
}

/* The data slots @st's bios overwrite over its whole page range. */
static unsigned long fanraid_r6_stripe_full(struct fanraid_r6_stripe *st)
{
	u32 lo = round_down(st->first, PAGE_SECTORS);
	u32 hi = round_up(st->end, PAGE_SECTORS);
	unsigned long full = 0;
	u32 slot;

	for (slot = 0; slot < st->g->data_devs; slot++)
		if (find_next_zero_bit(st->cover + slot * FANRAID_R6_WIN_LONGS,
				       hi, lo) >= hi)
			__set_bit(slot, &full);
	return full;
}

/*
 * The slots whose pages a write of @st takes: only the touched data, P
 * and Q when it will be a read-modify-write, as it is on a healthy array
 * in sync whenever that reads fewer slots (fanraid_r6_stripe_write());
 * every slot otherwise. A member failing, a sync starting, or a read
 * failing before it is done makes it a reconstruct-write, which then takes
 * a new operation with every slot.
 */
static unsigned long fanraid_r6_write_slots(struct fanraid_r6_stripe *st)
{
	struct fanraid_c *fc = st->fc;
	const struct fr_geom *g = st->g;
	u32 n = g->ndevs;
	u32 win_pages = fanraid_r6_win_sectors(g) >> PAGE_SECTORS_SHIFT;
	unsigned long rcw = GENMASK(n - 3, 0) & ~st->full;
	unsigned long rmw = st->touched | BIT(n - 2) | BIT(n - 1);

	if (!raid6_call.xor_syndrome || hweight_long(rmw) >= hweight_long(rcw) ||
	    !bitmap_empty(fc->failed, fc->ndevs) ||
	    !bitmap_empty(fc->rebuilding, fc->ndevs) ||
	    fanraid_r6_parity_unsure(fc, g, st->row, st->window * win_pages +
				     (st->first >> PAGE_SECTORS_SHIFT)))
		return fanraid_r6_all_slots(g);
	return rmw;
}

/*
 * Update data, P and Q for every bio of the entry. Full slots are those
 * the bios overwrite over the whole page range; a reconstruct-write reads
 * the others (every survivor when degraded, so the lost slots can be
 * rebuilt under the bios), a read-modify-write reads the touched slots, P
 * and Q. With every slot full nothing is read, degraded or not. Returns
 * 0 when the write goes on without this task: the completion of its
 * member writes ends it (fanraid_r6_stripe_written()), and it does not
 * wait for its reads either (fanraid_r6_write_continue()). Otherwise
 * nothing was sent: -EIO, the write fails; -EAGAIN, from map (op->nowait),
 * it would have to wait, and a worker starts it again; -ENOSPC, the op
 * holds pages for a read-modify-write only, and this must be a
 * reconstruct-write (fanraid_r6_write_slots()).
 */
static int fanraid_r6_stripe_write(struct fanraid_r6op *op,
				   struct fanraid_r6_stripe *st)
{
	u32 n = op->g->ndevs;
	unsigned long all = fanraid_r6_all_slots(op->g);
	unsigned long rcw, rmw;

	/* Nothing to keep P and Q correct with: fail, and leave the members be. */
	if (hweight_long(op->missing) > 2)
		return -EIO;
	rcw = GENMASK(n - 3, 0) & ~st->full;
	rmw = st->touched | BIT(n - 2) | BIT(n - 1);

	if (!rcw) {
		if (!fanraid_r6_op_holds(op, all))
			return -ENOSPC;
		/* Copying a whole window is a worker's job, not map's. */
		if (op->nowait)
			return -EAGAIN;
		/* Full stripe: P and Q from the new data alone. */
		fanraid_r6_stripe_fill(op, st);
		fanraid_r6_gen(op, false);
		fanraid_r6_stripe_send(op, st);
		return 0;
	}
	st->rcw = false;
	if (!op->missing && raid6_call.xor_syndrome &&
	    !fanraid_r6_parity_unsure(op->fc, op->g, op->row, op->first_page)) {
		/* P and Q kept from the last write here need no reads. */
		if (hweight_long(st->touched) < hweight_long(rcw) &&
		    fanraid_r6_pq_take(op))
			rmw = st->touched;
		if (hweight_long(rmw) < hweight_long(rcw)) {
			op->pq_keep = true;
			return fanraid_r6_io_async(op, rmw, REQ_OP_READ,
						   fanraid_r6_write_read);
		}
	}
	if (!fanraid_r6_op_holds(op, all))
		return -ENOSPC;
	if (op->missing)
		rcw = all & ~op->missing;
	st->rcw = true;
	return fanraid_r6_io_async(op, rcw, REQ_OP_READ, fanraid_r6_write_read);
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

/*
 * Write (or read) an entry. A write returns once its member writes are
 * sent; their completion ends it (fanraid_r6_stripe_written()), so no
 * task sleeps through them and the writer needs no wakeup to finish.
 */
static void fanraid_r6_stripe_work(struct work_struct *work)
{
	struct fanraid_r6_stripe *st = container_of(work,
						    struct fanraid_r6_stripe,
						    work);
	struct fanraid_c *fc = st->fc;
	u32 win_pages = fanraid_r6_win_sectors(&fc->geom) >> PAGE_SECTORS_SHIFT;
	u32 first = st->first >> PAGE_SECTORS_SHIFT;
	u32 end = DIV_ROUND_UP(st->end, PAGE_SECTORS);
	struct fanraid_r6op *op;
	blk_status_t status;
	int r;

	if (st->read) {
		op = fanraid_r6_op_get(fc, st->g, st->row,
				       st->window * win_pages + first,
				       end - first);
		fanraid_r6_op_lock(op);
		op->missing = fanraid_r6_lost_slots(op);
		status = fanraid_r6_stripe_read(op, st);
		fanraid_r6_op_unlock(op);
		fanraid_r6_op_put(op);
		fanraid_r6_stripe_end(st, status);
		return;
	}
	/*
	 * DIRTY, then the region's bitmap bit, on the media before any
	 * member is written (fanraid-meta.c, fanraid-bitmap.c).
	 */
	if (fanraid_meta_write_start(fc)) {
		fanraid_meta_write_end(fc);
		fanraid_r6_stripe_end(st, BLK_STS_IOERR);
		return;
	}
	if (fanraid_bitmap_write_start(fc, st->row)) {
		fanraid_meta_write_end(fc);
		fanraid_r6_stripe_end(st, BLK_STS_IOERR);
		return;
	}
	if (st->stream)
		fanraid_r6_stream_start(fc->r6);
	st->full = fanraid_r6_stripe_full(st);
	op = fanraid_r6_write_op(st, fanraid_r6_write_slots(st));
	r = fanraid_r6_stripe_write(op, st);
	if (r == -ENOSPC) {
		/* Nothing was sent: let go of all, then take every slot. */
		fanraid_r6_write_op_drop(st, op);
		op = fanraid_r6_write_op(st, fanraid_r6_all_slots(st->g));
		r = fanraid_r6_stripe_write(op, st);
	}
	if (r)
		fanraid_r6_stripe_fail(op, st);
}

/*
 * Start lone write @st from map, in its submitter's context, when nothing
 * on the way needs a sleep: DIRTY and its bitmap bit already on the media,
 * its pages free in the cache and unlocked, its member bios to be had at
 * once. The write then costs no worker at all until its reads are in.
 * False, with nothing taken, when something would wait: a worker starts
 * it instead (fanraid_r6_batch_add()). A degraded row goes there too.
 */
static bool fanraid_r6_stripe_start_nowait(struct fanraid_r6_stripe *st)
{
	struct fanraid_c *fc = st->fc;
	u32 win_pages = fanraid_r6_win_sectors(&fc->geom) >> PAGE_SECTORS_SHIFT;
	u32 first = st->first >> PAGE_SECTORS_SHIFT;
	u32 end = DIV_ROUND_UP(st->end, PAGE_SECTORS);
	struct fanraid_r6op *op;

	if (!fanraid_meta_write_try(fc))
		return false;
	if (!fanraid_bitmap_write_try(fc, st->row))
		goto meta;
	st->full = fanraid_r6_stripe_full(st);
	op = fanraid_r6_op_get_nowait(fc, st->g, st->row,
				      st->window * win_pages + first,
				      end - first, fanraid_r6_write_slots(st));
	if (!op)
		goto bitmap;
	if (!fanraid_r6_op_trylock(op))
		goto put;
	op->missing = fanraid_r6_lost_slots(op);
	op->private = st;
	st->op = op;
	if (!op->missing && !fanraid_r6_stripe_write(op, st))
		return true;
	st->op = NULL;
	fanraid_r6_op_unlock(op);
put:
	fanraid_r6_op_put(op);
bitmap:
	fanraid_bitmap_write_end(fc, st->row);
meta:
	fanraid_meta_write_end(fc);
	return false;
}

static void fanraid_r6_batch_run(struct fanraid_r6_batch *b)
{
	struct llist_node *entries = llist_reverse_order(llist_del_all(&b->entries));
	struct fanraid_r6_stripe *st, *tmp;

	llist_for_each_entry_safe(st, tmp, entries, batch)
		fanraid_r6_stripe_work(&st->work);
}

void fanraid_r6_batch_work(struct work_struct *work)
{
	fanraid_r6_batch_run(container_of(work, struct fanraid_r6_batch, work));
}

void fanraid_r6_batch_urgent_work(struct work_struct *work)
{
	fanraid_r6_batch_run(container_of(work, struct fanraid_r6_batch, urgent));
}

/* Where @bio lies in layout @g: its place, window, and offset in the chunk. */
static struct fanraid_r6_gather *fanraid_r6_bio_domain(struct fanraid_c *fc,
						       struct bio *bio,
						       const struct fr_geom *g,
						       struct fr_loc *loc,
						       u32 *in_chunk)
{
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);

	*in_chunk = logical & (g->chunk_sectors - 1);
	fr_geom_map(g, logical, loc);
	return fanraid_r6_domain(fc->r6, loc->row,
				 *in_chunk / fanraid_r6_win_sectors(g));
}

/* Count a piece for @window of @row in its domain's gathering (@d = 1) or out (-1). */
static void fanraid_r6_gathering_add(struct fanraid_r6_gather *gd, u64 row,
				     u32 window, int d)
{
	atomic_add(d, &gd->gathering);
	atomic_add(d, &gd->pending[fanraid_r6_bucket(row, window)]);
}

/*
 * A new entry for @gd, or NULL. @in_map: without sleeping, so NULL when
 * the domain has no room or memory is short.
 */
static struct fanraid_r6_stripe *fanraid_r6_stripe_alloc(struct fanraid_r6_gather *gd,
							 bool in_map)
{
	struct fanraid_r6 *r6 = gd->r6;
	struct fanraid_r6_stripe *st;

	if (!in_map) {
		fanraid_r6_window_get(gd);
		return mempool_alloc(&r6->stripe_pool, GFP_NOIO);
	}
	if (!atomic_add_unless(&gd->windows, 1, fanraid_r6_domain_windows(r6)))
		return NULL;
	st = mempool_alloc(&r6->stripe_pool, GFP_NOWAIT);
	if (!st)
		fanraid_r6_window_put(gd);
	return st;
}

/*
 * Whether @bio, ending at sector @end of its window, is the last piece of
 * the bio it was cut from. The DM core cuts at window ends and every
 * max_sectors of the array's queue (255 on null_blk as loaded), so a piece
 * that ends before the one and is shorter than the other is the last.
 */
static bool fanraid_r6_last_piece(struct fanraid_c *fc, struct bio *bio,
				  u32 end, const struct fr_geom *g)
{
	struct mapped_device *md = dm_table_get_md(fc->ti->table);

	return end < fanraid_r6_win_sectors(g) &&
	       bio_sectors(bio) < queue_max_sectors(dm_disk(md)->queue);
}

/*
 * Add a write or read to its window's entry (its row in layout @g),
 * mapped by thread @submitter (0: none), and dispatch what is ready. The
 * caller counted it in its domain's gathering. @in_map: in the submitter's
 * context, from map, where nothing may sleep: an entry it sends on goes to
 * a worker, and false when it needs a new entry and none can be had
 * without waiting; the caller then queues it for kfanraid6. Otherwise
 * kfanraid6, which may wait for room and writes what its bio sends on.
 */
static bool fanraid_r6_gather_bio(struct fanraid_c *fc, struct bio *bio,
				  const struct fr_geom *g, pid_t submitter,
				  bool in_map)
{
	struct fanraid_r6 *r6 = fc->r6;
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	u32 win_sectors = fanraid_r6_win_sectors(g);
	bool read = !op_is_write(bio_op(bio));
	struct fanraid_r6_stripe *st, *spare = NULL;
	struct fanraid_r6_gather *gd, *prev;
	enum fanraid_r6_follows follows;
	u32 in_chunk, window, start, end, s;
	unsigned long *cover;
	struct fr_loc loc;
	bool go;

	gd = fanraid_r6_bio_domain(fc, bio, g, &loc, &in_chunk);
	window = in_chunk / win_sectors;
	start = in_chunk & (win_sectors - 1);
	end = start + bio_sectors(bio);
	if (WARN_ON_ONCE(end > win_sectors) || start == end) {
		fanraid_r6_gathering_add(gd, loc.row, window, -1);
		bio->bi_status = start == end ? BLK_STS_OK : BLK_STS_IOERR;
		bio_endio(bio);
		return true;
	}
	prev = fanraid_r6_prev_domain(r6, g, &loc, in_chunk);

	/* Allocation may sleep, so it happens outside the lock, and only when needed. */
	for (;;) {
		spin_lock_irq(&gd->lock);
		st = fanraid_r6_stripe_find(gd, g, loc.row, window, read,
					    start, end);
		if (st || spare)
			break;
		spin_unlock_irq(&gd->lock);
		spare = fanraid_r6_stripe_alloc(gd, in_map);
		if (!spare)
			return false;
		memset(spare, 0, fanraid_r6_stripe_size(g));
		spare->fc = fc;
		spare->gd = gd;
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
		hlist_add_head(&st->node, fanraid_r6_stripe_bucket(gd, loc.row,
								   window));
		list_add_tail(&st->parked, &gd->parked);
		WRITE_ONCE(gd->lone, gd->lone + 1);
	}
	follows = prev ? fanraid_r6_tail_find(prev, fanraid_r6_tail_key(logical, read)) :
			 FANRAID_R6_FOLLOWS_NONE;
	if (!st->stream && follows == FANRAID_R6_FOLLOWS_LIVE) {
		st->stream = true;
		WRITE_ONCE(gd->lone, gd->lone - 1);
		if (read)
			WRITE_ONCE(gd->stream_reads, gd->stream_reads + 1);
	}
	fanraid_r6_tail_add(gd, fanraid_r6_tail_key(logical + bio_sectors(bio),
						    read), st);

	bio_list_add(&st->bios, bio);
	st->submitter = submitter;
	st->first = min(st->first, start);
	st->end = max(st->end, end);
	__set_bit(loc.data_idx, &st->touched);
	cover = st->cover + loc.data_idx * FANRAID_R6_WIN_LONGS;
	for (s = start; s < end; s++)
		if (!__test_and_set_bit(s, cover))
			st->covered++;
	fanraid_r6_gathering_add(gd, loc.row, window, -1);

	/*
	 * An entry this bio sends on is written here, on kfanraid6 or from
	 * map: a worker would cost a wakeup and a context switch. Those the
	 * timer or other bios send on go to a worker (fanraid_r6_stripe_go()),
	 * and so do reads from map, which wait for their reads.
	 */
	gd->inline_st = !in_map || !read ? st : NULL;
	/*
	 * A FUA write's submitter waits for it to be stable (a journal
	 * commit, a log record): it sends nothing that would fill the window
	 * until then. Nor does a lone write's bio, once its last piece is in,
	 * when it continues no recent write: a random write, mostly, which
	 * nothing will join.
	 */
	if (st->covered == g->data_devs * win_sectors ||
	    (bio->bi_opf & REQ_FUA) ||
	    (!st->stream && !read && follows == FANRAID_R6_FOLLOWS_NONE &&
	     fanraid_r6_last_piece(fc, bio, end, g)))
		fanraid_r6_stripe_go(gd, st);
	else if (!st->since)
		st->since = ktime_get();
	fanraid_r6_arm(gd, fanraid_r6_kick(gd));
	go = gd->inline_go;
	gd->inline_st = NULL;
	gd->inline_go = false;
	spin_unlock_irq(&gd->lock);

	if (spare) {
		mempool_free(spare, &r6->stripe_pool);
		fanraid_r6_window_put(gd);
	}
	if (go && !in_map)
		fanraid_r6_stripe_work(&st->work);
	else if (go && !fanraid_r6_stripe_start_nowait(st))
		fanraid_r6_batch_add(st);
	return true;
}

static void fanraid_r6_gather_work(struct work_struct *work)
{
	struct fanraid_bio *fb = container_of(work, struct fanraid_bio, work);

	fanraid_r6_gather_bio(fb->fc, dm_bio_from_per_bio_data(fb, sizeof(*fb)),
			      fb->g, fb->submitter, false);
}

/*
 * A write of zeroes to the part of one stripe window that @bio covers
 * (fanraid-r6-discard.c: the partial rows of a write-zeroes request). It
 * carries no pages: the entry zeroes the range instead of copying, and is
 * written like any other, parity included. Worker context.
 */
void fanraid_r6_gather_zeroes(struct fanraid_c *fc, struct bio *bio)
{
	struct fanraid_r6_gather *gd;
	struct fr_loc loc;
	u32 in_chunk;

	/* Counted in its domain's gathering, as from map. */
	gd = fanraid_r6_bio_domain(fc, bio, &fc->geom, &loc, &in_chunk);
	fanraid_r6_gathering_add(gd, loc.row,
				 in_chunk / fanraid_r6_win_sectors(&fc->geom), 1);
	fanraid_r6_gather_bio(fc, bio, &fc->geom, 0, false);
}

/*
 * For a bio in @row of fb->g: gathered here when @in_map (from map) and
 * that needs no sleep, on kfanraid6 otherwise. A worker per bio cost a
 * wakeup and a task switch per 4 KiB write; md adds a bio to its stripe in
 * the submitter's context too. Counted in its domain's gathering: that
 * domain's windows wait for it. Remember who maps writes: while that task
 * runs, more pieces of its bio may follow.
 */
void fanraid_r6_gather_queue(struct fanraid_c *fc, struct fanraid_bio *fb,
			     u64 row, bool in_map)
{
	struct bio *bio = dm_bio_from_per_bio_data(fb, sizeof(*fb));
	sector_t logical = dm_target_offset(fc->ti, bio->bi_iter.bi_sector);
	u32 in_chunk = logical & (fb->g->chunk_sectors - 1);
	u32 window = in_chunk / fanraid_r6_win_sectors(fb->g);
	struct fanraid_r6 *r6 = fc->r6;
	struct fanraid_r6_gather *gd = fanraid_r6_domain(r6, row, window);

	fanraid_r6_gathering_add(gd, row, window, 1);
	/*
	 * Kept per domain, on the line of the count just written: an
	 * array-wide word would be stored to by every writer whenever the
	 * mapping task changes, on most writes when many tasks write.
	 */
	if (READ_ONCE(gd->submitter) != current->pid)
		WRITE_ONCE(gd->submitter, current->pid);
	fb->submitter = current->pid;
	if (in_map && fanraid_r6_gather_bio(fc, bio, fb->g, current->pid, true))
		return;
	INIT_WORK(&fb->work, fanraid_r6_gather_work);
	if (bio_sectors(bio) < fanraid_r6_win_sectors(fb->g) &&
	    fanraid_r6_beside_stream(r6))
		queue_work(r6->small_wq, &fb->work);
	else
		queue_work(r6->wq, &fb->work);
}

/*
 * One domain per CPU, up to FANRAID_R6_GATHER_DOMAINS_MAX: more could not
 * gather at once. First in the constructor, so that a failed one can
 * always tear it down.
 */
int fanraid_r6_gather_init(struct fanraid_r6 *r6)
{
	u32 n = min_t(u32, num_possible_cpus(), FANRAID_R6_GATHER_DOMAINS_MAX);
	u32 i;

	r6->gather_bits = ilog2(roundup_pow_of_two(n));
	r6->gather = kvcalloc(1U << r6->gather_bits, sizeof(*r6->gather),
			      GFP_KERNEL);
	if (!r6->gather)
		return -ENOMEM;
	r6->waiter_seen = jiffies - msecs_to_jiffies(FANRAID_R6_YIELD_MSEC);
	r6->stream_seen = r6->waiter_seen;
	init_waitqueue_head(&r6->stream_wait);
	for (i = 0; i < 1U << r6->gather_bits; i++) {
		struct fanraid_r6_gather *gd = &r6->gather[i];

		gd->r6 = r6;
		spin_lock_init(&gd->lock);
		INIT_LIST_HEAD(&gd->parked);
		init_waitqueue_head(&gd->window_wait);
		hrtimer_init(&gd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		gd->timer.function = fanraid_r6_gather_timer;
	}
	return 0;
}

static void fanraid_r6_gather_cancel(struct fanraid_r6 *r6)
{
	u32 i;

	for (i = 0; i < 1U << r6->gather_bits; i++)
		hrtimer_cancel(&r6->gather[i].timer);
}

/*
 * No bios are in flight at destruction, so nothing is parked; dispatch
 * anything left anyway so no bio is ever lost, then drain the writer.
 */
void fanraid_r6_gather_exit(struct fanraid_r6 *r6)
{
	struct fanraid_r6_stripe *st, *tmp;
	u32 i;

	if (!r6->gather)
		return;
	fanraid_r6_gather_cancel(r6);
	if (r6->write_wq && r6->lone_wq) {
		for (i = 0; i < 1U << r6->gather_bits; i++) {
			struct fanraid_r6_gather *gd = &r6->gather[i];

			spin_lock_irq(&gd->lock);
			list_for_each_entry_safe(st, tmp, &gd->parked, parked)
				fanraid_r6_stripe_go(gd, st);
			spin_unlock_irq(&gd->lock);
		}
		flush_workqueue(r6->write_wq);
		flush_workqueue(r6->lone_wq);
		if (r6->cont_wq)
			flush_workqueue(r6->cont_wq);
		if (r6->cont_hp_wq)
			flush_workqueue(r6->cont_hp_wq);
		/* A finished entry may have looked at its domain's timer again. */
		fanraid_r6_gather_cancel(r6);
	}
	kvfree(r6->gather);
	r6->gather = NULL;
}
