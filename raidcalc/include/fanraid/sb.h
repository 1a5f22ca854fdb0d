/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid on-disk superblock: one 4 KiB block per member, at byte 4096.
 *
 * Compiled unchanged into the kernel module (fanraid-meta.c) and into the
 * tool (userspace/sb.c), like fanraid/geom.h, so the two can never encode
 * the block differently. Integer work on caller-owned buffers only: no
 * allocation, no I/O, no library calls (the few byte loops below stand in
 * for memcpy and friends, which differ between the two worlds).
 *
 * The layout is fixed-width little-endian and encoded field by field, never
 * by copying a struct, so compiler padding and host byte order cannot leak
 * onto disk. docs/superblock.md documents every byte; the FR_SB_OFF_*
 * constants below are the same table in code form.
 *
 * Format 2 has format 1's bytes, plus the write-intent bitmap fields in
 * what format 1 kept reserved (zero there: no bitmap). What changed is
 * who writes them: with format 2 the kernel target (table feature
 * "superblock") owns events, state, failed_mask, events_cleared and the
 * bitmap while the array runs, and a tool that only knows format 1 must
 * not assemble such an array without that feature, so it has to refuse
 * the block ("unknown superblock format version").
 */
#ifndef FANRAID_SB_H
#define FANRAID_SB_H

#include "geom.h"
#include "bitmap.h"

#define FR_SB_OFFSET		4096	/* bytes from the start of the member */
#define FR_SB_SIZE		4096	/* bytes, CRC included */
#define FR_SB_SECTOR		(FR_SB_OFFSET >> FR_SECTOR_SHIFT)
#define FR_SB_SECTORS_END	((FR_SB_OFFSET + FR_SB_SIZE) >> FR_SECTOR_SHIFT)
#define FR_SB_MAGIC		"FANRAIDS"
#define FR_SB_MAGIC_LEN		8
#define FR_SB_FORMAT_VERSION	2	/* what the encoder writes */
#define FR_SB_FORMAT_MIN	1	/* oldest format still decoded */
#define FR_SB_LAYOUT_VERSION	1	/* geom.h: RAID0 round robin, RAID6 left-symmetric */
#define FR_SB_NAME_LEN		64	/* bytes on disk, NUL-padded */
#define FR_SB_NAME_MAX		(FR_SB_NAME_LEN - 1)
#define FR_UUID_LEN		16
#define FR_UUID_STR_LEN		36
#define FR_SB_MAX_READAHEAD	65536	/* sectors: 32 MiB */
/*
 * The slot of a hot spare: a device waiting to replace a failed member of
 * the array named in its block. No table holds it. A decoder from before
 * spares refuses it ("slot number beyond the device count"), so an old
 * tool never takes a spare for a member.
 */
#define FR_SB_SLOT_SPARE	0xffffffffu

/* Byte offsets inside the block; docs/superblock.md has the same table. */
#define FR_SB_OFF_MAGIC		0
#define FR_SB_OFF_FORMAT	8
#define FR_SB_OFF_LAYOUT	12
#define FR_SB_OFF_SB_SIZE	16
#define FR_SB_OFF_HDR_PAD	20
#define FR_SB_OFF_ARRAY_UUID	24
#define FR_SB_OFF_MEMBER_UUID	40
#define FR_SB_OFF_NAME		56
#define FR_SB_OFF_LEVEL		120
#define FR_SB_OFF_CHUNK		124
#define FR_SB_OFF_NDEVS		128
#define FR_SB_OFF_SLOT		132
#define FR_SB_OFF_DATA_OFFSET	136
#define FR_SB_OFF_MEMBER_SECTORS 144
#define FR_SB_OFF_ARRAY_SECTORS	152
#define FR_SB_OFF_EVENTS	160
#define FR_SB_OFF_STATE		168
#define FR_SB_OFF_FLUSH		172
#define FR_SB_OFF_FAILED_MASK	176
#define FR_SB_OFF_READAHEAD	184
#define FR_SB_OFF_RA_MODE	188
#define FR_SB_OFF_CTIME		192
#define FR_SB_OFF_UTIME		200
#define FR_SB_OFF_RA_WINDOW	208
#define FR_SB_OFF_RA_CACHE	212
#define FR_SB_OFF_STRIPE_CACHE	216
#define FR_SB_OFF_BITMAP_REGION	220
#define FR_SB_OFF_BITMAP_SECTORS 224
#define FR_SB_OFF_BITMAP_PAD	228
#define FR_SB_OFF_EVENTS_CLEARED 232
#define FR_SB_OFF_SYNC_SPEED_MIN 240
#define FR_SB_OFF_SYNC_SPEED_MAX 244
#define FR_SB_OFF_RESHAPE_POS	248
#define FR_SB_OFF_RESHAPE_OLD	256
#define FR_SB_OFF_RESHAPE_PAD	260
#define FR_SB_OFF_RESERVED	264
#define FR_SB_OFF_CRC		(FR_SB_SIZE - 4)

/* State bits; 0 is a clean, complete array. */
#define FR_SB_STATE_DIRTY	(1u << 0)	/* writes may be in flight, or parity not yet resynced */
#define FR_SB_STATE_DEGRADED	(1u << 1)	/* failed_mask is not empty */
/*
 * This member only: it is being rebuilt from scratch, so its data is not
 * whole, and a bitmap cannot say what it lacks: never re-add it.
 */
#define FR_SB_STATE_REBUILDING	(1u << 2)
/*
 * A grow is under way (fanraid/geom.h, fr_reshape_*): ndevs and
 * array_sectors are the new layout's, reshape_old_ndevs the old member
 * count, and array sectors below reshape_position are in the new layout.
 */
#define FR_SB_STATE_RESHAPE	(1u << 3)
/*
 * With RESHAPE at position 0: the critical section's copy on the new
 * members is whole, and the rows it covers may be half rewritten, so
 * they are restored from it before anything else.
 */
#define FR_SB_STATE_RESHAPE_BACKUP (1u << 4)
#define FR_SB_STATE_KNOWN	(FR_SB_STATE_DIRTY | FR_SB_STATE_DEGRADED | \
				 FR_SB_STATE_REBUILDING | FR_SB_STATE_RESHAPE | \
				 FR_SB_STATE_RESHAPE_BACKUP)

enum fr_flush_policy {
	FR_FLUSH_PASSTHROUGH = 0,
	FR_FLUSH_DROP = 1,
	FR_FLUSH_DIRTY = 2,	/* flush only members written since their last flush */
};

/* The target's readahead feature: left to its default, or given. */
enum fr_ra_mode {
	FR_RA_DEFAULT = 0,
	FR_RA_ON = 1,
	FR_RA_OFF = 2,
};

#define FR_RA_WINDOW_DEFAULT	0		/* ra_window not given */
#define FR_RA_CACHE_DEFAULT	0xffffffffu	/* ra_cache_mb not given (0 means no cache) */
/*
 * stripe_cache_mb not given: 0, which the target never accepts. Blocks
 * written before the field existed hold 0 there too, and a tool from
 * before it still reads every block that does not set it.
 */
#define FR_STRIPE_CACHE_DEFAULT	0

/* The decoded superblock, in host byte order. Sizes are in sectors. */
struct fr_sb {
	u32 format_version;		/* as read; the encoder writes it as given */
	u32 layout_version;
	u8 array_uuid[FR_UUID_LEN];	/* same on every member */
	u8 member_uuid[FR_UUID_LEN];	/* unique to this member */
	char name[FR_SB_NAME_LEN];	/* NUL-terminated */
	u32 level;			/* enum fr_level */
	u32 chunk_sectors;
	u32 ndevs;
	u32 slot;			/* this member's index in the table, or FR_SB_SLOT_SPARE */
	u64 data_offset;		/* where the data area starts */
	u64 member_sectors;		/* data area used on each member */
	u64 array_sectors;		/* dm target length */
	u64 events;			/* bumped on every superblock update */
	u32 state;			/* FR_SB_STATE_* */
	u32 flush_policy;		/* enum fr_flush_policy */
	u64 failed_mask;		/* bit i: slot i has failed */
	u32 readahead_sectors;		/* block-device readahead; 0: kernel default */
	u32 ra_mode;			/* enum fr_ra_mode: target readahead */
	u32 ra_window;			/* stripes, or FR_RA_WINDOW_DEFAULT */
	u32 ra_cache_mb;		/* MiB, or FR_RA_CACHE_DEFAULT */
	u32 stripe_cache_mb;		/* MiB, or FR_STRIPE_CACHE_DEFAULT (0) */
	/*
	 * Write-intent bitmap (fanraid/bitmap.h): member sectors per bit, 0
	 * for none; the sectors it takes after the superblock; and the events
	 * value of the last update that cleared bits. A member whose own
	 * events are at least that missed only writes the bitmap still holds.
	 */
	u32 bitmap_region_sectors;
	u32 bitmap_sectors;
	u64 events_cleared;
	/*
	 * The sync pass's KiB/s per member, 0 for not set: the target's
	 * min_sync_rate and max_sync_rate, as md's speed_limit_min and _max.
	 */
	u32 sync_speed_min;
	u32 sync_speed_max;
	/* with FR_SB_STATE_RESHAPE, else both 0 */
	u64 reshape_position;		/* array sectors recorded in the new layout */
	u32 reshape_old_ndevs;		/* members before the grow */
	u64 ctime;			/* seconds since the epoch */
	u64 utime;
};

/* Every reason to refuse a block has its own code and message. */
enum fr_sb_err {
	FR_SB_OK = 0,
	FR_SB_EMAGIC,
	FR_SB_EVERSION,
	FR_SB_ESIZE,
	FR_SB_ECRC,
	FR_SB_ELAYOUT,
	FR_SB_EARRAYUUID,
	FR_SB_EMEMBERUUID,
	FR_SB_ENAME,
	FR_SB_ELEVEL,
	FR_SB_ENDEVS,
	FR_SB_ECHUNK,
	FR_SB_ESLOT,
	FR_SB_EDATAOFFSET,
	FR_SB_EMEMBERSIZE,
	FR_SB_EARRAYSIZE,
	FR_SB_EEVENTS,
	FR_SB_ESTATE,
	FR_SB_EFAILMASK,
	FR_SB_EFLUSH,
	FR_SB_EREADAHEAD,
	FR_SB_ESTRIPECACHE,
	FR_SB_EBITMAP,
	FR_SB_ETIME,
	FR_SB_ESYNCSPEED,
	FR_SB_ERESHAPE,
	FR_SB_ERESERVED,
	FR_SB_ERR_COUNT,
};

static inline const char *fr_sb_strerror(enum fr_sb_err err)
{
	switch (err) {
	case FR_SB_OK:
		return "Success";
	case FR_SB_EMAGIC:
		return "no fanraid superblock (bad magic)";
	case FR_SB_EVERSION:
		return "unknown superblock format version";
	case FR_SB_ESIZE:
		return "invalid superblock size field";
	case FR_SB_ECRC:
		return "superblock checksum mismatch";
	case FR_SB_ELAYOUT:
		return "unknown layout version";
	case FR_SB_EARRAYUUID:
		return "invalid array UUID (all zero)";
	case FR_SB_EMEMBERUUID:
		return "invalid member UUID (all zero)";
	case FR_SB_ENAME:
		return "invalid array name";
	case FR_SB_ELEVEL:
		return "invalid RAID level";
	case FR_SB_ENDEVS:
		return "invalid device count for the RAID level";
	case FR_SB_ECHUNK:
		return "invalid chunk size";
	case FR_SB_ESLOT:
		return "slot number beyond the device count";
	case FR_SB_EDATAOFFSET:
		return "invalid data offset";
	case FR_SB_EMEMBERSIZE:
		return "invalid member data size";
	case FR_SB_EARRAYSIZE:
		return "array size does not match the geometry";
	case FR_SB_EEVENTS:
		return "invalid events counter (zero)";
	case FR_SB_ESTATE:
		return "invalid state";
	case FR_SB_EFAILMASK:
		return "failed-slot mask names slots beyond the device count";
	case FR_SB_EFLUSH:
		return "invalid flush policy";
	case FR_SB_EREADAHEAD:
		return "invalid readahead size";
	case FR_SB_ESTRIPECACHE:
		return "invalid stripe cache size";
	case FR_SB_EBITMAP:
		return "invalid write-intent bitmap fields";
	case FR_SB_ETIME:
		return "invalid creation or update time";
	case FR_SB_ESYNCSPEED:
		return "sync speed limits on an array without a sync pass";
	case FR_SB_ERESHAPE:
		return "invalid reshape fields";
	case FR_SB_ERESERVED:
		return "reserved bytes are not zero";
	case FR_SB_ERR_COUNT:
		break;
	}
	return "unknown superblock error";
}

static inline void fr_sb_put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

static inline void fr_sb_put_le64(u8 *p, u64 v)
{
	fr_sb_put_le32(p, (u32)v);
	fr_sb_put_le32(p + 4, (u32)(v >> 32));
}

static inline u32 fr_sb_get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u64 fr_sb_get_le64(const u8 *p)
{
	return (u64)fr_sb_get_le32(p) | (u64)fr_sb_get_le32(p + 4) << 32;
}

static inline void fr_sb_copy(void *dst, const void *src, u32 len)
{
	u8 *d = dst;
	const u8 *s = src;

	while (len--)
		*d++ = *s++;
}

static inline bool fr_sb_is_zero(const void *p, u32 len)
{
	const u8 *b = p;

	while (len--)
		if (*b++)
			return false;
	return true;
}

/* Bytes of @s before its NUL, at most @max. */
static inline u32 fr_sb_strnlen(const char *s, u32 max)
{
	u32 n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/*
 * Standard CRC32C (Castagnoli, reflected 0x82F63B78, initial value and
 * final XOR 0xFFFFFFFF) of the @len bytes at @p. Four bits at a time from
 * a 16-entry table: small enough for a header both worlds compile, and it
 * runs only when a superblock is read or written.
 */
static inline u32 fr_sb_crc32c(const u8 *p, u32 len)
{
	static const u32 t[16] = {
		0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1,
		0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
		0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
		0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
	};
	u32 crc = 0xffffffff;

	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ t[crc & 15];
		crc = (crc >> 4) ^ t[crc & 15];
	}
	return ~crc;
}

/* The block's CRC field: CRC32C of everything before it. */
static inline u32 fr_sb_crc(const u8 *buf)
{
	return fr_sb_crc32c(buf, FR_SB_OFF_CRC);
}

static inline bool fr_uuid_is_null(const u8 *uuid)
{
	return fr_sb_is_zero(uuid, FR_UUID_LEN);
}

/*
 * Names become device-mapper names and /dev/mapper paths, so keep them to
 * characters that need no quoting anywhere.
 */
static inline bool fr_name_is_valid(const char *name)
{
	u32 len = fr_sb_strnlen(name, FR_SB_NAME_LEN), i;

	if (!len || len > FR_SB_NAME_MAX || name[0] == '-' || name[0] == '.')
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.' || c == '+'))
			return false;
	}
	return true;
}

/* Whether stripe_cache_mb was chosen; see FR_STRIPE_CACHE_DEFAULT. */
static inline bool fr_sb_stripe_cache_given(const struct fr_sb *sb)
{
	return sb->stripe_cache_mb != FR_STRIPE_CACHE_DEFAULT;
}

static inline enum fr_sb_err fr_sb_shape_err(enum fr_geom_err err)
{
	switch (err) {
	case FR_GEOM_OK:
		return FR_SB_OK;
	case FR_GEOM_EBADLEVEL:
		return FR_SB_ELEVEL;
	case FR_GEOM_ETOOFEWDEVS:
	case FR_GEOM_ETOOMANYDEVS:
		return FR_SB_ENDEVS;
	default:
		return FR_SB_ECHUNK;
	}
}

static inline int fr_sb_is_spare(const struct fr_sb *sb)
{
	return sb->slot == FR_SB_SLOT_SPARE;
}

/*
 * A grow's fields: none without RESHAPE; with it fewer old members than
 * new (as many data members at least as the level needs), a position
 * within the old capacity on a new row boundary (or the old capacity:
 * copied, not yet finished), and BACKUP only at position 0.
 */
static inline bool fr_sb_reshape_ok(const struct fr_sb *sb)
{
	struct fr_geom old, new;
	u32 rem;

	if (!(sb->state & FR_SB_STATE_RESHAPE))
		return !sb->reshape_position && !sb->reshape_old_ndevs &&
		       !(sb->state & FR_SB_STATE_RESHAPE_BACKUP);
	if (sb->reshape_old_ndevs >= sb->ndevs ||
	    fr_geom_init(&old, sb->level, sb->reshape_old_ndevs,
			 sb->chunk_sectors, sb->member_sectors) ||
	    fr_geom_init(&new, sb->level, sb->ndevs, sb->chunk_sectors,
			 sb->member_sectors))
		return false;
	if (sb->reshape_position > old.capacity)
		return false;
	fr_div_rem(sb->reshape_position, (u32)fr_geom_full_stripe_sectors(&new),
		   &rem);
	if (rem && sb->reshape_position != old.capacity)
		return false;
	return !(sb->state & FR_SB_STATE_RESHAPE_BACKUP) ||
	       !sb->reshape_position;
}

/* Field checks shared by encode (never write garbage) and decode. */
static inline enum fr_sb_err fr_sb_validate(const struct fr_sb *sb)
{
	struct fr_geom g;
	enum fr_sb_err err;

	if (sb->format_version < FR_SB_FORMAT_MIN ||
	    sb->format_version > FR_SB_FORMAT_VERSION)
		return FR_SB_EVERSION;
	if (sb->layout_version != FR_SB_LAYOUT_VERSION)
		return FR_SB_ELAYOUT;
	if (fr_uuid_is_null(sb->array_uuid))
		return FR_SB_EARRAYUUID;
	if (fr_uuid_is_null(sb->member_uuid))
		return FR_SB_EMEMBERUUID;
	if (fr_sb_strnlen(sb->name, FR_SB_NAME_LEN) == FR_SB_NAME_LEN ||
	    !fr_name_is_valid(sb->name))
		return FR_SB_ENAME;
	err = fr_sb_shape_err(fr_geom_check_shape(sb->level, sb->ndevs,
						  sb->chunk_sectors));
	if (err)
		return err;
	if (sb->slot >= sb->ndevs && sb->slot != FR_SB_SLOT_SPARE)
		return FR_SB_ESLOT;
	/* The data area starts after the superblock, on a 4 KiB boundary. */
	if (sb->data_offset < FR_SB_SECTORS_END || sb->data_offset % 8 ||
	    sb->data_offset > FR_MAX_CAPACITY_SECTORS)
		return FR_SB_EDATAOFFSET;
	if (!sb->member_sectors || sb->member_sectors & (sb->chunk_sectors - 1) ||
	    sb->member_sectors > FR_MAX_CAPACITY_SECTORS - sb->data_offset)
		return FR_SB_EMEMBERSIZE;
	if (fr_geom_init(&g, sb->level, sb->ndevs, sb->chunk_sectors,
			 sb->member_sectors) ||
	    g.capacity != sb->array_sectors)
		return FR_SB_EARRAYSIZE;
	if (!sb->events)
		return FR_SB_EEVENTS;
	if (sb->state & ~FR_SB_STATE_KNOWN)
		return FR_SB_ESTATE;
	/* DEGRADED is a summary of the mask; the two must agree. */
	if (!(sb->state & FR_SB_STATE_DEGRADED) != !sb->failed_mask)
		return FR_SB_ESTATE;
	if (sb->ndevs < 64 && sb->failed_mask >> sb->ndevs)
		return FR_SB_EFAILMASK;
	if (sb->flush_policy > FR_FLUSH_DIRTY)
		return FR_SB_EFLUSH;
	if (sb->readahead_sectors > FR_SB_MAX_READAHEAD ||
	    sb->ra_mode > FR_RA_OFF ||
	    sb->ra_window > FR_RA_MAX_WINDOW ||
	    (sb->ra_cache_mb > FR_RA_MAX_CACHE_MB &&
	     sb->ra_cache_mb != FR_RA_CACHE_DEFAULT))
		return FR_SB_EREADAHEAD;
	/*
	 * Only the range: the geometry's minimum is the target's rule and may
	 * change, and must never turn a superblock into a corrupt one.
	 */
	if (fr_sb_stripe_cache_given(sb) &&
	    (sb->stripe_cache_mb > FR_R6_STRIPE_CACHE_MAX_MB ||
	     sb->level != FR_LEVEL_RAID6))
		return FR_SB_ESTRIPECACHE;
	if ((sb->sync_speed_min || sb->sync_speed_max) &&
	    sb->level != FR_LEVEL_RAID6)
		return FR_SB_ESYNCSPEED;
	if (!fr_sb_reshape_ok(sb))
		return FR_SB_ERESHAPE;
	if (fr_bitmap_check(sb->level, sb->chunk_sectors, sb->member_sectors,
			    sb->data_offset, sb->bitmap_region_sectors,
			    sb->bitmap_sectors) ||
	    sb->events_cleared > sb->events ||
	    (!sb->bitmap_region_sectors && sb->events_cleared))
		return FR_SB_EBITMAP;
	if (!sb->ctime || sb->utime < sb->ctime)
		return FR_SB_ETIME;
	return FR_SB_OK;
}

/* Fills all FR_SB_SIZE bytes of @buf; refuses an invalid @sb. */
static inline enum fr_sb_err fr_sb_encode(const struct fr_sb *sb, u8 *buf)
{
	enum fr_sb_err err = fr_sb_validate(sb);
	u32 i;

	if (err)
		return err;
	for (i = 0; i < FR_SB_SIZE; i++)
		buf[i] = 0;
	fr_sb_copy(buf + FR_SB_OFF_MAGIC, FR_SB_MAGIC, FR_SB_MAGIC_LEN);
	fr_sb_put_le32(buf + FR_SB_OFF_FORMAT, sb->format_version);
	fr_sb_put_le32(buf + FR_SB_OFF_LAYOUT, sb->layout_version);
	fr_sb_put_le32(buf + FR_SB_OFF_SB_SIZE, FR_SB_SIZE);
	fr_sb_copy(buf + FR_SB_OFF_ARRAY_UUID, sb->array_uuid, FR_UUID_LEN);
	fr_sb_copy(buf + FR_SB_OFF_MEMBER_UUID, sb->member_uuid, FR_UUID_LEN);
	fr_sb_copy(buf + FR_SB_OFF_NAME, sb->name,
		   fr_sb_strnlen(sb->name, FR_SB_NAME_LEN));
	fr_sb_put_le32(buf + FR_SB_OFF_LEVEL, sb->level);
	fr_sb_put_le32(buf + FR_SB_OFF_CHUNK, sb->chunk_sectors);
	fr_sb_put_le32(buf + FR_SB_OFF_NDEVS, sb->ndevs);
	fr_sb_put_le32(buf + FR_SB_OFF_SLOT, sb->slot);
	fr_sb_put_le64(buf + FR_SB_OFF_DATA_OFFSET, sb->data_offset);
	fr_sb_put_le64(buf + FR_SB_OFF_MEMBER_SECTORS, sb->member_sectors);
	fr_sb_put_le64(buf + FR_SB_OFF_ARRAY_SECTORS, sb->array_sectors);
	fr_sb_put_le64(buf + FR_SB_OFF_EVENTS, sb->events);
	fr_sb_put_le32(buf + FR_SB_OFF_STATE, sb->state);
	fr_sb_put_le32(buf + FR_SB_OFF_FLUSH, sb->flush_policy);
	fr_sb_put_le64(buf + FR_SB_OFF_FAILED_MASK, sb->failed_mask);
	fr_sb_put_le32(buf + FR_SB_OFF_READAHEAD, sb->readahead_sectors);
	fr_sb_put_le32(buf + FR_SB_OFF_RA_MODE, sb->ra_mode);
	fr_sb_put_le64(buf + FR_SB_OFF_CTIME, sb->ctime);
	fr_sb_put_le64(buf + FR_SB_OFF_UTIME, sb->utime);
	fr_sb_put_le32(buf + FR_SB_OFF_RA_WINDOW, sb->ra_window);
	fr_sb_put_le32(buf + FR_SB_OFF_RA_CACHE, sb->ra_cache_mb);
	fr_sb_put_le32(buf + FR_SB_OFF_STRIPE_CACHE, sb->stripe_cache_mb);
	fr_sb_put_le32(buf + FR_SB_OFF_BITMAP_REGION, sb->bitmap_region_sectors);
	fr_sb_put_le32(buf + FR_SB_OFF_BITMAP_SECTORS, sb->bitmap_sectors);
	fr_sb_put_le64(buf + FR_SB_OFF_EVENTS_CLEARED, sb->events_cleared);
	fr_sb_put_le32(buf + FR_SB_OFF_SYNC_SPEED_MIN, sb->sync_speed_min);
	fr_sb_put_le32(buf + FR_SB_OFF_SYNC_SPEED_MAX, sb->sync_speed_max);
	fr_sb_put_le64(buf + FR_SB_OFF_RESHAPE_POS, sb->reshape_position);
	fr_sb_put_le32(buf + FR_SB_OFF_RESHAPE_OLD, sb->reshape_old_ndevs);
	fr_sb_put_le32(buf + FR_SB_OFF_CRC, fr_sb_crc(buf));
	return FR_SB_OK;
}

/*
 * Reads FR_SB_SIZE bytes of @buf; @sb is filled only on FR_SB_OK. The
 * first problem found is reported, in the order magic, format version,
 * block size, CRC, then the fields, so that a block from a newer tool is
 * "unknown version" rather than corruption. Formats 1 and 2 decode alike.
 */
static inline enum fr_sb_err fr_sb_decode(const u8 *buf, struct fr_sb *sb)
{
	struct fr_sb tmp = { 0 };
	enum fr_sb_err err;
	u32 len;

	for (len = 0; len < FR_SB_MAGIC_LEN; len++)
		if (buf[FR_SB_OFF_MAGIC + len] != (u8)FR_SB_MAGIC[len])
			return FR_SB_EMAGIC;
	tmp.format_version = fr_sb_get_le32(buf + FR_SB_OFF_FORMAT);
	if (tmp.format_version < FR_SB_FORMAT_MIN ||
	    tmp.format_version > FR_SB_FORMAT_VERSION)
		return FR_SB_EVERSION;
	if (fr_sb_get_le32(buf + FR_SB_OFF_SB_SIZE) != FR_SB_SIZE)
		return FR_SB_ESIZE;
	if (fr_sb_get_le32(buf + FR_SB_OFF_CRC) != fr_sb_crc(buf))
		return FR_SB_ECRC;
	if (fr_sb_get_le32(buf + FR_SB_OFF_HDR_PAD) ||
	    fr_sb_get_le32(buf + FR_SB_OFF_BITMAP_PAD) ||
	    fr_sb_get_le32(buf + FR_SB_OFF_RESHAPE_PAD) ||
	    !fr_sb_is_zero(buf + FR_SB_OFF_RESERVED,
			   FR_SB_OFF_CRC - FR_SB_OFF_RESERVED))
		return FR_SB_ERESERVED;
	/* Bytes after the name's NUL must be zero, as the encoder writes them. */
	fr_sb_copy(tmp.name, buf + FR_SB_OFF_NAME, FR_SB_NAME_LEN);
	len = fr_sb_strnlen(tmp.name, FR_SB_NAME_LEN);
	if (len == FR_SB_NAME_LEN ||
	    !fr_sb_is_zero(tmp.name + len, FR_SB_NAME_LEN - len))
		return FR_SB_ENAME;

	tmp.layout_version = fr_sb_get_le32(buf + FR_SB_OFF_LAYOUT);
	fr_sb_copy(tmp.array_uuid, buf + FR_SB_OFF_ARRAY_UUID, FR_UUID_LEN);
	fr_sb_copy(tmp.member_uuid, buf + FR_SB_OFF_MEMBER_UUID, FR_UUID_LEN);
	tmp.level = fr_sb_get_le32(buf + FR_SB_OFF_LEVEL);
	tmp.chunk_sectors = fr_sb_get_le32(buf + FR_SB_OFF_CHUNK);
	tmp.ndevs = fr_sb_get_le32(buf + FR_SB_OFF_NDEVS);
	tmp.slot = fr_sb_get_le32(buf + FR_SB_OFF_SLOT);
	tmp.data_offset = fr_sb_get_le64(buf + FR_SB_OFF_DATA_OFFSET);
	tmp.member_sectors = fr_sb_get_le64(buf + FR_SB_OFF_MEMBER_SECTORS);
	tmp.array_sectors = fr_sb_get_le64(buf + FR_SB_OFF_ARRAY_SECTORS);
	tmp.events = fr_sb_get_le64(buf + FR_SB_OFF_EVENTS);
	tmp.state = fr_sb_get_le32(buf + FR_SB_OFF_STATE);
	tmp.flush_policy = fr_sb_get_le32(buf + FR_SB_OFF_FLUSH);
	tmp.failed_mask = fr_sb_get_le64(buf + FR_SB_OFF_FAILED_MASK);
	tmp.readahead_sectors = fr_sb_get_le32(buf + FR_SB_OFF_READAHEAD);
	tmp.ra_mode = fr_sb_get_le32(buf + FR_SB_OFF_RA_MODE);
	tmp.ra_window = fr_sb_get_le32(buf + FR_SB_OFF_RA_WINDOW);
	tmp.ra_cache_mb = fr_sb_get_le32(buf + FR_SB_OFF_RA_CACHE);
	tmp.stripe_cache_mb = fr_sb_get_le32(buf + FR_SB_OFF_STRIPE_CACHE);
	tmp.bitmap_region_sectors = fr_sb_get_le32(buf + FR_SB_OFF_BITMAP_REGION);
	tmp.bitmap_sectors = fr_sb_get_le32(buf + FR_SB_OFF_BITMAP_SECTORS);
	tmp.events_cleared = fr_sb_get_le64(buf + FR_SB_OFF_EVENTS_CLEARED);
	tmp.sync_speed_min = fr_sb_get_le32(buf + FR_SB_OFF_SYNC_SPEED_MIN);
	tmp.sync_speed_max = fr_sb_get_le32(buf + FR_SB_OFF_SYNC_SPEED_MAX);
	tmp.reshape_position = fr_sb_get_le64(buf + FR_SB_OFF_RESHAPE_POS);
	tmp.reshape_old_ndevs = fr_sb_get_le32(buf + FR_SB_OFF_RESHAPE_OLD);
	tmp.ctime = fr_sb_get_le64(buf + FR_SB_OFF_CTIME);
	tmp.utime = fr_sb_get_le64(buf + FR_SB_OFF_UTIME);

	err = fr_sb_validate(&tmp);
	if (err)
		return err;
	*sb = tmp;
	return FR_SB_OK;
}

#endif /* FANRAID_SB_H */
