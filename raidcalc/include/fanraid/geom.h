/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid geometry: the one description of where every sector lives.
 *
 * This header is compiled unchanged into the kernel module (dm-fanraid.ko)
 * and into userspace (libraidcalc, the fanraid tool, the tests), so that the
 * kernel's mapping and the offline verifier can never disagree. It does
 * integer arithmetic only: no allocation, no I/O, no sector_t, no bio.
 *
 * Units: every size and offset is in 512-byte sectors.
 *
 * RAID0: chunk c of the array lives on member (c mod n), at row (c div n).
 *
 * RAID6: each row holds n-2 data chunks, P and Q. The parity rotates in md's
 * default left-symmetric arrangement: P sits on member n-1-(row mod n), so
 * it moves one member left per row; Q follows P (wrapping), and the data
 * chunks of the row follow Q in logical order (wrapping). Data index i of a
 * row is therefore the i-th term of the Q syndrome, exactly as lib/raid6 and
 * ISA-L order their sources. See docs/geometry.md for a picture.
 */
#ifndef FANRAID_GEOM_H
#define FANRAID_GEOM_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/math64.h>

/* Quotient of a 64-bit value by a 32-bit divisor, remainder in *rem. */
static inline u64 fr_div_rem(u64 dividend, u32 divisor, u32 *rem)
{
	return div_u64_rem(dividend, divisor, rem);
}
#else /* ! __KERNEL__ */
#include <stdint.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

static inline u64 fr_div_rem(u64 dividend, u32 divisor, u32 *rem)
{
	*rem = (u32)(dividend % divisor);
	return dividend / divisor;
}
#endif /* __KERNEL__ */

enum fr_level {
	FR_LEVEL_RAID0 = 0,
	FR_LEVEL_RAID6 = 6,
};

#define FR_SECTOR_SHIFT		9
#define FR_MIN_DEVS_RAID0	1
#define FR_MIN_DEVS_RAID6	4
#define FR_MAX_DEVS		64
#define FR_MIN_CHUNK_SECTORS	8	/* 4 KiB: one page, the smallest I/O a member sees */
#define FR_MAX_CHUNK_SECTORS	32768	/* 16 MiB */
#define FR_PARITY_DEVS_RAID6	2

/*
 * RAID6 writes, degraded reads and syncs work on stripe windows: the same
 * run of at most FR_R6_WINDOW_SECTORS inside every member's chunk of a row.
 * Their buffers come from the stripe cache (table feature stripe_cache_mb),
 * which must hold two operations' worth (see fr_r6_stripe_cache_min_mb()).
 */
#define FR_R6_WINDOW_SECTORS		256	/* 128 KiB */
#define FR_R6_STRIPE_CACHE_DEFAULT_MB	64
#define FR_R6_STRIPE_CACHE_MAX_MB	4096

/* Readahead limits of the target's table features ra_window, ra_cache_mb. */
#define FR_RA_MAX_WINDOW		64	/* stripes */
#define FR_RA_MAX_CACHE_MB		4096

/*
 * Largest array, in sectors, whose byte size still fits in a u64: userspace
 * multiplies sectors by 512 for byte offsets, so the capacity must never
 * exceed this or an lseek/pread offset would wrap.
 */
#define FR_MAX_CAPACITY_SECTORS	((~(u64)0) >> FR_SECTOR_SHIFT)

/* Each validation failure has its own code and its own message. */
enum fr_geom_err {
	FR_GEOM_OK = 0,
	FR_GEOM_EBADLEVEL,
	FR_GEOM_ETOOFEWDEVS,
	FR_GEOM_ETOOMANYDEVS,
	FR_GEOM_ECHUNKPOW2,
	FR_GEOM_ECHUNKSMALL,
	FR_GEOM_ECHUNKLARGE,
	FR_GEOM_EMEMBERSMALL,
	FR_GEOM_ECAPACITY,
};

/* What a block of a member holds. */
enum fr_block_kind {
	FR_BLOCK_DATA,
	FR_BLOCK_P,
	FR_BLOCK_Q,
};

/*
 * An array's shape. Filled by fr_geom_init(), read-only afterwards, so the
 * map path only indexes precomputed values.
 */
struct fr_geom {
	u32 level;		/* enum fr_level */
	u32 ndevs;		/* members, data and parity */
	u32 data_devs;		/* data chunks per row: n (RAID0) or n-2 (RAID6) */
	u32 chunk_sectors;	/* power of two */
	u32 chunk_shift;	/* log2(chunk_sectors) */
	u64 rows;		/* chunks per member */
	u64 member_sectors;	/* rows * chunk_sectors: what each member stores */
	u64 capacity;		/* rows * data_devs * chunk_sectors */
};

/* Where one logical sector lives. */
struct fr_loc {
	u32 dev;		/* member index, 0..ndevs-1 */
	u64 sector;		/* sector within the member's data area */
	u64 row;		/* stripe row */
	u32 data_idx;		/* position among the row's data chunks */
};

/* What one member sector holds: a logical sector, or part of P or Q. */
struct fr_rloc {
	enum fr_block_kind kind;
	u64 row;
	u32 data_idx;		/* valid when kind == FR_BLOCK_DATA */
	u64 logical;		/* valid when kind == FR_BLOCK_DATA */
};

static inline const char *fr_geom_strerror(enum fr_geom_err err)
{
	switch (err) {
	case FR_GEOM_OK:
		return "Success";
	case FR_GEOM_EBADLEVEL:
		return "Invalid RAID level: must be raid0 or raid6";
	case FR_GEOM_ETOOFEWDEVS:
		return "Too few devices for the RAID level (raid0 needs 1, raid6 needs 4)";
	case FR_GEOM_ETOOMANYDEVS:
		return "Too many devices (max 64)";
	case FR_GEOM_ECHUNKPOW2:
		return "Invalid chunk size: not a power of two";
	case FR_GEOM_ECHUNKSMALL:
		return "Invalid chunk size: smaller than 4 KiB (8 sectors)";
	case FR_GEOM_ECHUNKLARGE:
		return "Invalid chunk size: larger than 16 MiB (32768 sectors)";
	case FR_GEOM_EMEMBERSMALL:
		return "Member data area smaller than one chunk";
	case FR_GEOM_ECAPACITY:
		return "Array capacity overflows 64-bit byte offsets";
	}
	return "Unknown geometry error";
}

static inline bool fr_level_is_valid(u32 level)
{
	return level == FR_LEVEL_RAID0 || level == FR_LEVEL_RAID6;
}

static inline u32 fr_level_parity_devs(u32 level)
{
	return level == FR_LEVEL_RAID6 ? FR_PARITY_DEVS_RAID6 : 0;
}

static inline u32 fr_level_min_devs(u32 level)
{
	return level == FR_LEVEL_RAID6 ? FR_MIN_DEVS_RAID6 : FR_MIN_DEVS_RAID0;
}

static inline u32 fr_r6_window_sectors(u32 chunk_sectors)
{
	return chunk_sectors < FR_R6_WINDOW_SECTORS ? chunk_sectors :
						      FR_R6_WINDOW_SECTORS;
}

/*
 * Smallest stripe cache, in MiB, for a RAID6 array: one operation holds a
 * window's buffer for every member plus two scratch ones, and the cache
 * keeps one operation in reserve so the workers always make progress, so
 * two operations must fit.
 */
static inline u32 fr_r6_stripe_cache_min_mb(u32 ndevs, u32 chunk_sectors)
{
	u64 bytes = 2ULL * (ndevs + 2) *
		    ((u64)fr_r6_window_sectors(chunk_sectors) << FR_SECTOR_SHIFT);

	return (u32)((bytes + (1 << 20) - 1) >> 20);
}

/* log2 of a power of two, or -1 when x is not one. */
static inline int fr_ilog2_exact(u64 x)
{
	int shift = 0;

	if (!x || (x & (x - 1)))
		return -1;
	while (!(x & 1)) {
		x >>= 1;
		shift++;
	}
	return shift;
}

/* Checks a chunk size alone, so parsers can report it where they read it. */
static inline enum fr_geom_err fr_geom_check_chunk(u32 chunk_sectors)
{
	if (fr_ilog2_exact(chunk_sectors) < 0)
		return FR_GEOM_ECHUNKPOW2;
	if (chunk_sectors < FR_MIN_CHUNK_SECTORS)
		return FR_GEOM_ECHUNKSMALL;
	if (chunk_sectors > FR_MAX_CHUNK_SECTORS)
		return FR_GEOM_ECHUNKLARGE;
	return FR_GEOM_OK;
}

/* Checks a member count for a level; says whether too few or too many. */
static inline enum fr_geom_err fr_geom_check_devs(u32 level, u32 ndevs)
{
	if (!fr_level_is_valid(level))
		return FR_GEOM_EBADLEVEL;
	if (ndevs < fr_level_min_devs(level))
		return FR_GEOM_ETOOFEWDEVS;
	if (ndevs > FR_MAX_DEVS)
		return FR_GEOM_ETOOMANYDEVS;
	return FR_GEOM_OK;
}

/* Checks level, member count and chunk size; says which one is wrong. */
static inline enum fr_geom_err fr_geom_check_shape(u32 level, u32 ndevs,
						   u32 chunk_sectors)
{
	enum fr_geom_err err = fr_geom_check_devs(level, ndevs);

	return err ? err : fr_geom_check_chunk(chunk_sectors);
}

/*
 * Fills @g for an array whose members each offer @member_sectors of data
 * area (after their data offset). The partial chunk at the end of a member
 * is unused, so the same member sizes always give the same geometry.
 */
static inline enum fr_geom_err fr_geom_init(struct fr_geom *g, u32 level,
					    u32 ndevs, u32 chunk_sectors,
					    u64 member_sectors)
{
	enum fr_geom_err err;
	u32 data_devs;
	u64 rows;

	err = fr_geom_check_shape(level, ndevs, chunk_sectors);
	if (err)
		return err;
	if (member_sectors < chunk_sectors)
		return FR_GEOM_EMEMBERSMALL;

	data_devs = ndevs - fr_level_parity_devs(level);
	rows = member_sectors / chunk_sectors;
	/* rows * chunk * data_devs must stay below FR_MAX_CAPACITY_SECTORS */
	if (rows > FR_MAX_CAPACITY_SECTORS / chunk_sectors / data_devs)
		return FR_GEOM_ECAPACITY;

	g->level = level;
	g->ndevs = ndevs;
	g->data_devs = data_devs;
	g->chunk_sectors = chunk_sectors;
	g->chunk_shift = (u32)fr_ilog2_exact(chunk_sectors);
	g->rows = rows;
	g->member_sectors = rows << g->chunk_shift;
	g->capacity = g->member_sectors * data_devs;
	return FR_GEOM_OK;
}

/*
 * Member data area needed for an array of @len sectors: whole rows, the
 * last one possibly partly used. Lets the kernel derive the geometry from
 * the table line alone, independent of how large the members really are.
 * Returns 0 when @len is 0 or the shape is invalid.
 */
static inline u64 fr_geom_member_sectors_for(u32 level, u32 ndevs,
					     u32 chunk_sectors, u64 len)
{
	u32 data_devs, rem;
	u64 rows;

	if (fr_geom_check_shape(level, ndevs, chunk_sectors) || !len)
		return 0;
	data_devs = ndevs - fr_level_parity_devs(level);
	rows = fr_div_rem(len, chunk_sectors, &rem);
	if (rem)
		rows++;
	rows = fr_div_rem(rows + data_devs - 1, data_devs, &rem);
	return rows * chunk_sectors;
}

static inline u64 fr_geom_full_stripe_sectors(const struct fr_geom *g)
{
	return (u64)g->chunk_sectors * g->data_devs;
}

/* Sectors from @logical to the end of its chunk: the largest I/O that stays in one chunk. */
static inline u32 fr_geom_chunk_remaining(const struct fr_geom *g, u64 logical)
{
	return g->chunk_sectors - (u32)(logical & (g->chunk_sectors - 1));
}

/* Stripe row holding @logical. */
static inline u64 fr_geom_row_of(const struct fr_geom *g, u64 logical)
{
	u32 rem;

	return fr_div_rem(logical >> g->chunk_shift, g->data_devs, &rem);
}

/* Member holding P of @row (RAID6 only). */
static inline u32 fr_geom_p_dev(const struct fr_geom *g, u64 row)
{
	u32 rem;

	fr_div_rem(row, g->ndevs, &rem);
	return g->ndevs - 1 - rem;
}

/* Member holding Q of @row (RAID6 only): the one after P, wrapping. */
static inline u32 fr_geom_q_dev(const struct fr_geom *g, u64 row)
{
	u32 p = fr_geom_p_dev(g, row);

	return p + 1 == g->ndevs ? 0 : p + 1;
}

/* Member holding data chunk @data_idx of @row. */
static inline u32 fr_geom_data_dev(const struct fr_geom *g, u64 row,
				   u32 data_idx)
{
	u32 dev;

	if (g->level != FR_LEVEL_RAID6)
		return data_idx;
	dev = fr_geom_p_dev(g, row) + 2 + data_idx;
	while (dev >= g->ndevs)
		dev -= g->ndevs;
	return dev;
}

/* Logical sector -> member and member sector. @logical must be < capacity. */
static inline void fr_geom_map(const struct fr_geom *g, u64 logical,
			       struct fr_loc *loc)
{
	u64 chunk = logical >> g->chunk_shift;
	u32 offset = (u32)(logical & (g->chunk_sectors - 1));
	u32 data_idx;

	loc->row = fr_div_rem(chunk, g->data_devs, &data_idx);
	loc->data_idx = data_idx;
	loc->dev = fr_geom_data_dev(g, loc->row, data_idx);
	loc->sector = (loc->row << g->chunk_shift) + offset;
}

/*
 * Member @dev, member sector @sector -> what it holds. @sector must be
 * < member_sectors.
 */
static inline void fr_geom_unmap(const struct fr_geom *g, u32 dev, u64 sector,
				 struct fr_rloc *rl)
{
	u64 row = sector >> g->chunk_shift;
	u32 offset = (u32)(sector & (g->chunk_sectors - 1));
	u32 data_idx = dev;

	rl->row = row;
	rl->data_idx = 0;
	rl->logical = 0;
	if (g->level == FR_LEVEL_RAID6) {
		u32 p = fr_geom_p_dev(g, row);

		if (dev == p) {
			rl->kind = FR_BLOCK_P;
			return;
		}
		if (dev == fr_geom_q_dev(g, row)) {
			rl->kind = FR_BLOCK_Q;
			return;
		}
		/* data follows Q: member p+2 holds index 0, wrapping */
		data_idx = dev + g->ndevs - p - 2;
		if (data_idx >= g->ndevs)
			data_idx -= g->ndevs;
	}
	rl->kind = FR_BLOCK_DATA;
	rl->data_idx = data_idx;
	rl->logical = ((row * g->data_devs + data_idx) << g->chunk_shift) +
		      offset;
}

/*
 * Growing an array (reshape) from @old to @new: the same chunk and member
 * data size, more members. A chunk's new place is at the same or a lower
 * member offset than its old one, so a copy in logical order only ever
 * overwrites chunks it has already copied, once they are recorded as
 * copied: new row r covers old row r's member sectors, which hold array
 * sectors up to (r + 1) x the old full stripe. Below is how far the new
 * layout may be written when @safe array sectors are recorded as copied:
 * new rows below the returned one.
 */
static inline u64 fr_reshape_row_limit(const struct fr_geom *old, u64 safe)
{
	u32 rem;

	return fr_div_rem(safe >> old->chunk_shift, old->data_devs, &rem);
}

/*
 * The first new rows cannot be written that way: new row r is reached
 * with r x the new full stripe copied, which covers old row r only from
 * r >= old data chunks / chunks added, rounded up. Those rows, the
 * critical section, go through a copy kept elsewhere (md's backup). In
 * array sectors, at most the old capacity.
 */
static inline u64 fr_reshape_critical_sectors(const struct fr_geom *old,
					      const struct fr_geom *new)
{
	u32 added = new->data_devs - old->data_devs;
	u64 rows = (old->data_devs + added - 1) / added;
	u64 sectors = rows * fr_geom_full_stripe_sectors(new);

	return sectors < old->capacity ? sectors : old->capacity;
}

#endif /* FANRAID_GEOM_H */
