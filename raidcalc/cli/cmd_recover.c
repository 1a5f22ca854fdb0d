/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * recover: rebuild lost raid6 members into new image files,
 * DIR/member<i>.img, leaving the members themselves untouched (unlike
 * rebuild, which writes in place). Lost means written "missing" (option
 * form) or "- -" (table), or named by --missing. Each image is the
 * member as it was: the data offset region, which parity cannot bring
 * back, zero-filled, then the data area.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

/*
 * A table says nothing about where a "- -" member's data area started;
 * when every present member agrees, it is the same there. Else 0.
 */
static u64 rc_recover_offset(const struct rc_array *a)
{
	u64 offset = 0;
	bool any = false;
	unsigned int i;

	for (i = 0; i < a->nmembers; i++) {
		if (a->members[i].missing)
			continue;
		if (any && a->members[i].offset != offset)
			return 0;
		offset = a->members[i].offset;
		any = true;
	}
	return offset;
}

/* Lost members: the array's missing ones; --missing ones become missing. */
static int rc_recover_lost(struct rc_opts *o, struct rc_array *a, u64 *want)
{
	u64 offset = rc_recover_offset(a), lost;
	unsigned int i;

	if (a->nmembers < FR_MAX_DEVS && o->missing >> a->nmembers) {
		fprintf(stderr, "raidcalc recover: --missing names member %d, but members are 0..%u\n",
			63 - __builtin_clzll(o->missing), a->nmembers - 1);
		return RC_EXIT_USAGE;
	}
	*want = 0;
	lost = 0;
	for (i = 0; i < a->nmembers; i++) {
		if (o->missing & (1ull << i) && !a->members[i].missing) {
			/* not read, whatever state it is in */
			a->members[i].missing = true;
		} else if (a->members[i].missing && !o->spec) {
			a->members[i].offset = offset;
		}
		if (a->members[i].missing)
			*want |= 1ull << i;
		if (a->members[i].missing || a->members[i].rebuilding)
			lost |= 1ull << i;
	}
	if (!*want) {
		fprintf(stderr, "raidcalc recover: nothing to recover: no member is missing (give --missing i,j or write a member as missing)\n");
		return RC_EXIT_USAGE;
	}
	if (__builtin_popcountll(lost) > FR_PARITY_DEVS_RAID6) {
		fprintf(stderr, "raidcalc recover: more than two members lost: raid6 cannot rebuild them\n");
		return RC_EXIT_USAGE;
	}
	return RC_EXIT_OK;
}

/* DIR/member<i>.img, sized to offset + data area: the offset reads zero. */
static int rc_recover_create(const char *dir, const struct rc_array *a,
			     unsigned int i, char *path, size_t size)
{
	u64 bytes = (a->members[i].offset + a->geom.member_sectors) <<
		    FR_SECTOR_SHIFT;
	int fd;

	if ((size_t)snprintf(path, size, "%s/member%u.img", dir, i) >= size) {
		fprintf(stderr, "raidcalc recover: --out '%s': path too long\n",
			dir);
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)bytes)) {
		perror(path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int rc_recover_run(struct rc_opts *o, struct rc_array *a, u64 want)
{
	char path[FR_MAX_DEVS][PATH_MAX];
	int fds[FR_MAX_DEVS], ret = RC_EXIT_OK, err;
	unsigned int i;

	if (mkdir(o->out, 0755) && errno != EEXIST) {
		perror(o->out);
		return RC_EXIT_FAIL;
	}
	for (i = 0; i < a->nmembers; i++) {
		fds[i] = -1;
		if (ret || !(want & (1ull << i)))
			continue;
		fds[i] = rc_recover_create(o->out, a, i, path[i],
					   sizeof(path[i]));
		if (fds[i] < 0)
			ret = RC_EXIT_FAIL;
	}
	if (!ret) {
		err = rc_array_recover(a, want, fds);
		if (err)
			ret = rc_cli_fail(a, err, "Recover failed");
	}
	for (i = 0; i < a->nmembers; i++) {
		if (fds[i] < 0)
			continue;
		if (close(fds[i]) && !ret) {
			perror(path[i]);
			ret = RC_EXIT_FAIL;
		}
		if (!ret)
			printf("recover: member %u -> %s\n", i, path[i]);
	}
	return ret;
}

int rc_cmd_recover(struct rc_opts *o)
{
	struct rc_array a;
	u64 want;
	int ret;

	ret = o->spec ? rc_cli_spec(o, &a, RC_SPEC_MEMBERS, 0) :
			rc_cli_array(o, &a);
	if (ret)
		return ret;
	if (a.geom.level != FR_LEVEL_RAID6) {
		fprintf(stderr, "raidcalc recover: raid0 has no redundancy to recover from\n");
		return RC_EXIT_USAGE;
	}
	if (!o->out) {
		fprintf(stderr, "raidcalc recover: --out DIR is required\n");
		return RC_EXIT_USAGE;
	}
	ret = rc_recover_lost(o, &a, &want);
	if (ret)
		return ret;
	ret = rc_cli_open(&a, false);
	if (ret)
		return ret;
	ret = rc_recover_run(o, &a, want);
	rc_array_close(&a);
	return ret;
}
