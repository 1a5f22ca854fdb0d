// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid on-disk member state: the superblock, kept current by the kernel
 * (table feature "superblock", RAID6).
 *
 * Each member carries one 4 KiB block at byte 4096 (fanraid/sb.h, the
 * codec the tool compiles too). The tool writes the static fields at
 * create; while the table is live this file owns the changing ones, with
 * md's two rules:
 *
 * - A write that skipped a failed member does not complete before events
 *   + 1, the failed bit and DEGRADED are on every surviving member
 *   (fanraid_meta_sync_failed()), so after a crash the stale member has
 *   fewer events and is never taken back as in sync.
 * - DIRTY is on the media before the first write after an idle period
 *   (fanraid_meta_write_start()), and is cleared safe_mode_delay to twice
 *   that after the last write ends, at postsuspend and at destruction, but
 *   never while a resync or rebuild is unfinished: a crash while clean
 *   needs no resync.
 *
 * During a grow (feature reshape) every update also records how far the
 * copy got (reshape_position, state RESHAPE), which only the copy moves
 * (fanraid_meta_reshape_record()): the PREFLUSH of each block makes what
 * it copied before stable first.
 *
 * Every update goes to all surviving members with one events value, each
 * write REQ_PREFLUSH | REQ_FUA, from the RAID6 workers or a work item here,
 * never from map. Only a live table writes (between preresume and
 * postsuspend): a table loaded beside a running one reads, and re-reads at
 * its preresume what the old one wrote last.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/jiffies.h>
#include <linux/percpu-refcount.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <fanraid/sb.h>

#include "fanraid.h"

/* One member's buffer and bio, set up at ctr so an update never allocates. */
struct fanraid_meta_dev {
	struct page *page;
	struct bio bio;
	struct bio_vec bvec;
	blk_status_t status;
	u8 member_uuid[FR_UUID_LEN];
	u64 events;			/* its own block's, as the ctr read it */
	bool rebuilding;		/* its own block says REBUILDING */
};

struct fanraid_meta {
	struct fanraid_c *fc;
	struct workqueue_struct *wq;
	/* One update at a time; guards sb, disk_failed and live. */
	struct mutex lock;
	struct fr_sb sb;		/* last written or read; slot and uuid per member */
	DECLARE_BITMAP(disk_failed, FR_MAX_DEVS); /* failed_mask on the media */
	bool live;			/* resumed and not suspended: may write */
	/* DIRTY is on the media; read without the lock on the write path. */
	bool dirty;
	/*
	 * Writes between write_start and write_end: per CPU, as md's
	 * writes_pending, since every RAID6 write counts itself in and out;
	 * exact only while the cleaner holds it in atomic mode.
	 */
	struct percpu_ref active;
	unsigned long delay;		/* safe_mode_delay in jiffies */
	u64 reshape_pos;		/* grow: array sectors copied, as recorded */
	struct timer_list clean_timer;	/* runs clean_work a delay after the last write */
	struct work_struct clean_work;
	struct work_struct fail_work;	/* records a failure outside the write path */
	atomic_t pending;		/* member bios of one update in flight */
	struct completion done;
	struct fanraid_meta_dev devs[];
};

static void fanraid_meta_endio(struct bio *bio)
{
	struct fanraid_meta_dev *d = container_of(bio, struct fanraid_meta_dev, bio);
	struct fanraid_meta *m = bio->bi_private;

	d->status = bio->bi_status;
	if (atomic_dec_and_test(&m->pending))
		complete(&m->done);
}

/* Read or write the superblock sector of every member in @devs, and wait. */
static void fanraid_meta_io(struct fanraid_meta *m, const unsigned long *devs,
			    blk_opf_t opf)
{
	struct fanraid_c *fc = m->fc;
	u32 i;

	atomic_set(&m->pending, 1);
	reinit_completion(&m->done);
	for_each_set_bit(i, devs, fc->ndevs) {
		struct fanraid_meta_dev *d = &m->devs[i];

		bio_init(&d->bio, fc->devs[i].dm_dev->bdev, &d->bvec, 1, opf);
		d->bio.bi_iter.bi_sector = FR_SB_SECTOR;
		d->bio.bi_private = m;
		d->bio.bi_end_io = fanraid_meta_endio;
		__bio_add_page(&d->bio, d->page, FR_SB_SIZE, 0);
		d->status = BLK_STS_OK;
		atomic_inc(&m->pending);
		submit_bio(&d->bio);
	}
	if (!atomic_dec_and_test(&m->pending))
		wait_for_completion_io(&m->done);
	for_each_set_bit(i, devs, fc->ndevs)
		bio_uninit(&m->devs[i].bio);
}

/* Members that get superblock writes: present and not failed. */
static void fanraid_meta_targets(struct fanraid_meta *m, unsigned long *devs)
{
	struct fanraid_c *fc = m->fc;
	u32 i;

	bitmap_zero(devs, FR_MAX_DEVS);
	for (i = 0; i < fc->ndevs; i++)
		if (fc->devs[i].dm_dev && !test_bit(i, fc->failed))
			__set_bit(i, devs);
}

static bool fanraid_meta_sync_running(struct fanraid_c *fc)
{
	enum fanraid_sync_action a = READ_ONCE(fc->r6->action);

	return a == FANRAID_SYNC_RESYNC || a == FANRAID_SYNC_RECOVER;
}

/*
 * The tool may rewrite the static fields while the array runs (fanraid
 * set records new tunables there): take them from the media, with the
 * higher events and every failed bit either side knows, so an update
 * never writes back an old copy. Member @i is a survivor.
 */
static void fanraid_meta_refresh(struct fanraid_meta *m, u32 i)
{
	DECLARE_BITMAP(one, FR_MAX_DEVS);
	DECLARE_BITMAP(disk, FR_MAX_DEVS);
	struct fr_sb sb;
	u64 events;

	bitmap_zero(one, FR_MAX_DEVS);
	__set_bit(i, one);
	fanraid_meta_io(m, one, REQ_OP_READ | REQ_SYNC | REQ_META);
	if (m->devs[i].status ||
	    fr_sb_decode(page_address(m->devs[i].page), &sb) ||
	    memcmp(sb.array_uuid, m->sb.array_uuid, FR_UUID_LEN) ||
	    sb.slot != i)
		return;
	events = max(sb.events, m->sb.events);
	bitmap_from_arr64(disk, &sb.failed_mask, FR_MAX_DEVS);
	bitmap_or(m->disk_failed, m->disk_failed, disk, FR_MAX_DEVS);
	m->sb = sb;
	m->sb.events = events;
}

/*
 * Write events + 1 with @state (DIRTY or 0) and the failed members to
 * every survivor; @rebuilt (or NULL) leaves the failed mask; with
 * @bits_cleared, events_cleared becomes the new events. A member
 * whose superblock write fails is failed too, and the update is repeated
 * for the rest, so the survivors always agree. Called with m->lock held;
 * 0, or -EIO when no survivor took it.
 */
static int fanraid_meta_update(struct fanraid_meta *m, u32 state,
			       const unsigned long *rebuilt, bool bits_cleared)
{
	struct fanraid_c *fc = m->fc;
	DECLARE_BITMAP(devs, FR_MAX_DEVS);
	DECLARE_BITMAP(mask, FR_MAX_DEVS);
	u32 i, tries;

	fanraid_meta_targets(m, devs);
	if (bitmap_empty(devs, FR_MAX_DEVS))
		return -EIO;
	/*
	 * Not from a member being rebuilt or re-added, nor from one whose
	 * recovery just ended (@rebuilt: the pass has cleared it from
	 * rebuilding): until this table's first update it holds its old
	 * block, whose failed mask may name a member that is in sync now,
	 * which would be recorded failed, and whose settings are old. After
	 * an assembly that re-adds a member the array is dirty from the
	 * start, so that first update may be the one at the recovery's end.
	 */
	bitmap_andnot(mask, devs, fc->rebuilding, FR_MAX_DEVS);
	if (rebuilt)
		bitmap_andnot(mask, mask, rebuilt, FR_MAX_DEVS);
	if (!bitmap_empty(mask, FR_MAX_DEVS))
		fanraid_meta_refresh(m, find_first_bit(mask, FR_MAX_DEVS));
	if (rebuilt)
		bitmap_andnot(m->disk_failed, m->disk_failed, rebuilt,
			      FR_MAX_DEVS);
	for (tries = 0; tries <= fc->ndevs; tries++) {
		struct fr_sb sb = m->sb;
		bool lost = false;
		u64 now = ktime_get_real_seconds();

		fanraid_meta_targets(m, devs);
		if (bitmap_empty(devs, FR_MAX_DEVS))
			return -EIO;
		bitmap_or(mask, m->disk_failed, fc->failed, FR_MAX_DEVS);
		/* Not in sync until its recovery ends, should the array stop first. */
		bitmap_or(mask, mask, fc->rebuilding, FR_MAX_DEVS);
		bitmap_to_arr64(&sb.failed_mask, mask, FR_MAX_DEVS);
		sb.format_version = FR_SB_FORMAT_VERSION;
		sb.events++;
		if (bits_cleared)
			sb.events_cleared = sb.events;
		sb.state = state | (sb.failed_mask ? FR_SB_STATE_DEGRADED : 0);
		if (fc->features.reshape) {
			sb.state |= FR_SB_STATE_RESHAPE;
			sb.reshape_position = m->reshape_pos;
			sb.reshape_old_ndevs = fc->features.reshape_old_ndevs;
		}
		sb.utime = max(now, sb.ctime);
		for_each_set_bit(i, devs, fc->ndevs) {
			struct fr_sb mine = sb;

			mine.slot = i;
			memcpy(mine.member_uuid, m->devs[i].member_uuid, FR_UUID_LEN);
			/* Rebuilt from scratch: no bitmap can say what it lacks. */
			if (test_bit(i, fc->rebuilding) &&
			    !test_bit(i, fc->features.readd))
				mine.state |= FR_SB_STATE_REBUILDING;
			if (WARN_ON_ONCE(fr_sb_encode(&mine, page_address(m->devs[i].page))))
				return -EIO;
		}
		fanraid_meta_io(m, devs,
				REQ_OP_WRITE | REQ_SYNC | REQ_META | REQ_PREFLUSH | REQ_FUA);
		for_each_set_bit(i, devs, fc->ndevs) {
			if (m->devs[i].status == BLK_STS_OK)
				continue;
			atomic64_inc(&fc->devs[i].errors);
			fanraid_member_fail(fc, i, "superblock write error",
					    blk_status_to_errno(m->devs[i].status));
			lost = true;
		}
		m->sb = sb;
		if (!lost) {
			bitmap_copy(m->disk_failed, mask, FR_MAX_DEVS);
			return 0;
		}
	}
	return -EIO;
}

/*
 * A grow copied array sectors up to @pos: record it on every survivor.
 * 0, or -EIO: the copy must stop, its progress unrecorded.
 */
int fanraid_meta_reshape_record(struct fanraid_c *fc, u64 pos)
{
	struct fanraid_meta *m = fc->meta;
	int r = -EIO;

	mutex_lock(&m->lock);
	if (m->live) {
		m->reshape_pos = pos;
		r = fanraid_meta_update(m, m->dirty ? FR_SB_STATE_DIRTY : 0,
					NULL, false);
	}
	mutex_unlock(&m->lock);
	return r;
}

/* A grow's position as recorded (fanraid_reshape_resume()). */
u64 fanraid_meta_reshape_pos(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;
	u64 pos;

	mutex_lock(&m->lock);
	pos = m->reshape_pos;
	mutex_unlock(&m->lock);
	return pos;
}

/* Failed members that the media does not record yet. */
static bool fanraid_meta_failed_unrecorded(struct fanraid_meta *m)
{
	return !bitmap_subset(m->fc->failed, m->disk_failed, FR_MAX_DEVS);
}

/*
 * Count a write in; true if DIRTY is on the media already. In one RCU
 * read section: the cleaner's switch of the count to atomic mode waits for
 * it, so a writer that read dirty before the cleaner cleared it is counted
 * by then.
 */
static bool fanraid_meta_write_enter(struct fanraid_meta *m)
{
	bool dirty;

	rcu_read_lock();
	percpu_ref_get(&m->active);
	smp_mb(); /* counted before dirty is read; the cleaner clears, then reads */
	dirty = READ_ONCE(m->dirty);
	rcu_read_unlock();
	return dirty;
}

/*
 * Before a RAID6 write goes to the members: DIRTY must be on the media. The
 * fast path counts the write on its CPU and reads a flag. The cleaner
 * clears m->dirty before it looks at m->active, and a writer counts itself
 * before it looks at m->dirty, so at least one of them sees the other (both
 * use full barriers). 0, or -EIO: the write must fail. Always pair with
 * fanraid_meta_write_end().
 */
int fanraid_meta_write_start(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;
	int r = 0;

	if (!m)
		return 0;
	if (likely(fanraid_meta_write_enter(m)))
		return 0;
	mutex_lock(&m->lock);
	if (!m->dirty) {
		r = fanraid_meta_update(m, FR_SB_STATE_DIRTY, NULL, false);
		if (!r)
			WRITE_ONCE(m->dirty, true);
	}
	mutex_unlock(&m->lock);
	return r;
}

/*
 * The same without sleeping (from map): false, having started nothing,
 * when DIRTY is still to be written.
 */
bool fanraid_meta_write_try(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;

	if (!m || fanraid_meta_write_enter(m))
		return true;
	fanraid_meta_write_end(fc);
	return false;
}

/*
 * Any context: arm the cleaner for the end of the next whole delay, as md
 * does. Every write that ends within one delay asks for the same time, so
 * only the first of them writes to the timer; the rest find it set.
 */
static void fanraid_meta_clean_arm(struct fanraid_meta *m)
{
	unsigned long period = max(m->delay, 1UL);

	mod_timer(&m->clean_timer, roundup(jiffies, period) + m->delay);
}

/* A write has completed; the cleaner looks a delay after the last one. */
void fanraid_meta_write_end(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;

	if (!m)
		return;
	percpu_ref_put(&m->active);
	fanraid_meta_clean_arm(m);
}

/*
 * Before a RAID6 write completes: every failed member is recorded on the
 * survivors. Cheap while nothing new failed. 0, or -EIO: nothing could
 * record it, so the write must not be acknowledged.
 */
int fanraid_meta_sync_failed(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;
	int r = 0;

	if (!m || likely(!fanraid_meta_failed_unrecorded(m)))
		return 0;
	mutex_lock(&m->lock);
	if (m->live && fanraid_meta_failed_unrecorded(m))
		r = fanraid_meta_update(m, m->dirty ? FR_SB_STATE_DIRTY : 0, NULL, false);
	mutex_unlock(&m->lock);
	return r;
}

/*
 * Any context: would fanraid_meta_sync_failed() write? A write that
 * completes in an interrupt asks, and hands its end to a task if so.
 */
bool fanraid_meta_sync_pending(struct fanraid_c *fc)
{
	return fc->meta && fanraid_meta_failed_unrecorded(fc->meta);
}

/* Any context: a member was failed; record it soon even if no write comes. */
void fanraid_meta_member_failed(struct fanraid_c *fc)
{
	if (fc->meta)
		queue_work(fc->meta->wq, &fc->meta->fail_work);
}

static void fanraid_meta_fail_work(struct work_struct *work)
{
	struct fanraid_meta *m = container_of(work, struct fanraid_meta,
					      fail_work);

	mutex_lock(&m->lock);
	if (m->live && fanraid_meta_failed_unrecorded(m))
		fanraid_meta_update(m, m->dirty ? FR_SB_STATE_DIRTY : 0, NULL, false);
	mutex_unlock(&m->lock);
}

/* Clear DIRTY on the media if no write is active and no sync is due. */
static void fanraid_meta_try_clean(struct fanraid_meta *m)
{
	bool idle;

	mutex_lock(&m->lock);
	if (!m->live || !m->dirty || fanraid_meta_sync_running(m->fc))
		goto out;
	/*
	 * Every writer's count folded into one, exact until switched back.
	 * The count keeps one reference of its own, so the switch never finds
	 * it at zero (which percpu_ref warns of); it is let go only to look.
	 */
	percpu_ref_switch_to_atomic_sync(&m->active);
	WRITE_ONCE(m->dirty, false);
	smp_mb();
	percpu_ref_put(&m->active);
	idle = percpu_ref_is_zero(&m->active);
	percpu_ref_get(&m->active);
	if (!idle) {
		/* A writer is in; its write_end re-arms the cleaner. */
		WRITE_ONCE(m->dirty, true);
	} else if (fanraid_meta_update(m, 0, NULL, false)) {
		WRITE_ONCE(m->dirty, true);
	}
	percpu_ref_switch_to_percpu(&m->active);
out:
	mutex_unlock(&m->lock);
}

static void fanraid_meta_clean_work(struct work_struct *work)
{
	fanraid_meta_try_clean(container_of(work, struct fanraid_meta,
					    clean_work));
}

static void fanraid_meta_clean_timer(struct timer_list *t)
{
	struct fanraid_meta *m = from_timer(m, t, clean_timer);

	/*
	 * The timer wheel fires delays of weeks early; wait on for the rest.
	 * mod_timer(), not add_timer(): a write that ended meanwhile may have
	 * armed it again, and add_timer() warns of a pending timer.
	 */
	if (time_before(jiffies, READ_ONCE(t->expires)))
		mod_timer(t, READ_ONCE(t->expires));
	else
		queue_work(m->wq, &m->clean_work);
}

/* A resync or rebuild has finished: rebuilt members are in sync on disk too. */
void fanraid_meta_sync_done(struct fanraid_c *fc, const unsigned long *rebuilt)
{
	struct fanraid_meta *m = fc->meta;

	if (!m)
		return;
	mutex_lock(&m->lock);
	if (m->live && bitmap_intersects(m->disk_failed, rebuilt, FR_MAX_DEVS))
		fanraid_meta_update(m, m->dirty ? FR_SB_STATE_DIRTY : 0, rebuilt,
				    false);
	mutex_unlock(&m->lock);
	fanraid_meta_clean_arm(m);
}

/*
 * Read member @i's block and check it against the table and the first
 * member read (@ref, NULL for the first). 0, or -errno with *error set.
 */
static int fanraid_meta_check(struct fanraid_meta *m, u32 i, struct fr_sb *sb,
			      const struct fr_sb *ref, char **error)
{
	struct fanraid_c *fc = m->fc;
	struct fanraid_dev *dev = &fc->devs[i];
	const char *name = dev->dm_dev->name;
	DECLARE_BITMAP(one, FR_MAX_DEVS);
	enum fr_sb_err err;

	bitmap_zero(one, FR_MAX_DEVS);
	__set_bit(i, one);
	fanraid_meta_io(m, one, REQ_OP_READ | REQ_SYNC | REQ_META);
	if (m->devs[i].status) {
		DMERR("member %u (%s): superblock read error %d", i, name,
		      blk_status_to_errno(m->devs[i].status));
		*error = "Cannot read member superblock";
		return -EIO;
	}
	err = fr_sb_decode(page_address(m->devs[i].page), sb);
	if (err) {
		DMERR("member %u (%s): %s", i, name, fr_sb_strerror(err));
		*error = "Member superblock invalid";
		return -EINVAL;
	}
	if (ref && memcmp(sb->array_uuid, ref->array_uuid, FR_UUID_LEN)) {
		DMERR("member %u (%s): superblock of array '%s', not of '%s'",
		      i, name, sb->name, ref->name);
		*error = "Member superblock belongs to another array";
		return -EINVAL;
	}
	if (sb->slot != i) {
		DMERR("member %u (%s): superblock says slot %u", i, name, sb->slot);
		*error = "Member superblock is for another slot";
		return -EINVAL;
	}
	/* During a grow the superblocks have the new size, the table the old. */
	if (sb->level != fc->geom.level || sb->ndevs != fc->ndevs ||
	    sb->chunk_sectors != fc->geom.chunk_sectors ||
	    sb->array_sectors != (fc->features.reshape ? fc->geom.capacity :
				  fc->ti->len) ||
	    sb->member_sectors != fc->geom.member_sectors ||
	    sb->data_offset != dev->offset) {
		DMERR("member %u (%s): superblock raid%u, %u members, chunk %u, %llu sectors, data at %llu",
		      i, name, sb->level, sb->ndevs, sb->chunk_sectors,
		      sb->array_sectors, sb->data_offset);
		*error = "Member superblock geometry differs from the table";
		return -EINVAL;
	}
	if (!(sb->state & FR_SB_STATE_RESHAPE) != !fc->features.reshape ||
	    (fc->features.reshape &&
	     (sb->reshape_old_ndevs != fc->features.reshape_old_ndevs ||
	      (sb->state & FR_SB_STATE_RESHAPE_BACKUP)))) {
		DMERR("member %u (%s): superblock state %#x, grow from %u members",
		      i, name, sb->state, sb->reshape_old_ndevs);
		*error = "Member superblock grow state differs from the table";
		return -EINVAL;
	}
	memcpy(m->devs[i].member_uuid, sb->member_uuid, FR_UUID_LEN);
	m->devs[i].events = sb->events;
	m->devs[i].rebuilding = sb->state & FR_SB_STATE_REBUILDING;
	return 0;
}

/*
 * Whether present member @i missed updates the others got: more than one
 * behind the newest block (a crash may cut one update short, leaving some
 * members a step behind). The old device of a slot since rebuilt onto
 * another is one; md kicks such a member as non-fresh.
 */
static bool fanraid_meta_stale(struct fanraid_meta *m, u32 i,
			       const struct fr_sb *best)
{
	return m->devs[i].events + 1 < best->events;
}

/*
 * Adopt the newest block of @found: its events, state and failed mask. A
 * present member that it marks failed and that is not being rebuilt holds
 * stale data and is failed here too; so does one whose own block says a
 * rebuild from scratch did not finish, or that missed updates, whatever
 * the others say.
 */
static void fanraid_meta_adopt(struct fanraid_meta *m, const struct fr_sb *best)
{
	struct fanraid_c *fc = m->fc;
	u32 i;

	m->sb = *best;
	bitmap_from_arr64(m->disk_failed, &best->failed_mask, FR_MAX_DEVS);
	m->dirty = best->state & FR_SB_STATE_DIRTY;
	for (i = 0; i < fc->ndevs; i++) {
		const char *why;

		if (!fc->devs[i].dm_dev || test_bit(i, fc->rebuilding) ||
		    test_bit(i, fc->failed))
			continue;
		if (test_bit(i, m->disk_failed))
			why = "marked failed in the superblocks";
		else if (m->devs[i].rebuilding)
			why = "half rebuilt from scratch";
		else if (fanraid_meta_stale(m, i, best))
			why = "behind the others (missed superblock updates)";
		else
			continue;
		set_bit(i, fc->failed);
		DMWARN("%s: member %u is %s; not used",
		       dm_table_device_name(fc->ti->table), i, why);
	}
}

/*
 * A grow resumes where every member in service says it got (a crash may
 * have cut an update short, leaving some one step ahead): rows past that
 * are copied again from the old layout, which still holds them. Resuming
 * below it would read old rows the copy has overwritten.
 */
static u64 fanraid_meta_low_position(struct fanraid_meta *m)
{
	struct fanraid_c *fc = m->fc;
	struct fr_sb sb;
	u64 low = U64_MAX;
	u32 i;

	for (i = 0; i < fc->ndevs; i++) {
		if (!fc->devs[i].dm_dev || test_bit(i, fc->failed))
			continue;
		if (fr_sb_decode(page_address(m->devs[i].page), &sb))
			continue;
		low = min(low, sb.reshape_position);
	}
	return low;
}

static int fanraid_meta_check_reshape(struct fanraid_meta *m, char **error)
{
	struct fanraid_c *fc = m->fc;
	u64 low;

	if (!fc->features.reshape)
		return 0;
	low = fanraid_meta_low_position(m);
	if (low != fc->features.reshape_pos) {
		DMERR("reshape position %llu; the superblocks record %llu",
		      (unsigned long long)fc->features.reshape_pos,
		      (unsigned long long)low);
		*error = "Reshape position differs from the superblocks'";
		return -EINVAL;
	}
	m->reshape_pos = low;
	return 0;
}

/* ctr: read and check every present member's superblock (sleeping is fine). */
/* Only the cleaner's look takes the write count to zero: nothing to release. */
static void fanraid_meta_active_zero(struct percpu_ref *ref)
{
}

int fanraid_meta_create(struct fanraid_c *fc, char **error)
{
	struct fanraid_meta *m;
	struct fr_sb sb, best = { 0 }, first;
	DECLARE_BITMAP(unreadable, FR_MAX_DEVS);
	bool have = false;
	u32 i;
	int r;

	bitmap_zero(unreadable, FR_MAX_DEVS);
	m = kzalloc(struct_size(m, devs, fc->ndevs), GFP_KERNEL);
	if (!m) {
		*error = "Cannot allocate superblock state";
		return -ENOMEM;
	}
	fc->meta = m;
	m->fc = fc;
	mutex_init(&m->lock);
	init_completion(&m->done);
	timer_setup(&m->clean_timer, fanraid_meta_clean_timer, 0);
	INIT_WORK(&m->clean_work, fanraid_meta_clean_work);
	INIT_WORK(&m->fail_work, fanraid_meta_fail_work);
	m->delay = msecs_to_jiffies(fc->features.safe_mode_delay);
	/* Its first reference stays: the writes count above it. */
	if (percpu_ref_init(&m->active, fanraid_meta_active_zero,
			    PERCPU_REF_ALLOW_REINIT, GFP_KERNEL)) {
		*error = "Cannot allocate superblock write counter";
		return -ENOMEM;
	}
	for (i = 0; i < fc->ndevs; i++) {
		m->devs[i].page = alloc_page(GFP_KERNEL);
		if (!m->devs[i].page) {
			*error = "Cannot allocate superblock buffers";
			return -ENOMEM;
		}
	}
	m->wq = alloc_workqueue("kfanraidm", WQ_MEM_RECLAIM | WQ_UNBOUND, 1);
	if (!m->wq) {
		*error = "Cannot allocate superblock workqueue";
		return -ENOMEM;
	}

	for (i = 0; i < fc->ndevs; i++) {
		if (!fc->devs[i].dm_dev)
			continue;
		r = fanraid_meta_check(m, i, &sb, have ? &first : NULL, error);
		/*
		 * A member that cannot be read at all may be the failed one
		 * being replaced: decided below, once the others are known.
		 */
		if (r == -EIO) {
			__set_bit(i, unreadable);
			continue;
		}
		if (r)
			return r;
		if (!have)
			first = sb;
		if (!have || sb.events > best.events)
			best = sb;
		have = true;
	}
	if (!have) {
		*error = "No member with a superblock";
		return -EINVAL;
	}
	for_each_set_bit(i, unreadable, fc->ndevs) {
		if (!(best.failed_mask >> i & 1)) {
			*error = "Cannot read member superblock";
			return -EIO;
		}
		set_bit(i, fc->failed);
	}
	fanraid_meta_adopt(m, &best);
	return fanraid_meta_check_reshape(m, error);
}

/*
 * preresume: the table takes over the superblocks. Another table may have
 * written them since the ctr read them, so read them again; a resync or
 * rebuild about to run needs DIRTY on the media, and failures found
 * meanwhile are recorded at once.
 */
void fanraid_meta_resume(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;
	struct fr_sb sb, best = { 0 };
	bool have = false;
	char *error;
	u32 i;

	if (!m)
		return;
	mutex_lock(&m->lock);
	for (i = 0; i < fc->ndevs; i++) {
		if (!fc->devs[i].dm_dev || test_bit(i, fc->failed))
			continue;
		if (fanraid_meta_check(m, i, &sb, have ? &best : NULL, &error)) {
			fanraid_member_fail(fc, i, error, 0);
			continue;
		}
		if (!have || sb.events > best.events)
			best = sb;
		have = true;
	}
	if (have)
		fanraid_meta_adopt(m, &best);
	/*
	 * A table that ran meanwhile may have copied further (a reload during
	 * a grow): those rows are in the new layout now.
	 */
	if (have && fc->features.reshape)
		m->reshape_pos = max(m->reshape_pos, fanraid_meta_low_position(m));
	m->live = true;
	if (fanraid_meta_sync_running(fc) && !m->dirty) {
		if (!fanraid_meta_update(m, FR_SB_STATE_DIRTY, NULL, false))
			m->dirty = true;
	} else if (fanraid_meta_failed_unrecorded(m)) {
		fanraid_meta_update(m, m->dirty ? FR_SB_STATE_DIRTY : 0, NULL, false);
	}
	mutex_unlock(&m->lock);
	fanraid_meta_clean_arm(m);
}

/* postsuspend: no write is in flight; mark clean unless a sync is unfinished. */
void fanraid_meta_postsuspend(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;

	if (!m)
		return;
	del_timer_sync(&m->clean_timer);
	cancel_work_sync(&m->clean_work);
	flush_work(&m->fail_work);
	mutex_lock(&m->lock);
	if (m->live && fanraid_meta_failed_unrecorded(m))
		fanraid_meta_update(m, m->dirty ? FR_SB_STATE_DIRTY : 0, NULL, false);
	mutex_unlock(&m->lock);
	fanraid_meta_try_clean(m);
	mutex_lock(&m->lock);
	m->live = false;
	mutex_unlock(&m->lock);
}

/*
 * The superblock events and whether DIRTY is on the media, for INFO
 * status; 0 and false without the feature.
 */
u64 fanraid_meta_events(struct fanraid_c *fc)
{
	return fc->meta ? READ_ONCE(fc->meta->sb.events) : 0;
}

bool fanraid_meta_is_dirty(struct fanraid_c *fc)
{
	return fc->meta && READ_ONCE(fc->meta->dirty);
}

/* The superblock as last read or written (for the bitmap's fields). */
void fanraid_meta_get_sb(struct fanraid_c *fc, struct fr_sb *sb)
{
	mutex_lock(&fc->meta->lock);
	*sb = fc->meta->sb;
	mutex_unlock(&fc->meta->lock);
}

/* Whether member @i's own block says a rebuild from scratch is unfinished. */
bool fanraid_meta_member_rebuilding(struct fanraid_c *fc, u32 i)
{
	return fc->meta->devs[i].rebuilding;
}

/* Member @i's own events when the ctr read its block; 0 if it was not read. */
u64 fanraid_meta_member_events(struct fanraid_c *fc, u32 i)
{
	return fc->meta->devs[i].events;
}

/*
 * The bitmap is about to clear bits: events_cleared moves to a new events
 * value first, on every survivor. 0, or -EIO: the bits must stay.
 */
int fanraid_meta_bits_cleared(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;
	int r = -EIO;

	mutex_lock(&m->lock);
	if (m->live)
		r = fanraid_meta_update(m, m->dirty ? FR_SB_STATE_DIRTY : 0,
					NULL, true);
	mutex_unlock(&m->lock);
	return r;
}

/*
 * dtr. The DM core suspends a live table before destroying it, so
 * postsuspend has already marked it clean; a table that never went live
 * writes nothing (another table may own the superblocks).
 */
void fanraid_meta_destroy(struct fanraid_c *fc)
{
	struct fanraid_meta *m = fc->meta;
	u32 i;

	if (!m)
		return;
	if (m->wq) {
		fanraid_meta_postsuspend(fc);
		destroy_workqueue(m->wq);
	}
	for (i = 0; i < fc->ndevs; i++)
		if (m->devs[i].page)
			__free_page(m->devs[i].page);
	percpu_ref_exit(&m->active);
	kfree(m);
	fc->meta = NULL;
}
