// SPDX-License-Identifier: GPL-2.0-only
/*
 * Direct I/O, so neither side is read from a page cache the copy bypassed.
 * While the array runs, a write can land on one device between the two
 * reads of a piece: a difference is read again before it counts, and the
 * caller checks what is left once the array is suspended.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copycheck.h"

int fr_cmp_open(const char *path, int flags)
{
	int fd = open(path, flags | O_DIRECT | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int read_piece(int fd, void *buf, uint32_t len, uint64_t off)
{
	ssize_t r = pread(fd, buf, len, off);

	if (r == (ssize_t)len)
		return 0;
	return r < 0 ? -errno : -EIO;
}

/* 1 when the piece differs, 0 when equal, <0 on a read error. */
static int cmp_piece(int fa, int fb, void *a, void *b, uint64_t off,
		     uint32_t len, enum fr_cmp_side *bad)
{
	int ret;

	ret = read_piece(fa, a, len, off);
	if (ret) {
		*bad = FR_CMP_A;
		return ret;
	}
	ret = read_piece(fb, b, len, off);
	if (ret) {
		*bad = FR_CMP_B;
		return ret;
	}
	return memcmp(a, b, len) != 0;
}

static int alloc_pair(void **a, void **b)
{
	*a = NULL;
	*b = NULL;
	if (posix_memalign(a, 4096, FR_CMP_PIECE) ||
	    posix_memalign(b, 4096, FR_CMP_PIECE)) {
		free(*a);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Compares [@off, @off + @len) of @fa and @fb. A piece still different
 * after @retries more reads is added to @d; -E2BIG when @d is full of
 * pieces that still differ.
 */
int fr_cmp_range(int fa, int fb, uint64_t off, uint64_t len, int retries,
		 struct fr_cmp_diffs *d, enum fr_cmp_side *bad)
{
	uint64_t end = off + len;
	void *a, *b;
	uint32_t n;
	int i, ret;

	*bad = FR_CMP_NONE;
	ret = alloc_pair(&a, &b);
	if (ret)
		return ret;
	for (; off < end; off += n) {
		n = end - off < FR_CMP_PIECE ? end - off : FR_CMP_PIECE;
		ret = cmp_piece(fa, fb, a, b, off, n, bad);
		/* 10, 20, 40... ms: a write in flight on a slow device */
		for (i = 0; ret == 1 && i < retries; i++) {
			usleep(10000 << i);
			ret = cmp_piece(fa, fb, a, b, off, n, bad);
		}
		if (ret < 0)
			break;
		if (!ret)
			continue;
		if (d->n == FR_CMP_MAX_DIFFS) {
			/* those kept may have settled meanwhile */
			ret = fr_cmp_again(fa, fb, d, bad);
			if (ret)
				break;
			ret = -E2BIG;
			if (d->n == FR_CMP_MAX_DIFFS)
				break;
		}
		d->off[d->n] = off;
		d->len[d->n++] = n;
		ret = 0;
	}
	free(a);
	free(b);
	return ret;
}

/* Reads @d's pieces again and keeps those that still differ. */
int fr_cmp_again(int fa, int fb, struct fr_cmp_diffs *d,
		 enum fr_cmp_side *bad)
{
	unsigned int i, kept = 0;
	void *a, *b;
	int ret;

	*bad = FR_CMP_NONE;
	ret = alloc_pair(&a, &b);
	if (ret)
		return ret;
	for (i = 0; i < d->n; i++) {
		ret = cmp_piece(fa, fb, a, b, d->off[i], d->len[i], bad);
		if (ret < 0)
			break;
		if (ret) {
			d->off[kept] = d->off[i];
			d->len[kept++] = d->len[i];
		}
		ret = 0;
	}
	if (!ret)
		d->n = kept;
	free(a);
	free(b);
	return ret;
}

/* Copies [@off, @off + @len) of @from onto @to and flushes @to. */
int fr_copy_range(int from, int to, uint64_t off, uint64_t len,
		  enum fr_cmp_side *bad)
{
	uint64_t end = off + len;
	uint32_t n;
	void *buf;
	int ret = 0;

	*bad = FR_CMP_NONE;
	if (posix_memalign(&buf, 4096, FR_CMP_PIECE))
		return -ENOMEM;
	for (; off < end; off += n) {
		n = end - off < FR_CMP_PIECE ? end - off : FR_CMP_PIECE;
		ret = read_piece(from, buf, n, off);
		if (ret) {
			*bad = FR_CMP_A;
			break;
		}
		errno = 0;
		if (pwrite(to, buf, n, off) != (ssize_t)n) {
			ret = errno ? -errno : -EIO;
			*bad = FR_CMP_B;
			break;
		}
	}
	if (!ret && fdatasync(to)) {
		ret = -errno;
		*bad = FR_CMP_B;
	}
	free(buf);
	return ret;
}
