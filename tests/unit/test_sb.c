/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid/sb.h, the on-disk superblock codec the tool and the kernel share:
 * round trip, the documented byte layout, format 1 blocks, a specific
 * refusal for every corrupted field and for a bad CRC, and a
 * random-mutation fuzzer that must never crash nor accept a block it would
 * not write itself.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <isa-l/crc.h>

#include "rc_testutil.h"
#include "sb.h"

/* Bitwise CRC32C, independent of the codec's table: the oracle for fr_sb_crc(). */
static uint32_t t_crc32c(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffff;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78 : crc >> 1;
	}
	return ~crc;
}

/* @v as @width little-endian bytes at @p, as the superblock stores it. */
static void t_put(uint8_t *p, uint64_t v, int width)
{
	int i;

	for (i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void t_put32(uint8_t *p, uint32_t v)
{
	t_put(p, v, 4);
}

static void t_put64(uint8_t *p, uint64_t v)
{
	t_put(p, v, 8);
}

static uint32_t t_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t t_get64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void t_fix_crc(uint8_t *buf)
{
	t_put32(buf + FR_SB_OFF_CRC, t_crc32c(buf, FR_SB_OFF_CRC));
}

/* The fuzzers' CRC repair: the codec's own, proven equal to the oracle above. */
static void t_fix_crc_fast(uint8_t *buf)
{
	t_put32(buf + FR_SB_OFF_CRC, fr_sb_crc(buf));
}

/* A valid 4-member raid0 superblock with distinctive values. */
static void t_sb(struct fr_sb *sb)
{
	int i;

	memset(sb, 0, sizeof(*sb));
	sb->format_version = FR_SB_FORMAT_VERSION;
	sb->layout_version = FR_SB_LAYOUT_VERSION;
	for (i = 0; i < FR_UUID_LEN; i++) {
		sb->array_uuid[i] = (uint8_t)(0x10 + i);
		sb->member_uuid[i] = (uint8_t)(0xa0 + i);
	}
	strcpy(sb->name, "fast0");
	sb->level = FR_LEVEL_RAID0;
	sb->chunk_sectors = 1024;
	sb->ndevs = 4;
	sb->slot = 2;
	sb->data_offset = 2048;
	sb->member_sectors = 1024 * 1000;
	sb->array_sectors = 4 * 1024 * 1000;
	sb->events = 0x0102030405060708ull;
	sb->state = FR_SB_STATE_DIRTY;
	sb->flush_policy = FR_FLUSH_DROP;
	sb->readahead_sectors = 256;
	sb->ra_mode = FR_RA_OFF;
	sb->ra_window = 8;
	sb->ra_cache_mb = FR_RA_CACHE_DEFAULT;
	sb->stripe_cache_mb = FR_STRIPE_CACHE_DEFAULT;
	sb->ctime = 1700000000;
	sb->utime = 1700000100;
}

static void t_block(uint8_t *buf)
{
	struct fr_sb sb;

	t_sb(&sb);
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_OK);
}

static void test_sb_round_trips(void **state)
{
	uint8_t buf[FR_SB_SIZE], again[FR_SB_SIZE];
	struct fr_sb in, out;

	(void)state;
	t_sb(&in);
	assert_int_equal(fr_sb_encode(&in, buf), FR_SB_OK);
	assert_int_equal(fr_sb_decode(buf, &out), FR_SB_OK);
	assert_memory_equal(&in, &out, sizeof(in));
	assert_int_equal(fr_sb_encode(&out, again), FR_SB_OK);
	assert_memory_equal(buf, again, FR_SB_SIZE);
}

static void test_sb_round_trips_raid6_degraded_64_members(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb in, out;

	(void)state;
	t_sb(&in);
	in.level = FR_LEVEL_RAID6;
	in.ndevs = 64;
	in.slot = 63;
	in.array_sectors = 62ull * in.member_sectors;
	in.failed_mask = 1ull << 63 | 1;
	in.state = FR_SB_STATE_DEGRADED;
	strcpy(in.name, "a-name.with_all+allowed-chars-0123456789-abcdefghijklmnopqrstuv");
	assert_int_equal(strlen(in.name), FR_SB_NAME_MAX);
	assert_int_equal(fr_sb_encode(&in, buf), FR_SB_OK);
	assert_int_equal(fr_sb_decode(buf, &out), FR_SB_OK);
	assert_memory_equal(&in, &out, sizeof(in));
}

/* docs/superblock.md promises these bytes; a layout change must show up here. */
static void test_sb_layout_matches_documented_offsets(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	size_t i;

	(void)state;
	t_block(buf);
	assert_memory_equal(buf, "FANRAIDS", 8);
	assert_int_equal(buf[8], 2);		/* format version, LE */
	assert_int_equal(buf[12], 1);		/* layout version */
	assert_int_equal(buf[16], 0x00);	/* 4096 = 0x1000 LE */
	assert_int_equal(buf[17], 0x10);
	assert_int_equal(buf[24], 0x10);	/* array uuid byte 0 */
	assert_int_equal(buf[40], 0xa0);	/* member uuid byte 0 */
	assert_memory_equal(buf + 56, "fast0\0", 6);
	assert_int_equal(buf[124], 0x00);	/* chunk 1024 = 0x400 */
	assert_int_equal(buf[125], 0x04);
	assert_int_equal(buf[128], 4);		/* ndevs */
	assert_int_equal(buf[132], 2);		/* slot */
	assert_int_equal(t_get64(buf + 136), 2048);
	assert_int_equal(t_get64(buf + 144), 1024 * 1000);
	assert_int_equal(t_get64(buf + 152), 4 * 1024 * 1000);
	for (i = 0; i < 8; i++)			/* events, byte by byte */
		assert_int_equal(buf[160 + i], 8 - i);
	assert_int_equal(buf[168], FR_SB_STATE_DIRTY);
	assert_int_equal(buf[172], FR_FLUSH_DROP);
	assert_int_equal(t_get64(buf + 176), 0);
	assert_int_equal(buf[184], 0);		/* readahead 256 = 0x100 */
	assert_int_equal(buf[185], 1);
	assert_int_equal(buf[188], FR_RA_OFF);
	assert_int_equal(t_get64(buf + 192), 1700000000);
	assert_int_equal(t_get64(buf + 200), 1700000100);
	assert_int_equal(buf[208], 8);		/* ra_window */
	assert_int_equal(t_get64(buf + 208) >> 32, 0xffffffff); /* ra_cache_mb default */
	assert_int_equal(FR_SB_OFF_STRIPE_CACHE, 216);
	assert_int_equal(t_get64(buf + 212) >> 32, 0); /* stripe_cache_mb not given */
	assert_int_equal(FR_SB_OFF_BITMAP_REGION, 220);	/* bitmap: none */
	assert_int_equal(FR_SB_OFF_BITMAP_SECTORS, 224);
	assert_int_equal(FR_SB_OFF_BITMAP_PAD, 228);
	assert_int_equal(FR_SB_OFF_EVENTS_CLEARED, 232);
	assert_int_equal(FR_SB_OFF_SYNC_SPEED_MIN, 240);
	assert_int_equal(FR_SB_OFF_SYNC_SPEED_MAX, 244);
	assert_int_equal(FR_SB_OFF_RESHAPE_POS, 248);	/* no grow */
	assert_int_equal(FR_SB_OFF_RESHAPE_OLD, 256);
	assert_int_equal(FR_SB_OFF_RESHAPE_PAD, 260);
	for (i = FR_SB_OFF_BITMAP_REGION; i < FR_SB_OFF_RESERVED; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(FR_SB_OFF_RESERVED, 264);
	for (i = FR_SB_OFF_RESERVED; i < FR_SB_OFF_CRC; i++)
		assert_int_equal(buf[i], 0);
}

static void test_sb_crc_is_standard_crc32c(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	const uint8_t check[] = "123456789";

	(void)state;
	/* the oracle itself: the published CRC32C check value */
	assert_int_equal(t_crc32c(check, 9), 0xe3069283);
	t_block(buf);
	assert_int_equal(fr_sb_crc(buf), t_crc32c(buf, FR_SB_OFF_CRC));
	assert_int_equal(buf[4092] | buf[4093] << 8 | buf[4094] << 16 |
			 (uint32_t)buf[4095] << 24, t_crc32c(buf, 4092));
}

static void test_sb_rejects_bad_magic(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb;

	(void)state;
	t_block(buf);
	buf[3] ^= 0x20;
	t_fix_crc(buf);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_EMAGIC);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_EMAGIC);
}

static void test_sb_rejects_bad_crc_anywhere(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb;
	size_t off;

	(void)state;
	/* one flipped bit in any byte past the version checks is a CRC error */
	for (off = FR_SB_OFF_SB_SIZE + 4; off < FR_SB_SIZE; off++) {
		t_block(buf);
		buf[off] ^= 0x01;
		assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_ECRC);
	}
}

static void test_sb_rejects_unknown_version(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb;

	(void)state;
	t_block(buf);
	t_put32(buf + FR_SB_OFF_FORMAT, FR_SB_FORMAT_VERSION + 1);
	t_fix_crc(buf);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_EVERSION);
	/* a newer block may have a different CRC rule: version wins over CRC */
	buf[100] ^= 0xff;
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_EVERSION);
	t_put32(buf + FR_SB_OFF_FORMAT, 0);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_EVERSION);
}

/*
 * Format 1 has format 2's bytes; only the owner of the changing fields
 * differs. A block an old tool wrote still decodes, as format 1, and
 * re-encodes to the same bytes until the tool upgrades it.
 */
static void test_sb_decodes_format1_blocks(void **state)
{
	uint8_t buf[FR_SB_SIZE], again[FR_SB_SIZE];
	struct fr_sb sb;

	(void)state;
	t_block(buf);
	t_put32(buf + FR_SB_OFF_FORMAT, 1);
	t_fix_crc(buf);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_OK);
	assert_int_equal(sb.format_version, 1);
	assert_int_equal(sb.events, 0x0102030405060708ull);
	assert_int_equal(sb.state, FR_SB_STATE_DIRTY);
	assert_int_equal(fr_sb_encode(&sb, again), FR_SB_OK);
	assert_memory_equal(buf, again, FR_SB_SIZE);
	sb.format_version = FR_SB_FORMAT_VERSION;
	assert_int_equal(fr_sb_encode(&sb, again), FR_SB_OK);
	assert_int_equal(again[FR_SB_OFF_FORMAT], 2);
	assert_int_equal(fr_sb_decode(again, &sb), FR_SB_OK);
	assert_int_equal(sb.format_version, 2);
	/* a format 1 block with a bad field is refused as before */
	t_put32(buf + FR_SB_OFF_SLOT, 4);
	t_fix_crc(buf);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_ESLOT);
}

/*
 * The codec's CRC is plain C (the kernel compiles it too); ISA-L's
 * crc32_iscsi, which the tool used before, must agree on any input, or
 * blocks written by older tools would read as corrupt.
 */
static void test_sb_crc_agrees_with_isal(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	uint64_t seed = 77;
	uint32_t len;
	int i;

	(void)state;
	for (i = 0; i < 200; i++) {
		rc_t_fill(&seed, buf, sizeof(buf));
		len = i < 8 ? (uint32_t)i : (uint32_t)(i * 37) % FR_SB_SIZE;
		assert_int_equal(fr_sb_crc32c(buf, len),
				 ~crc32_iscsi(buf, len, 0xffffffff));
	}
	t_block(buf);
	assert_int_equal(fr_sb_crc(buf),
			 ~crc32_iscsi(buf, FR_SB_OFF_CRC, 0xffffffff));
}

struct t_corrupt {
	const char *what;
	size_t off;
	int width;		/* bytes, 1, 4 or 8; 0 zeroes a whole uuid */
	uint64_t value;
	enum fr_sb_err want;
};

static const struct t_corrupt t_corruptions[] = {
	{ "sb size", FR_SB_OFF_SB_SIZE, 4, 512, FR_SB_ESIZE },
	{ "header pad", FR_SB_OFF_HDR_PAD, 4, 1, FR_SB_ERESERVED },
	{ "layout 0", FR_SB_OFF_LAYOUT, 4, 0, FR_SB_ELAYOUT },
	{ "layout 2", FR_SB_OFF_LAYOUT, 4, 2, FR_SB_ELAYOUT },
	{ "array uuid", FR_SB_OFF_ARRAY_UUID, 0, 0, FR_SB_EARRAYUUID },
	{ "member uuid", FR_SB_OFF_MEMBER_UUID, 0, 0, FR_SB_EMEMBERUUID },
	{ "name empty", FR_SB_OFF_NAME, 1, 0, FR_SB_ENAME },
	{ "name slash", FR_SB_OFF_NAME + 1, 1, '/', FR_SB_ENAME },
	{ "name dash first", FR_SB_OFF_NAME, 1, '-', FR_SB_ENAME },
	{ "name junk after NUL", FR_SB_OFF_NAME + 40, 1, 'x', FR_SB_ENAME },
	{ "name unterminated", FR_SB_OFF_NAME + 63, 1, 'x', FR_SB_ENAME },
	{ "level 5", FR_SB_OFF_LEVEL, 4, 5, FR_SB_ELEVEL },
	{ "level 1", FR_SB_OFF_LEVEL, 4, 1, FR_SB_ELEVEL },
	{ "ndevs 0", FR_SB_OFF_NDEVS, 4, 0, FR_SB_ENDEVS },
	{ "ndevs 65", FR_SB_OFF_NDEVS, 4, 65, FR_SB_ENDEVS },
	{ "chunk 0", FR_SB_OFF_CHUNK, 4, 0, FR_SB_ECHUNK },
	{ "chunk not pow2", FR_SB_OFF_CHUNK, 4, 1000, FR_SB_ECHUNK },
	{ "chunk 4", FR_SB_OFF_CHUNK, 4, 4, FR_SB_ECHUNK },
	{ "chunk 64K sectors", FR_SB_OFF_CHUNK, 4, 65536, FR_SB_ECHUNK },
	{ "slot 4 of 4", FR_SB_OFF_SLOT, 4, 4, FR_SB_ESLOT },
	{ "data offset in sb", FR_SB_OFF_DATA_OFFSET, 8, 8, FR_SB_EDATAOFFSET },
	{ "data offset unaligned", FR_SB_OFF_DATA_OFFSET, 8, 2049,
	  FR_SB_EDATAOFFSET },
	{ "data offset huge", FR_SB_OFF_DATA_OFFSET, 8, ~0ull << 4,
	  FR_SB_EDATAOFFSET },
	{ "member size 0", FR_SB_OFF_MEMBER_SECTORS, 8, 0, FR_SB_EMEMBERSIZE },
	{ "member size partial chunk", FR_SB_OFF_MEMBER_SECTORS, 8, 1024 * 1000 + 8,
	  FR_SB_EMEMBERSIZE },
	{ "member size overflow", FR_SB_OFF_MEMBER_SECTORS, 8, ~0ull << 10,
	  FR_SB_EMEMBERSIZE },
	{ "array size", FR_SB_OFF_ARRAY_SECTORS, 8, 4 * 1024 * 1000 - 1024,
	  FR_SB_EARRAYSIZE },
	{ "events 0", FR_SB_OFF_EVENTS, 8, 0, FR_SB_EEVENTS },
	{ "state unknown bit", FR_SB_OFF_STATE, 4, 1u << 7, FR_SB_ESTATE },
	{ "degraded without mask", FR_SB_OFF_STATE, 4, FR_SB_STATE_DEGRADED,
	  FR_SB_ESTATE },
	{ "mask without degraded", FR_SB_OFF_FAILED_MASK, 8, 1, FR_SB_ESTATE },
	{ "flush 3", FR_SB_OFF_FLUSH, 4, 3, FR_SB_EFLUSH },
	{ "readahead huge", FR_SB_OFF_READAHEAD, 4, FR_SB_MAX_READAHEAD + 1,
	  FR_SB_EREADAHEAD },
	{ "ra mode 3", FR_SB_OFF_RA_MODE, 4, 3, FR_SB_EREADAHEAD },
	{ "ra window 65", FR_SB_OFF_RA_WINDOW, 4, 65, FR_SB_EREADAHEAD },
	{ "ra cache 4097", FR_SB_OFF_RA_CACHE, 4, 4097, FR_SB_EREADAHEAD },
	{ "stripe cache on raid0", FR_SB_OFF_STRIPE_CACHE, 4, 64,
	  FR_SB_ESTRIPECACHE },
	{ "stripe cache 0xfffffffe", FR_SB_OFF_STRIPE_CACHE, 4, 0xfffffffe,
	  FR_SB_ESTRIPECACHE },
	{ "sync speed min on raid0", FR_SB_OFF_SYNC_SPEED_MIN, 4, 1000,
	  FR_SB_ESYNCSPEED },
	{ "sync speed max on raid0", FR_SB_OFF_SYNC_SPEED_MAX, 4, 1,
	  FR_SB_ESYNCSPEED },
	{ "reshape position without a grow", FR_SB_OFF_RESHAPE_POS, 8, 4096,
	  FR_SB_ERESHAPE },
	{ "reshape old members without a grow", FR_SB_OFF_RESHAPE_OLD, 4, 2,
	  FR_SB_ERESHAPE },
	{ "reshape pad", FR_SB_OFF_RESHAPE_PAD, 4, 1, FR_SB_ERESERVED },
	{ "reshape state without its fields", FR_SB_OFF_STATE, 4,
	  FR_SB_STATE_DIRTY | FR_SB_STATE_RESHAPE, FR_SB_ERESHAPE },
	{ "backup without a grow", FR_SB_OFF_STATE, 4,
	  FR_SB_STATE_DIRTY | FR_SB_STATE_RESHAPE_BACKUP, FR_SB_ERESHAPE },
	{ "ctime 0", FR_SB_OFF_CTIME, 8, 0, FR_SB_ETIME },
	{ "utime before ctime", FR_SB_OFF_UTIME, 8, 1600000000, FR_SB_ETIME },
	{ "reserved first", FR_SB_OFF_RESERVED, 1, 1, FR_SB_ERESERVED },
	{ "reserved last", FR_SB_OFF_CRC - 1, 1, 0x80, FR_SB_ERESERVED },
};

/* Each field corrupted with a valid CRC, so the field check itself must fire. */
static void test_sb_rejects_each_corrupted_field(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb, before;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t_corruptions) / sizeof(t_corruptions[0]); i++) {
		const struct t_corrupt *c = &t_corruptions[i];

		t_block(buf);
		if (c->width)
			t_put(buf + c->off, c->value, c->width);
		else
			memset(buf + c->off, 0, FR_UUID_LEN);
		t_fix_crc(buf);
		memset(&sb, 0x5a, sizeof(sb));
		before = sb;
		if (fr_sb_decode(buf, &sb) != c->want)
			fail_msg("%s: got '%s', want '%s'", c->what,
				 fr_sb_strerror(fr_sb_decode(buf, &sb)),
				 fr_sb_strerror(c->want));
		/* a refused block leaves the caller's struct alone */
		assert_memory_equal(&sb, &before, sizeof(sb));
	}
}

/* A raid6 superblock with a bitmap of 64 KiB regions (1000 * 512 KiB members: 8 regions). */
static void t_sb_bitmap(struct fr_sb *sb)
{
	t_sb(sb);
	sb->level = FR_LEVEL_RAID6;
	sb->array_sectors = 2ull * sb->member_sectors;
	sb->chunk_sectors = 128;
	sb->bitmap_region_sectors = 131072;	/* 64 MiB: 8 regions */
	sb->bitmap_sectors = 8;
	sb->events_cleared = sb->events - 5;
}

/* The bitmap fields round-trip at their documented offsets. */
static void test_sb_bitmap_fields_round_trip(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb in, out;

	(void)state;
	t_sb_bitmap(&in);
	assert_int_equal(fr_sb_encode(&in, buf), FR_SB_OK);
	assert_int_equal(buf[FR_SB_OFF_BITMAP_REGION + 2], 0x02);	/* 0x20000 */
	assert_int_equal(buf[FR_SB_OFF_BITMAP_SECTORS], 8);
	assert_int_equal(t_get64(buf + FR_SB_OFF_EVENTS_CLEARED), in.events - 5);
	assert_int_equal(fr_sb_decode(buf, &out), FR_SB_OK);
	assert_memory_equal(&in, &out, sizeof(in));
	/* the largest region and the most regions the format allows */
	in.member_sectors = (uint64_t)FR_BITMAP_MAX_REGIONS * 128;
	in.array_sectors = 2 * in.member_sectors;
	in.bitmap_region_sectors = 128;
	in.bitmap_sectors = FR_BITMAP_MAX_REGIONS / 8 / 512;
	in.data_offset = FR_BITMAP_SECTOR + in.bitmap_sectors;
	assert_int_equal(fr_sb_encode(&in, buf), FR_SB_OK);
	assert_int_equal(fr_sb_decode(buf, &out), FR_SB_OK);
	in.member_sectors += 128;	/* one region more */
	in.array_sectors = 2 * in.member_sectors;
	assert_int_equal(fr_sb_encode(&in, buf), FR_SB_EBITMAP);
}

/* Every inconsistent bitmap field is refused, on both sides of the codec. */
static void test_sb_bitmap_rejects_each_bad_field(void **state)
{
	static const struct {
		const char *what;
		uint32_t region, sectors;
		int64_t cleared;	/* relative to events */
		uint32_t level, offset;
	} bad[] = {
		{ "region not a power of two", 131071, 8, -5, 6, 2048 },
		{ "region below the chunk", 64, 8, -5, 6, 2048 },
		{ "region above 1 TiB", 0, 8, -5, 6, 2048 },	/* 2^32 wraps to 0 */
		{ "area of no sectors", 131072, 0, -5, 6, 2048 },
		{ "area not whole pages", 131072, 4, -5, 6, 2048 },
		{ "area past the data offset", 131072, 2040, -5, 6, 2048 },
		{ "data offset inside the bitmap", 131072, 8, -5, 6, 16 },
		{ "events_cleared after events", 131072, 8, 1, 6, 2048 },
		{ "bitmap on raid0", 131072, 8, -5, 0, 2048 },
		{ "events_cleared without a bitmap", 0, 0, -5, 6, 2048 },
	};
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_sb_bitmap(&sb);
		assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_OK);
		t_put32(buf + FR_SB_OFF_BITMAP_REGION, bad[i].region);
		if (!strcmp(bad[i].what, "region above 1 TiB"))
			t_put32(buf + FR_SB_OFF_BITMAP_REGION, 1u << 31 << 1 | 0);
		t_put32(buf + FR_SB_OFF_BITMAP_SECTORS, bad[i].sectors);
		t_put64(buf + FR_SB_OFF_EVENTS_CLEARED, sb.events + bad[i].cleared);
		t_put32(buf + FR_SB_OFF_LEVEL, bad[i].level);
		t_put64(buf + FR_SB_OFF_DATA_OFFSET, bad[i].offset);
		if (bad[i].level == 0)	/* raid0 of 2 members: same capacity */
			t_put64(buf + FR_SB_OFF_ARRAY_SECTORS, 4 * sb.member_sectors);
		t_fix_crc(buf);
		if (fr_sb_decode(buf, &sb) == FR_SB_OK)
			fail_msg("%s: accepted", bad[i].what);
	}
	/* the pad word after the area size must stay zero */
	t_sb_bitmap(&sb);
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_OK);
	t_put32(buf + FR_SB_OFF_BITMAP_PAD, 1);
	t_fix_crc(buf);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_ERESERVED);
}

/* The shared geometry: regions round up, areas are whole pages. */
static void test_bitmap_geometry_edges(void **state)
{
	(void)state;
	assert_int_equal(fr_bitmap_regions(1, 8), 1);
	assert_int_equal(fr_bitmap_regions(8, 8), 1);
	assert_int_equal(fr_bitmap_regions(9, 8), 2);
	assert_int_equal(fr_bitmap_regions(9, 7), 0);	/* not a power of two */
	assert_int_equal(fr_bitmap_regions(9, 0), 0);
	assert_true(fr_bitmap_regions(~0ull >> 9, 1u << 31) == (~0ull >> 9 >> 31) + 1);
	assert_int_equal(fr_bitmap_area_sectors(1), 8);
	assert_int_equal(fr_bitmap_area_sectors(32768), 8);
	assert_int_equal(fr_bitmap_area_sectors(32769), 16);
	assert_int_equal(fr_bitmap_shift(1), 0);
	assert_int_equal(fr_bitmap_shift(1u << 31), 31);
	assert_int_equal(fr_bitmap_check(FR_LEVEL_RAID6, 8, 1 << 20, 2048, 8, 0), -1);
	/* 2^17 regions: four pages, 32 sectors */
	assert_int_equal(fr_bitmap_check(FR_LEVEL_RAID6, 8, 1 << 20, 2048, 8, 24), -1);
	assert_int_equal(fr_bitmap_check(FR_LEVEL_RAID6, 8, 1 << 20, 2048, 8, 32), 0);
	assert_int_equal(fr_bitmap_check(FR_LEVEL_RAID6, 8, 1 << 20, 2048, 8, 2032), 0);
	assert_int_equal(fr_bitmap_check(FR_LEVEL_RAID6, 8, 1 << 20, 2048, 8, 2040), -1);
	assert_int_equal(fr_bitmap_check(FR_LEVEL_RAID6, 8, 1 << 20, 2048, 0, 0), 0);
	assert_int_equal(fr_bitmap_check(FR_LEVEL_RAID0, 8, 1 << 20, 2048, 8, 512), -1);
}

/* A raid6 block with @mb at FR_SB_OFF_STRIPE_CACHE and a valid CRC. */
static void t_block_raid6_stripe_cache(uint8_t *buf, uint32_t mb)
{
	struct fr_sb sb;

	t_sb(&sb);
	sb.level = FR_LEVEL_RAID6;
	sb.array_sectors = 2ull * sb.member_sectors;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_OK);
	t_put32(buf + FR_SB_OFF_STRIPE_CACHE, mb);
	t_fix_crc(buf);
}

/* stripe_cache_mb: 1..4096 on raid6, or not given (0). */
static void test_sb_stripe_cache_round_trips_and_is_bounded(void **state)
{
	static const uint32_t ok[] = { 1, 64, 4096, FR_STRIPE_CACHE_DEFAULT };
	uint8_t buf[FR_SB_SIZE], again[FR_SB_SIZE];
	struct fr_sb sb;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		t_block_raid6_stripe_cache(buf, ok[i]);
		assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_OK);
		assert_int_equal(sb.stripe_cache_mb, ok[i]);
		assert_int_equal(fr_sb_stripe_cache_given(&sb),
				 ok[i] != FR_STRIPE_CACHE_DEFAULT);
		assert_int_equal(fr_sb_encode(&sb, again), FR_SB_OK);
		assert_memory_equal(buf, again, FR_SB_SIZE);
	}
	t_block_raid6_stripe_cache(buf, FR_R6_STRIPE_CACHE_MAX_MB + 1);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_ESTRIPECACHE);
	t_block_raid6_stripe_cache(buf, UINT32_MAX);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_ESTRIPECACHE);
	/* the encoder refuses what the decoder refuses */
	t_sb(&sb);
	sb.stripe_cache_mb = 64;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_ESTRIPECACHE);
	sb.level = FR_LEVEL_RAID6;
	sb.array_sectors = 2ull * sb.member_sectors;
	sb.stripe_cache_mb = 4097;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_ESTRIPECACHE);
}

/*
 * Both limits at their edges land byte for byte at their offsets and come
 * back; the encoder refuses them on raid0 as the decoder does.
 */
static void test_sb_sync_speeds_round_trip(void **state)
{
	static const uint32_t v[][2] = {
		{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 1000, 200000 },
		{ UINT32_MAX, UINT32_MAX }, { UINT32_MAX, 1 },
	};
	uint8_t buf[FR_SB_SIZE], again[FR_SB_SIZE];
	struct fr_sb sb, got;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		t_sb(&sb);
		sb.level = FR_LEVEL_RAID6;
		sb.array_sectors = 2ull * sb.member_sectors;
		sb.sync_speed_min = v[i][0];
		sb.sync_speed_max = v[i][1];
		assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_OK);
		assert_int_equal(t_get32(buf + 240), v[i][0]);
		assert_int_equal(t_get32(buf + 244), v[i][1]);
		assert_int_equal(fr_sb_decode(buf, &got), FR_SB_OK);
		assert_int_equal(got.sync_speed_min, v[i][0]);
		assert_int_equal(got.sync_speed_max, v[i][1]);
		assert_int_equal(fr_sb_encode(&got, again), FR_SB_OK);
		assert_memory_equal(buf, again, FR_SB_SIZE);
	}
	t_sb(&sb);
	sb.sync_speed_max = 1;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_ESYNCSPEED);
}

/*
 * A grow from 2 to 4 members: the fields land at their offsets and come
 * back; positions off a new row boundary, past the old capacity, a backup
 * past position 0 and old member counts out of range are refused.
 */
static void test_sb_reshape_fields_round_trip_and_are_checked(void **state)
{
	static const struct {
		uint32_t old, state;
		uint64_t pos;
		enum fr_sb_err want;
	} c[] = {
		{ 2, FR_SB_STATE_RESHAPE_BACKUP, 0, FR_SB_OK },
		{ 2, 0, 0, FR_SB_OK },
		{ 2, 0, 4096, FR_SB_OK },		/* one new row */
		{ 2, 0, 2048000, FR_SB_OK },		/* old capacity: copied */
		{ 3, 0, 4096 * 7, FR_SB_OK },
		{ 2, 0, 4096 + 1024, FR_SB_ERESHAPE },	/* not a new row */
		{ 2, 0, 2048000 + 4096, FR_SB_ERESHAPE },	/* past the old array */
		{ 2, FR_SB_STATE_RESHAPE_BACKUP, 4096, FR_SB_ERESHAPE },
		{ 4, 0, 0, FR_SB_ERESHAPE },		/* not fewer members */
		{ 0, 0, 0, FR_SB_ERESHAPE },
		{ 65, 0, 0, FR_SB_ERESHAPE },
	};
	uint8_t buf[FR_SB_SIZE], again[FR_SB_SIZE];
	struct fr_sb sb, got;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		t_sb(&sb);
		sb.state |= FR_SB_STATE_RESHAPE | c[i].state;
		sb.reshape_old_ndevs = c[i].old;
		sb.reshape_position = c[i].pos;
		if (fr_sb_encode(&sb, buf) != c[i].want)
			fail_msg("case %zu: got '%s'", i,
				 fr_sb_strerror(fr_sb_encode(&sb, buf)));
		if (c[i].want)
			continue;
		assert_int_equal(t_get64(buf + 248), c[i].pos);
		assert_int_equal(t_get32(buf + 256), c[i].old);
		assert_int_equal(fr_sb_decode(buf, &got), FR_SB_OK);
		assert_int_equal(got.reshape_position, c[i].pos);
		assert_int_equal(got.reshape_old_ndevs, c[i].old);
		assert_int_equal(got.state, sb.state);
		assert_int_equal(fr_sb_encode(&got, again), FR_SB_OK);
		assert_memory_equal(buf, again, FR_SB_SIZE);
	}
}

/*
 * A block from before stripe_cache_mb has zeros at its offset: it reads as
 * not given, on raid0 and raid6, and is written back byte for byte as it
 * was, so an old tool can still read it.
 */
static void test_sb_old_zeroed_stripe_cache_reads_as_not_given(void **state)
{
	uint8_t buf[FR_SB_SIZE], again[FR_SB_SIZE];
	struct fr_sb sb;

	(void)state;
	t_block_raid6_stripe_cache(buf, 0);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_OK);
	assert_int_equal(sb.stripe_cache_mb, 0);
	assert_false(fr_sb_stripe_cache_given(&sb));
	assert_int_equal(fr_sb_encode(&sb, again), FR_SB_OK);
	assert_memory_equal(buf, again, FR_SB_SIZE);

	t_block(buf);
	t_put32(buf + FR_SB_OFF_STRIPE_CACHE, 0);
	t_fix_crc(buf);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_OK);
	assert_false(fr_sb_stripe_cache_given(&sb));
}

/* raid6 needs four members; the table above only tries raid0. */
static void test_sb_rejects_raid6_below_four_members(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb;

	(void)state;
	t_block(buf);
	t_put32(buf + FR_SB_OFF_LEVEL, FR_LEVEL_RAID6);
	t_put32(buf + FR_SB_OFF_NDEVS, 3);
	t_put32(buf + FR_SB_OFF_SLOT, 0);
	t_fix_crc(buf);
	assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_ENDEVS);
}

/*
 * A hot spare's block has slot FR_SB_SLOT_SPARE: it round-trips, says it
 * is a spare, and a slot just past the members is still refused; a
 * decoder that knows no spares (slot < ndevs only) would refuse it too.
 */
static void test_sb_spare_slot_round_trips(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb, out;

	(void)state;
	t_sb(&sb);
	assert_false(fr_sb_is_spare(&sb));
	sb.slot = FR_SB_SLOT_SPARE;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_OK);
	assert_int_equal(buf[FR_SB_OFF_SLOT], 0xff);
	assert_int_equal(buf[FR_SB_OFF_SLOT + 3], 0xff);
	assert_int_equal(fr_sb_decode(buf, &out), FR_SB_OK);
	assert_int_equal(out.slot, FR_SB_SLOT_SPARE);
	assert_true(fr_sb_is_spare(&out));
	assert_true(out.slot >= out.ndevs);
	sb.slot = sb.ndevs;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_ESLOT);
	sb.slot = FR_SB_SLOT_SPARE - 1;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_ESLOT);
}

static void test_sb_encode_refuses_invalid_struct(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	struct fr_sb sb;

	(void)state;
	t_sb(&sb);
	sb.slot = 9;
	memset(buf, 0x77, sizeof(buf));
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_ESLOT);
	t_sb(&sb);
	sb.events = 0;
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_EEVENTS);
	t_sb(&sb);
	memset(sb.name, 'n', sizeof(sb.name));
	assert_int_equal(fr_sb_encode(&sb, buf), FR_SB_ENAME);
}

static void test_sb_every_error_has_its_own_message(void **state)
{
	int i, j;

	(void)state;
	for (i = 0; i < FR_SB_ERR_COUNT; i++) {
		assert_non_null(fr_sb_strerror(i));
		for (j = 0; j < i; j++)
			assert_string_not_equal(fr_sb_strerror(i),
						fr_sb_strerror(j));
	}
	assert_string_equal(fr_sb_strerror(FR_SB_ERR_COUNT),
			    "unknown superblock error");
}

/*
 * Random mutations of a valid block, half of them with the CRC repaired so
 * the field checks see them. Whatever decodes must re-encode to the very
 * same bytes: the decoder accepts nothing the encoder would not write.
 */
static void test_sb_fuzz_decoder_never_accepts_garbage(void **state)
{
	uint8_t buf[FR_SB_SIZE], again[FR_SB_SIZE];
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned long accepted = 0, iter;
	struct fr_sb sb;

	(void)state;
	for (iter = 0; iter < 200000; iter++) {
		uint64_t r = rc_t_rand(&seed);
		int flips = 1 + (int)(r % 4), k;

		t_block(buf);
		for (k = 0; k < flips; k++) {
			uint64_t rr = rc_t_rand(&seed);
			/* bias towards the fields: most action is in bytes 0..219 */
			size_t off = rr & 1 ? (rr >> 8) % FR_SB_OFF_RESERVED :
					      (rr >> 8) % FR_SB_SIZE;

			if (rr & 2)
				buf[off] ^= (uint8_t)(1u << ((rr >> 4) & 7));
			else
				buf[off] = (uint8_t)(rr >> 32);
		}
		if (r & (1ull << 40))
			t_fix_crc_fast(buf);
		if (fr_sb_decode(buf, &sb) != FR_SB_OK)
			continue;
		accepted++;
		assert_int_equal(fr_sb_encode(&sb, again), FR_SB_OK);
		assert_memory_equal(buf, again, FR_SB_SIZE);
	}
	/* some mutations are legal (another slot, more events): make sure we saw them */
	assert_true(accepted > 0);
}

/* Entirely random blocks, with the magic and CRC made right. */
static void test_sb_fuzz_random_blocks(void **state)
{
	uint8_t buf[FR_SB_SIZE];
	uint64_t seed = 12345;
	struct fr_sb sb;
	int iter;
	size_t i;

	(void)state;
	for (iter = 0; iter < 20000; iter++) {
		for (i = 0; i < FR_SB_SIZE; i += 8)
			t_put64(buf + i, rc_t_rand(&seed));
		memcpy(buf, FR_SB_MAGIC, FR_SB_MAGIC_LEN);
		if (iter & 1) {
			t_put32(buf + FR_SB_OFF_FORMAT, FR_SB_FORMAT_VERSION);
			t_put32(buf + FR_SB_OFF_SB_SIZE, FR_SB_SIZE);
		}
		t_fix_crc_fast(buf);
		assert_int_not_equal(fr_sb_decode(buf, &sb), FR_SB_OK);
	}
}

static void test_uuid_round_trips_and_rejects_junk(void **state)
{
	uint8_t u[FR_UUID_LEN], v[FR_UUID_LEN];
	char s[FR_UUID_STR_LEN + 1];
	int i;

	(void)state;
	for (i = 0; i < FR_UUID_LEN; i++)
		u[i] = (uint8_t)(i * 17);
	fr_uuid_format(u, s);
	assert_string_equal(s, "00112233-4455-6677-8899-aabbccddeeff");
	assert_int_equal(fr_uuid_parse(s, v), 0);
	assert_memory_equal(u, v, FR_UUID_LEN);
	assert_int_equal(fr_uuid_parse("00112233445566778899AABBCCDDEEFF", v), 0);
	assert_memory_equal(u, v, FR_UUID_LEN);
	assert_int_equal(fr_uuid_parse("00112233445566778899aabbccddeef", v),
			 -EINVAL);
	assert_int_equal(fr_uuid_parse("00112233445566778899aabbccddeeff0", v),
			 -EINVAL);
	assert_int_equal(fr_uuid_parse("0011223344556677889gaabbccddeeff", v),
			 -EINVAL);
	assert_int_equal(fr_uuid_parse("", v), -EINVAL);
}

static void test_name_accepts_dm_safe_names_only(void **state)
{
	(void)state;
	assert_true(fr_name_is_valid("fast0"));
	assert_true(fr_name_is_valid("a.b_c-d+e"));
	assert_false(fr_name_is_valid(""));
	assert_false(fr_name_is_valid("-x"));
	assert_false(fr_name_is_valid(".x"));
	assert_false(fr_name_is_valid("a/b"));
	assert_false(fr_name_is_valid("a b"));
	assert_false(fr_name_is_valid("caf\xc3\xa9"));
	assert_false(fr_name_is_valid(
		"0123456789012345678901234567890123456789012345678901234567890123"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sb_round_trips),
		cmocka_unit_test(test_sb_spare_slot_round_trips),
		cmocka_unit_test(test_sb_round_trips_raid6_degraded_64_members),
		cmocka_unit_test(test_sb_layout_matches_documented_offsets),
		cmocka_unit_test(test_sb_crc_is_standard_crc32c),
		cmocka_unit_test(test_sb_rejects_bad_magic),
		cmocka_unit_test(test_sb_rejects_bad_crc_anywhere),
		cmocka_unit_test(test_sb_rejects_unknown_version),
		cmocka_unit_test(test_sb_decodes_format1_blocks),
		cmocka_unit_test(test_sb_crc_agrees_with_isal),
		cmocka_unit_test(test_sb_rejects_each_corrupted_field),
		cmocka_unit_test(test_sb_stripe_cache_round_trips_and_is_bounded),
		cmocka_unit_test(test_sb_old_zeroed_stripe_cache_reads_as_not_given),
		cmocka_unit_test(test_sb_sync_speeds_round_trip),
		cmocka_unit_test(test_sb_reshape_fields_round_trip_and_are_checked),
		cmocka_unit_test(test_sb_rejects_raid6_below_four_members),
		cmocka_unit_test(test_sb_bitmap_fields_round_trip),
		cmocka_unit_test(test_sb_bitmap_rejects_each_bad_field),
		cmocka_unit_test(test_bitmap_geometry_edges),
		cmocka_unit_test(test_sb_encode_refuses_invalid_struct),
		cmocka_unit_test(test_sb_every_error_has_its_own_message),
		cmocka_unit_test(test_sb_fuzz_decoder_never_accepts_garbage),
		cmocka_unit_test(test_sb_fuzz_random_blocks),
		cmocka_unit_test(test_uuid_round_trips_and_rejects_junk),
		cmocka_unit_test(test_name_accepts_dm_safe_names_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
