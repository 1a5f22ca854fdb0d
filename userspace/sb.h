/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid on-disk superblock: one 4 KiB block per member, at byte 4096.
 *
 * The layout is fixed-width little-endian and encoded field by field, never
 * by copying a struct, so compiler padding and host byte order cannot leak
 * onto disk. docs/superblock.md documents every byte; the FR_SB_OFF_*
 * constants below are the same table in code form.
 */
#ifndef FR_SB_H
#define FR_SB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fanraid/geom.h>

#define FR_SB_OFFSET		4096	/* bytes from the start of the member */
#define FR_SB_SIZE		4096	/* bytes, CRC included */
#define FR_SB_SECTORS_END	((FR_SB_OFFSET + FR_SB_SIZE) >> FR_SECTOR_SHIFT)
#define FR_SB_MAGIC		"FANRAIDS"
#define FR_SB_MAGIC_LEN		8
#define FR_SB_FORMAT_VERSION	1	/* this codec's byte layout */
#define FR_SB_LAYOUT_VERSION	1	/* geom.h: RAID0 round robin, RAID6 left-symmetric */
#define FR_SB_NAME_LEN		64	/* bytes on disk, NUL-padded */
#define FR_SB_NAME_MAX		(FR_SB_NAME_LEN - 1)
#define FR_UUID_LEN		16
#define FR_UUID_STR_LEN		36
#define FR_SB_MAX_READAHEAD	65536	/* sectors: 32 MiB */

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
#define FR_SB_OFF_RESERVED	220
#define FR_SB_OFF_CRC		(FR_SB_SIZE - 4)

/* State bits; 0 is a clean, complete, stopped array. */
#define FR_SB_STATE_DIRTY	(1u << 0)	/* assembled, or stopped uncleanly */
#define FR_SB_STATE_DEGRADED	(1u << 1)	/* failed_mask is not empty */
#define FR_SB_STATE_KNOWN	(FR_SB_STATE_DIRTY | FR_SB_STATE_DEGRADED)

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
#define FR_RA_CACHE_DEFAULT	UINT32_MAX	/* ra_cache_mb not given (0 means no cache) */
/*
 * stripe_cache_mb not given: 0, which the target never accepts. Blocks
 * written before the field existed hold 0 there too, and a tool from
 * before it still reads every block that does not set it.
 */
#define FR_STRIPE_CACHE_DEFAULT	0

/* The decoded superblock, in host byte order. Sizes are in sectors. */
struct fr_sb {
	uint32_t format_version;
	uint32_t layout_version;
	uint8_t array_uuid[FR_UUID_LEN];	/* same on every member */
	uint8_t member_uuid[FR_UUID_LEN];	/* unique to this member */
	char name[FR_SB_NAME_LEN];		/* NUL-terminated */
	uint32_t level;				/* enum fr_level */
	uint32_t chunk_sectors;
	uint32_t ndevs;
	uint32_t slot;				/* this member's index in the table */
	uint64_t data_offset;			/* where the data area starts */
	uint64_t member_sectors;		/* data area used on each member */
	uint64_t array_sectors;			/* dm target length */
	uint64_t events;			/* bumped on every superblock update */
	uint32_t state;				/* FR_SB_STATE_* */
	uint32_t flush_policy;			/* enum fr_flush_policy */
	uint64_t failed_mask;			/* bit i: slot i has failed */
	uint32_t readahead_sectors;		/* block-device readahead; 0: kernel default */
	uint32_t ra_mode;			/* enum fr_ra_mode: target readahead */
	uint32_t ra_window;			/* stripes, or FR_RA_WINDOW_DEFAULT */
	uint32_t ra_cache_mb;			/* MiB, or FR_RA_CACHE_DEFAULT */
	uint32_t stripe_cache_mb;		/* MiB, or FR_STRIPE_CACHE_DEFAULT (0) */
	uint64_t ctime;				/* seconds since the epoch */
	uint64_t utime;
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
	FR_SB_ETIME,
	FR_SB_ERESERVED,
	FR_SB_ERR_COUNT,
};

const char *fr_sb_strerror(enum fr_sb_err err);
enum fr_sb_err fr_sb_validate(const struct fr_sb *sb);
enum fr_sb_err fr_sb_encode(const struct fr_sb *sb, uint8_t *buf);
enum fr_sb_err fr_sb_decode(const uint8_t *buf, struct fr_sb *sb);
uint32_t fr_sb_crc(const uint8_t *buf);

bool fr_sb_stripe_cache_given(const struct fr_sb *sb);
bool fr_name_is_valid(const char *name);
const char *fr_level_name(uint32_t level);
const char *fr_flush_name(uint32_t policy);
void fr_uuid_format(const uint8_t *uuid, char *out);
int fr_uuid_parse(const char *s, uint8_t *uuid);
bool fr_uuid_is_null(const uint8_t *uuid);

#endif /* FR_SB_H */
