/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid create NAME --level 0|6 [--chunk SIZE] [--data-offset SIZE]
 *                [--flush passthrough|dirty|drop] [--readahead SIZE]
 *                [--ra on|off] [--ra-window STRIPES] [--ra-cache-mb MIB]
 *                [--stripe-cache-mb MIB] [--force] DEV...
 *
 * Two phases: every member is opened exclusively, probed and sized first;
 * only when all of them passed is anything written. Then superblocks, then
 * the table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "array.h"
#include "bitmap_io.h"
#include "cli.h"
#include "dm.h"
#include "probe.h"
#include "table.h"
#include "util.h"
#include "zeroout.h"

/*
 * --stripe-cache-mb must hold two RAID6 operations' buffers for this
 * geometry (fr_r6_stripe_cache_min_mb), or the target refuses the table
 * after the superblocks are written: say so with the numbers first.
 */
static bool stripe_cache_fits(const struct fr_opts *o, uint32_t n,
			      uint32_t chunk_sectors)
{
	uint32_t min = fr_r6_stripe_cache_min_mb(n, chunk_sectors);
	char chunk[32];

	if (!(o->given & FR_OPT_STRIPE_CACHE) || o->stripe_cache_mb >= min)
		return true;
	fr_format_size((uint64_t)chunk_sectors << 9, chunk, sizeof(chunk));
	fr_err("--stripe-cache-mb %u: raid6 over %u members with %s chunks needs at least %u MiB",
	       o->stripe_cache_mb, n, chunk, min);
	return false;
}

/* Checks that need no device: a bad value here is a usage error. */
static int check_args(const struct fr_opts *o, const char *name, uint32_t n)
{
	uint32_t chunk_sectors = o->chunk ? (uint32_t)(o->chunk >> 9) :
					    FR_DEFAULT_CHUNK >> 9;
	enum fr_geom_err gerr;

	if (!fr_name_is_valid(name)) {
		fr_err("%s: invalid array name (1-%d letters, digits, '.', '_', '-' or '+'; not starting with '-' or '.')",
		       name, FR_SB_NAME_MAX);
		return FR_EXIT_USAGE;
	}
	if (!(o->given & FR_OPT_LEVEL)) {
		fr_err("create: --level is required (0 or 6)");
		return FR_EXIT_USAGE;
	}
	gerr = fr_geom_check_shape(o->level, n, chunk_sectors);
	if (gerr == FR_GEOM_ETOOFEWDEVS || gerr == FR_GEOM_ETOOMANYDEVS) {
		fr_err("%s: %u devices: %s", name, n, fr_geom_strerror(gerr));
		return FR_EXIT_USAGE;
	}
	if (gerr || (o->chunk && (o->chunk % 512 || o->chunk >> 9 > UINT32_MAX))) {
		fr_err("--chunk %llu: %s", (unsigned long long)o->chunk,
		       fr_geom_strerror(gerr ? gerr : FR_GEOM_ECHUNKPOW2));
		return FR_EXIT_USAGE;
	}
	if (o->readahead && (o->readahead % 512 ||
			     o->readahead >> 9 > FR_SB_MAX_READAHEAD)) {
		fr_err("--readahead %llu: must be a multiple of 512 bytes and at most 32 MiB",
		       (unsigned long long)o->readahead);
		return FR_EXIT_USAGE;
	}
	if ((o->given & FR_OPT_STRIPE_CACHE) && o->level != FR_LEVEL_RAID6) {
		fr_err("--stripe-cache-mb: raid6 only (raid0 has no stripe cache)");
		return FR_EXIT_USAGE;
	}
	/* a chunk from the topology is never smaller than the default */
	if (!stripe_cache_fits(o, n, chunk_sectors))
		return FR_EXIT_USAGE;
	return 0;
}

/* Opens, probes and checks one member; nothing is written. */
static int check_member(const struct fr_opts *o, struct fr_member *m,
			struct fr_member *all, uint32_t idx, bool *wipe)
{
	char desc[FR_PROBE_DESC_MAX];
	struct stat st;
	uint32_t j;
	int ret;

	/* before opening: a second O_EXCL open of one device says only EBUSY */
	if (stat(m->path, &st)) {
		fr_open_error(m->path, -errno);
		return -errno;
	}
	for (j = 0; j < idx; j++)
		if (S_ISBLK(st.st_mode) && all[j].rdev == st.st_rdev) {
			fr_err("%s: listed twice (same device as %s)", m->path,
			       all[j].path);
			return -EINVAL;
		}
	ret = fr_member_open(m, FR_OPEN_EXCL);
	if (ret) {
		fr_open_error(m->path, ret);
		return ret;
	}
	ret = fr_probe_topology(m);
	if (ret) {
		fr_err("%s: reading size and topology failed: %s", m->path,
		       strerror(-ret));
		return ret;
	}
	ret = fr_sb_read(m);
	if (ret) {
		fr_err("%s: reading failed: %s", m->path, strerror(-ret));
		return ret;
	}
	if (m->sb_err == FR_SB_OK) {
		if (!o->force) {
			fr_err("%s: is already slot %u of fanraid array '%s' (use --force)",
			       m->path, m->sb.slot, m->sb.name);
			return -EEXIST;
		}
		fr_warn("%s: overwriting slot %u of fanraid array '%s'",
			m->path, m->sb.slot, m->sb.name);
	} else if (m->sb_err != FR_SB_EMAGIC) {
		if (!o->force) {
			fr_err("%s: appears to contain a damaged fanraid superblock (%s) (use --force)",
			       m->path, fr_sb_strerror(m->sb_err));
			return -EEXIST;
		}
	}
	ret = fr_probe_signatures(m, desc, sizeof(desc));
	if (ret < 0) {
		fr_err("%s: probing for existing signatures failed: %s",
		       m->path, strerror(-ret));
		return ret;
	}
	*wipe = ret == 0;
	if (ret == 0) {
		if (!o->force) {
			fr_err("%s: appears to contain %s (use --force)",
			       m->path, desc);
			return -EEXIST;
		}
		fr_warn("%s: appears to contain %s; --force given, erasing it",
			m->path, desc);
	}
	return 0;
}

static void print_result(const char *name, const struct fr_plan *p,
			 uint32_t data_devs, bool zeroed, bool assume_clean)
{
	char size[32], chunk[32];
	uint64_t stride = (uint64_t)p->chunk_sectors * 512 / 4096;

	fr_format_size(p->array_sectors << 9, size, sizeof(size));
	fr_format_size((uint64_t)p->chunk_sectors << 9, chunk, sizeof(chunk));
	printf("%s: created %s array /dev/mapper/%s: %u members, %s, chunk %s\n",
	       name, fr_level_name(p->level), name, p->ndevs, size, chunk);
	printf("  mkfs hints: mkfs.ext4 -E stride=%llu,stripe_width=%llu /dev/mapper/%s\n",
	       (unsigned long long)stride,
	       (unsigned long long)stride * data_devs, name);
	printf("              mkfs.xfs -d su=%uk,sw=%u /dev/mapper/%s\n",
	       p->chunk_sectors / 2, data_devs, name);
	if (zeroed)
		printf("  members zeroed by write-zeroes: parity is consistent, no initial resync\n");
	else if (assume_clean)
		printf("  --assume-clean: no initial resync; parity is wrong wherever the members' old contents were not already consistent, until written or repaired\n");
	else if (p->level == FR_LEVEL_RAID6)
		printf("  parity resync is running in the background (fanraid status %s)\n",
		       name);
}

int fr_cmd_create(const struct fr_opts *o)
{
	const char *name = o->argv[0];
	uint32_t n = o->argc - 1, i;
	struct fr_member *m, *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX], params[FR_TABLE_MAX], dmuuid[FR_DM_UUID_LEN];
	bool wipe[FR_MAX_DEVS] = { false };
	struct fr_dm_info info;
	struct fr_table t;
	struct fr_plan plan;
	struct fr_sb sb;
	int ret, refused = 0, rc = FR_EXIT_FAIL;
	bool zero, clean;

	ret = check_args(o, name, n);
	if (ret)
		return ret;
	if (fr_dm_info_or_err(name, &info))
		return FR_EXIT_FAIL;
	if (info.exists) {
		fr_err("%s: a device-mapper device with this name already exists",
		       name);
		return FR_EXIT_FAIL;
	}

	m = calloc(n, sizeof(*m));
	if (!m) {
		fr_err("%s: out of memory", name);
		return FR_EXIT_FAIL;
	}
	for (i = 0; i < n; i++)
		fr_member_init(&m[i], o->argv[1 + i]);

	/* Phase 1: every check on every member, nothing written; report all refusals. */
	for (i = 0; i < n; i++)
		if (check_member(o, &m[i], m, i, &wipe[i]))
			refused++;
	if (refused)
		goto out;
	if (fr_plan_create(m, n, o->level, o->chunk, o->data_offset, &plan,
			   err, sizeof(err))) {
		fr_err("%s", err);
		goto out;
	}
	if (plan.smallest != plan.largest) {
		char s[32], l[32];

		fr_format_size(plan.smallest, s, sizeof(s));
		fr_format_size(plan.largest, l, sizeof(l));
		fr_warn("%s: member sizes differ (%s to %s); each member contributes what the smallest has",
			name, s, l);
	}
	/* the chunk the plan settled on is the one the target will check */
	if (!stripe_cache_fits(o, n, plan.chunk_sectors))
		goto out;
	if ((o->given & FR_OPT_BITMAP) && plan.level != FR_LEVEL_RAID6) {
		fr_err("%s: --bitmap needs raid6 (raid0 has no parity to resync)",
		       name);
		goto out;
	}
	if (o->assume_clean && plan.level != FR_LEVEL_RAID6) {
		fr_err("%s: --assume-clean needs raid6 (raid0 has no parity)", name);
		goto out;
	}
	/* every member must offload it, or the resync is needed anyway */
	zero = plan.level == FR_LEVEL_RAID6 && !o->assume_clean;
	for (i = 0; i < n && zero; i++)
		zero = fr_member_can_zero(&m[i]);

	memset(&sb, 0, sizeof(sb));
	sb.format_version = FR_SB_FORMAT_VERSION;
	sb.layout_version = FR_SB_LAYOUT_VERSION;
	snprintf(sb.name, sizeof(sb.name), "%s", name);
	sb.level = plan.level;
	sb.chunk_sectors = plan.chunk_sectors;
	sb.ndevs = n;
	sb.data_offset = plan.data_offset;
	sb.member_sectors = plan.member_sectors;
	sb.array_sectors = plan.array_sectors;
	sb.flush_policy = o->flush_policy;
	sb.readahead_sectors = (uint32_t)(o->readahead >> 9);
	sb.ra_mode = o->ra_mode;
	sb.ra_window = o->ra_window;
	sb.ra_cache_mb = o->ra_cache_mb;
	sb.stripe_cache_mb = o->stripe_cache_mb;
	if (fr_bitmap_plan(plan.level, plan.chunk_sectors, plan.member_sectors,
			   plan.data_offset, o->bitmap_region, o->bitmap_none,
			   &sb, err, sizeof(err))) {
		fr_err("%s: %s", name, err);
		goto out;
	}
	sb.ctime = (uint64_t)time(NULL);
	sb.utime = sb.ctime;
	fr_uuid_generate(sb.array_uuid);
	for (i = 0; i < n; i++) {
		m[i].sb = sb;
		m[i].sb.slot = i;
		fr_uuid_generate(m[i].sb.member_uuid);
		slots[i] = &m[i];
	}
	fr_table_from_members(slots, n, &t);
	t.flush_explicit = o->given & FR_OPT_FLUSH;
	/* members are not zeroed: parity must be computed once, in the background */
	t.resync = plan.level == FR_LEVEL_RAID6;
	if (fr_table_build(&t, params, sizeof(params))) {
		fr_err("%s: cannot build the table line", name);
		goto out;
	}
	if (fr_dm_check_version(&t))
		goto out;

	/* Phase 2: erase old signatures, write superblocks (events 1, dirty). */
	for (i = 0; i < n; i++) {
		if (wipe[i]) {
			ret = fr_wipe_signatures(&m[i]);
			if (ret) {
				fr_err("%s: erasing old signatures failed: %s",
				       m[i].path, strerror(-ret));
				goto out;
			}
		}
		m[i].sb.events = 0;
	}
	/* zeroed data has zero parity: the array is redundant at once */
	for (i = 0; i < n && zero; i++) {
		ret = fr_member_zero(&m[i], plan.data_offset << 9,
				     plan.member_sectors << 9);
		if (ret) {
			fr_warn("%s: write-zeroes failed (%s); resyncing parity instead",
				m[i].path, strerror(-ret));
			zero = false;
		}
	}
	clean = zero || o->assume_clean;
	if (clean) {
		t.resync = false;
		if (fr_table_build(&t, params, sizeof(params))) {
			fr_err("%s: cannot build the table line", name);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		/* every bit set: the initial resync covers the whole array */
		ret = fr_bitmap_fill(&m[i], &m[i].sb, !clean);
		if (ret) {
			fr_err("%s: writing the bitmap failed: %s", m[i].path,
			       strerror(-ret));
			goto out;
		}
	}
	if (fr_members_write(slots, n, FR_SB_STATE_DIRTY, 0, 0, 0))
		goto out;
	/* dm claims the members exclusively; our O_EXCL fds must go first */
	for (i = 0; i < n; i++)
		fr_member_close(&m[i]);

	fr_dm_uuid(sb.array_uuid, dmuuid, sizeof(dmuuid));
	ret = fr_dm_create(name, dmuuid, plan.array_sectors, params,
			   sb.readahead_sectors);
	if (ret) {
		fr_err("%s: loading table '%s' failed: %s (is dm-fanraid loaded? see dmesg)",
		       name, params, strerror(-ret));
		fr_err("%s: superblocks are written; 'fanraid assemble %s' retries",
		       name, name);
		goto out;
	}
	print_result(name, &plan, n - fr_level_parity_devs(plan.level), zero,
		     o->assume_clean);
	rc = FR_EXIT_OK;
out:
	for (i = 0; i < n; i++)
		fr_member_close(&m[i]);
	free(m);
	return rc;
}
