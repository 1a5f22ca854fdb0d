/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sizing and assembly checks. Every refusal writes one message into the
 * caller's buffer, starting with the member it is about.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "util.h"

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/*
 * Default chunk: 512 KiB, or the members' optimal I/O size when that is a
 * larger power of two the target accepts (a hardware stripe, say).
 */
static uint64_t default_chunk(const struct fr_member *m, uint32_t n)
{
	uint64_t chunk = FR_DEFAULT_CHUNK;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint64_t io = m[i].opt_io > m[i].min_io ? m[i].opt_io :
							   m[i].min_io;

		if (io > chunk && fr_ilog2_exact(io) >= 0 &&
		    io <= (uint64_t)FR_MAX_CHUNK_SECTORS << FR_SECTOR_SHIFT)
			chunk = io;
	}
	return chunk;
}

/*
 * Default data offset: 1 MiB rounded up to every member's I/O granularity,
 * shifted by the alignment offset when all members share one.
 */
static uint64_t default_data_offset(const struct fr_member *m, uint32_t n)
{
	uint64_t off = FR_DEFAULT_DATA_OFFSET, align = m[0].align_offset;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (m[i].min_io > 4096 && m[i].min_io % 4096 == 0)
			off = round_up(off, m[i].min_io);
		if (m[i].opt_io > 4096 && m[i].opt_io % 4096 == 0)
			off = round_up(off, m[i].opt_io);
		if (m[i].align_offset != align)
			align = 0;
	}
	if (align % 4096)
		align = 0;
	return off + align;
}

/* Decides chunk, data offset and sizes for a new array over @m[0..n). */
int fr_plan_create(const struct fr_member *m, uint32_t n, uint32_t level,
		   uint64_t chunk_bytes, uint64_t data_offset_bytes,
		   struct fr_plan *plan, char *err, size_t len)
{
	char need[32], have[32];
	struct fr_geom g;
	enum fr_geom_err gerr;
	uint64_t usable;
	uint32_t i;

	memset(plan, 0, sizeof(*plan));
	if (!chunk_bytes)
		chunk_bytes = default_chunk(m, n);
	if (chunk_bytes % 512 || chunk_bytes >> FR_SECTOR_SHIFT > UINT32_MAX)
		return fail(err, len, "--chunk %llu: %s",
			    (unsigned long long)chunk_bytes,
			    fr_geom_strerror(FR_GEOM_ECHUNKPOW2));
	gerr = fr_geom_check_shape(level, n,
				   (uint32_t)(chunk_bytes >> FR_SECTOR_SHIFT));
	if (gerr == FR_GEOM_ETOOFEWDEVS || gerr == FR_GEOM_ETOOMANYDEVS)
		return fail(err, len, "%u devices: %s", n,
			    fr_geom_strerror(gerr));
	if (gerr)
		return fail(err, len, "--chunk %llu: %s",
			    (unsigned long long)chunk_bytes,
			    fr_geom_strerror(gerr));
	if (!data_offset_bytes)
		data_offset_bytes = default_data_offset(m, n);
	if (data_offset_bytes % 4096 ||
	    data_offset_bytes < FR_SB_OFFSET + FR_SB_SIZE)
		return fail(err, len,
			    "--data-offset %llu: must be a multiple of 4 KiB and at least 8 KiB (the superblock sits at 4 KiB)",
			    (unsigned long long)data_offset_bytes);

	plan->level = level;
	plan->ndevs = n;
	plan->chunk_sectors = (uint32_t)(chunk_bytes >> FR_SECTOR_SHIFT);
	plan->data_offset = data_offset_bytes >> FR_SECTOR_SHIFT;
	plan->smallest = UINT64_MAX;
	for (i = 0; i < n; i++) {
		if (m[i].size < data_offset_bytes + chunk_bytes) {
			fr_format_size(m[i].size, have, sizeof(have));
			fr_format_size(data_offset_bytes + chunk_bytes, need,
				       sizeof(need));
			return fail(err, len,
				    "%s: too small (%s); needs at least %s for the data offset plus one chunk",
				    m[i].path, have, need);
		}
		if (m[i].size < plan->smallest)
			plan->smallest = m[i].size;
		if (m[i].size > plan->largest)
			plan->largest = m[i].size;
	}
	usable = (plan->smallest >> FR_SECTOR_SHIFT) - plan->data_offset;
	gerr = fr_geom_init(&g, level, n, plan->chunk_sectors, usable);
	if (gerr)
		return fail(err, len, "array: %s", fr_geom_strerror(gerr));
	plan->member_sectors = g.member_sectors;
	plan->array_sectors = g.capacity;
	return 0;
}

/*
 * Whether a member's block is at most one update behind the reference
 * @rsb, and so in sync unless the reference marks it failed. Updates reach
 * the members one by one (the tool) or in parallel (the kernel), and a
 * crash may cut one short, leaving some a step behind; such a member
 * missed no data, since one that misses writes is in the failed mask of
 * its peers first. A member that stops being one without failing (a hot
 * replace's old device) is left two behind. md's assembly allows the same
 * margin, and so does the kernel (fanraid_meta_stale()).
 *
 * Except a member whose own block says it was still being recovered (its
 * own slot failed, or REBUILDING): the update that ended its recovery may
 * have reached its peers and not it, nor the last of what the recovery
 * wrote to it. md trusts a device's own recovery offset the same way.
 */
bool fr_sb_fresh(const struct fr_sb *rsb, const struct fr_sb *sb)
{
	if (sb->events >= rsb->events)
		return true;
	return sb->events + 1 == rsb->events && sb->slot < FR_MAX_DEVS &&
	       !(sb->failed_mask >> sb->slot & 1) &&
	       !(sb->state & FR_SB_STATE_REBUILDING);
}

/*
 * Which superblock field two members disagree on, or NULL. Blocks of
 * different events may differ in the settings (a crash cut a fanraid set
 * short): then the newer holds.
 */
static const char *sb_differs(const struct fr_sb *a, const struct fr_sb *b)
{
	if (a->level != b->level)
		return "level";
	if (a->ndevs != b->ndevs)
		return "device count";
	if (a->chunk_sectors != b->chunk_sectors)
		return "chunk size";
	if (a->member_sectors != b->member_sectors)
		return "member data size";
	if (a->array_sectors != b->array_sectors)
		return "array size";
	if (a->events != b->events)
		return NULL;
	if (a->flush_policy != b->flush_policy)
		return "flush policy";
	if (strcmp(a->name, b->name))
		return "array name";
	return NULL;
}

/*
 * Checks that @m[0..n) are the current members of one array and puts them
 * in slot order in @slots (FR_MAX_DEVS entries). @uuid (if not NULL) or else
 * @name (if not NULL) says which array is wanted; otherwise the first member
 * decides. The member with the most events is the reference. raid0 needs
 * every slot, fresh; raid6 runs without up to two members, so a stale
 * member, or one its peers marked failed, is left out (its slot NULL) and
 * the caller says so.
 */
/*
 * A grow's superblock updates go member by member, so a crash between two
 * leaves blocks one event apart: a member one update behind the reference
 * still belongs to the grow (assemble resumes at the lowest position any
 * member records, which is safe: the kernel is only ever told a position
 * once every member holds it), and before its first update a member still
 * has the old shape, which is whole while nothing has moved.
 */
static bool grow_one_behind(const struct fr_sb *rsb, const struct fr_sb *sb)
{
	if (!(rsb->state & FR_SB_STATE_RESHAPE) ||
	    sb->events + 1 != rsb->events)
		return false;
	if (sb->state & FR_SB_STATE_RESHAPE)
		return !sb_differs(rsb, sb);
	return !rsb->reshape_position &&
	       !(rsb->state & FR_SB_STATE_RESHAPE_BACKUP) &&
	       sb->ndevs == rsb->reshape_old_ndevs &&
	       sb->level == rsb->level &&
	       sb->chunk_sectors == rsb->chunk_sectors &&
	       sb->member_sectors == rsb->member_sectors &&
	       !strcmp(sb->name, rsb->name);
}

int fr_array_order(struct fr_member *m, uint32_t n, const uint8_t *uuid,
		   const char *name, struct fr_member **slots,
		   char *err, size_t len)
{
	char want[FR_UUID_STR_LEN + 1], got[FR_UUID_STR_LEN + 1];
	char target[FR_SB_NAME_LEN + FR_UUID_STR_LEN + 4096];
	const struct fr_member *ref = NULL;
	const struct fr_sb *rsb;
	const char *field;
	uint64_t failed = 0;
	uint32_t i, j, lost = 0;

	if (!n)
		return fail(err, len, "%s: no members found",
			    name ? name : "array");
	for (i = 0; i < n; i++) {
		if (m[i].sb_err)
			return fail(err, len, "%s: %s", m[i].path,
				    fr_sb_strerror(m[i].sb_err));
		for (j = 0; j < i; j++)
			if (m[i].rdev && m[i].rdev == m[j].rdev)
				return fail(err, len,
					    "%s: listed twice (same device as %s)",
					    m[i].path, m[j].path);
	}
	if (uuid) {
		fr_uuid_format(uuid, want);
		snprintf(target, sizeof(target), "UUID %s", want);
		for (i = 0; i < n && !ref; i++)
			if (!memcmp(m[i].sb.array_uuid, uuid, FR_UUID_LEN))
				ref = &m[i];
	} else if (name) {
		snprintf(target, sizeof(target), "'%s'", name);
		for (i = 0; i < n && !ref; i++)
			if (!strcmp(m[i].sb.name, name))
				ref = &m[i];
	} else {
		ref = &m[0];
		fr_uuid_format(ref->sb.array_uuid, want);
		snprintf(target, sizeof(target), "'%s' (UUID %s, from %s)",
			 ref->sb.name, want, ref->path);
	}

	for (i = 0; i < n; i++) {
		fr_uuid_format(m[i].sb.array_uuid, got);
		if (!ref || memcmp(m[i].sb.array_uuid, ref->sb.array_uuid,
				   FR_UUID_LEN))
			return fail(err, len,
				    "%s: member of array '%s' (UUID %s), not of %s",
				    m[i].path, m[i].sb.name, got, target);
	}
	for (i = 0; i < n; i++)
		if (m[i].sb.events > ref->sb.events)
			ref = &m[i];
	rsb = &ref->sb;
	/*
	 * Blocks of the newest events should agree on the failed mask; if
	 * one does not (a member's own block written after it failed), a
	 * slot any of them marks failed stays out.
	 */
	for (i = 0; i < n; i++)
		if (m[i].sb.events == rsb->events)
			failed |= m[i].sb.failed_mask;
	for (i = 0; i < n; i++)
		if (m[i].sb.events == rsb->events)
			m[i].sb.failed_mask = failed;
	for (i = 0; i < n; i++) {
		if (grow_one_behind(rsb, &m[i].sb))
			continue;
		field = sb_differs(rsb, &m[i].sb);
		if (field)
			return fail(err, len,
				    "%s: superblock disagrees with %s on the %s",
				    m[i].path, ref->path, field);
	}

	memset(slots, 0, sizeof(*slots) * FR_MAX_DEVS);
	for (i = 0; i < n; i++) {
		uint32_t s = m[i].sb.slot;

		if (grow_one_behind(rsb, &m[i].sb)) {
			if (slots[s])
				return fail(err, len, "%s: slot %u is also claimed by %s",
					    m[i].path, s, slots[s]->path);
			slots[s] = &m[i];
			continue;
		}
		if (rsb->level == FR_LEVEL_RAID0 && !fr_sb_fresh(rsb, &m[i].sb))
			return fail(err, len,
				    "%s: stale member: events %llu, but %s has %llu",
				    m[i].path,
				    (unsigned long long)m[i].sb.events,
				    ref->path,
				    (unsigned long long)rsb->events);
		if (!fr_sb_fresh(rsb, &m[i].sb) || rsb->failed_mask >> s & 1)
			continue;
		/*
		 * Two fresh blocks for one slot a step apart: the older is the
		 * device the slot left (a hot replace cut short between its
		 * two updates, nothing written since); at equal events nothing
		 * tells them apart.
		 */
		if (slots[s] && slots[s]->sb.events == m[i].sb.events)
			return fail(err, len, "%s: slot %u is also claimed by %s",
				    m[i].path, s, slots[s]->path);
		if (!slots[s] || slots[s]->sb.events < m[i].sb.events)
			slots[s] = &m[i];
	}
	for (i = 0; i < rsb->ndevs; i++) {
		if (slots[i])
			continue;
		if (rsb->level == FR_LEVEL_RAID0)
			return fail(err, len,
				    "%s: slot %u of %u is %s; a raid0 array cannot run without it",
				    rsb->name, i, rsb->ndevs,
				    rsb->failed_mask >> i & 1 ?
				    "marked failed" : "missing");
		lost++;
	}
	if (lost > FR_PARITY_DEVS_RAID6)
		return fail(err, len,
			    "%s: %u of %u members missing, stale or failed; raid6 runs without at most %u",
			    rsb->name, lost, rsb->ndevs, FR_PARITY_DEVS_RAID6);
	return 0;
}

/*
 * Members in sync (@slots, NULL for none; not those in @keep, whose own
 * blocks stay as they are) take the array-wide fields of @newest, keeping
 * their own slot, uuid and state: one a crash left an update behind may
 * hold the settings or failed mask from before it, and the kernel's next
 * update copies one member's block to all. Their events become the
 * newest's, so they are written level with it. @newest records no grow
 * (assembly resumes a grow its own way): a member one behind may still
 * say a grow ran, which the update that ended it did not reach.
 */
void fr_array_adopt_newest(struct fr_member **slots, uint32_t n,
			   const struct fr_sb *newest, uint64_t keep)
{
	uint8_t uuid[FR_UUID_LEN];
	struct fr_sb own;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!slots[i] || &slots[i]->sb == newest || keep >> i & 1)
			continue;
		own = slots[i]->sb;
		memcpy(uuid, own.member_uuid, FR_UUID_LEN);
		slots[i]->sb = *newest;
		slots[i]->sb.slot = own.slot;
		memcpy(slots[i]->sb.member_uuid, uuid, FR_UUID_LEN);
		slots[i]->sb.state = own.state & ~(FR_SB_STATE_RESHAPE |
						   FR_SB_STATE_RESHAPE_BACKUP);
	}
}
