/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid assemble NAME [DEV...] | --uuid UUID [DEV...] | --scan
 *
 * Reads every candidate's superblock read-only, lets fr_array_order() decide
 * whether they form one complete current array, and only then opens the
 * members exclusively, marks them dirty and loads the table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "array.h"
#include "bitmap_io.h"
#include "cli.h"
#include "config.h"
#include "dm.h"
#include "probe.h"
#include "reshape.h"
#include "table.h"
#include "util.h"

struct fr_candidates {
	struct fr_member *m;
	uint32_t n;
	uint32_t cap;
};

static void candidates_free(struct fr_candidates *c)
{
	uint32_t i;

	for (i = 0; i < c->n; i++) {
		fr_member_close(&c->m[i]);
		free((char *)c->m[i].path);
	}
	free(c->m);
	memset(c, 0, sizeof(*c));
}

/* Opens @path read-only and reads its superblock; @quiet skips non-members silently. */
static int candidate_add(struct fr_candidates *c, const char *path, bool quiet)
{
	struct fr_member *m;
	int ret;

	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 16;
		struct fr_member *nm = realloc(c->m, cap * sizeof(*nm));

		if (!nm)
			return -ENOMEM;
		c->m = nm;
		c->cap = cap;
	}
	m = &c->m[c->n];
	fr_member_init(m, NULL);
	m->path = strdup(path);
	if (!m->path)
		return -ENOMEM;
	ret = fr_member_open(m, FR_OPEN_READ);
	if (!ret)
		ret = fr_sb_read(m);
	fr_member_close(m);
	if (quiet && (ret || m->sb_err == FR_SB_EMAGIC)) {
		free((char *)m->path);
		return 0;
	}
	if (ret) {
		if (ret == -EBUSY || ret == -ENOTBLK)
			fr_open_error(m->path, ret);
		else
			fr_err("%s: cannot read the superblock: %s", m->path,
			       strerror(-ret));
		free((char *)m->path);
		return ret;
	}
	if (quiet && m->sb_err) {
		fr_warn("%s: skipped: %s", m->path, fr_sb_strerror(m->sb_err));
		free((char *)m->path);
		return 0;
	}
	c->n++;
	return 0;
}

/*
 * Every block device the kernel knows, from /proc/partitions. libblkid's
 * cache keeps only devices with a signature it recognises, and it has no
 * prober for fanraid, so it would hide exactly the devices we look for.
 */
static int scan_all(struct fr_candidates *c)
{
	char line[256], name[200], path[256];
	unsigned int maj, min;
	unsigned long long blocks;
	FILE *f;
	int ret = 0;

	f = fopen("/proc/partitions", "re");
	if (!f) {
		ret = -errno;
		fr_err("/proc/partitions: cannot open: %s", strerror(-ret));
		return ret;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %u %u %llu %199s", &maj, &min, &blocks,
			   name) != 4)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", name);
		if (!fr_conf_device_ok(fr_conf_get(), path))
			continue;	/* not named by fanraid.conf's DEVICE lines */
		ret = candidate_add(c, path, true);
		if (ret)
			break;
	}
	fclose(f);
	return ret;
}

/* Exclusive re-open after the read-only look: nobody may hold a member we load. */
static int reopen_members(struct fr_member **slots, uint32_t n)
{
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		struct fr_sb old;
		off_t size;

		if (!slots[i])
			continue;
		old = slots[i]->sb;
		ret = fr_member_open(slots[i], FR_OPEN_EXCL);
		if (ret) {
			fr_open_error(slots[i]->path, ret);
			return ret;
		}
		ret = fr_sb_read(slots[i]);
		if (!ret && (slots[i]->sb_err ||
			     old.events != slots[i]->sb.events ||
			     old.slot != slots[i]->sb.slot ||
			     memcmp(old.member_uuid, slots[i]->sb.member_uuid,
				    FR_UUID_LEN)))
			ret = -ESTALE;
		if (ret) {
			fr_err("%s: superblock changed while assembling", slots[i]->path);
			return ret;
		}
		size = lseek(slots[i]->fd, 0, SEEK_END);
		if (size < 0 || (uint64_t)size >> 9 <
		    old.data_offset + old.member_sectors) {
			fr_err("%s: smaller than its superblock's data area (%llu sectors needed)",
			       slots[i]->path,
			       (unsigned long long)(old.data_offset +
						    old.member_sectors));
			return -ENOSPC;
		}
	}
	return 0;
}

/* Says which given members fr_array_order() left out, and which slots are empty. */
static uint64_t report_left_out(struct fr_member *m, uint32_t n,
				struct fr_member **slots, const struct fr_sb *sb)
{
	uint64_t missing = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (slots[m[i].sb.slot] == &m[i])
			continue;
		if (fr_sb_fresh(sb, &m[i].sb) && slots[m[i].sb.slot] &&
		    !(sb->failed_mask >> m[i].sb.slot & 1))
			fr_warn("%s: left out: slot %u is held by %s, whose superblock is newer",
				m[i].path, m[i].sb.slot, slots[m[i].sb.slot]->path);
		else if (!fr_sb_fresh(sb, &m[i].sb))
			fr_warn("%s: left out: stale (events %llu, the array is at %llu)",
				m[i].path, (unsigned long long)m[i].sb.events,
				(unsigned long long)sb->events);
		else
			fr_warn("%s: left out: slot %u is marked failed",
				m[i].path, m[i].sb.slot);
	}
	for (i = 0; i < sb->ndevs; i++)
		if (!slots[i])
			missing |= 1ull << i;
	return missing;
}

/*
 * A dirty raid6 with empty slots: rows written when it stopped may have
 * P/Q that disagree with their data, and an empty slot's chunk in such a
 * row is rebuilt from exactly that parity, so it would read back wrong.
 * With a write-intent bitmap those rows are in its set regions (@dirty of
 * them, @region sectors each), and none set means none at risk; without
 * one (@dirty UINT64_MAX) any row may be. Refused unless @force, as md
 * refuses to start a dirty degraded array.
 */
static bool dirty_degraded_ok(const char *name, uint64_t missing,
			      uint64_t dirty, uint32_t region, bool force)
{
	char slots[FR_MAX_DEVS * 4] = "", rows[160], size[32];
	size_t pos = 0;
	uint32_t i;

	if (!dirty) {
		printf("%s: not stopped cleanly while degraded, but the bitmap shows no region being written: no row is at risk\n",
		       name);
		return true;
	}
	for (i = 0; i < FR_MAX_DEVS; i++)
		if (missing >> i & 1)
			pos += snprintf(slots + pos, sizeof(slots) - pos, "%s%u",
					pos ? "," : "", i);
	if (dirty == UINT64_MAX) {
		snprintf(rows, sizeof(rows), "there is no write-intent bitmap, so any row may be affected");
	} else {
		fr_format_size((uint64_t)region << 9, size, sizeof(size));
		snprintf(rows, sizeof(rows), "the bitmap shows %llu region%s of %s per member being written (fanraid examine counts them)",
			 (unsigned long long)dirty, dirty == 1 ? "" : "s", size);
	}
	if (!force) {
		fr_err("%s: was not stopped cleanly while degraded (slot %s missing): rows being written when it stopped may have parity that disagrees with their data, and slot %s's chunks in those rows would be rebuilt from that parity and read back wrong; %s; not assembled (use --force to assemble anyway)",
		       name, slots, slots, rows);
		return false;
	}
	fr_warn("%s: --force: assembling although it was not stopped cleanly while degraded (slot %s missing); rows written when it stopped may return wrong data for slot %s (%s); resyncing parity with what is left",
		name, slots, slots, rows);
	return true;
}

/*
 * Members left out of empty slots that can come back as re-adds: the
 * bitmap holds every write since they left (their events are not older
 * than the last time bits were cleared) and they were not halfway through
 * a rebuild from scratch. They fill their slots in @slots; returns their
 * mask. The kernel checks the events again at load.
 */
static uint64_t find_readds(struct fr_member *m, uint32_t n,
			    struct fr_member **slots, const struct fr_sb *sb,
			    uint64_t missing)
{
	uint64_t readd = 0;
	uint32_t i;

	if (sb->level != FR_LEVEL_RAID6 || !sb->bitmap_region_sectors)
		return 0;
	for (i = 0; i < n; i++) {
		const struct fr_sb *c = &m[i].sb;

		if (!(missing >> c->slot & 1) || readd >> c->slot & 1 ||
		    memcmp(c->array_uuid, sb->array_uuid, FR_UUID_LEN))
			continue;
		if (c->state & FR_SB_STATE_REBUILDING) {
			fr_warn("%s: was being rebuilt from scratch when the array stopped; not re-added (fanraid replace rebuilds it)",
				m[i].path);
			continue;
		}
		if (c->events < sb->events_cleared || c->events > sb->events) {
			fr_warn("%s: missed writes the bitmap no longer holds (events %llu, bits cleared at %llu); not re-added (fanraid replace rebuilds it)",
				m[i].path, (unsigned long long)c->events,
				(unsigned long long)sb->events_cleared);
			continue;
		}
		slots[c->slot] = &m[i];
		readd |= 1ull << c->slot;
		printf("%s: re-adding %s as slot %u: only the regions written while it was away are recovered\n",
		       sb->name, m[i].path, c->slot);
	}
	return readd;
}

/*
 * Set bits in the union of the in-sync members' bitmaps, as the kernel
 * loads it; UINT64_MAX without a bitmap, or when one cannot be read.
 */
static uint64_t dirty_regions(struct fr_member **slots, uint32_t n,
			      uint64_t readd)
{
	struct fr_member *in_sync[FR_MAX_DEVS] = { NULL };
	const struct fr_sb *sb = NULL;
	uint64_t dirty;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!slots[i] || readd >> i & 1 || slots[i]->fd < 0)
			continue;
		in_sync[i] = slots[i];
		sb = sb ? sb : &slots[i]->sb;
	}
	if (!sb || !sb->bitmap_region_sectors ||
	    fr_bitmap_count_union(in_sync, n, sb, &dirty))
		return UINT64_MAX;
	return dirty;
}

/*
 * A grow was under way: every block takes the newest one's shape at the
 * lowest position any member records (one a step behind may record less,
 * or not know the grow yet), the first rows are put in place (from their
 * backup when one was recorded), and the table loads at the old length
 * with the reshape feature. The copy waits for fanraid grow --continue.
 */
static int grow_resume(struct fr_member **slots, uint32_t ndevs,
		       struct fr_table *t, uint64_t *len)
{
	const struct fr_sb *ref = NULL;
	struct fr_reshape_members rm = { .n = ndevs };
	struct fr_reshape_geo rg;
	uint64_t pos = UINT64_MAX;
	bool backup = false;
	struct fr_sb sb;
	uint32_t i;
	int ret;

	/* The first rows may need every member's data, read directly. */
	for (i = 0; i < ndevs; i++) {
		if (!slots[i]) {
			fr_err("a grow resumes only with every member present; slot %u is missing",
			       i);
			return -ENODEV;
		}
	}
	ref = &slots[0]->sb;
	for (i = 0; i < ndevs; i++)
		if (slots[i]->sb.events > ref->events)
			ref = &slots[i]->sb;
	sb = *ref;
	for (i = 0; i < ndevs; i++) {
		const struct fr_sb *s = &slots[i]->sb;
		uint64_t p = s->state & FR_SB_STATE_RESHAPE ?
			     s->reshape_position : 0;

		backup |= s->state & FR_SB_STATE_RESHAPE_BACKUP;
		if (p < pos)
			pos = p;
	}
	for (i = 0; i < ndevs; i++) {
		struct fr_sb *s = &slots[i]->sb;
		uint8_t uuid[FR_UUID_LEN];

		memcpy(uuid, s->member_uuid, FR_UUID_LEN);
		*s = sb;
		s->slot = i;
		memcpy(s->member_uuid, uuid, FR_UUID_LEN);
		s->reshape_position = pos;
		s->state &= ~FR_SB_STATE_RESHAPE_BACKUP;
		rm.slots[i] = slots[i];
	}
	if (fr_reshape_geo_init(sb.level, sb.reshape_old_ndevs, ndevs,
				sb.chunk_sectors, sb.member_sectors, &rg)) {
		fr_err("%s: the grow's geometry does not fit its members", sb.name);
		return -EINVAL;
	}
	ret = fr_reshape_open_data(&rm);
	if (ret)
		return ret;
	if (backup || !pos) {
		printf("%s: a grow was cut off in its first rows; %s\n", sb.name,
		       backup ? "restoring them from their backup" :
		       "copying them again");
		ret = fr_reshape_critical(&rm, &rg, backup);
		pos = rg.crit;
	}
	fr_reshape_close_data(&rm);
	if (ret)
		return ret;
	fr_reshape_table(t, &slots[0]->sb);
	t->reshape_pos = pos;
	*len = rg.old.capacity;
	printf("%s: growing from %u to %u members, %llu of %llu sectors copied; fanraid grow %s --continue finishes it\n",
	       sb.name, sb.reshape_old_ndevs, ndevs, (unsigned long long)pos,
	       (unsigned long long)rg.old.capacity, sb.name);
	return 0;
}

/*
 * Under systemd, the grow goes on by itself (mdadm's grow-continue unit);
 * elsewhere whoever assembled runs fanraid grow --continue.
 */
static void grow_continue_unit(const char *name)
{
	char unit[FR_SB_NAME_LEN + 32];
	pid_t pid;

	if (access("/run/systemd/system", F_OK))
		return;
	snprintf(unit, sizeof(unit), "fanraid-grow@%s.service", name);
	pid = fork();
	if (!pid) {
		execlp("systemctl", "systemctl", "--no-block", "start", unit,
		       (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static int assemble(struct fr_member *m, uint32_t n, const uint8_t *uuid,
		    const char *name, bool force)
{
	struct fr_member *slots[FR_MAX_DEVS];
	char err[FR_ERR_MAX], params[FR_TABLE_MAX], dmuuid[FR_DM_UUID_LEN];
	struct fr_dm_info info;
	const struct fr_sb *sb = NULL;
	struct fr_table t;
	struct fr_member *written[FR_MAX_DEVS];
	bool was_dirty = false;
	uint64_t missing, readd;
	uint32_t i, j, ndevs;
	struct fr_member keep[FR_MAX_DEVS];
	uint64_t len;
	bool growing;
	int ret, rc = FR_EXIT_FAIL;

	/*
	 * Spares wait outside the table (fanraid monitor puts them in).
	 * Shallow copies: the candidates keep the paths; none is open here.
	 */
	for (i = 0, j = 0; i < n; i++) {
		if (!m[i].sb_err && fr_sb_is_spare(&m[i].sb)) {
			printf("%s: spare of %s, not assembled as a member\n",
			       m[i].path, m[i].sb.name);
			continue;
		}
		if (j < FR_MAX_DEVS)
			keep[j] = m[i];
		j++;
	}
	if (j > FR_MAX_DEVS) {
		fr_err("%s: more than %d members given", name ? name : "array",
		       FR_MAX_DEVS);
		return FR_EXIT_FAIL;
	}
	m = keep;
	n = j;
	if (fr_array_order(m, n, uuid, name, slots, err, sizeof(err))) {
		fr_err("%s", err);
		return FR_EXIT_FAIL;
	}
	/* the newest block: during a grow one may be a step behind */
	for (i = 0; i < FR_MAX_DEVS; i++)
		if (slots[i] && (!sb || slots[i]->sb.events > sb->events))
			sb = &slots[i]->sb;
	ndevs = sb->ndevs;
	name = sb->name;
	missing = report_left_out(m, n, slots, sb);
	readd = find_readds(m, n, slots, sb, missing);
	missing &= ~readd;
	fr_dm_uuid(sb->array_uuid, dmuuid, sizeof(dmuuid));
	if (fr_dm_info_or_err(name, &info))
		return FR_EXIT_FAIL;
	if (info.exists) {
		fr_err(strcmp(info.uuid, dmuuid) ?
		       "%s: a different device-mapper device with this name exists" :
		       "%s: already running",
		       name);
		return FR_EXIT_FAIL;
	}
	if (fr_geom_member_sectors_for(sb->level, ndevs, sb->chunk_sectors,
				       sb->array_sectors) != sb->member_sectors) {
		fr_err("%s: superblock sizes disagree with the geometry", name);
		return FR_EXIT_FAIL;
	}
	if (reopen_members(slots, ndevs))
		goto out;
	/* a member one behind may still say so after the grow's last update */
	growing = sb->state & FR_SB_STATE_RESHAPE;
	for (i = 0; i < ndevs; i++)
		if (slots[i] && !(readd >> i & 1))
			was_dirty |= slots[i]->sb.state & FR_SB_STATE_DIRTY;
	if (!growing)
		fr_array_adopt_newest(slots, ndevs, sb, readd);
	fr_table_from_members(slots, ndevs, &t);
	t.readd_mask = readd;
	len = sb->array_sectors;
	if (growing && grow_resume(slots, ndevs, &t, &len))
		goto out;
	/* a re-added member is stale where the bitmap is set: degraded there */
	if (was_dirty && sb->level == FR_LEVEL_RAID6 && !(missing | readd)) {
		/* an unclean stop may have left P/Q behind the data */
		t.resync = true;
		fr_warn("%s: was not stopped cleanly; resyncing parity", name);
	} else if (was_dirty && sb->level == FR_LEVEL_RAID6) {
		if (!dirty_degraded_ok(name, missing | readd,
				       dirty_regions(slots, ndevs, readd),
				       sb->bitmap_region_sectors, force))
			goto out;
		/*
		 * As md does after a forced start: a lost block comes from P
		 * and Q is made to agree, so a later failure in those rows
		 * rebuilds what this one reads.
		 */
		t.resync = true;
	} else if (was_dirty) {
		fr_warn("%s: was not stopped cleanly", name);
	}
	if (fr_table_build(&t, params, sizeof(params))) {
		fr_err("%s: cannot build the table line", name);
		goto out;
	}
	if (fr_dm_check_version(&t))
		goto out;
	/*
	 * Record the empty slots: members that come back later are stale. A
	 * re-added member keeps its own block as it is, so the kernel can
	 * check its events; it leaves the failed mask once recovered.
	 */
	for (i = 0; i < ndevs; i++)
		written[i] = readd >> i & 1 ? NULL : slots[i];
	if (fr_members_write(written, ndevs, FR_SB_STATE_DIRTY, 0,
			     missing | readd, 0))
		goto out;
	for (i = 0; i < ndevs; i++)
		if (slots[i])
			fr_member_close(slots[i]);

	ret = fr_dm_create(name, dmuuid, len, params, sb->readahead_sectors);
	if (ret) {
		fr_err("%s: loading table '%s' failed: %s (is dm-fanraid loaded? see dmesg)",
		       name, params, strerror(-ret));
		/* leave the members as we found them, apart from the events */
		if (!was_dirty && !reopen_members(slots, ndevs))
			fr_members_write(slots, ndevs, 0, FR_SB_STATE_DIRTY, 0, 0);
		goto out;
	}
	printf("%s: assembled %s array /dev/mapper/%s from %u of %u members:",
	       name, fr_level_name(sb->level), name,
	       ndevs - (uint32_t)__builtin_popcountll(missing), ndevs);
	for (i = 0; i < ndevs; i++)
		printf(" %s", slots[i] ? slots[i]->path : "(missing)");
	printf("\n");
	if (missing)
		fr_warn("%s: running degraded", name);
	if (growing)
		grow_continue_unit(name);
	rc = FR_EXIT_OK;
out:
	for (i = 0; i < ndevs; i++)
		if (slots[i])
			fr_member_close(slots[i]);
	return rc;
}

/*
 * Copies into @sel the candidates of the wanted array (shallow copies: the
 * paths stay owned by @c). Returns how many, or -errno after saying why.
 */
static int filter(const struct fr_candidates *c, const uint8_t *uuid,
		  const char *name, struct fr_member *sel)
{
	uint8_t first[FR_UUID_LEN];
	char u[FR_UUID_STR_LEN + 1];
	uint32_t i, n = 0;

	for (i = 0; i < c->n; i++) {
		const struct fr_member *m = &c->m[i];

		if (uuid ? memcmp(m->sb.array_uuid, uuid, FR_UUID_LEN) :
			   strcmp(m->sb.name, name))
			continue;
		if (!n)
			memcpy(first, m->sb.array_uuid, FR_UUID_LEN);
		if (memcmp(first, m->sb.array_uuid, FR_UUID_LEN)) {
			fr_err("%s: more than one array has this name (see %s and %s); use --uuid",
			       name, sel[0].path, m->path);
			return -EEXIST;
		}
		if (n == FR_MAX_DEVS) {
			fr_err("%s: more than %d members found", m->sb.name,
			       FR_MAX_DEVS);
			return -E2BIG;
		}
		sel[n++] = *m;
	}
	if (!n) {
		if (uuid)
			fr_uuid_format(uuid, u);
		fr_err("%s%s: no members found", uuid ? "UUID " : "",
		       uuid ? u : name);
		return -ENOENT;
	}
	return n;
}

/* --scan: every array found, each on its own; already running ones are skipped. */
static int assemble_scan(const struct fr_candidates *c, bool force)
{
	char dmuuid[FR_DM_UUID_LEN];
	struct fr_dm_info info;
	int rc = FR_EXIT_OK, found = 0;
	uint32_t i, j;

	for (i = 0; i < c->n; i++) {
		struct fr_member group[FR_MAX_DEVS];
		const struct fr_sb *sb = &c->m[i].sb;
		bool seen = false;
		int n;

		for (j = 0; j < i && !seen; j++)
			seen = !memcmp(c->m[j].sb.array_uuid, sb->array_uuid,
				       FR_UUID_LEN);
		if (seen)
			continue;
		if (!fr_conf_array_ok(fr_conf_get(), sb->array_uuid)) {
			printf("%s: not in %s (AUTO no), skipped\n", sb->name,
			       fr_conf_get()->path);
			continue;
		}
		found++;
		fr_dm_uuid(sb->array_uuid, dmuuid, sizeof(dmuuid));
		if (!fr_dm_info(sb->name, &info) && info.exists &&
		    !strcmp(info.uuid, dmuuid)) {
			printf("%s: already running\n", sb->name);
			continue;
		}
		n = filter(c, sb->array_uuid, NULL, group);
		if (n < 0 || assemble(group, n, sb->array_uuid, NULL, force))
			rc = FR_EXIT_FAIL;
	}
	if (!found)
		printf("no fanraid arrays found\n");
	return rc;
}

int fr_cmd_assemble(const struct fr_opts *o)
{
	struct fr_candidates c = { 0 };
	const uint8_t *uuid = o->given & FR_OPT_UUID ? o->uuid : NULL;
	struct fr_member sel[FR_MAX_DEVS];
	const char *name = NULL;
	int i, n, first_dev = 0, rc = FR_EXIT_FAIL;

	/* scans honour fanraid.conf; a file that does not parse stops them */
	fr_conf_set_path(o->config);
	if ((o->scan || o->argc <= (uuid ? 0 : 1)) && !fr_conf_get())
		return FR_EXIT_FAIL;
	if (o->scan) {
		if (o->argc || uuid) {
			fr_err("assemble: --scan takes no NAME, --uuid or devices");
			return FR_EXIT_USAGE;
		}
		if (!scan_all(&c))
			rc = assemble_scan(&c, o->force);
		goto out;
	}
	if (!uuid) {
		if (!o->argc) {
			fr_err("assemble: give NAME, --uuid UUID or --scan");
			return FR_EXIT_USAGE;
		}
		name = o->argv[0];
		first_dev = 1;
		if (!fr_name_is_valid(name)) {
			fr_err("%s: invalid array name", name);
			return FR_EXIT_USAGE;
		}
	}
	if (o->argc > first_dev) {
		for (i = first_dev; i < o->argc; i++)
			if (candidate_add(&c, o->argv[i], false))
				goto out;
		rc = assemble(c.m, c.n, uuid, name, o->force);
		goto out;
	}
	if (scan_all(&c))
		goto out;
	n = filter(&c, uuid, name, sel);
	if (n > 0)
		rc = assemble(sel, n, uuid, name, o->force);
out:
	candidates_free(&c);
	return rc;
}
