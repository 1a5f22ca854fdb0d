/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid replace NAME SLOT DEV [--force]: put DEV in place of a dead or
 * missing raid6 member and let the target rebuild it in the background
 * (the `rebuild <idx>` feature), without stopping the array.
 *
 * The new member's slot stays in every superblock's failed mask until a
 * clean stop finds it in sync (health A): an array that crashes
 * mid-rebuild is assembled without it, never trusting half a member.
 *
 * SLOT may also be a healthy member (given by number or by its device):
 * then it is a hot replace, which never has less redundancy than before.
 * The slot is reloaded onto a device whose head (superblock and bitmap)
 * is the old member's alone and whose data area is a dm-mirror ("mirror"
 * target, in-memory log) with the old member as first leg and DEV as
 * second: the old member keeps serving reads, every write reaches both,
 * and the mirror copies the old member onto DEV meanwhile. Without
 * handle_errors: the mirror then never reads from DEV, and never holds a
 * write that failed on one leg waiting for userspace (a hold would stall
 * the suspend of the array's own reload); this command watches the legs
 * itself, and compares them once the mirror says they agree, since it
 * says so of a region whose copy write failed. DEV holds no block until
 * the copy is whole and checked. Then the slot is reloaded onto DEV alone
 * (the suspend of that reload drains every write through the mirror
 * first), the mirror removed and the old member's superblock cleared. If
 * the old member fails during the copy, its slot is failed, the mirror
 * dropped, and DEV rebuilt from parity as for a dead slot; if DEV fails or
 * does not hold the copy, the slot goes back onto the old member. The
 * command waits for the copy.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "copycheck.h"
#include "dm.h"
#include "dmwait.h"
#include "probe.h"
#include "spare.h"
#include "status.h"
#include "table.h"
#include "util.h"

/*
 * Checks the new member like create does: exclusive, clean unless @force,
 * large enough. A spare or an old member of this array needs no @force.
 */
int fr_check_new_member(unsigned int flags, struct fr_member *nm,
			const struct fr_sb *tmpl, bool *wipe)
{
	bool force = flags & FR_REPLACE_FORCE;
	char desc[FR_PROBE_DESC_MAX], need[32], have[32];
	uint64_t bytes = (tmpl->data_offset + tmpl->member_sectors) << 9;
	int ret;

	ret = fr_member_open(nm, FR_OPEN_EXCL);
	if (ret) {
		fr_open_error(nm->path, ret);
		return ret;
	}
	ret = fr_probe_topology(nm);
	if (!ret)
		ret = fr_sb_read(nm);
	if (ret) {
		fr_err("%s: reading failed: %s", nm->path, strerror(-ret));
		return ret;
	}
	if (nm->size < bytes) {
		fr_format_size(nm->size, have, sizeof(have));
		fr_format_size(bytes, need, sizeof(need));
		fr_err("%s: too small (%s); the array needs %s per member",
		       nm->path, have, need);
		return -ENOSPC;
	}
	/* an old member of this very array may come back without --force */
	if (nm->sb_err == FR_SB_OK &&
	    memcmp(nm->sb.array_uuid, tmpl->array_uuid, FR_UUID_LEN) &&
	    !force && !(fr_sb_is_spare(&nm->sb) &&
			(flags & FR_REPLACE_SPARE_GROUP))) {
		if (fr_sb_is_spare(&nm->sb))
			fr_err("%s: is already a spare of fanraid array '%s' (use --force)",
			       nm->path, nm->sb.name);
		else
			fr_err("%s: is already slot %u of fanraid array '%s' (use --force)",
			       nm->path, nm->sb.slot, nm->sb.name);
		return -EEXIST;
	}
	ret = fr_probe_signatures(nm, desc, sizeof(desc));
	if (ret < 0) {
		fr_err("%s: probing for existing signatures failed: %s",
		       nm->path, strerror(-ret));
		return ret;
	}
	*wipe = ret == 0;
	if (ret == 0 && !force) {
		fr_err("%s: appears to contain %s (use --force)", nm->path, desc);
		return -EEXIST;
	}
	return 0;
}

/* Region of the hot-replace mirror: 512 KiB, copied one at a time. */
#define FR_HOT_REGION_SECTORS	1024
/* Bytes compared between two looks at the legs and the clock. */
#define FR_CMP_STEP		(64ull << 20)

/* Keep only what still runs of the old table's work (replace's rule). */
static void table_keep_running(struct fr_table *t, const struct fr_status *st,
			       uint64_t rebuild)
{
	uint32_t i;

	t->rebuild_mask = rebuild;
	for (i = 0; i < t->ndevs; i++) {
		if (st->health[i] != 'a')
			t->readd_mask &= ~(1ull << i);
		else if (!(t->readd_mask >> i & 1))
			t->rebuild_mask |= 1ull << i;
	}
	t->resync = t->resync && !strcmp(st->action, "resync");
}

/* Reload @name with slot @slot on @major:@minor, or missing (@major 0, @minor 0). */
static int reload_slot(const char *name, uint64_t len, uint32_t slot,
		       uint32_t major, uint32_t minor)
{
	char params[FR_TABLE_MAX];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_table t;
	uint8_t uuid[FR_UUID_LEN];
	uint64_t l;

	if (fr_array_open(name, &t, &l, uuid))
		return -EIO;
	if (fr_dm_status(name, FR_DM_INFO, &info) ||
	    fr_status_parse(info.params, &st) || st.ndevs != t.ndevs) {
		fr_err("%s: cannot read member health", name);
		return -EIO;
	}
	table_keep_running(&t, &st, 0);
	t.devs[slot].missing = !major && !minor;
	t.devs[slot].major = major;
	t.devs[slot].minor = minor;
	if (t.devs[slot].missing)
		t.rebuild_mask &= ~(1ull << slot);
	if (fr_table_build(&t, params, sizeof(params))) {
		fr_err("%s: cannot reload slot %u: more than two members would be missing or rebuilding",
		       name, slot);
		return -EINVAL;
	}
	return fr_dm_swap_table_or_err(name, len, params);
}

/*
 * The mirror's copy: 1 in sync, 0 copying, -1 the old member (first leg)
 * failed or the status is unreadable, -2 the new device failed.
 */
static int mirror_state(const char *mname, uint64_t *done, uint64_t *total)
{
	struct fr_dm_target tgt;
	char *w[16], *save = NULL, *p;
	unsigned long long a, b;
	int n = 0;

	if (fr_dm_status_other(mname, FR_DM_INFO, "mirror", &tgt))
		return -1;
	/* <#legs> <leg>... <in_sync>/<total> <#health> <health> <log...> */
	for (p = strtok_r(tgt.params, " ", &save); p && n < 16;
	     p = strtok_r(NULL, " ", &save))
		w[n++] = p;
	if (n < 6 || strcmp(w[0], "2") || sscanf(w[3], "%llu/%llu", &a, &b) != 2)
		return -1;
	*done = a;
	*total = b;
	if (strlen(w[5]) != 2 || w[5][0] != 'A')
		return -1;
	if (w[5][1] != 'A')
		return -2;
	return a == b;
}

/* Zero the old member's superblock: it is no member any more. */
/* Aligned, so @fd may be opened for direct I/O. */
static int zero_sb(int fd)
{
	void *zero;
	int ret = 0;

	if (posix_memalign(&zero, 4096, FR_SB_SIZE))
		return -ENOMEM;
	memset(zero, 0, FR_SB_SIZE);
	errno = EIO;
	if (pwrite(fd, zero, FR_SB_SIZE, FR_SB_OFFSET) != FR_SB_SIZE ||
	    fdatasync(fd))
		ret = -errno;
	free(zero);
	return ret;
}

static int clear_sb(const char *path)
{
	struct fr_member m;
	int ret;

	fr_member_init(&m, path);
	ret = fr_member_open(&m, FR_OPEN_EXCL);
	if (ret)
		return ret;
	ret = zero_sb(m.fd);
	fr_member_close(&m);
	return ret;
}

/*
 * The two legs of a hot replace, read and written directly: the old
 * member and the new device, the bytes before their data areas, and the
 * pieces that differed while the array ran.
 */
struct copy_legs {
	int old_fd;
	int new_fd;
	uint64_t head;
	struct fr_cmp_diffs diffs;
};

static void legs_close(struct copy_legs *cl)
{
	if (cl->old_fd >= 0)
		close(cl->old_fd);
	if (cl->new_fd >= 0)
		close(cl->new_fd);
	cl->old_fd = -1;
	cl->new_fd = -1;
}

/*
 * Where the copy stands, from the mirror and the array: 1 in sync, 0
 * copying, -1 the old member failed (or a leg failed once all was in
 * sync, which one nothing says), -2 the new device failed.
 *
 * Without handle_errors the mirror acknowledges a write that failed on a
 * leg and marks its region out of sync, and a region its copy has passed
 * is not copied again (the core log searches no further back until a
 * resume): the count stays short for good. Usually the leg shows its
 * error too; but a failure that lands as the last region gets in sync is
 * marked after the sync's end has reset the legs' errors, and only the
 * count shows it. A failed flush leaves the count whole but makes every
 * region written from then on go to the old member alone, unseen by
 * status; it only costs the mirror its in-sync flag, so the next pass
 * raises a second sync event. The mirror raises one event at each sync's
 * end and no other (bar a rename or removal): read before the status, one
 * event with a short count is a failed write; read after it, a second
 * event is a failed flush.
 */
static int copy_state(const char *name, const char *mname, uint32_t slot,
		      const struct fr_table *t, uint64_t *done,
		      uint64_t *total)
{
	struct fr_dm_target info;
	struct fr_status st;
	uint32_t before = 0, after = 0;
	int state;

	fr_dm_event_nr(mname, &before);
	state = mirror_state(mname, done, total);
	if (state == -2)
		return -2;
	if (fr_dm_status(name, FR_DM_INFO, &info) ||
	    fr_status_parse(info.params, &st) || st.ndevs != t->ndevs ||
	    st.health[slot] != 'A')
		return -1;
	if (!state && before) {
		fr_err("%s: a leg of the copy failed a write once it was in sync",
		       name);
		return -1;
	}
	if (!fr_dm_event_nr(mname, &after) && after > 1) {
		fr_err("%s: a leg of the copy failed a flush", name);
		return -1;
	}
	return state;
}

/*
 * The data areas compared once the mirror reports them in sync, since it
 * says so of a region whose copy write failed. Pieces that still differ
 * after a few reads are kept for finish_copy to check at rest. The legs
 * are asked again between steps: while the old member shows an error the
 * mirror reads from the new one, unchecked. -EILSEQ when DEV fails, cannot
 * be read or too much differs; -ENODEV when the old member does or cannot
 * be read.
 */
static int compare_legs(const char *name, const char *mname, uint32_t slot,
			const char *oldpath, const char *dev,
			const struct fr_table *t, struct copy_legs *cl,
			uint64_t end)
{
	uint64_t at, n, done, total;
	enum fr_cmp_side bad = FR_CMP_NONE;
	time_t last = time(NULL);
	int ret = 0, state;

	printf("%s: comparing the copy on %s with slot %u\n", name, dev, slot);
	fflush(stdout);
	for (at = cl->head; at < end; at += n) {
		n = end - at < FR_CMP_STEP ? end - at : FR_CMP_STEP;
		ret = fr_cmp_range(cl->old_fd, cl->new_fd, at, n, 4,
				   &cl->diffs, &bad);
		if (ret == -E2BIG) {
			fr_err("%s: the copy on %s differs from slot %u in more than %u pieces of %u KiB",
			       name, dev, slot, FR_CMP_MAX_DIFFS,
			       FR_CMP_PIECE >> 10);
			return -EILSEQ;
		}
		if (ret) {
			fr_err("%s: reading %s to compare the copy failed: %s",
			       name, bad == FR_CMP_A ? oldpath : dev,
			       strerror(-ret));
			return bad == FR_CMP_A ? -ENODEV : -EILSEQ;
		}
		state = copy_state(name, mname, slot, t, &done, &total);
		if (state == -2) {
			fr_err("%s: %s failed a write during the comparison",
			       name, dev);
			return -EILSEQ;
		}
		if (state != 1) {
			fr_err("%s: slot %u failed during the comparison",
			       name, slot);
			return -ENODEV;
		}
		/* a whole drive takes a while: say how far it got */
		if (time(NULL) - last >= 10) {
			last = time(NULL);
			printf("%s: compared %llu of %llu MiB\n", name,
			       (unsigned long long)((at + n - cl->head) >> 20),
			       (unsigned long long)((end - cl->head) >> 20));
			fflush(stdout);
		}
	}
	return 0;
}

/*
 * With the array at rest: what differed is read once more, and the head
 * (the bitmap, which only the old member took during the copy) copied,
 * all but the superblock: DEV gets a block of its own only once all else
 * is there (finish_copy()). -EILSEQ when DEV does not hold the copy,
 * -ENODEV when the old member cannot be read.
 */
static int settle_legs(const char *name, uint32_t slot, const char *dev,
		       struct copy_legs *cl)
{
	enum fr_cmp_side bad;
	int ret;

	ret = fr_cmp_again(cl->old_fd, cl->new_fd, &cl->diffs, &bad);
	if (!ret && cl->diffs.n) {
		fr_err("%s: the copy on %s differs from slot %u at byte %llu with the array suspended (%u pieces): %s lost writes",
		       name, dev, slot, (unsigned long long)cl->diffs.off[0],
		       cl->diffs.n, dev);
		return -EILSEQ;
	}
	if (!ret)
		ret = fr_copy_range(cl->old_fd, cl->new_fd, 0, FR_SB_OFFSET,
				    &bad);
	if (!ret && cl->head > FR_SB_OFFSET + FR_SB_SIZE)
		ret = fr_copy_range(cl->old_fd, cl->new_fd,
				    FR_SB_OFFSET + FR_SB_SIZE,
				    cl->head - FR_SB_OFFSET - FR_SB_SIZE, &bad);
	if (ret) {
		fr_err("%s: %s failed while the copy was checked: %s", name,
		       bad == FR_CMP_B ? dev : "the old member",
		       strerror(-ret));
		return bad == FR_CMP_A ? -ENODEV : -EILSEQ;
	}
	return 0;
}

/* DEV's block zeroed: no assembly takes it for any array's slot. */
static int unclaim(struct copy_legs *cl, const char *dev)
{
	int ret = zero_sb(cl->new_fd);

	if (ret)
		fr_err("%s: clearing its superblock failed: %s; zero it before any assembly sees it (dd if=/dev/zero of=%s bs=4096 seek=1 count=1)",
		       dev, strerror(-ret), dev);
	return ret;
}

/*
 * The copy is whole: the slot moves onto @nm alone. Suspended first, which
 * drains every write through mirror @mname; the mirror and the slot's
 * health are asked again then, the legs' last differences checked and the
 * bitmap copied (settle_legs()). Then @nm gets the old member's block
 * with a member uuid of its own, one event on, before any other block is
 * touched: if that fails, nothing else has changed. Then every other
 * block in service, and then all of them again: the old member, which
 * keeps the block it had, is left two events behind, where assembly never
 * takes it for the slot (one behind may be an update a crash cut short).
 * A crash in between finds @nm a step ahead of the old member, which
 * assembly prefers, with the whole copy. Once a block is written the
 * table without the mirror is loaded whatever else fails.
 * -EILSEQ: @nm does not hold the copy, or (-EAGAIN) the swap cannot be
 * made safely: nothing written, the array resumed on the mirror.
 * -ENODEV: a leg failed, nothing written, the slot already reloaded
 * missing (no read reaches the mirror again). Any other error: the
 * mirror stays.
 */
static int finish_copy(const char *name, const char *mname, uint32_t slot,
		       struct fr_member *nm, const char *oldpath,
		       const struct fr_table *t, uint64_t len,
		       struct copy_legs *cl)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	struct fr_member m[FR_MAX_DEVS], *slots[FR_MAX_DEVS], om;
	uint64_t done = 0, total = 0, l;
	uint8_t uuid[FR_UUID_LEN];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_table rt;
	uint32_t i;
	int ret, rc;

	if (fr_array_open(name, &rt, &l, uuid))
		return -EAGAIN;
	ret = fr_dm_suspend(name);
	if (ret) {
		fr_err("%s: suspending to swap in %s failed: %s", name,
		       nm->path, strerror(-ret));
		return -EAGAIN;
	}
	rt.devs[slot].missing = true;	/* the mirror: @nm is read directly */
	fr_members_from_table(&rt, uuid, FR_OPEN_SHARED, m, paths);
	fr_member_init(&om, oldpath);
	rc = copy_state(name, mname, slot, t, &done, &total);
	if (rc != 1) {
		fr_err("%s: the copy onto %s is no longer whole (%llu of %llu regions, or a leg failed)",
		       name, nm->path, (unsigned long long)done,
		       (unsigned long long)total);
		rc = rc == -2 ? -EILSEQ : -ENODEV;
		goto out;
	}
	rc = -EAGAIN;
	if (fr_dm_status(name, FR_DM_INFO, &info) ||
	    fr_status_parse(info.params, &st) || st.ndevs != t->ndevs) {
		fr_err("%s: cannot read member health", name);
		goto out;
	}
	rc = -ENODEV;
	if (st.health[slot] != 'A') {
		fr_err("%s: slot %u is no longer healthy", name, slot);
		goto out;
	}
	rc = settle_legs(name, slot, nm->path, cl);
	if (rc)
		goto out;
	rc = -ENODEV;
	ret = fr_member_open(&om, FR_OPEN_READ);
	if (!ret)
		ret = fr_sb_read(&om);
	if (ret || om.sb_err || om.sb.slot != slot ||
	    memcmp(om.sb.array_uuid, uuid, FR_UUID_LEN)) {
		fr_err("%s: the old member's superblock cannot be read", oldpath);
		goto out;
	}
	/* every block in service level with it, or the update leaves one behind */
	rc = -EAGAIN;
	for (i = 0; i < t->ndevs; i++) {
		if (i == slot || st.health[i] != 'A')
			continue;
		if (m[i].fd < 0 || m[i].sb_err ||
		    m[i].sb.events != om.sb.events) {
			fr_err("%s: member %u's superblock cannot be read or is not level with slot %u's; nothing written",
			       name, i, slot);
			goto out;
		}
	}
	rc = -EILSEQ;
	ret = fr_member_open(nm, FR_OPEN_SHARED);
	if (ret) {
		fr_open_error(nm->path, ret);
		goto out;
	}
	nm->sb = om.sb;
	nm->sb_err = FR_SB_OK;
	fr_uuid_generate(nm->sb.member_uuid);
	for (i = 0; i < t->ndevs; i++)
		slots[i] = NULL;
	slots[slot] = nm;
	/* each write leaves the member's block in slots[i]->sb, one on */
	if (fr_members_write(slots, t->ndevs, 0, 0, 0, 0)) {
		unclaim(cl, nm->path);
		goto out;
	}
	for (i = 0; i < t->ndevs; i++)
		slots[i] = st.health[i] == 'A' && i != slot ? &m[i] : NULL;
	ret = fr_members_write(slots, t->ndevs, 0, 0, 0, 0);
	slots[slot] = nm;
	if (fr_members_write(slots, t->ndevs, 0, 0, 0, 0) || ret)
		fr_warn("%s: not every superblock took the swap; the kernel fails a member left behind",
			name);
	fr_member_close(nm);
	rc = reload_slot(name, len, slot, major(nm->rdev), minor(nm->rdev));
	if (rc == -EILSEQ || rc == -EAGAIN || rc == -ENODEV)
		rc = -EIO;
out:
	fr_member_close(&om);
	fr_member_close(nm);
	for (i = 0; i < t->ndevs; i++)
		fr_member_close(&m[i]);
	/* a failed leg: the mirror may serve what the old member lost */
	if (rc == -ENODEV && !reload_slot(name, len, slot, 0, 0))
		return rc;
	if (rc && fr_dm_resume(name))
		fr_err("%s: resuming failed (the array is left suspended: dmsetup resume %s)",
		       name, name);
	return rc;
}

/* The new device is dropped: the slot goes back onto the old member alone. */
static int drop_copy(const char *name, const char *mname, uint32_t slot,
		     const struct fr_table *t, uint64_t len)
{
	int ret;

	ret = reload_slot(name, len, slot, t->devs[slot].major,
			  t->devs[slot].minor);
	if (!ret)
		ret = fr_dm_remove(mname);
	return ret;
}

static int hot_replace(const char *name, uint32_t slot, const char *dev,
		       unsigned int flags, const struct fr_table *t,
		       const struct fr_sb *tmpl, uint64_t len,
		       const char *oldpath)
{
	char mname[160], head[64], mirror[160];
	struct copy_legs cl = { .old_fd = -1, .new_fd = -1 };
	struct fr_dm_seg seg[2];
	struct fr_dm_info mi;
	struct fr_member nm;
	uint64_t rows, off = t->devs[slot].offset, done = 0, total = 0;
	bool wipe = false, compared = false, was_spare, its_fault = true;
	int state, ret, rc = FR_EXIT_FAIL;
	time_t last = 0;

	/* a closed terminal or pipe must not leave the slot on the mirror */
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	fr_member_init(&nm, dev);
	if (fr_check_new_member(flags, &nm, tmpl, &wipe))
		goto out_close;
	if (wipe) {
		ret = fr_wipe_signatures(&nm);
		if (ret) {
			fr_err("%s: erasing old signatures failed: %s", nm.path,
			       strerror(-ret));
			goto out_close;
		}
	}
	fr_member_close(&nm);
	was_spare = !nm.sb_err && fr_sb_is_spare(&nm.sb);
	cl.old_fd = fr_cmp_open(oldpath, O_RDONLY);
	cl.new_fd = fr_cmp_open(dev, O_RDWR);
	if (cl.old_fd < 0 || cl.new_fd < 0) {
		fr_open_error(cl.old_fd < 0 ? oldpath : dev,
			      cl.old_fd < 0 ? cl.old_fd : cl.new_fd);
		goto out_legs;
	}
	cl.head = off << 9;
	rows = fr_geom_member_sectors_for(t->level, t->ndevs, t->chunk_sectors,
					  len);
	/*
	 * The head (superblock and bitmap) on the old member alone, the data
	 * area mirrored: an array that crashes mid-copy finds no block on
	 * the new device to take its partial copy for the slot.
	 */
	snprintf(head, sizeof(head), "%u:%u 0", t->devs[slot].major,
		 t->devs[slot].minor);
	snprintf(mirror, sizeof(mirror), "core 1 %u 2 %u:%u %llu %u:%u %llu",
		 FR_HOT_REGION_SECTORS, t->devs[slot].major,
		 t->devs[slot].minor, (unsigned long long)off, major(nm.rdev),
		 minor(nm.rdev), (unsigned long long)off);
	seg[0] = (struct fr_dm_seg){ off, "linear", head };
	seg[1] = (struct fr_dm_seg){ rows, "mirror", mirror };
	snprintf(mname, sizeof(mname), "%s-replace%u", name, slot);
	ret = fr_dm_create_other(mname, off ? seg : seg + 1, off ? 2 : 1);
	if (ret) {
		fr_err("%s: creating the copy mirror '%s' (%s) failed: %s (is dm-mirror loaded?)",
		       name, mname, mirror, strerror(-ret));
		goto out_legs;
	}
	if (fr_dm_info(mname, &mi) || !mi.exists) {
		fr_err("%s: the copy mirror '%s' vanished", name, mname);
		goto out_mirror;
	}
	/* no block on the new device until the copy is whole and checked */
	if (unclaim(&cl, dev))
		goto out_mirror;
	if (reload_slot(name, len, slot, mi.major, mi.minor))
		goto out_mirror;
	printf("%s: copying slot %u (%s) onto %s while it stays in service\n",
	       name, slot, oldpath, dev);
	fflush(stdout);
	for (;;) {
		state = copy_state(name, mname, slot, t, &done, &total);
		if (state == -2)
			fr_err("%s: %s failed a write during the copy", name,
			       dev);
		if (state == 1 && !compared) {
			ret = compare_legs(name, mname, slot, oldpath, dev, t,
					   &cl, (off + rows) << 9);
			if (!ret) {
				compared = true;
				continue;
			}
			state = ret == -ENODEV ? -1 : -2;
		}
		if (state)
			break;
		if (time(NULL) - last >= 10) {
			last = time(NULL);
			printf("%s: copied %llu of %llu regions\n", name,
			       (unsigned long long)done,
			       (unsigned long long)total);
			fflush(stdout);
		}
		usleep(200000);
	}
	if (state == 1) {
		ret = finish_copy(name, mname, slot, &nm, oldpath, t, len, &cl);
		its_fault = ret != -EAGAIN;
		if (ret == -EILSEQ || ret == -EAGAIN)
			state = -2;
		else if (ret == -ENODEV)
			state = -1;
		else if (ret)
			goto out_mirror;
	}
	if (state == -2) {
		/* the new device failed or lost writes: the old member goes on alone */
		if (drop_copy(name, mname, slot, t, len))
			fr_err("%s: %s is not taken, but the copy mirror '%s' could not be dropped: slot %u still reads %s where %s fails (fanraid fail %s %u, then replace it)",
			       name, dev, mname, slot, dev, oldpath, name,
			       slot);
		else
			fr_err("%s: slot %u stays on %s; %s is not taken", name,
			       slot, oldpath, dev);
		/* its block was zeroed for the copy */
		if (was_spare && its_fault)
			fr_warn("%s: was a spare of %s and is not any more: it failed or lost writes",
				dev, name);
		else if (was_spare)
			fr_warn("%s: was a spare of %s; give it back with fanraid add %s %s",
				dev, name, name, dev);
		goto out_legs;
	}
	legs_close(&cl);
	if (state < 0) {
		/* the old member failed mid-copy: parity rebuilds the new one */
		fr_warn("%s: slot %u (%s) failed during the copy; rebuilding %s from parity instead",
			name, slot, oldpath, dev);
		/* missing, the slot is recorded failed at the resume */
		if (reload_slot(name, len, slot, 0, 0)) {
			/* recorded failed at least: its writes were acknowledged */
			snprintf(mirror, sizeof(mirror), "fail %u", slot);
			if (fr_dm_message(name, mirror))
				fr_err("%s: failing slot %u failed too; do not trust %s",
				       name, slot, oldpath);
			goto out_mirror;
		}
		ret = fr_dm_remove(mname);
		if (ret) {
			fr_err("%s: removing the copy mirror '%s' failed: %s",
			       name, mname, strerror(-ret));
			return FR_EXIT_FAIL;
		}
		return fr_replace_slot(name, slot, dev,
				       flags | FR_REPLACE_FORCE);
	}
	ret = fr_dm_remove(mname);
	if (ret)
		fr_warn("%s: removing the copy mirror '%s' failed: %s (dmsetup remove %s)",
			name, mname, strerror(-ret), mname);
	ret = clear_sb(oldpath);
	if (ret)
		fr_warn("%s: clearing the old member's superblock failed: %s",
			oldpath, strerror(-ret));
	printf("%s: slot %u is now %s, copied from %s in %llu regions; %s is no longer a member%s\n",
	       name, slot, dev, oldpath, (unsigned long long)total, oldpath,
	       ret ? "" : " (its superblock is cleared)");
	return FR_EXIT_OK;
out_mirror:
	/* the array still runs on whatever table it has; the mirror stays if in use */
	if (fr_dm_remove(mname))
		fr_warn("%s: the copy mirror '%s' is still in use", name, mname);
out_legs:
	legs_close(&cl);
	return rc;
out_close:
	fr_member_close(&nm);
	return rc;
}

/*
 * Puts @nm (checked, open) in dead slot @slot and starts its rebuild. The
 * kernel updates the blocks at any moment while the table is live: a
 * member it fails is recorded on its peers before the writes that skipped
 * it complete. Blocks read before such an update and written after it
 * would take the failure back, and the new table would load that member
 * as in sync with the writes it missed. Suspended, the table writes
 * nothing; so the table, health and blocks are read after the suspend,
 * written, and the new table loaded before the resume.
 */
static int cold_replace(const char *name, uint32_t slot, struct fr_member *nm,
			struct fr_table *t, const uint8_t *uuid)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX], params[FR_TABLE_MAX];
	struct fr_member m[FR_MAX_DEVS], *slots[FR_MAX_DEVS];
	const struct fr_sb *tmpl = NULL;
	uint8_t now[FR_UUID_LEN];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_sb sb;
	uint64_t l;
	uint32_t i;
	int ret, rc = FR_EXIT_FAIL;

	ret = fr_dm_suspend(name);
	if (ret) {
		fr_err("%s: suspending failed: %s; nothing changed", name,
		       strerror(-ret));
		return FR_EXIT_FAIL;
	}
	/* the table as it is now: another command may have reloaded it */
	if (fr_array_open(name, t, &l, now) ||
	    memcmp(now, uuid, FR_UUID_LEN) || slot >= t->ndevs) {
		fr_err("%s: the array changed meanwhile; nothing changed", name);
		if (fr_dm_resume(name))
			fr_err("%s: resuming failed (dmsetup resume %s)", name,
			       name);
		return FR_EXIT_FAIL;
	}
	fr_members_from_table(t, uuid, FR_OPEN_SHARED, m, paths);
	ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret || fr_status_parse(info.params, &st) || st.ndevs != t->ndevs) {
		fr_err("%s: cannot read member health", name);
		goto out;
	}
	if (st.health[slot] != 'D') {
		fr_err("%s: slot %u is no longer failed (health %c); nothing changed",
		       name, slot, st.health[slot]);
		goto out;
	}
	for (i = 0; i < t->ndevs; i++) {
		slots[i] = st.health[i] == 'A' ? &m[i] : NULL;
		if (slots[i] && m[i].fd >= 0 && !tmpl)
			tmpl = &m[i].sb;
	}
	if (!tmpl) {
		fr_err("%s: no healthy member's superblock could be read", name);
		goto out;
	}

	/* the old table's finished work is not redone: keep only what still runs */
	t->devs[slot].missing = false;
	t->devs[slot].major = major(nm->rdev);
	t->devs[slot].minor = minor(nm->rdev);
	t->devs[slot].offset = tmpl->data_offset;
	t->rebuild_mask = 1ull << slot;
	for (i = 0; i < t->ndevs; i++) {
		if (st.health[i] != 'a')
			t->readd_mask &= ~(1ull << i);
		else if (!(t->readd_mask >> i & 1))
			t->rebuild_mask |= 1ull << i;
	}
	t->readd_mask &= ~(1ull << slot);
	t->resync = t->resync && !strcmp(st.action, "resync");
	if (fr_table_build(t, params, sizeof(params))) {
		fr_err("%s: cannot replace slot %u: more than two members would be missing or rebuilding",
		       name, slot);
		goto out;
	}
	if (fr_dm_check_version(t))
		goto out;

	sb = *tmpl;
	sb.slot = slot;
	fr_uuid_generate(sb.member_uuid);
	/* a crash mid-rebuild must never let it back in as a re-add */
	sb.state |= FR_SB_STATE_REBUILDING;
	nm->sb = sb;
	slots[slot] = nm;
	/* every writer lands on the same events; the new slot stays failed until in sync */
	if (fr_members_write(slots, t->ndevs, FR_SB_STATE_DIRTY, 0,
			     1ull << slot, 0))
		goto out;
	fr_member_close(nm);
	ret = fr_dm_reload(name, l, params);
	if (ret) {
		fr_err("%s: loading table '%s' failed: %s (see dmesg); the old table goes on",
		       name, params, strerror(-ret));
		goto out;
	}
	rc = FR_EXIT_OK;
out:
	for (i = 0; i < t->ndevs; i++)
		fr_member_close(&m[i]);
	/* with a table loaded, this swaps it in */
	ret = fr_dm_resume(name);
	if (ret) {
		fr_err("%s: resuming failed: %s (the array is left suspended: dmsetup resume %s)",
		       name, strerror(-ret), name);
		return FR_EXIT_FAIL;
	}
	if (rc == FR_EXIT_OK)
		printf("%s: slot %u is now %s; rebuilding in the background (fanraid status %s)\n",
		       name, slot, nm->path, name);
	return rc;
}

static int replace_slot(const char *name, uint32_t slot, const char *dev,
			unsigned int flags)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	struct fr_member m[FR_MAX_DEVS], nm;
	const struct fr_sb *tmpl = NULL;
	uint8_t uuid[FR_UUID_LEN];
	struct fr_dm_target info;
	struct fr_status st;
	struct fr_table t;
	struct stat sst;
	uint64_t len;
	uint32_t i;
	bool wipe = false;
	int ret, rc = FR_EXIT_FAIL;

	if (fr_array_open(name, &t, &len, uuid))
		return FR_EXIT_FAIL;
	if (t.level != FR_LEVEL_RAID6) {
		fr_err("%s: replace needs raid6 (a raid0 member cannot be rebuilt)",
		       name);
		return FR_EXIT_FAIL;
	}
	if (slot >= t.ndevs) {
		fr_err("%s: slot %u does not exist (the array has %u members)",
		       name, slot, t.ndevs);
		return FR_EXIT_USAGE;
	}
	ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret || fr_status_parse(info.params, &st) || st.ndevs != t.ndevs) {
		fr_err("%s: cannot read member health", name);
		return FR_EXIT_FAIL;
	}
	if (st.health[slot] == 'a') {
		fr_err("%s: slot %u is already being rebuilt", name, slot);
		return FR_EXIT_FAIL;
	}
	if (stat(dev, &sst)) {
		fr_open_error(dev, -errno);
		return FR_EXIT_FAIL;
	}
	if (!S_ISBLK(sst.st_mode)) {
		fr_open_error(dev, -ENOTBLK);
		return FR_EXIT_FAIL;
	}
	for (i = 0; i < t.ndevs; i++)
		if (!t.devs[i].missing && i != slot &&
		    makedev(t.devs[i].major, t.devs[i].minor) == sst.st_rdev) {
			fr_err("%s: is already slot %u of %s", dev, i,
			       name);
			return FR_EXIT_FAIL;
		}

	/* the static fields (uuid, sizes) for checking the new device */
	fr_members_from_table(&t, uuid, FR_OPEN_SHARED, m, paths);
	for (i = 0; i < t.ndevs && !tmpl; i++)
		if (st.health[i] == 'A' && m[i].fd >= 0)
			tmpl = &m[i].sb;
	fr_member_init(&nm, dev);
	if (!tmpl) {
		fr_err("%s: no healthy member's superblock could be read", name);
		goto out;
	}
	if (st.health[slot] == 'A') {
		if (makedev(t.devs[slot].major, t.devs[slot].minor) ==
		    sst.st_rdev) {
			fr_err("%s: is slot %u itself", dev, slot);
			goto out;
		}
		for (i = 0; i < t.ndevs; i++)
			fr_member_close(&m[i]);
		return hot_replace(name, slot, dev, flags, &t, tmpl, len,
				   paths[slot]);
	}
	if (fr_check_new_member(flags, &nm, tmpl, &wipe))
		goto out;
	if (wipe) {
		ret = fr_wipe_signatures(&nm);
		if (ret) {
			fr_err("%s: erasing old signatures failed: %s", nm.path,
			       strerror(-ret));
			goto out;
		}
	}
	for (i = 0; i < t.ndevs; i++)
		fr_member_close(&m[i]);
	rc = cold_replace(name, slot, &nm, &t, uuid);
out:
	fr_member_close(&nm);
	for (i = 0; i < t.ndevs; i++)
		fr_member_close(&m[i]);
	return rc;
}

/*
 * The array's lock (fr_dm_lock()) from the first read to the last swap,
 * the copy of a hot replace included: no other command changes the array
 * meanwhile (the monitor's spare waits for it too).
 */
int fr_replace_slot(const char *name, uint32_t slot, const char *dev,
		    unsigned int flags)
{
	int rc;

	fr_dm_lock(name);
	rc = replace_slot(name, slot, dev, flags);
	fr_dm_unlock();
	return rc;
}

/* The slot of running array @name that device @path holds. */
static int slot_of_device(const char *name, const char *path, uint32_t *slot)
{
	uint8_t uuid[FR_UUID_LEN];
	struct fr_table t;
	struct stat sst;
	uint64_t len;
	uint32_t i;

	if (stat(path, &sst) || !S_ISBLK(sst.st_mode)) {
		fr_err("%s: invalid slot number, and not a block device", path);
		return -EINVAL;
	}
	if (fr_array_open(name, &t, &len, uuid))
		return -ENXIO;
	for (i = 0; i < t.ndevs; i++)
		if (!t.devs[i].missing &&
		    makedev(t.devs[i].major, t.devs[i].minor) == sst.st_rdev) {
			*slot = i;
			return 0;
		}
	fr_err("%s: is no member of %s", path, name);
	return -ENOENT;
}

int fr_cmd_replace(const struct fr_opts *o)
{
	uint32_t slot;
	int ret;

	if (fr_parse_u32(o->argv[1], &slot)) {
		ret = slot_of_device(o->argv[0], o->argv[1], &slot);
		if (ret)
			return ret == -EINVAL ? FR_EXIT_USAGE : FR_EXIT_FAIL;
	}
	if (slot >= FR_MAX_DEVS) {
		fr_err("%s: invalid slot number", o->argv[1]);
		return FR_EXIT_USAGE;
	}
	return fr_replace_slot(o->argv[0], slot, o->argv[2],
			       o->force ? FR_REPLACE_FORCE : 0);
}
