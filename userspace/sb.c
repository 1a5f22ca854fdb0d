/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Superblock codec: host struct <-> 4 KiB little-endian block.
 *
 * Pure functions, no I/O, so the unit tests and the fuzzer can feed them any
 * byte pattern. Decoding refuses a block for the first problem it finds and
 * says which field it was; the order is magic, format version, block size,
 * CRC, then the fields, so that a block from a newer tool is reported as
 * "unknown version" rather than as corruption.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <isa-l/crc.h>

#include "sb.h"

static const char *const fr_sb_errstr[FR_SB_ERR_COUNT] = {
	[FR_SB_OK] = "Success",
	[FR_SB_EMAGIC] = "no fanraid superblock (bad magic)",
	[FR_SB_EVERSION] = "unknown superblock format version",
	[FR_SB_ESIZE] = "invalid superblock size field",
	[FR_SB_ECRC] = "superblock checksum mismatch",
	[FR_SB_ELAYOUT] = "unknown layout version",
	[FR_SB_EARRAYUUID] = "invalid array UUID (all zero)",
	[FR_SB_EMEMBERUUID] = "invalid member UUID (all zero)",
	[FR_SB_ENAME] = "invalid array name",
	[FR_SB_ELEVEL] = "invalid RAID level",
	[FR_SB_ENDEVS] = "invalid device count for the RAID level",
	[FR_SB_ECHUNK] = "invalid chunk size",
	[FR_SB_ESLOT] = "slot number beyond the device count",
	[FR_SB_EDATAOFFSET] = "invalid data offset",
	[FR_SB_EMEMBERSIZE] = "invalid member data size",
	[FR_SB_EARRAYSIZE] = "array size does not match the geometry",
	[FR_SB_EEVENTS] = "invalid events counter (zero)",
	[FR_SB_ESTATE] = "invalid state",
	[FR_SB_EFAILMASK] = "failed-slot mask names slots beyond the device count",
	[FR_SB_EFLUSH] = "invalid flush policy",
	[FR_SB_EREADAHEAD] = "invalid readahead size",
	[FR_SB_ESTRIPECACHE] = "invalid stripe cache size",
	[FR_SB_ETIME] = "invalid creation or update time",
	[FR_SB_ERESERVED] = "reserved bytes are not zero",
};

const char *fr_sb_strerror(enum fr_sb_err err)
{
	if ((unsigned int)err >= FR_SB_ERR_COUNT)
		return "unknown superblock error";
	return fr_sb_errstr[err];
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static bool is_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/* Standard CRC32C (Castagnoli) of everything before the CRC field. */
uint32_t fr_sb_crc(const uint8_t *buf)
{
	return ~crc32_iscsi((unsigned char *)buf, FR_SB_OFF_CRC, 0xffffffff);
}

/*
 * Names become device-mapper names and /dev/mapper paths, so keep them to
 * characters that need no quoting anywhere.
 */
bool fr_name_is_valid(const char *name)
{
	size_t len = strnlen(name, FR_SB_NAME_LEN);
	size_t i;

	if (!len || len > FR_SB_NAME_MAX || name[0] == '-' || name[0] == '.')
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (!isascii(c) || !(isalnum(c) || c == '_' || c == '-' ||
				     c == '.' || c == '+'))
			return false;
	}
	return true;
}

const char *fr_level_name(uint32_t level)
{
	switch (level) {
	case FR_LEVEL_RAID0:
		return "raid0";
	case FR_LEVEL_RAID6:
		return "raid6";
	}
	return "unknown";
}

const char *fr_flush_name(uint32_t policy)
{
	switch (policy) {
	case FR_FLUSH_PASSTHROUGH:
		return "passthrough";
	case FR_FLUSH_DROP:
		return "drop";
	case FR_FLUSH_DIRTY:
		return "dirty";
	}
	return "unknown";
}

bool fr_uuid_is_null(const uint8_t *uuid)
{
	return is_zero(uuid, FR_UUID_LEN);
}

/* 8-4-4-4-12 lower-case hex; @out holds FR_UUID_STR_LEN + 1 bytes. */
void fr_uuid_format(const uint8_t *u, char *out)
{
	snprintf(out, FR_UUID_STR_LEN + 1,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Accepts 32 hex digits, with or without the usual dashes. 0 or -EINVAL. */
int fr_uuid_parse(const char *s, uint8_t *uuid)
{
	int n = 0;

	for (; *s; s++) {
		int hi, lo;

		if (*s == '-')
			continue;
		if (n == FR_UUID_LEN)
			return -EINVAL;
		hi = hexval(s[0]);
		lo = s[1] ? hexval(s[1]) : -1;
		if (hi < 0 || lo < 0)
			return -EINVAL;
		uuid[n++] = (uint8_t)(hi << 4 | lo);
		s++;
	}
	return n == FR_UUID_LEN ? 0 : -EINVAL;
}

/* Whether stripe_cache_mb was chosen; see FR_STRIPE_CACHE_DEFAULT in sb.h. */
bool fr_sb_stripe_cache_given(const struct fr_sb *sb)
{
	return sb->stripe_cache_mb != FR_STRIPE_CACHE_DEFAULT;
}

static enum fr_sb_err shape_err(enum fr_geom_err err)
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

/* Field checks shared by encode (never write garbage) and decode. */
enum fr_sb_err fr_sb_validate(const struct fr_sb *sb)
{
	struct fr_geom g;
	enum fr_sb_err err;
	size_t len;

	if (sb->format_version != FR_SB_FORMAT_VERSION)
		return FR_SB_EVERSION;
	if (sb->layout_version != FR_SB_LAYOUT_VERSION)
		return FR_SB_ELAYOUT;
	if (fr_uuid_is_null(sb->array_uuid))
		return FR_SB_EARRAYUUID;
	if (fr_uuid_is_null(sb->member_uuid))
		return FR_SB_EMEMBERUUID;
	len = strnlen(sb->name, FR_SB_NAME_LEN);
	if (len == FR_SB_NAME_LEN || !fr_name_is_valid(sb->name))
		return FR_SB_ENAME;
	err = shape_err(fr_geom_check_shape(sb->level, sb->ndevs,
					    sb->chunk_sectors));
	if (err)
		return err;
	if (sb->slot >= sb->ndevs)
		return FR_SB_ESLOT;
	/* The data area starts after the superblock, on a 4 KiB boundary. */
	if (sb->data_offset < FR_SB_SECTORS_END || sb->data_offset % 8 ||
	    sb->data_offset > FR_MAX_CAPACITY_SECTORS)
		return FR_SB_EDATAOFFSET;
	if (!sb->member_sectors || sb->member_sectors % sb->chunk_sectors ||
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
	if (!sb->ctime || sb->utime < sb->ctime)
		return FR_SB_ETIME;
	return FR_SB_OK;
}

/* Fills all FR_SB_SIZE bytes of @buf; refuses an invalid @sb. */
enum fr_sb_err fr_sb_encode(const struct fr_sb *sb, uint8_t *buf)
{
	enum fr_sb_err err = fr_sb_validate(sb);

	if (err)
		return err;
	memset(buf, 0, FR_SB_SIZE);
	memcpy(buf + FR_SB_OFF_MAGIC, FR_SB_MAGIC, FR_SB_MAGIC_LEN);
	put_le32(buf + FR_SB_OFF_FORMAT, sb->format_version);
	put_le32(buf + FR_SB_OFF_LAYOUT, sb->layout_version);
	put_le32(buf + FR_SB_OFF_SB_SIZE, FR_SB_SIZE);
	memcpy(buf + FR_SB_OFF_ARRAY_UUID, sb->array_uuid, FR_UUID_LEN);
	memcpy(buf + FR_SB_OFF_MEMBER_UUID, sb->member_uuid, FR_UUID_LEN);
	memcpy(buf + FR_SB_OFF_NAME, sb->name, strlen(sb->name));
	put_le32(buf + FR_SB_OFF_LEVEL, sb->level);
	put_le32(buf + FR_SB_OFF_CHUNK, sb->chunk_sectors);
	put_le32(buf + FR_SB_OFF_NDEVS, sb->ndevs);
	put_le32(buf + FR_SB_OFF_SLOT, sb->slot);
	put_le64(buf + FR_SB_OFF_DATA_OFFSET, sb->data_offset);
	put_le64(buf + FR_SB_OFF_MEMBER_SECTORS, sb->member_sectors);
	put_le64(buf + FR_SB_OFF_ARRAY_SECTORS, sb->array_sectors);
	put_le64(buf + FR_SB_OFF_EVENTS, sb->events);
	put_le32(buf + FR_SB_OFF_STATE, sb->state);
	put_le32(buf + FR_SB_OFF_FLUSH, sb->flush_policy);
	put_le64(buf + FR_SB_OFF_FAILED_MASK, sb->failed_mask);
	put_le32(buf + FR_SB_OFF_READAHEAD, sb->readahead_sectors);
	put_le32(buf + FR_SB_OFF_RA_MODE, sb->ra_mode);
	put_le64(buf + FR_SB_OFF_CTIME, sb->ctime);
	put_le64(buf + FR_SB_OFF_UTIME, sb->utime);
	put_le32(buf + FR_SB_OFF_RA_WINDOW, sb->ra_window);
	put_le32(buf + FR_SB_OFF_RA_CACHE, sb->ra_cache_mb);
	put_le32(buf + FR_SB_OFF_STRIPE_CACHE, sb->stripe_cache_mb);
	put_le32(buf + FR_SB_OFF_CRC, fr_sb_crc(buf));
	return FR_SB_OK;
}

/* Reads FR_SB_SIZE bytes of @buf; @sb is filled only on FR_SB_OK. */
enum fr_sb_err fr_sb_decode(const uint8_t *buf, struct fr_sb *sb)
{
	struct fr_sb tmp;
	enum fr_sb_err err;

	if (memcmp(buf + FR_SB_OFF_MAGIC, FR_SB_MAGIC, FR_SB_MAGIC_LEN))
		return FR_SB_EMAGIC;
	memset(&tmp, 0, sizeof(tmp));
	tmp.format_version = get_le32(buf + FR_SB_OFF_FORMAT);
	if (tmp.format_version != FR_SB_FORMAT_VERSION)
		return FR_SB_EVERSION;
	if (get_le32(buf + FR_SB_OFF_SB_SIZE) != FR_SB_SIZE)
		return FR_SB_ESIZE;
	if (get_le32(buf + FR_SB_OFF_CRC) != fr_sb_crc(buf))
		return FR_SB_ECRC;
	if (get_le32(buf + FR_SB_OFF_HDR_PAD) ||
	    !is_zero(buf + FR_SB_OFF_RESERVED,
		     FR_SB_OFF_CRC - FR_SB_OFF_RESERVED))
		return FR_SB_ERESERVED;
	/* Bytes after the name's NUL must be zero, as the encoder writes them. */
	memcpy(tmp.name, buf + FR_SB_OFF_NAME, FR_SB_NAME_LEN);
	if (strnlen(tmp.name, FR_SB_NAME_LEN) == FR_SB_NAME_LEN)
		return FR_SB_ENAME;
	if (!is_zero((const uint8_t *)tmp.name + strlen(tmp.name),
		     FR_SB_NAME_LEN - strlen(tmp.name)))
		return FR_SB_ENAME;

	tmp.layout_version = get_le32(buf + FR_SB_OFF_LAYOUT);
	memcpy(tmp.array_uuid, buf + FR_SB_OFF_ARRAY_UUID, FR_UUID_LEN);
	memcpy(tmp.member_uuid, buf + FR_SB_OFF_MEMBER_UUID, FR_UUID_LEN);
	tmp.level = get_le32(buf + FR_SB_OFF_LEVEL);
	tmp.chunk_sectors = get_le32(buf + FR_SB_OFF_CHUNK);
	tmp.ndevs = get_le32(buf + FR_SB_OFF_NDEVS);
	tmp.slot = get_le32(buf + FR_SB_OFF_SLOT);
	tmp.data_offset = get_le64(buf + FR_SB_OFF_DATA_OFFSET);
	tmp.member_sectors = get_le64(buf + FR_SB_OFF_MEMBER_SECTORS);
	tmp.array_sectors = get_le64(buf + FR_SB_OFF_ARRAY_SECTORS);
	tmp.events = get_le64(buf + FR_SB_OFF_EVENTS);
	tmp.state = get_le32(buf + FR_SB_OFF_STATE);
	tmp.flush_policy = get_le32(buf + FR_SB_OFF_FLUSH);
	tmp.failed_mask = get_le64(buf + FR_SB_OFF_FAILED_MASK);
	tmp.readahead_sectors = get_le32(buf + FR_SB_OFF_READAHEAD);
	tmp.ra_mode = get_le32(buf + FR_SB_OFF_RA_MODE);
	tmp.ra_window = get_le32(buf + FR_SB_OFF_RA_WINDOW);
	tmp.ra_cache_mb = get_le32(buf + FR_SB_OFF_RA_CACHE);
	tmp.stripe_cache_mb = get_le32(buf + FR_SB_OFF_STRIPE_CACHE);
	tmp.ctime = get_le64(buf + FR_SB_OFF_CTIME);
	tmp.utime = get_le64(buf + FR_SB_OFF_UTIME);

	err = fr_sb_validate(&tmp);
	if (err)
		return err;
	*sb = tmp;
	return FR_SB_OK;
}
