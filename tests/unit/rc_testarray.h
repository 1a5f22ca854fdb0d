/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Arrays of member files in a temporary directory, described by a real
 * table line, for the raidcalc array tests. Each test program works on one
 * such array, rc_t, and registers rc_t_teardown() so the files go away
 * even when an assertion stops a test half-way.
 */
#ifndef RC_TESTARRAY_H
#define RC_TESTARRAY_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "raidcalc.h"
#include "rc_testutil.h"

struct rc_t_arr {
	char dir[64];
	char path[FR_MAX_DEVS][96];
	char img[96];
	char words[8 + 2 * FR_MAX_DEVS][96];
	char *argv[8 + 2 * FR_MAX_DEVS];
	int argc;
	struct rc_array a;
	u8 *image;		/* the logical image, a->len sectors */
};

/* Table words for @n members at @offset; parsed into t->a. */
static inline int rc_t_arr_make(struct rc_t_arr *t, const char *level,
				u32 chunk, u32 n, u64 len, u64 offset)
{
	u32 i;

	memset(t, 0, sizeof(*t));
	strcpy(t->dir, "/tmp/rc_test.XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->img, sizeof(t->img), "%s/image", t->dir);
	snprintf(t->words[0], 96, "fanraid");
	snprintf(t->words[1], 96, "%s", level);
	snprintf(t->words[2], 96, "%u", chunk);
	snprintf(t->words[3], 96, "0");
	snprintf(t->words[4], 96, "%u", n);
	for (i = 0; i < 5; i++)
		t->argv[i] = t->words[i];
	t->argc = 5;
	for (i = 0; i < n; i++) {
		snprintf(t->path[i], 96, "%s/m%u", t->dir, i);
		t->argv[t->argc++] = t->path[i];
		snprintf(t->words[5 + i], 96, "%llu",
			 (unsigned long long)offset);
		t->argv[t->argc++] = t->words[5 + i];
	}
	return rc_array_parse(&t->a, t->argc, t->argv, len);
}

/* A random image of the target length, written to t->img. */
static inline int rc_t_arr_image(struct rc_t_arr *t, uint64_t seed)
{
	size_t bytes = t->a.len << FR_SECTOR_SHIFT;
	int fd;

	t->image = malloc(bytes);
	if (!t->image)
		return -1;
	rc_t_fill(&seed, t->image, bytes);
	fd = open(t->img, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, t->image, bytes) != (ssize_t)bytes) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Members built from a random image, left open read-write. */
static inline int rc_t_arr_built(struct rc_t_arr *t, uint64_t seed)
{
	int fd = rc_t_arr_image(t, seed), err;

	if (fd < 0)
		return -1;
	err = rc_array_open(&t->a, true);
	if (!err)
		err = rc_array_build(&t->a, fd);
	close(fd);
	return err;
}

/*
 * The same table with member @k written as "- -" (and, if @rebuild >= 0,
 * a "rebuild <rebuild>" feature), reopened read-write.
 */
static inline int rc_t_arr_lose(struct rc_t_arr *t, unsigned int k,
				int rebuild)
{
	char *argv[8 + 2 * FR_MAX_DEVS + 2], idx[16];
	u64 len = t->a.len;
	int i, argc = 0;

	rc_array_close(&t->a);
	for (i = 0; i < t->argc; i++) {
		if (i == 3 && rebuild >= 0) {
			snprintf(idx, sizeof(idx), "%d", rebuild);
			argv[argc++] = "2";
			argv[argc++] = "rebuild";
			argv[argc++] = idx;
			continue;
		}
		argv[argc++] = (i == 5 + 2 * (int)k || i == 6 + 2 * (int)k) ?
			       "-" : t->argv[i];
	}
	if (rc_array_parse(&t->a, argc, argv, len))
		return -1;
	return rc_array_open(&t->a, true);
}

/* Reads @bytes at byte @pos of member file @i, offset included. */
static inline int rc_t_member_pread(struct rc_t_arr *t, unsigned int i,
				    void *buf, size_t bytes, u64 pos)
{
	int fd = open(t->path[i], O_RDONLY), ok;

	if (fd < 0)
		return -1;
	ok = pread(fd, buf, bytes, (off_t)pos) == (ssize_t)bytes;
	close(fd);
	return ok ? 0 : -1;
}

static inline int rc_t_member_pwrite(struct rc_t_arr *t, unsigned int i,
				     const void *buf, size_t bytes, u64 pos)
{
	int fd = open(t->path[i], O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = pwrite(fd, buf, bytes, (off_t)pos) == (ssize_t)bytes;
	close(fd);
	return ok ? 0 : -1;
}

static inline void rc_t_arr_destroy(struct rc_t_arr *t)
{
	unsigned int i;

	rc_array_close(&t->a);
	for (i = 0; i < FR_MAX_DEVS; i++)
		if (t->path[i][0])
			unlink(t->path[i]);
	unlink(t->img);
	/* scratch output of a test that failed before cleaning up itself */
	if (t->dir[0]) {
		char out[sizeof(t->dir) + 8];

		snprintf(out, sizeof(out), "%s/out", t->dir);
		unlink(out);
		rmdir(t->dir);
	}
	free(t->image);
	t->image = NULL;
}

static struct rc_t_arr rc_t;

static inline int rc_t_teardown(void **state)
{
	(void)state;
	rc_t_arr_destroy(&rc_t);
	return 0;
}

#endif /* RC_TESTARRAY_H */
