/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Opening the members a table names, and positioned I/O in their data
 * areas. Block devices are read with O_DIRECT so a verifier sees what is
 * on the media rather than what the page cache remembers.
 */
/* for O_DIRECT */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "internal.h"

int rc_devno_path(u32 major, u32 minor, char *path, size_t size)
{
	char sys[64], line[256];
	int ret = -ENOENT;
	FILE *f;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/uevent", major,
		 minor);
	f = fopen(sys, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if ((size_t)snprintf(path, size, "/dev/%s", line + 8) >= size)
			ret = -ENAMETOOLONG;
		else
			ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* dmsetup prints members as MAJ:MIN; a path is taken as it is. */
static int rc_member_path(const char *dev, char *path, size_t size)
{
	unsigned int maj, min;
	char extra;

	if (sscanf(dev, "%u:%u%c", &maj, &min, &extra) == 2)
		return rc_devno_path(maj, min, path, size);
	if ((size_t)snprintf(path, size, "%s", dev) >= size)
		return -ENAMETOOLONG;
	return 0;
}

static int rc_fd_size(int fd, const struct stat *st, u64 *bytes)
{
	if (S_ISREG(st->st_mode)) {
		*bytes = (u64)st->st_size;
		return 0;
	}
	if (S_ISBLK(st->st_mode))
		return ioctl(fd, BLKGETSIZE64, bytes) ? -errno : 0;
	return -EINVAL;
}

/*
 * Read-only image files are read with O_DIRECT as well, so a verify of
 * images just written by a VM or dd sees the file system's blocks and
 * does not fill the page cache; only when the data area starts on a
 * RC_BUF_ALIGN boundary, which every slice position then keeps.
 */
static bool rc_member_direct_ok(const struct rc_member *m)
{
	return !((m->offset << FR_SECTOR_SHIFT) & (RC_BUF_ALIGN - 1));
}

int rc_member_bytes(const char *dev, u64 *bytes)
{
	char path[RC_PATH_MAX];
	struct stat st;
	int fd, err;

	err = rc_member_path(dev, path, sizeof(path));
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fstat(fd, &st) ? -errno : rc_fd_size(fd, &st, bytes);
	close(fd);
	return err;
}

/*
 * Writable regular files are created or grown to size, so `raidcalc build`
 * can make member images from nothing.
 */
static int rc_member_open(struct rc_array *a, unsigned int i, bool writable)
{
	struct rc_member *m = &a->members[i];
	u64 need = (m->offset + a->geom.member_sectors) << FR_SECTOR_SHIFT;
	int flags = (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	char path[RC_PATH_MAX];
	struct stat st;
	u64 have;
	int err;

	err = rc_member_path(m->dev, path, sizeof(path));
	if (err) {
		a->error = "Cannot resolve device name";
		return err;
	}
	if (!stat(path, &st) && S_ISBLK(st.st_mode))
		m->direct = true;
	else if (writable)
		flags |= O_CREAT;
	else
		m->direct = rc_member_direct_ok(m);
	m->fd = open(path, flags | (m->direct ? O_DIRECT : 0), 0644);
	/* tmpfs and some FUSE file systems refuse O_DIRECT: read cached */
	if (m->fd < 0 && errno == EINVAL && m->direct) {
		m->direct = false;
		m->fd = open(path, flags, 0644);
	}
	if (m->fd < 0) {
		a->error = "Cannot open member";
		return -errno;
	}
	if (fstat(m->fd, &st) || rc_fd_size(m->fd, &st, &have)) {
		a->error = "Member is neither a block device nor a file";
		return -EINVAL;
	}
	if (have >= need)
		return 0;
	if (writable && S_ISREG(st.st_mode))
		return ftruncate(m->fd, (off_t)need) ? -errno : 0;
	a->error = "Member smaller than its offset plus data area";
	return -ENOSPC;
}

int rc_array_open(struct rc_array *a, bool writable)
{
	unsigned int i;
	int err;

	a->error = NULL;
	a->error_dev = -1;
	for (i = 0; i < a->nmembers; i++)
		a->members[i].fd = -1;
	for (i = 0; i < a->nmembers; i++) {
		if (a->members[i].missing)
			continue;
		err = rc_member_open(a, i, writable);
		if (err) {
			a->error_dev = (int)i;
			rc_array_close(a);
			return err;
		}
	}
	return 0;
}

void rc_array_close(struct rc_array *a)
{
	unsigned int i;

	for (i = 0; i < a->nmembers; i++) {
		if (a->members[i].fd >= 0)
			close(a->members[i].fd);
		a->members[i].fd = -1;
		a->members[i].direct = false;
	}
}

/*
 * All of @bytes at @at, or an error: pread()/pwrite() may stop short on a
 * signal or a boundary, and a zero count means the member ended early.
 */
static int rc_fd_rw(int fd, void *buf, size_t bytes, u64 at, bool write)
{
	ssize_t n;

	while (bytes) {
		if (write)
			n = pwrite(fd, buf, bytes, (off_t)at);
		else
			n = pread(fd, buf, bytes, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		buf = (u8 *)buf + n;
		bytes -= (size_t)n;
		at += (u64)n;
	}
	return 0;
}

int rc_array_pread(const struct rc_array *a, unsigned int dev, void *buf,
		   size_t bytes, u64 pos)
{
	return rc_fd_rw(a->members[dev].fd, buf, bytes,
			(a->members[dev].offset << FR_SECTOR_SHIFT) + pos,
			false);
}

/* rc_fd_rw() only reads from @buf when writing, so dropping const is safe. */
int rc_fd_pwrite(int fd, const void *buf, size_t bytes, u64 at)
{
	return rc_fd_rw(fd, (void *)buf, bytes, at, true);
}

int rc_array_pwrite(const struct rc_array *a, unsigned int dev,
		    const void *buf, size_t bytes, u64 pos)
{
	return rc_fd_pwrite(a->members[dev].fd, buf, bytes,
			    (a->members[dev].offset << FR_SECTOR_SHIFT) + pos);
}

void *rc_array_buf_alloc(size_t bytes)
{
	void *p;

	return posix_memalign(&p, RC_BUF_ALIGN, bytes ? bytes : 1) ? NULL : p;
}
