/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid incremental DEV [--export] | incremental --run --uuid UUID
 *
 * udev calls the first form for every member that appears (69-fanraid.rules).
 * Each member is recorded under /run/fanraid/incremental/<uuid>/ as a link
 * slot<N> -> its node; once every slot the newest superblock expects is
 * there and current, the array is assembled from them. Until then nothing
 * starts: a member that is merely late (the last NVMe drive to probe) never
 * finds its slot marked failed. Starting degraded is the job of the second
 * form, which fanraid-last-resort@<uuid>.service runs when its timer fires
 * (the rule asks systemd for that timer while the array is incomplete),
 * as md's mdadm-last-resort does.
 *
 * A member that appears after its array started without it (its slot is
 * empty in the running table) is put back into its slot: recovered only
 * where the write-intent bitmap says it missed writes (fanraid re-add),
 * else rebuilt whole as `fanraid replace` would; it is never treated as a
 * stranger.
 *
 * --export prints udev properties on stdout (FANRAID_STARTED=yes|no|running,
 * FANRAID_UUID32) and sends the messages to stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "array.h"
#include "cli.h"
#include "config.h"
#include "dm.h"
#include "probe.h"
#include "status.h"
#include "table.h"

#define FR_INCR_DIR	"/run/fanraid/incremental"

struct incr {
	uint8_t uuid[FR_UUID_LEN];
	char hex[2 * FR_UUID_LEN + 1];	/* the uuid as one word, for unit names */
	char dir[FR_PATH_MAX];
	int lock_fd;
	bool export_vars;
	int saved_stdout;
};

static void uuid_hex(const uint8_t *uuid, char *out)
{
	int i;

	for (i = 0; i < FR_UUID_LEN; i++)
		sprintf(out + 2 * i, "%02x", uuid[i]);
}

static int mkdir_p(const char *path)
{
	char buf[FR_PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(buf, 0700) && errno != EEXIST ? -errno : 0;
}

/*
 * One array's directory, locked: udev runs members of one array in
 * parallel, and exactly one of them may find the set complete.
 */
static int incr_open(struct incr *in, const uint8_t *uuid)
{
	char lock[FR_PATH_MAX + 8];
	int ret;

	memcpy(in->uuid, uuid, FR_UUID_LEN);
	uuid_hex(uuid, in->hex);
	snprintf(in->dir, sizeof(in->dir), "%s/%s", FR_INCR_DIR, in->hex);
	ret = mkdir_p(in->dir);
	if (ret) {
		fr_err("%s: cannot create: %s", in->dir, strerror(-ret));
		return ret;
	}
	snprintf(lock, sizeof(lock), "%s/.lock", in->dir);
	in->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (in->lock_fd < 0 || flock(in->lock_fd, LOCK_EX)) {
		ret = -errno;
		fr_err("%s: cannot lock: %s", lock, strerror(-ret));
		return ret;
	}
	return 0;
}

static void incr_close(struct incr *in)
{
	if (in->lock_fd >= 0)
		close(in->lock_fd);
	in->lock_fd = -1;
}

/* Messages to stderr while stdout carries udev properties. */
static void quiet_stdout(struct incr *in)
{
	fflush(stdout);
	in->saved_stdout = in->export_vars ? dup(STDOUT_FILENO) : -1;
	if (in->saved_stdout >= 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
}

static void restore_stdout(struct incr *in)
{
	fflush(stdout);
	if (in->saved_stdout < 0)
		return;
	dup2(in->saved_stdout, STDOUT_FILENO);
	close(in->saved_stdout);
	in->saved_stdout = -1;
}

static void export_result(const struct incr *in, const char *started)
{
	if (!in->export_vars)
		return;
	printf("FANRAID_UUID32=%s\nFANRAID_STARTED=%s\n", in->hex, started);
}

/* The recorded members' nodes, each read again: a node may have gone or changed. */
static int recorded(const struct incr *in, char (*paths)[FR_PATH_MAX],
		    struct fr_sb *sbs)
{
	char link[FR_PATH_MAX + 16];
	int n = 0;
	uint32_t i;

	for (i = 0; i < FR_MAX_DEVS; i++) {
		struct fr_member m;
		ssize_t len;

		snprintf(link, sizeof(link), "%s/slot%u", in->dir, i);
		len = readlink(link, paths[n], FR_PATH_MAX - 1);
		if (len <= 0)
			continue;
		paths[n][len] = '\0';
		fr_member_init(&m, paths[n]);
		if (fr_member_open(&m, FR_OPEN_READ))
			continue;
		if (fr_sb_read(&m) || m.sb_err ||
		    memcmp(m.sb.array_uuid, in->uuid, FR_UUID_LEN) ||
		    m.sb.slot != i) {
			fr_member_close(&m);
			unlink(link);
			continue;
		}
		fr_member_close(&m);
		sbs[n++] = m.sb;
	}
	return n;
}

/*
 * Whether @link already names another device whose block claims @sb's
 * slot with more events: the new device of a hot replace, whose old one
 * kept its block (it could not be cleared). The order udev reports them
 * in must not decide which one holds the slot.
 */
static bool holds_newer(const struct incr *in, const char *link,
			const char *path, const struct fr_sb *sb)
{
	char old[FR_PATH_MAX];
	struct fr_member m;
	ssize_t len;
	bool newer;

	len = readlink(link, old, sizeof(old) - 1);
	if (len <= 0)
		return false;
	old[len] = '\0';
	if (!strcmp(old, path))
		return false;
	fr_member_init(&m, old);
	if (fr_member_open(&m, FR_OPEN_READ))
		return false;
	newer = !fr_sb_read(&m) && !m.sb_err &&
		!memcmp(m.sb.array_uuid, in->uuid, FR_UUID_LEN) &&
		m.sb.slot == sb->slot && m.sb.events > sb->events;
	fr_member_close(&m);
	return newer;
}

/*
 * Complete: every slot the newest superblock does not list as failed is
 * held by a member at most one update behind it (fr_sb_fresh()). Returns
 * how many are still wanted.
 */
static uint32_t still_wanted(const struct fr_sb *sbs, int n)
{
	const struct fr_sb *newest = &sbs[0];
	uint64_t have = 0;
	int i;

	for (i = 1; i < n; i++)
		if (sbs[i].events > newest->events)
			newest = &sbs[i];
	for (i = 0; i < n; i++)
		if (fr_sb_fresh(newest, &sbs[i]))
			have |= 1ull << sbs[i].slot;
	have |= newest->failed_mask;
	return newest->ndevs - (uint32_t)__builtin_popcountll(
		have & (newest->ndevs == 64 ? ~0ull : (1ull << newest->ndevs) - 1));
}

/* assemble --uuid UUID DEV...: the tool's one assembly path, checks included. */
static int assemble_from(struct incr *in, char (*paths)[FR_PATH_MAX], int n)
{
	char *argv[FR_MAX_DEVS + 1];
	struct fr_opts o = { 0 };
	int i, rc;

	for (i = 0; i < n; i++)
		argv[i] = paths[i];
	o.given = FR_OPT_UUID;
	memcpy(o.uuid, in->uuid, FR_UUID_LEN);
	o.argc = n;
	o.argv = argv;
	quiet_stdout(in);
	rc = fr_cmd_assemble(&o);
	restore_stdout(in);
	return rc;
}

/*
 * The array runs without @slot: put @path back in. With a bitmap that
 * holds what it missed, only those regions are recovered (fanraid
 * re-add); otherwise, or if the bitmap cannot vouch for it, it is rebuilt
 * whole, as fanraid replace does.
 */
static int readd(struct incr *in, const char *name, uint32_t slot,
		 const char *path, bool bitmap)
{
	char slotw[16], *argv[3] = { (char *)name, slotw, (char *)path };
	char *rargv[2] = { (char *)name, (char *)path };
	struct fr_opts o = { 0 };
	int rc;

	quiet_stdout(in);
	printf("%s: %s is slot %u, back after the array started without it; re-adding\n",
	       name, path, slot);
	if (bitmap) {
		o.argc = 2;
		o.argv = rargv;
		rc = fr_cmd_readd(&o);
		if (rc == FR_EXIT_OK) {
			restore_stdout(in);
			return rc;
		}
		fr_warn("%s: the bitmap cannot vouch for %s; rebuilding it whole",
			name, path);
	}
	snprintf(slotw, sizeof(slotw), "%u", slot);
	/* the superblock proves it is this array's own member */
	memset(&o, 0, sizeof(o));
	o.force = true;
	o.argc = 3;
	o.argv = argv;
	rc = fr_cmd_replace(&o);
	restore_stdout(in);
	return rc;
}

/*
 * The array already runs: nothing to do if @m is in it; re-added if its
 * slot was never filled in this table (it was late, not broken).
 */
static int running(struct incr *in, const struct fr_member *m)
{
	struct fr_dm_target tgt;
	struct fr_table t;
	const struct fr_table_dev *d;
	int ret;

	ret = fr_dm_status(m->sb.name, FR_DM_TABLE, &tgt);
	if (ret || fr_table_parse(tgt.params, &t) || m->sb.slot >= t.ndevs) {
		fr_err("%s: cannot read the running table", m->sb.name);
		return FR_EXIT_FAIL;
	}
	d = &t.devs[m->sb.slot];
	export_result(in, "running");
	if (!d->missing) {
		if (makedev(d->major, d->minor) != m->rdev)
			fr_warn("%s: %s claims slot %u, which the running array fills with %u:%u; left alone",
				m->sb.name, m->path, m->sb.slot, d->major,
				d->minor);
		return FR_EXIT_OK;
	}
	if (t.level != FR_LEVEL_RAID6)
		return FR_EXIT_OK;
	return readd(in, m->sb.name, m->sb.slot, m->path, t.bitmap_set);
}

static bool is_running(const uint8_t *uuid, const char *name)
{
	char dmuuid[FR_DM_UUID_LEN];
	struct fr_dm_info info;

	fr_dm_uuid(uuid, dmuuid, sizeof(dmuuid));
	return !fr_dm_info(name, &info) && info.exists &&
	       !strcmp(info.uuid, dmuuid);
}

static int add_member(struct incr *in, const char *path)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX], link[FR_PATH_MAX + 16];
	struct fr_sb sbs[FR_MAX_DEVS];
	const struct fr_conf *c = fr_conf_get();
	struct fr_member m;
	uint32_t wanted;
	int n, ret, rc;

	if (!c)
		return FR_EXIT_FAIL;
	fr_member_init(&m, path);
	ret = fr_member_open(&m, FR_OPEN_READ);
	if (!ret)
		ret = fr_sb_read(&m);
	fr_member_close(&m);
	if (ret) {
		fr_open_error(path, ret);
		return FR_EXIT_FAIL;
	}
	if (m.sb_err) {
		fr_err("%s: not a fanraid member: %s", path,
		       fr_sb_strerror(m.sb_err));
		return FR_EXIT_FAIL;
	}
	if (!fr_conf_device_ok(c, path) || !fr_conf_array_ok(c, m.sb.array_uuid)) {
		fr_err("%s: member of %s, which %s does not let assemble; ignored",
		       path, m.sb.name, c->path);
		return FR_EXIT_OK;
	}
	/* a spare waits for a failure, not for its array: fanraid monitor uses it */
	if (fr_sb_is_spare(&m.sb)) {
		fprintf(in->export_vars ? stderr : stdout,
			"%s: %s is a spare; not a member to start the array with\n",
			m.sb.name, path);
		return FR_EXIT_OK;
	}
	if (incr_open(in, m.sb.array_uuid))
		return FR_EXIT_FAIL;
	if (is_running(m.sb.array_uuid, m.sb.name)) {
		rc = running(in, &m);
		goto out;
	}
	snprintf(link, sizeof(link), "%s/slot%u", in->dir, m.sb.slot);
	if (holds_newer(in, link, path, &m.sb)) {
		fprintf(in->export_vars ? stderr : stdout,
			"%s: %s is behind the slot %u member already recorded; ignored\n",
			m.sb.name, path, m.sb.slot);
		export_result(in, "no");
		rc = FR_EXIT_OK;
		goto out;
	}
	unlink(link);
	if (symlink(path, link)) {
		fr_err("%s: cannot record: %s", link, strerror(errno));
		rc = FR_EXIT_FAIL;
		goto out;
	}
	n = recorded(in, paths, sbs);
	wanted = n ? still_wanted(sbs, n) : 1;
	if (wanted) {
		fprintf(in->export_vars ? stderr : stdout,
			"%s: %s added as slot %u; waiting for %u more member%s\n",
			m.sb.name, path, m.sb.slot, wanted, wanted == 1 ? "" : "s");
		export_result(in, "no");
		rc = FR_EXIT_OK;
		goto out;
	}
	rc = assemble_from(in, paths, n);
	export_result(in, rc ? "no" : "yes");
out:
	incr_close(in);
	return rc;
}

/* The timer fired: start with whatever members came, degraded if need be. */
static int run_degraded(struct incr *in)
{
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
	struct fr_sb sbs[FR_MAX_DEVS];
	int n, rc;

	if (incr_open(in, in->uuid))
		return FR_EXIT_FAIL;
	n = recorded(in, paths, sbs);
	if (n && is_running(in->uuid, sbs[0].name)) {
		printf("%s: already running\n", sbs[0].name);
		rc = FR_EXIT_OK;
	} else if (n) {
		rc = assemble_from(in, paths, n);
	} else {
		/* nothing recorded (no udev?): every device is scanned */
		rc = assemble_from(in, paths, 0);
	}
	incr_close(in);
	return rc;
}

int fr_cmd_incremental(const struct fr_opts *o)
{
	struct incr in = { .lock_fd = -1, .saved_stdout = -1,
			   .export_vars = o->export_vars };

	fr_conf_set_path(o->config);
	if (o->run) {
		if (!(o->given & FR_OPT_UUID) || o->argc || o->export_vars) {
			fr_err("incremental: --run takes --uuid UUID and nothing else");
			return FR_EXIT_USAGE;
		}
		memcpy(in.uuid, o->uuid, FR_UUID_LEN);
		return run_degraded(&in);
	}
	if (o->argc != 1 || (o->given & FR_OPT_UUID)) {
		fr_err("incremental: give DEV, or --run --uuid UUID");
		return FR_EXIT_USAGE;
	}
	return add_member(&in, o->argv[0]);
}
