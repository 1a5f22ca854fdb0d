// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid grow NAME --add DEV...: restripe a running raid0 or raid6 array
 * onto more members, keeping its data (md's --grow). fanraid grow NAME
 * --continue: finish one that was cut off (assembly loads it mid-copy).
 *
 * The kernel copies (table feature reshape, fanraid-reshape.c). For raid0
 * this records: it flushes the members, writes how far the copy got into
 * every superblock and tells the kernel (reshape_safe), which may then
 * overwrite old rows holding only recorded data. Without that the copy
 * stops; the array's I/O never does. A raid6 table keeps its superblocks
 * itself and records its own progress; this only watches. When all is
 * copied the superblocks and the table take the new shape, and the
 * filesystem can grow.
 */
#include <errno.h>
#include <signal.h>
#include <sys/sysmacros.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "dm.h"
#include "reshape.h"
#include "spare.h"
#include "status.h"
#include "table.h"
#include "util.h"

/* Checkpoints at most this often while writes wait on none. */
#define FR_GROW_RECORD_MS	500
#define FR_GROW_POLL_MS		100

static volatile sig_atomic_t grow_stop;

static void grow_on_signal(int sig)
{
	(void)sig;
	grow_stop = 1;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Progress: a line per tenth on a pipe, one redrawn line on a terminal. */
static void grow_progress(const char *name, uint64_t done, uint64_t len,
			  uint64_t t0, uint64_t done0, int *tenth)
{
	uint64_t ms = now_ms() - t0, left = 0;
	double mibs = ms ? (double)(done - done0) / 2048.0 * 1000.0 / ms : 0;
	bool tty = isatty(STDOUT_FILENO);
	int t = (int)(done * 10 / len);

	if (!tty && t == *tenth)
		return;
	*tenth = t;
	if (mibs > 0)
		left = (uint64_t)((double)(len - done) / 2048.0 / mibs);
	printf("%s%s: grow %5.1f%% (%llu of %llu MiB), %.1f MiB/s, %llu s left%s",
	       tty ? "\r" : "", name, 100.0 * (double)done / (double)len,
	       (unsigned long long)(done >> 11), (unsigned long long)(len >> 11),
	       mibs, (unsigned long long)left, tty ? "" : "\n");
	fflush(stdout);
}

/* What the kernel wrote last: a raid6 table keeps the superblocks. */
static int grow_reread(const char *name, struct fr_reshape_members *rm)
{
	uint32_t i;
	int ret;

	for (i = 0; i < rm->n; i++) {
		ret = fr_sb_read(rm->slots[i]);
		if (!ret && rm->slots[i]->sb_err)
			ret = -EINVAL;
		if (ret) {
			fr_err("%s: %s: reading the superblock failed: %s", name,
			       rm->slots[i]->path, ret == -EINVAL ?
			       fr_sb_strerror(rm->slots[i]->sb_err) :
			       strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * The grow's superblocks from the first member's: the new members get its
 * fields (their own slot and member UUID kept), every one the new shape.
 */
static void grow_shape(struct fr_member *m, uint32_t old, uint32_t k,
		       const struct fr_reshape_geo *rg)
{
	uint32_t i;

	for (i = old; i < old + k; i++) {
		struct fr_sb sb = m[0].sb;

		sb.slot = i;
		memcpy(sb.member_uuid, m[i].sb.member_uuid, FR_UUID_LEN);
		m[i].sb = sb;
	}
	for (i = 0; i < old + k; i++) {
		m[i].sb.ndevs = old + k;
		m[i].sb.array_sectors = rg->new.capacity;
		m[i].sb.reshape_old_ndevs = old;
	}
}

/*
 * raid6: the running table writes the superblocks until it is suspended,
 * and the new one reads them when it loads: suspend, clear the grow on
 * the blocks of the members in service, read afresh, load, resume. A
 * member that failed during the copy keeps its block; the others record
 * it failed.
 */
static int grow_finish_raid6(const char *name, struct fr_reshape_members *rm,
			     const char *params)
{
	uint64_t len = rm->slots[0]->sb.array_sectors;
	struct fr_reshape_members live = { .n = 0 };
	struct fr_dm_target tgt;
	struct fr_status st;
	uint32_t i;
	int ret;

	ret = fr_dm_suspend(name);
	if (ret) {
		fr_err("%s: suspending failed: %s", name, strerror(-ret));
		return ret;
	}
	if (fr_dm_status(name, FR_DM_INFO, &tgt) ||
	    fr_status_parse(tgt.params, &st) || strlen(st.health) != rm->n) {
		fr_err("%s: cannot read member health; the array stays suspended",
		       name);
		return -EIO;
	}
	for (i = 0; i < rm->n; i++)
		if (st.health[i] != 'D')
			live.slots[live.n++] = rm->slots[i];
	ret = grow_reread(name, &live);
	if (!ret)
		ret = fr_reshape_sb_write(&live, 0, FR_SB_STATE_RESHAPE, 0);
	if (!ret) {
		ret = fr_dm_reload(name, len, params);
		if (ret)
			fr_err("%s: loading the grown table failed: %s (see dmesg); the array stays suspended: stop it, and assemble brings it up grown",
			       name, strerror(-ret));
	}
	if (!ret)
		ret = fr_dm_resume(name);
	return ret;
}

/* The grown shape: superblocks without the grow, a table of the new length. */
static int grow_finish(const char *name, struct fr_reshape_members *rm,
		       struct fr_table *t)
{
	char params[FR_TABLE_MAX], size[32];
	uint64_t len = rm->slots[0]->sb.array_sectors;
	int ret;

	t->reshape = false;
	ret = fr_table_build(t, params, sizeof(params));
	if (ret) {
		fr_err("%s: cannot build the grown table", name);
		return ret;
	}
	if (t->level == FR_LEVEL_RAID6)
		return grow_finish_raid6(name, rm, params);
	ret = fr_reshape_flush(rm);
	if (!ret)
		ret = fr_reshape_sb_write(rm, 0, FR_SB_STATE_RESHAPE, 0);
	if (ret)
		return ret;
	ret = fr_dm_swap_table_or_err(name, len, params);
	if (ret)
		return ret;
	fr_format_size(len << 9, size, sizeof(size));
	printf("%s: grown to %u members, %s; grow the filesystem now (xfs_growfs, resize2fs)\n",
	       name, t->ndevs, size);
	return 0;
}

/*
 * Records the copy's progress until it is whole, then finishes. The array
 * must run with the reshape feature and @rm open on its members.
 */
static int grow_record(const char *name, struct fr_reshape_members *rm,
		       struct fr_table *t, uint64_t len)
{
	uint64_t last = 0, t0 = now_ms(), done0 = UINT64_MAX;
	struct sigaction sa = { .sa_handler = grow_on_signal };
	int tenth = -1, ret;
	char msg[64];

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (;;) {
		struct fr_dm_target tgt;
		struct fr_status st;

		if (fr_dm_status(name, FR_DM_INFO, &tgt) ||
		    fr_status_parse(tgt.params, &st) || !st.has_reshape_words) {
			fr_err("%s: cannot read the grow's progress (is the target 1.7.0 or newer?)",
			       name);
			return -EIO;
		}
		if (!st.reshape) {
			fr_err("%s: the table has no grow under way any more", name);
			return -ESTALE;
		}
		if (!strcmp(st.action, "reshape_failed")) {
			fr_err("%s: the kernel's copy failed at %llu of %llu sectors (see dmesg); %llu are recorded: once the member is sound, a reload (or stop and assemble) and fanraid grow %s --continue go on from there",
			       name, (unsigned long long)st.reshape_done,
			       (unsigned long long)len,
			       (unsigned long long)st.reshape_safe, name);
			return -EIO;
		}
		if (done0 == UINT64_MAX)
			done0 = st.reshape_done;
		if (t->level == FR_LEVEL_RAID0 &&
		    st.reshape_done > st.reshape_safe &&
		    (st.reshape_done == len ||
		     now_ms() - last >= FR_GROW_RECORD_MS)) {
			ret = fr_reshape_flush(rm);
			if (!ret)
				ret = fr_reshape_sb_write(rm, FR_SB_STATE_RESHAPE,
							  0, st.reshape_done);
			if (ret)
				return ret;
			snprintf(msg, sizeof(msg), "reshape_safe %llu",
				 (unsigned long long)st.reshape_done);
			ret = fr_dm_message_or_err(name, msg);
			if (ret)
				return ret;
			st.reshape_safe = st.reshape_done;
			last = now_ms();
		}
		grow_progress(name, st.reshape_done, len, t0, done0, &tenth);
		if (st.reshape_safe == len)
			break;
		if (grow_stop) {
			printf("\n%s: interrupted with %llu of %llu sectors recorded; fanraid grow %s --continue goes on\n",
			       name, (unsigned long long)st.reshape_safe,
			       (unsigned long long)len, name);
			return -EINTR;
		}
		usleep(FR_GROW_POLL_MS * 1000);
	}
	if (isatty(STDOUT_FILENO))
		putchar('\n');
	return grow_finish(name, rm, t);
}

/* Opens the members of the running table, every one, superblocks read. */
static int grow_open(const char *name, struct fr_table *t, uint64_t *len,
		     struct fr_member *m, char (*paths)[FR_PATH_MAX],
		     struct fr_reshape_members *rm)
{
	uint8_t uuid[FR_UUID_LEN];
	uint32_t i;

	if (fr_array_open(name, t, len, uuid))
		return -ENXIO;
	if (fr_members_from_table(t, uuid, FR_OPEN_SHARED, m, paths) !=
	    (int)t->ndevs) {
		fr_err("%s: not every member could be read; nothing changed",
		       name);
		for (i = 0; i < t->ndevs; i++)
			fr_member_close(&m[i]);
		return -EIO;
	}
	rm->n = t->ndevs;
	for (i = 0; i < t->ndevs; i++)
		rm->slots[i] = &m[i];
	return fr_reshape_open_data(rm);
}

static void grow_close(struct fr_reshape_members *rm)
{
	uint32_t i;

	fr_reshape_close_data(rm);
	for (i = 0; i < rm->n; i++)
		fr_member_close(rm->slots[i]);
}

static int grow_continue(const char *name)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	struct fr_member m[FR_MAX_DEVS];
	struct fr_reshape_members rm;
	struct fr_table t;
	uint64_t len;
	int ret;

	ret = grow_open(name, &t, &len, m, paths, &rm);
	if (ret)
		return FR_EXIT_FAIL;
	if (!t.reshape) {
		printf("%s: no grow under way\n", name);
		grow_close(&rm);
		return FR_EXIT_OK;
	}
	ret = grow_record(name, &rm, &t, len);
	grow_close(&rm);
	return ret ? FR_EXIT_FAIL : FR_EXIT_OK;
}

/* The new devices: fit to join, and none twice or already a member. */
static int grow_check_new(const struct fr_opts *o, const struct fr_table *t,
			  const struct fr_sb *tmpl, struct fr_member *nm,
			  uint32_t k)
{
	uint32_t i, j;
	bool wipe;

	for (i = 0; i < k; i++) {
		fr_member_init(&nm[i], o->argv[1 + i]);
		if (fr_check_new_member(o->force ? FR_REPLACE_FORCE : 0,
					&nm[i], tmpl, &wipe))
			return -EINVAL;
		for (j = 0; j < t->ndevs; j++)
			if (!t->devs[j].missing &&
			    major(nm[i].rdev) == t->devs[j].major &&
			    minor(nm[i].rdev) == t->devs[j].minor) {
				fr_err("%s: is already member %u of the array",
				       nm[i].path, j);
				return -EEXIST;
			}
		for (j = 0; j < i; j++)
			if (nm[j].rdev == nm[i].rdev) {
				fr_err("%s: given twice", nm[i].path);
				return -EEXIST;
			}
		if (wipe && fr_wipe_signatures(&nm[i])) {
			fr_err("%s: erasing old signatures failed", nm[i].path);
			return -EIO;
		}
	}
	return 0;
}

static int grow_add(const struct fr_opts *o)
{
	const char *name = o->argv[0];
	char paths[FR_MAX_DEVS][FR_PATH_MAX], params[FR_TABLE_MAX];
	struct fr_member m[FR_MAX_DEVS];
	struct fr_reshape_members rm;
	struct fr_reshape_geo rg;
	uint32_t k = (uint32_t)o->argc - 1, old, i;
	struct fr_dm_target tgt;
	struct fr_status st;
	struct fr_table t;
	struct fr_sb tmpl;
	uint64_t len;
	int ret;

	ret = grow_open(name, &t, &len, m, paths, &rm);
	if (ret)
		return FR_EXIT_FAIL;
	ret = -EINVAL;
	old = t.ndevs;
	tmpl = m[0].sb;
	if (t.reshape) {
		fr_err("%s: a grow is already under way; fanraid grow %s --continue finishes it",
		       name, name);
		goto out;
	}
	if (t.level == FR_LEVEL_RAID6 && !t.superblock) {
		fr_err("%s: growing a raid6 array needs its superblock feature (created by fanraid 0.x?)",
		       name);
		goto out;
	}
	if (old + k > FR_MAX_DEVS) {
		fr_err("%s: %u members would exceed %u", name, old + k,
		       FR_MAX_DEVS);
		goto out;
	}
	if (fr_dm_status(name, FR_DM_INFO, &tgt) ||
	    fr_status_parse(tgt.params, &st)) {
		fr_err("%s: cannot read member health; nothing changed", name);
		goto out;
	}
	if (strspn(st.health, "A") != (size_t)old) {
		fr_err("%s: every member must be healthy to grow (health %s)",
		       name, st.health);
		goto out;
	}
	/* A sync pass walks one layout: it must have ended. */
	if (strcmp(st.action, "idle")) {
		fr_err("%s: busy with a %s; grow once it has finished", name,
		       st.action);
		goto out;
	}
	if (fr_reshape_geo_init(t.level, old, old + k, t.chunk_sectors,
				tmpl.member_sectors, &rg)) {
		fr_err("%s: members too small to grow by %u: the first rows' backup does not fit on the new members",
		       name, k);
		goto out;
	}
	if (grow_check_new(o, &t, &tmpl, &m[old], k))
		goto out;

	/* From here on the superblocks say what happened. */
	for (i = 0; i < k; i++) {
		struct fr_sb *sb = &m[old + i].sb;

		*sb = tmpl;
		sb->slot = old + i;
		fr_uuid_generate(sb->member_uuid);
		t.devs[old + i].missing = false;
		t.devs[old + i].major = major(m[old + i].rdev);
		t.devs[old + i].minor = minor(m[old + i].rdev);
		t.devs[old + i].offset = tmpl.data_offset;
	}
	rm.n = old + k;
	for (i = 0; i < rm.n; i++)
		rm.slots[i] = &m[i];
	grow_shape(m, old, k, &rg);
	/* data descriptors for every member, the new ones too */
	for (i = old; i < rm.n; i++)
		rm.dfd[i] = -1;
	fr_reshape_close_data(&rm);
	ret = fr_reshape_open_data(&rm);
	if (ret)
		goto out;
	t.ndevs = old + k;
	t.reshape = true;
	t.reshape_old_ndevs = old;
	t.reshape_pos = rg.crit;
	ret = fr_table_build(&t, params, sizeof(params));
	if (ret) {
		fr_err("%s: cannot build the grow's table", name);
		goto out;
	}
	ret = fr_dm_check_version(&t);
	if (ret)
		goto out;

	ret = fr_dm_suspend(name);
	if (ret) {
		fr_err("%s: suspending failed: %s; nothing changed", name,
		       strerror(-ret));
		goto out;
	}
	/* raid6: the kernel wrote the old members' blocks until now */
	if (t.level == FR_LEVEL_RAID6) {
		rm.n = old;
		ret = grow_reread(name, &rm);
		rm.n = old + k;
		if (!ret)
			grow_shape(m, old, k, &rg);
	}
	/* new members first: a block naming them exists before any data moves */
	if (!ret)
		ret = fr_reshape_sb_write(&rm, FR_SB_STATE_RESHAPE, 0, 0);
	if (!ret)
		ret = fr_reshape_critical(&rm, &rg, false);
	if (ret) {
		fr_err("%s: the grow's first rows failed; the array stays suspended: stop it, and assemble resumes the grow from its superblocks",
		       name);
		goto out;
	}
	/* the kernel opens the new members exclusively */
	for (i = old; i < rm.n; i++) {
		fr_member_close(&m[i]);
		ret = fr_member_open(&m[i], FR_OPEN_SHARED);
		if (ret)
			break;
	}
	if (!ret)
		ret = fr_dm_reload(name, len, params);
	if (ret) {
		fr_err("%s: loading the grow's table failed: %s (see dmesg); the array stays suspended",
		       name, strerror(-ret));
		goto out;
	}
	ret = fr_dm_resume(name);
	if (ret) {
		fr_err("%s: resuming failed: %s", name, strerror(-ret));
		goto out;
	}
	printf("%s: growing from %u to %u members; the first %llu sectors are in place\n",
	       name, old, old + k, (unsigned long long)rg.crit);
	ret = grow_record(name, &rm, &t, len);
out:
	grow_close(&rm);
	return ret ? FR_EXIT_FAIL : FR_EXIT_OK;
}

int fr_cmd_grow(const struct fr_opts *o)
{
	if (o->cont == o->add) {
		fr_err("grow: give --add DEV... or --continue");
		return FR_EXIT_USAGE;
	}
	if (o->cont) {
		if (o->argc != 1) {
			fr_err("grow --continue: takes only the array's name");
			return FR_EXIT_USAGE;
		}
		return grow_continue(o->argv[0]);
	}
	if (o->argc < 2) {
		fr_err("grow --add: give at least one device");
		return FR_EXIT_USAGE;
	}
	return grow_add(o);
}
