// SPDX-License-Identifier: GPL-2.0-only
/*
 * A grow's work on the members themselves, beside the kernel's copy: the
 * critical section (the first new rows, which overwrite old rows whose
 * chunks they have not all copied yet; fr_reshape_critical_sectors())
 * goes through a backup on the new members' tails, as mdadm's backup
 * file, with the array suspended or not yet loaded; and every superblock
 * update of the grow, all members at one events value.
 *
 * Crash safety, step by step (docs/superblock.md, "Growing"): the backup
 * is written and flushed before BACKUP is recorded, and BACKUP is recorded
 * before the first new row is written, so a crash leaves either the old
 * rows untouched (no BACKUP: start again) or a whole backup (BACKUP:
 * rewrite the rows from it, which is what a restore does).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <raidcalc.h>

#include "cli.h"
#include "reshape.h"

int fr_reshape_geo_init(uint32_t level, uint32_t old_ndevs, uint32_t ndevs,
			uint32_t chunk, uint64_t member_sectors,
			struct fr_reshape_geo *rg)
{
	uint64_t chunks, per, rows;

	memset(rg, 0, sizeof(*rg));
	if (old_ndevs >= ndevs ||
	    fr_geom_init(&rg->old, level, old_ndevs, chunk, member_sectors) ||
	    fr_geom_init(&rg->new, level, ndevs, chunk, member_sectors))
		return -EINVAL;
	rg->added = ndevs - old_ndevs;
	rg->crit = fr_reshape_critical_sectors(&rg->old, &rg->new);
	/* RAID6 parity covers whole rows: the kernel starts at a row's edge. */
	if (level == FR_LEVEL_RAID6 &&
	    rg->crit % fr_geom_full_stripe_sectors(&rg->new))
		return -ENOSPC;
	chunks = rg->crit / chunk;
	per = (chunks + rg->added - 1) / rg->added;
	rows = (rg->crit + fr_geom_full_stripe_sectors(&rg->new) - 1) /
	       fr_geom_full_stripe_sectors(&rg->new);
	/* the backup must lie past the rows the critical section rewrites */
	if (rg->new.rows < rows + per)
		return -ENOSPC;
	rg->backup_start = (rg->new.rows - per) * chunk;
	return 0;
}

int fr_reshape_open_data(struct fr_reshape_members *rm)
{
	uint32_t i;

	for (i = 0; i < rm->n; i++)
		rm->dfd[i] = -1;
	for (i = 0; i < rm->n; i++) {
		rm->dfd[i] = open(rm->slots[i]->path,
				  O_RDWR | O_DIRECT | O_CLOEXEC);
		if (rm->dfd[i] < 0) {
			int err = -errno;

			fr_open_error(rm->slots[i]->path, err);
			fr_reshape_close_data(rm);
			return err;
		}
	}
	return 0;
}

void fr_reshape_close_data(struct fr_reshape_members *rm)
{
	uint32_t i;

	for (i = 0; i < rm->n; i++) {
		if (rm->dfd[i] >= 0)
			close(rm->dfd[i]);
		rm->dfd[i] = -1;
	}
}

/*
 * A flush of every member: what the kernel's copy has completed, and what
 * was written here, is on stable media before a superblock says so.
 */
int fr_reshape_flush(const struct fr_reshape_members *rm)
{
	uint32_t i;

	for (i = 0; i < rm->n; i++) {
		if (fsync(rm->dfd[i])) {
			int err = -errno;

			fr_err("%s: flush failed: %s", rm->slots[i]->path,
			       strerror(-err));
			return err;
		}
	}
	return 0;
}

/*
 * Every member's superblock at one new events value, state bits @set and
 * @clear, and reshape_position @position. Clearing RESHAPE ends the grow:
 * its fields go back to zero. Signals wait until all are written, so an
 * interrupted tool never leaves members a step apart by its own doing.
 */
int fr_reshape_sb_write(struct fr_reshape_members *rm, uint32_t set,
			uint32_t clear, uint64_t position)
{
	sigset_t block, old;
	uint64_t events = 0;
	uint32_t i;
	int ret = 0;

	for (i = 0; i < rm->n; i++)
		if (rm->slots[i]->sb.events > events)
			events = rm->slots[i]->sb.events;
	sigfillset(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	/* new members first: a block naming them exists before old ones do */
	for (i = rm->n; i-- > 0 && !ret;) {
		struct fr_sb sb = rm->slots[i]->sb;

		sb.events = events;
		fr_sb_touch(&sb, set, clear);
		if (sb.state & FR_SB_STATE_RESHAPE) {
			sb.reshape_position = position;
		} else {
			sb.reshape_position = 0;
			sb.reshape_old_ndevs = 0;
		}
		ret = fr_sb_write(rm->slots[i], &sb);
		if (ret)
			fr_err("%s: writing the superblock failed: %s",
			       rm->slots[i]->path, strerror(-ret));
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static int data_io(const struct fr_reshape_members *rm, uint32_t dev,
		   uint64_t sector, void *buf, size_t bytes, bool write)
{
	off_t pos = (off_t)((rm->slots[dev]->sb.data_offset + sector) << 9);
	ssize_t n = write ? pwrite(rm->dfd[dev], buf, bytes, pos) :
			    pread(rm->dfd[dev], buf, bytes, pos);

	if (n == (ssize_t)bytes)
		return 0;
	fr_err("%s: %s at data sector %llu failed: %s", rm->slots[dev]->path,
	       write ? "write" : "read", (unsigned long long)sector,
	       n < 0 ? strerror(errno) : "short transfer");
	return n < 0 ? -errno : -EIO;
}

/*
 * Chunk @j of the critical section: its backup's member (slot) and member
 * data sector. Public for the unit test, which holds it to the rule that
 * no two chunks share a place and none lies in a row the section rewrites.
 */
void fr_reshape_backup_loc(const struct fr_reshape_geo *rg, uint64_t j,
			   uint32_t *dev, uint64_t *sector)
{
	*dev = rg->old.ndevs + (uint32_t)(j % rg->added);
	*sector = rg->backup_start + j / rg->added * rg->new.chunk_sectors;
}

/* Copies every chunk of the critical section from one place to another. */
static int critical_copy(const struct fr_reshape_members *rm,
			 const struct fr_reshape_geo *rg, bool to_backup)
{
	size_t bytes = (size_t)rg->new.chunk_sectors << 9;
	uint64_t j, chunks = rg->crit / rg->new.chunk_sectors;
	void *buf;
	int ret = 0;

	if (posix_memalign(&buf, 4096, bytes))
		return -ENOMEM;
	for (j = 0; j < chunks && !ret; j++) {
		uint64_t l = j * rg->new.chunk_sectors, bsec;
		struct fr_loc loc;
		uint32_t bdev;

		fr_reshape_backup_loc(rg, j, &bdev, &bsec);
		if (to_backup) {
			fr_geom_map(&rg->old, l, &loc);
			ret = data_io(rm, loc.dev, loc.sector, buf, bytes, false);
			if (!ret)
				ret = data_io(rm, bdev, bsec, buf, bytes, true);
		} else {
			fr_geom_map(&rg->new, l, &loc);
			ret = data_io(rm, bdev, bsec, buf, bytes, false);
			if (!ret)
				ret = data_io(rm, loc.dev, loc.sector, buf, bytes,
					      true);
		}
	}
	free(buf);
	return ret;
}

/*
 * RAID6: P and Q of the critical section's new rows, from the data chunks
 * just put in place (ISA-L, the kernel's slot order: data, P, Q).
 */
static int critical_parity(const struct fr_reshape_members *rm,
			   const struct fr_reshape_geo *rg)
{
	const struct fr_geom *g = &rg->new;
	size_t bytes = (size_t)g->chunk_sectors << 9;
	uint64_t row, rows = rg->crit / fr_geom_full_stripe_sectors(g);
	uint32_t n = g->ndevs, s;
	void *ptrs[FR_MAX_DEVS];
	char *buf;
	int ret = 0;

	if (posix_memalign((void **)&buf, 4096, bytes * n))
		return -ENOMEM;
	for (s = 0; s < n; s++)
		ptrs[s] = buf + s * bytes;
	for (row = 0; row < rows && !ret; row++) {
		uint64_t sector = row * g->chunk_sectors;

		for (s = 0; s < g->data_devs && !ret; s++)
			ret = data_io(rm, fr_geom_data_dev(g, row, s), sector,
				      ptrs[s], bytes, false);
		if (!ret && rc_pq_gen(n, bytes, ptrs))
			ret = -EINVAL;
		if (!ret)
			ret = data_io(rm, fr_geom_p_dev(g, row), sector,
				      ptrs[n - 2], bytes, true);
		if (!ret)
			ret = data_io(rm, fr_geom_q_dev(g, row), sector,
				      ptrs[n - 1], bytes, true);
	}
	free(buf);
	return ret;
}

/*
 * The critical section, with nothing else writing the members: the old
 * rows' chunks into the backup (unless @from_backup: a restore after a
 * crash that found BACKUP), then from the backup into the new layout, and
 * reshape_position past it.
 */
int fr_reshape_critical(struct fr_reshape_members *rm,
			const struct fr_reshape_geo *rg, bool from_backup)
{
	const char *halt = getenv("FANRAID_TEST_HALT");
	int ret;

	if (!from_backup) {
		ret = critical_copy(rm, rg, true);
		if (!ret)
			ret = fr_reshape_flush(rm);
		if (!ret)
			ret = fr_reshape_sb_write(rm, FR_SB_STATE_RESHAPE |
						  FR_SB_STATE_RESHAPE_BACKUP, 0, 0);
		if (ret)
			return ret;
		/* test hook: a power cut inside the critical section */
		if (halt && !strcmp(halt, "backup")) {
			fprintf(stderr, "fanraid: FANRAID_TEST_HALT=backup: halted with the backup recorded\n");
			for (;;)
				pause();
		}
	}
	ret = critical_copy(rm, rg, false);
	if (!ret && rg->new.level == FR_LEVEL_RAID6)
		ret = critical_parity(rm, rg);
	if (!ret)
		ret = fr_reshape_flush(rm);
	if (!ret)
		ret = fr_reshape_sb_write(rm, FR_SB_STATE_RESHAPE,
					  FR_SB_STATE_RESHAPE_BACKUP, rg->crit);
	return ret;
}

/* The table features of a grow recorded in @sb. */
void fr_reshape_table(struct fr_table *t, const struct fr_sb *sb)
{
	t->reshape = sb->state & FR_SB_STATE_RESHAPE;
	t->reshape_old_ndevs = t->reshape ? sb->reshape_old_ndevs : 0;
	t->reshape_pos = t->reshape ? sb->reshape_position : 0;
}
