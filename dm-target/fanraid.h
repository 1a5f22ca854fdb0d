/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared declarations of the fanraid device-mapper target.
 */
#ifndef DM_FANRAID_H
#define DM_FANRAID_H

#include <linux/device-mapper.h>
#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/bitmap.h>
#include <linux/hrtimer.h>
#include <linux/llist.h>
#include <linux/mempool.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/semaphore.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <fanraid/geom.h>

struct fr_sb;

#define DM_MSG_PREFIX "fanraid"

/* Errors a member may return before we stop raising table events for it. */
#define FANRAID_EVENT_THRESHOLD	15
/*
 * Read errors repaired on one member before it is failed (md's
 * max_read_errors); the count halves every hour, so only a member whose
 * errors keep coming reaches it.
 */
#define FANRAID_MAX_READ_ERRORS	20
#define FANRAID_READ_ERROR_DECAY	(3600 * HZ)

/*
 * RAID6 operations cover at most one stripe window of one chunk, so an
 * operation's buffers (one per member) stay small and bounded.
 */
#define FANRAID_R6_MAX_IO_SECTORS	FR_R6_WINDOW_SECTORS
#define FANRAID_R6_MAX_PAGES	(FANRAID_R6_MAX_IO_SECTORS >> (PAGE_SHIFT - SECTOR_SHIFT))
/*
 * Page locks (fanraid-r6-io.c): windows are hashed onto blocks of
 * FANRAID_R6_MAX_PAGES locks; a collision only serialises the same pages
 * of two unrelated windows.
 */
#define FANRAID_R6_LOCK_BITS	12
/*
 * Work items kfanraid6 runs at once (gathering writes, degraded reads),
 * at least; more when the stripe cache holds more operations.
 */
#define FANRAID_R6_MAX_ACTIVE	16
/*
 * Stripe windows gathering writes are hashed onto domains, one per CPU up
 * to GATHER_DOMAINS_MAX, and within a domain onto 1 << GATHER_BITS buckets;
 * a collision only costs a compare.
 */
#define FANRAID_R6_GATHER_DOMAINS_MAX	16
#define FANRAID_R6_GATHER_BITS	8
/*
 * Partial stripe windows wait for more writes while at least this many
 * windows are being written (see fanraid_r6_kick()), at most
 * GATHER_MAX_USEC; the submitter is looked at every GATHER_POLL_USEC.
 */
#define FANRAID_R6_GATHER_BUSY	4
#define FANRAID_R6_GATHER_MAX_USEC	100000
#define FANRAID_R6_GATHER_POLL_USEC	25
/*
 * ... and, while GATHER_BUSY windows are being written, a window no stream
 * writes to at most GATHER_LONE_USEC.
 */
#define FANRAID_R6_GATHER_LONE_USEC	1000
/*
 * A stream's partial read window waits while its reader has entries being
 * read (see fanraid_r6_reader_done()), counted in 1 << READING_BITS
 * buckets by thread id.
 */
#define FANRAID_R6_READING_BITS	6
/*
 * For YIELD_MSEC after a writer waited (a flush, a FUA write of
 * YIELD_SECTORS at most, or a write that small sent alone beside a stream),
 * streams keep at most YIELD_WINDOWS windows at the members
 * (fanraid_r6_stream_start()).
 */
#define FANRAID_R6_YIELD_SECTORS	64
#define FANRAID_R6_YIELD_MSEC	100
#define FANRAID_R6_YIELD_WINDOWS	1
/*
 * Ends of the last writes gathered into a domain, while their windows are
 * in flight: a write starting at one continues a stream
 * (fanraid_r6_tail_*()).
 */
#define FANRAID_R6_TAILS	64
/*
 * Whole rows a RAID6 discard or write-zeroes zeroes at once, under the
 * page locks of those rows (fanraid-r6-discard.c).
 */
#define FANRAID_R6_ZERO_ROWS	8

/* Readahead cache segments: at most this much of one chunk, on one member. */
#define FANRAID_RA_SEG_SECTORS	256
#define FANRAID_RA_SEG_PAGES	(FANRAID_RA_SEG_SECTORS >> (PAGE_SHIFT - SECTOR_SHIFT))
/*
 * Cached segments are counted per zone of 1 << FANRAID_RA_ZONE_SHIFT
 * segments, zones hashed onto FANRAID_RA_ZONES counters, so that a write
 * can see without the cache lock that it overlaps none
 * (fanraid_ra_invalidate()).
 */
#define FANRAID_RA_ZONE_SHIFT	4
#define FANRAID_RA_ZONES	64
/* Read streams followed at once (e.g. several readers of a mixed workload). */
#define FANRAID_RA_STREAMS	8
/* Ends of recent reads that continued no stream: streams being made. */
#define FANRAID_RA_GHOSTS	256
/*
 * Reads in a row, after a first, before a stream counts as sequential.
 * Random reads meet by chance: 64 random 4 KiB reads in flight over 256 MiB
 * chain three such meetings in about one 10 s run of 30, so it takes four;
 * each more divides the chance by some FANRAID_RA_GHOSTS.
 */
#define FANRAID_RA_SEQ_READS	3
/* Fetches one read may queue, so the map path stays short. */
#define FANRAID_RA_MAX_FETCH	256
#define FANRAID_RA_DEFAULT_WINDOW	4	/* stripes */
/*
 * A stream served from the cache is probed for a queue after this many
 * stripes, then twice as far each time it shows none, up to PROBE_MAX;
 * a probe sends requests past the cache to the members until this many
 * have gone, or until the stream is PROBE_STRIPES stripes past the cache.
 */
#define FANRAID_RA_PROBE_FIRST	16	/* stripes */
#define FANRAID_RA_PROBE_MAX	256	/* stripes */
#define FANRAID_RA_PROBE_REQS	3
#define FANRAID_RA_PROBE_STRIPES	8
#define FANRAID_RA_MIN_CACHE_MB	16
/* ms without writes before the superblocks are marked clean (md's safe_mode_delay). */
#define FANRAID_SAFE_MODE_DELAY_MS	200

enum fanraid_flush_policy {
	FANRAID_FLUSH_PASSTHROUGH,	/* default: every flush reaches every member */
	FANRAID_FLUSH_DROP,		/* non-volatile caches: flush and FUA acked here */
	FANRAID_FLUSH_DIRTY,		/* only members written since their last flush */
};

/*
 * Per-member I/O counters, reported in INFO status in this order. Per CPU,
 * summed when status is read: map and end_io run on every CPU at once,
 * and one shared counter per member would put a contended cache line on
 * every bio. A reset races harmlessly with in-flight increments.
 */
enum fanraid_stat {
	FANRAID_STAT_READS,
	FANRAID_STAT_WRITES,
	FANRAID_STAT_READ_SECTORS,
	FANRAID_STAT_WRITE_SECTORS,
	FANRAID_STAT_FLUSHES,
	FANRAID_STAT_COUNT,
};

struct fanraid_stats {
	u64 v[FANRAID_STAT_COUNT];
};

struct fanraid_dev {
	struct dm_dev *dm_dev;
	sector_t offset;	/* start of the member's data area */
	struct fanraid_stats __percpu *stats;
	/* requests completed with an error: rare, and they pace table events */
	atomic64_t errors;
	/* flush_policy dirty: a write completed since the last flush was sent */
	atomic_t dirty;
	/* flush_policy dirty: flushes sent and not yet completed */
	atomic_t flushes_inflight;
	/* read errors repaired by rewriting from parity (INFO status) */
	atomic64_t read_errors_corrected;
	/* sectors the last check/repair found wrong on this member (INFO) */
	atomic64_t check_blamed;
	/* ... of which recent, decayed; under fanraid_c.err_lock */
	u32 recent_read_errors;
	unsigned long recent_since;	/* jiffies of the last decay */
};

/* What the RAID6 sync worker is doing. */
enum fanraid_sync_action {
	FANRAID_SYNC_IDLE,
	FANRAID_SYNC_RESYNC,		/* make P and Q match the data (unclean shutdown) */
	FANRAID_SYNC_RECOVER,		/* rebuild members named by "rebuild" */
	FANRAID_SYNC_CHECK,		/* count P/Q mismatches */
	FANRAID_SYNC_REPAIR,		/* count and rewrite P/Q mismatches */
};

/* Feature arguments; the *_set flags keep TABLE output byte-exact. */
struct fanraid_features {
	enum fanraid_flush_policy flush_policy;
	bool flush_policy_set;
	u32 max_sync_rate;		/* KiB/s per member, 0 = unlimited */
	bool max_sync_rate_set;
	u32 min_sync_rate;		/* ... kept while I/O comes in, 0 = never yield */
	bool min_sync_rate_set;
	DECLARE_BITMAP(rebuild, FR_MAX_DEVS);
	bool resync;
	bool readahead;			/* on by default */
	bool readahead_set;
	u32 ra_window;			/* stripes ahead of a stream, at most */
	bool ra_window_set;
	u32 ra_cache_mb;		/* cache size; 0 = no cache, no readahead */
	bool ra_cache_mb_set;
	u32 stripe_cache_mb;		/* RAID6 stripe cache (fanraid-r6-cache.c) */
	bool stripe_cache_mb_set;
	u32 max_read_errors;		/* RAID6: recent repaired read errors allowed */
	bool max_read_errors_set;
	bool superblock;		/* RAID6: members carry the superblock (fanraid-meta.c) */
	u32 safe_mode_delay;		/* ms idle before marking the superblocks clean */
	bool safe_mode_delay_set;
	u32 bitmap_region;		/* write-intent bitmap region, member sectors */
	bool bitmap_set;
	/* members back after a failure: recovered only where the bitmap says */
	DECLARE_BITMAP(readd, FR_MAX_DEVS);
	/* grow under way (fanraid-reshape.c): members before it, sectors copied */
	bool reshape;
	u32 reshape_old_ndevs;
	u64 reshape_pos;
};

/*
 * Whole-array readahead counters, in INFO status after mismatch_cnt, in
 * this order. Per CPU like the member counters: every read with readahead
 * on counts a hit or a miss, on whichever CPU maps it.
 */
enum fanraid_ra_stat {
	FANRAID_RA_HITS,		/* reads served by the cache */
	FANRAID_RA_MISSES,		/* reads sent to their member */
	FANRAID_RA_PREFETCHED,		/* sectors fetched ahead */
	FANRAID_RA_WASTED,		/* fetched sectors dropped unread */
	FANRAID_RA_STAT_COUNT,
};

struct fanraid_ra_stats {
	u64 v[FANRAID_RA_STAT_COUNT];
};

/*
 * One gathering domain (fanraid-r6-gather.c): the windows hashed onto it,
 * under its own lock, so writers of different windows share no lock and no
 * counter. Its own cache line: each is written by whoever gathers into it.
 */
struct fanraid_r6_gather {
	struct fanraid_r6 *r6;
	spinlock_t lock;		/* all below but the atomics; taken by its timer */
	struct hlist_head hash[1 << FANRAID_R6_GATHER_BITS];
	struct list_head parked;	/* gathering windows, oldest first */
	struct hrtimer timer;		/* dispatches windows that waited long enough */
	atomic_t gathering;		/* writes queued for it, not yet in a window */
	pid_t submitter;		/* thread id of the last task to map a write here */
	atomic_t windows;		/* entries allocated now */
	wait_queue_head_t window_wait;	/* for room for a window */
	unsigned int writing;		/* windows dispatched, not yet complete */
	unsigned int lone;		/* parked windows no stream writes to */
	unsigned int lone_writing;	/* ... and such windows being written */
	unsigned int stream_reads;	/* parked windows a stream reads */
	struct fanraid_r6_stripe *inline_st; /* entry its gatherer may write itself */
	bool inline_go;			/* ... and it was dispatched */
	/*
	 * Where recent writes into its windows end (array sector << 2 | read,
	 * with FANRAID_R6_TAIL_ENDED once written; 0 for none), read without
	 * the lock by the domain of the window that follows; and their
	 * entries, to mark them when written.
	 */
	u64 tail_key[FANRAID_R6_TAILS];
	struct fanraid_r6_stripe *tail_st[FANRAID_R6_TAILS];
	unsigned int tail_next;
	/* Of gathering, those per hash bucket: what may still join a window. */
	atomic_t pending[1 << FANRAID_R6_GATHER_BITS];
} ____cacheline_aligned_in_smp;

/*
 * Per CPU: writes whose reads completed there, for kfanraid6c to finish
 * (fanraid_r6_write_continue()).
 */
struct fanraid_r6_cont {
	struct llist_head ops;
	struct work_struct work;	/* on kfanraid6c */
	struct work_struct urgent;	/* on kfanraid6ch, beside a stream */
};

/*
 * Per CPU: entries no stream writes to, sent on there, for one work item
 * to start in turn (fanraid_r6_batch_run()).
 */
struct fanraid_r6_batch {
	struct llist_head entries;
	struct work_struct work;	/* on kfanraid6w */
	struct work_struct urgent;	/* on kfanraid6l, beside a stream */
};

/*
 * P and Q of one page of a stripe window, kept after a write
 * (fanraid-r6-pq.c). Free while @g is NULL.
 */
struct fanraid_r6_pq {
	const struct fr_geom *g;	/* the layout its row is in */
	u64 row;
	u32 page;			/* page within the chunk */
	u32 used;			/* its bucket's clock when kept: the least goes first */
	struct page *p;
	struct page *q;
};

/* Entries of a bucket: a stripe page can be in any of them. */
#define FANRAID_R6_PQ_WAYS	4

struct fanraid_r6_pq_bucket {
	spinlock_t lock;		/* irq-safe: writes keep from their completion */
	u32 clock;
	struct fanraid_r6_pq ent[FANRAID_R6_PQ_WAYS];
};

/* RAID6 state: the workers, their memory pools and the page locks. */
struct fanraid_r6 {
	struct fanraid_c *fc;
	struct workqueue_struct *wq;
	struct workqueue_struct *small_wq;	/* short pieces, beside a stream */
	struct bio_set bs;
	struct bio_set zero_bs;		/* write-zeroes pieces of partial rows */
	/*
	 * Where the syndrome's unwanted half goes when only P or only Q is
	 * made: written by any number at once, never read.
	 */
	struct page *scribble;
	/*
	 * Semaphores, not mutexes: a write holds its pages across its member
	 * writes, and their completion, not the task that took them, lets go.
	 */
	struct semaphore *page_locks;	/* 1 << FANRAID_R6_LOCK_BITS */
	struct mutex zero_lock;		/* whoever takes the locks of whole rows */

	/* The stripe cache (fanraid-r6-cache.c): operations and their pages. */
	spinlock_t cache_lock;		/* everything down to peak_pages */
	struct list_head free_ops;
	struct kmem_cache *op_slab;	/* the operations, sized to the members */
	wait_queue_head_t op_wait;	/* for an operation and its pages */
	u32 nops;			/* operations the cache holds */
	struct page **free_pages;	/* a stack of the pages not in use */
	u32 npages;			/* pages the cache holds */
	u32 nfree;			/* ... on the stack now */
	u32 peak_pages;			/* ... most in use at once since load or reset */
	u32 peak_taken;			/* ... most off the stack, parked ones too */
	u32 ticket_next;		/* operations are handed out in request order */
	u32 ticket_served;
	/* Read by every small write at its CPU's front; written when one waits. */
	u32 cache_waiting ____cacheline_aligned_in_smp;	/* ... sleeping for the cache */
	struct fanraid_r6_front __percpu *front;	/* small operations parked per CPU */
	u32 front_pages;		/* ... pages parked at most on each */
	u32 full_ops;			/* whole-window operations its pages hold at once */
	u32 max_windows;		/* gathering windows allowed at once, all domains */

	/* Parity kept after writes (fanraid-r6-pq.c), hashed by stripe page. */
	struct fanraid_r6_pq_bucket *pq;
	u32 pq_buckets;

	/* Writes gathered by stripe window (fanraid-r6-gather.c). */
	struct workqueue_struct *write_wq;	/* entries */
	struct workqueue_struct *lone_wq;	/* ... not a stream's, beside a stream */
	struct workqueue_struct *cont_wq;	/* per CPU, runs cont */
	struct workqueue_struct *cont_hp_wq;	/* ... at high priority */
	struct fanraid_r6_cont __percpu *cont;
	struct fanraid_r6_batch __percpu *batch;
	mempool_t stripe_pool;
	struct fanraid_r6_gather *gather;	/* the domains, windows hashed onto them */
	u32 gather_bits;		/* log2 of their number */
	unsigned long waiter_seen;	/* jiffies a writer last waited on the media */
	atomic_t stream_writing;	/* stream windows being written */
	unsigned long stream_seen;	/* jiffies a stream's window last started */
	wait_queue_head_t stream_wait;	/* for one to end while streams yield */
	/* Read entries being read, by a hash of their submitter's thread id. */
	atomic_t reading[1 << FANRAID_R6_READING_BITS];

	/* Resync, rebuild and scrub: one pass from member sector 0 up. */
	struct delayed_work sync_work;
	enum fanraid_sync_action action;
	bool sync_stop;			/* set by presuspend */
	struct mutex sync_lock;		/* sync_stop against a racing "idle" */
	bool sync_partial;		/* the pass skips regions the bitmap holds clear */
	atomic64_t mismatches;		/* sectors of P/Q found wrong by check/repair */
	atomic_t unreadable;		/* pages the pass could not read enough of */
	u64 lost_row;			/* where the last rebuild stopped, data lost; U64_MAX none */
	unsigned long __percpu *mapped;	/* bios mapped, for the pass to yield to */
	unsigned long sync_mapped;	/* ... their sum when the pass last looked */
	unsigned long wave_mapped;	/* ... when the pass last sized its windows */
};

struct fanraid_c {
	struct dm_target *ti;
	struct fr_geom geom;
	struct fanraid_features features;
	struct fanraid_r6 *r6;		/* NULL for RAID0 */
	struct fanraid_ra *ra;		/* NULL without a readahead cache */
	struct fanraid_meta *meta;	/* NULL without the superblock feature */
	struct fanraid_bitmap *bitmap;	/* NULL without the bitmap feature */
	struct fanraid_reshape *rs;	/* NULL without the reshape feature */
	struct fanraid_ra_stats __percpu *ra_stats;	/* even without a cache: status reads it */
	atomic64_t flushes_elided;	/* flush_policy dirty: flushes not sent */
	/*
	 * Member state (fanraid-member.c): members failed, members being
	 * rebuilt, and how far the RAID6 sync pass got (member sectors below
	 * sync_cp are in sync); written by the sync worker under page locks.
	 */
	DECLARE_BITMAP(failed, FR_MAX_DEVS);
	DECLARE_BITMAP(rebuilding, FR_MAX_DEVS);
	sector_t sync_cp;
	spinlock_t err_lock;		/* the devs' recent_read_errors */
	/* dm_table_event() may sleep, so end_io defers it here. */
	struct work_struct trigger_event;
	u32 ndevs;
	struct fanraid_dev devs[] __counted_by(ndevs);
};

/* Per-bio data, so the map path never allocates. */
struct fanraid_bio {
	struct fanraid_c *fc;
	struct work_struct work;	/* RAID6 worker item */
	struct bvec_iter iter;		/* RAID6 read as mapped, to retry degraded */
	/* the layout it was mapped through: fc->geom, or the old one in a grow */
	const struct fr_geom *g;
	sector_t wstart;		/* logical range a write covers, for readahead */
	sector_t wlen;			/* 0 for reads and flushes */
	u32 dev;			/* member the clone went to */
	bool handled;			/* completed by fanraid itself, counted there */
	bool flush_counted;		/* in its member's flushes_inflight */
	u32 ra_sectors;			/* counted in the readahead inflight count */
	u32 ra_gen;			/* stream generation when counted, 0 = not */
	u32 ra_stream_sectors;		/* what it added to the stream's outstanding */
	u8 ra_stream;			/* stream whose outstanding reads count it */
	u8 rs_epoch;			/* reshape: old-layout epoch + 1, 0 = none */
	pid_t submitter;		/* RAID6 write: thread id of who mapped it */
};

/* fanraid-table.c */
int fanraid_ctr(struct dm_target *ti, unsigned int argc, char **argv);
void fanraid_dtr(struct dm_target *ti);
const char *fanraid_flush_policy_name(enum fanraid_flush_policy policy);
int fanraid_parse_on_off(const char *value, bool *on);

/* fanraid-member.c */
bool fanraid_is_failed(struct fanraid_c *fc, u32 dev);
bool fanraid_is_stale(struct fanraid_c *fc, u32 dev, sector_t pos);
bool fanraid_r6_row_lost(struct fanraid_c *fc, const struct fr_geom *g,
			 const struct fr_loc *loc, sector_t sectors);
bool fanraid_member_fail(struct fanraid_c *fc, u32 dev, const char *why,
			 int err);
void fanraid_member_init(struct fanraid_c *fc);
void fanraid_member_read_repaired(struct fanraid_c *fc, u32 dev);
int fanraid_member_stats_alloc(struct fanraid_c *fc);
void fanraid_member_stats_free(struct fanraid_c *fc);
u64 fanraid_member_stat(struct fanraid_dev *d, enum fanraid_stat k);
void fanraid_member_stats_reset(struct fanraid_dev *d);
int fanraid_remap(struct fanraid_c *fc, struct bio *bio, u32 dev,
		  sector_t member_sector);

/* Count @v of @k for member @d on this CPU; any context. */
/* Sectors from @logical to the end of its RAID6 stripe window in layout @g. */
static inline u32 fanraid_r6_window_left(const struct fr_geom *g,
					 sector_t logical)
{
	u32 win = fr_r6_window_sectors(g->chunk_sectors);

	return win - (logical & (win - 1));
}

static inline void fanraid_stat_add(struct fanraid_dev *d, enum fanraid_stat k,
				    u64 v)
{
	this_cpu_add(d->stats->v[k], v);
}

/* Count @v of readahead counter @k on this CPU; any context. */
static inline void fanraid_ra_stat_add(struct fanraid_c *fc,
				       enum fanraid_ra_stat k, u64 v)
{
	this_cpu_add(fc->ra_stats->v[k], v);
}

/* fanraid-map.c */
int fanraid_map(struct dm_target *ti, struct bio *bio);
int fanraid_end_io(struct dm_target *ti, struct bio *bio, blk_status_t *error);
void fanraid_trigger_event(struct work_struct *work);
int fanraid_iterate_devices(struct dm_target *ti,
			    iterate_devices_callout_fn fn, void *data);
void fanraid_io_hints(struct dm_target *ti, struct queue_limits *limits);

/* fanraid-raid6.c */
int fanraid_r6_create(struct fanraid_c *fc, char **error);
void fanraid_r6_destroy(struct fanraid_c *fc);
void fanraid_r6_cache_usage(struct fanraid_r6 *r6, u64 *now_kib, u64 *peak_kib);
void fanraid_r6_cache_reset_peak(struct fanraid_r6 *r6);
int fanraid_r6_queue(struct fanraid_c *fc, struct bio *bio,
		     const struct fr_loc *loc, bool in_map);
void fanraid_r6_queue_repair(struct fanraid_c *fc, struct bio *bio);
int fanraid_r6_queue_range(struct fanraid_c *fc, struct bio *bio);
int fanraid_r6_map(struct fanraid_c *fc, struct bio *bio,
		   const struct fr_geom *g);

/* fanraid-r6-gather.c */
void fanraid_r6_waiter_seen(struct fanraid_r6 *r6);

/* fanraid-sync.c */
void fanraid_sync_init(struct fanraid_c *fc);
void fanraid_sync_resume(struct fanraid_c *fc);
void fanraid_sync_presuspend(struct fanraid_c *fc);
void fanraid_sync_retune(struct fanraid_c *fc);
int fanraid_sync_request(struct fanraid_c *fc, enum fanraid_sync_action action);
const char *fanraid_sync_action_name(enum fanraid_sync_action action);

/* fanraid-readahead.c */
int fanraid_ra_create(struct fanraid_c *fc, char **error);
void fanraid_ra_destroy(struct fanraid_c *fc);
int fanraid_ra_map(struct fanraid_c *fc, struct bio *bio);
void fanraid_ra_invalidate(struct fanraid_c *fc, sector_t start, sector_t len);
void fanraid_ra_done(struct fanraid_c *fc, struct fanraid_bio *fb);
void fanraid_ra_inflight_add(struct fanraid_c *fc, s64 sectors);
void fanraid_ra_presuspend(struct fanraid_c *fc);
void fanraid_ra_resume(struct fanraid_c *fc);
int fanraid_ra_stats_alloc(struct fanraid_c *fc);
void fanraid_ra_stats_free(struct fanraid_c *fc);
u64 fanraid_ra_stat(struct fanraid_c *fc, enum fanraid_ra_stat k);
void fanraid_ra_stats_reset(struct fanraid_c *fc);

/* fanraid-meta.c: the on-disk superblock, kept current */
int fanraid_meta_create(struct fanraid_c *fc, char **error);
void fanraid_meta_destroy(struct fanraid_c *fc);
void fanraid_meta_resume(struct fanraid_c *fc);
void fanraid_meta_postsuspend(struct fanraid_c *fc);
int fanraid_meta_write_start(struct fanraid_c *fc);
bool fanraid_meta_write_try(struct fanraid_c *fc);
void fanraid_meta_write_end(struct fanraid_c *fc);
int fanraid_meta_sync_failed(struct fanraid_c *fc);
bool fanraid_meta_sync_pending(struct fanraid_c *fc);
void fanraid_meta_member_failed(struct fanraid_c *fc);
void fanraid_meta_sync_done(struct fanraid_c *fc, const unsigned long *rebuilt);
u64 fanraid_meta_events(struct fanraid_c *fc);
bool fanraid_meta_is_dirty(struct fanraid_c *fc);
void fanraid_meta_get_sb(struct fanraid_c *fc, struct fr_sb *sb);
u64 fanraid_meta_member_events(struct fanraid_c *fc, u32 i);
bool fanraid_meta_member_rebuilding(struct fanraid_c *fc, u32 i);
int fanraid_meta_bits_cleared(struct fanraid_c *fc);
int fanraid_meta_reshape_record(struct fanraid_c *fc, u64 pos);
u64 fanraid_meta_reshape_pos(struct fanraid_c *fc);

/* fanraid-bitmap.c: the write-intent bitmap */
int fanraid_bitmap_create(struct fanraid_c *fc, char **error);
void fanraid_bitmap_destroy(struct fanraid_c *fc);
void fanraid_bitmap_resume(struct fanraid_c *fc);
void fanraid_bitmap_postsuspend(struct fanraid_c *fc);
int fanraid_bitmap_write_start(struct fanraid_c *fc, u64 row);
bool fanraid_bitmap_write_try(struct fanraid_c *fc, u64 row);
void fanraid_bitmap_write_end(struct fanraid_c *fc, u64 row);
sector_t fanraid_bitmap_sync_next(struct fanraid_c *fc, sector_t pos,
				  sector_t end, bool partial);
void fanraid_bitmap_sync_start(struct fanraid_c *fc);
void fanraid_bitmap_sync_done(struct fanraid_c *fc, const unsigned long *rebuilt);
void fanraid_bitmap_status(struct fanraid_c *fc, u32 *region, u64 *dirty,
			   u64 *synced);

/* fanraid-reshape.c: grow onto more members */
int fanraid_reshape_create(struct fanraid_c *fc, char **error);
void fanraid_reshape_destroy(struct fanraid_c *fc);
int fanraid_reshape_map(struct fanraid_c *fc, struct bio *bio);
void fanraid_reshape_io_done(struct fanraid_c *fc, struct fanraid_bio *fb);
int fanraid_reshape_set_safe(struct fanraid_c *fc, const char *value);
bool fanraid_reshape_progress(struct fanraid_c *fc, sector_t *done,
			      sector_t *safe, u32 *old_ndevs);
bool fanraid_reshape_failed(struct fanraid_c *fc);
void fanraid_reshape_presuspend(struct fanraid_c *fc);
void fanraid_reshape_resume(struct fanraid_c *fc);

/* fanraid-status.c */
void fanraid_status(struct dm_target *ti, status_type_t type,
		    unsigned int status_flags, char *result, unsigned int maxlen);
int fanraid_message(struct dm_target *ti, unsigned int argc, char **argv,
		    char *result, unsigned int maxlen);

#endif /* DM_FANRAID_H */
