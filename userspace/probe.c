/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Member probing with libblkid, after util-linux's samples/mkfs.c and
 * samples/topology.c: superblocks and partitions in one full probe, the
 * topology in its own probe, and every probe freed on every path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blkid.h>

#include "probe.h"

void fr_member_init(struct fr_member *m, const char *path)
{
	memset(m, 0, sizeof(*m));
	m->path = path;
	m->fd = -1;
	m->sb_err = FR_SB_EMAGIC;
}

/*
 * Opens a member. FR_OPEN_EXCL is O_EXCL, which the kernel refuses with
 * EBUSY while the device is mounted, part of a dm or md device, or held
 * exclusively by anyone else: exactly the members we must not touch.
 */
int fr_member_open(struct fr_member *m, enum fr_open_mode mode)
{
	static const int flags[] = {
		[FR_OPEN_READ] = O_RDONLY,
		[FR_OPEN_EXCL] = O_RDWR | O_EXCL,
		[FR_OPEN_SHARED] = O_RDWR,
	};
	struct stat st;
	int fd;

	fd = open(m->path, flags[mode] | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISBLK(st.st_mode)) {
		close(fd);
		return -ENOTBLK;
	}
	m->fd = fd;
	m->rdev = st.st_rdev;
	return 0;
}

void fr_member_close(struct fr_member *m)
{
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

/* "an existing ext4 filesystem (label 'x')" and friends, for refusals. */
static void describe(blkid_probe pr, char *desc, size_t len)
{
	const char *type = NULL, *usage = NULL, *label = NULL, *pttype = NULL;
	char lab[96] = "";

	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
	blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
	if (label && *label)
		snprintf(lab, sizeof(lab), " (label '%s')", label);
	if (!type)
		snprintf(desc, len, "a %s partition table", pttype);
	else if (usage && !strcmp(usage, "filesystem"))
		snprintf(desc, len, "an existing %s filesystem%s", type, lab);
	else if (usage && !strcmp(usage, "raid"))
		snprintf(desc, len, "an existing %s RAID superblock%s", type,
			 lab);
	else if (usage && !strcmp(usage, "crypto"))
		snprintf(desc, len, "existing %s encrypted data%s", type, lab);
	else
		snprintf(desc, len, "an existing %s signature%s", type, lab);
}

/*
 * A probe on @m's open descriptor, which every probe here starts with.
 * -ENOMEM when libblkid cannot allocate one, -EIO when it cannot use the
 * device; nothing is left to free then.
 */
static int probe_new(struct fr_member *m, blkid_probe *prp)
{
	blkid_probe pr;

	pr = blkid_new_probe();
	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, m->fd, 0, 0)) {
		blkid_free_probe(pr);
		return -EIO;
	}
	*prp = pr;
	return 0;
}

/*
 * R17's contract: -errno when probing failed, 0 with @desc filled when a
 * filesystem, RAID or partition-table signature is present, 1 when clean.
 */
int fr_probe_signatures(struct fr_member *m, char *desc, size_t len)
{
	const char *type = NULL, *pttype = NULL;
	blkid_probe pr;
	int ret;

	ret = probe_new(m, &pr);
	if (ret)
		return ret;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE |
					  BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	ret = blkid_do_fullprobe(pr);
	if (ret < 0) {
		ret = -EIO;
		goto out;
	}
	if (ret == 1)
		goto out;
	blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
	blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
	if (!type && !pttype) {
		ret = 1;
		goto out;
	}
	describe(pr, desc, len);
	ret = 0;
out:
	blkid_free_probe(pr);
	return ret;
}

/* Size and I/O hints; the defaults for chunk and data offset derive from them. */
int fr_probe_topology(struct fr_member *m)
{
	blkid_topology tp;
	blkid_probe pr;
	int ret;

	ret = probe_new(m, &pr);
	if (ret)
		return ret;
	m->size = (uint64_t)blkid_probe_get_size(pr);
	tp = blkid_probe_get_topology(pr);
	if (tp) {
		m->min_io = blkid_topology_get_minimum_io_size(tp);
		m->opt_io = blkid_topology_get_optimal_io_size(tp);
		m->align_offset = blkid_topology_get_alignment_offset(tp);
	}
	blkid_free_probe(pr);
	return 0;
}

/*
 * Erases every signature libblkid knows, as wipefs does, so that a forced
 * create leaves no stale filesystem or partition table to confuse the next
 * probe of the member.
 */
int fr_wipe_signatures(struct fr_member *m)
{
	blkid_probe pr;
	int ret, rounds;

	ret = probe_new(m, &pr);
	if (ret)
		return ret;
	ret = -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	/* each round erases one signature; bound it in case one will not go */
	for (rounds = 0; rounds < 64; rounds++) {
		int r = blkid_do_probe(pr);

		if (r == 1) {
			ret = fsync(m->fd) ? -errno : 0;
			goto out;
		}
		if (r < 0 || blkid_do_wipe(pr, 0))
			goto out;
	}
out:
	blkid_free_probe(pr);
	return ret;
}

/* Reads and decodes the superblock: -errno on I/O error, else 0 with m->sb_err set. */
int fr_sb_read(struct fr_member *m)
{
	uint8_t buf[FR_SB_SIZE];
	ssize_t n;

	/*
	 * The kernel target writes superblocks with bios, past the page
	 * cache: drop any copy an earlier read or write left there, or a
	 * stop or examine would see events the kernel has already passed.
	 */
	posix_fadvise(m->fd, FR_SB_OFFSET, FR_SB_SIZE, POSIX_FADV_DONTNEED);
	n = pread(m->fd, buf, sizeof(buf), FR_SB_OFFSET);
	if (n < 0)
		return -errno;
	if (n != sizeof(buf)) {
		m->sb_err = FR_SB_EMAGIC;	/* too small to hold one */
		return 0;
	}
	m->sb_err = fr_sb_decode(buf, &m->sb);
	return 0;
}

int fr_sb_write(struct fr_member *m, const struct fr_sb *sb)
{
	uint8_t buf[FR_SB_SIZE];
	ssize_t n;

	if (fr_sb_encode(sb, buf))
		return -EINVAL;
	n = pwrite(m->fd, buf, sizeof(buf), FR_SB_OFFSET);
	if (n < 0)
		return -errno;
	if (n != sizeof(buf))
		return -EIO;
	if (fsync(m->fd))
		return -errno;
	m->sb = *sb;
	m->sb_err = FR_SB_OK;
	return 0;
}
