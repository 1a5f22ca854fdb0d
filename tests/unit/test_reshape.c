/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/reshape.c: where a grow's critical section keeps its backup
 * (swept over member counts and chunk sizes), when the members are too
 * small for it, and the section itself on real files: the first rows end
 * up in the new layout, the rest of the old layout stays whole, and a
 * restore from the backup rewrites rows a crash left half written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli.h"
#include "fr_testsb.h"
#include "reshape.h"

/* Rows of the new layout the critical section rewrites, rounded up. */
static uint64_t crit_rows(const struct fr_reshape_geo *rg)
{
	uint64_t fs = fr_geom_full_stripe_sectors(&rg->new);

	return (rg->crit + fs - 1) / fs;
}

/* Backup chunks per new member: ceil(critical chunks / members added). */
static uint64_t backup_per_member(const struct fr_reshape_geo *rg)
{
	uint64_t chunks = rg->crit / rg->new.chunk_sectors;

	return (chunks + rg->added - 1) / rg->added;
}

/*
 * Every chunk's backup is on a new member, at the tail the brief's formula
 * names (member_sectors - ceil(chunks / added) x chunk + j / added x
 * chunk), past the rows the section rewrites, and no two share a place.
 */
static void test_reshape_backup_fits_the_new_members_tails(void **state)
{
	static const uint32_t chunks[] = { 8, 128 };
	uint32_t old, added, c, extra;
	unsigned int checked = 0;

	(void)state;
	for (old = 1; old <= 12; old++)
	for (added = 1; added <= 8 && old + added <= FR_MAX_DEVS; added++)
	for (c = 0; c < 2; c++)
	for (extra = 0; extra < 4; extra++) {
		uint32_t chunk = chunks[c], dev;
		struct fr_reshape_geo rg;
		uint64_t rows, j, per, sector, nchunks;
		uint8_t *seen;

		/* the smallest member that fits, and a few rows more */
		rows = (old + added - 1) / added + old + extra + 1;
		if (fr_reshape_geo_init(FR_LEVEL_RAID0, old, old + added,
					chunk, rows * chunk, &rg))
			continue;
		per = backup_per_member(&rg);
		nchunks = rg.crit / chunk;
		assert_int_equal(rg.added, added);
		assert_int_equal(rg.crit % chunk, 0);
		assert_int_equal(rg.backup_start, rows * chunk - per * chunk);
		assert_true(rg.new.rows >= crit_rows(&rg) + per);
		seen = calloc(added * per, 1);
		assert_non_null(seen);
		for (j = 0; j < nchunks; j++) {
			uint64_t idx;

			fr_reshape_backup_loc(&rg, j, &dev, &sector);
			assert_true(dev >= old && dev < old + added);
			assert_int_equal(sector, rows * chunk - per * chunk +
					 j / added * chunk);
			assert_true(sector >= crit_rows(&rg) * chunk);
			assert_true(sector + chunk <= rows * chunk);
			idx = (dev - old) * per + (sector - rg.backup_start) /
			      chunk;
			assert_int_equal(seen[idx], 0);
			seen[idx] = 1;
		}
		free(seen);
		checked++;
	}
	assert_true(checked > 300);
}

/*
 * 4 -> 6 members: two new rows of 6 chunks are critical, 6 backup chunks
 * on each of 2 new members, so 8 rows are the least that fit.
 */
static void test_reshape_refuses_members_too_small_for_the_backup(void **state)
{
	struct fr_reshape_geo rg;

	(void)state;
	assert_int_equal(fr_reshape_geo_init(FR_LEVEL_RAID0, 4, 6, 8, 7 * 8,
					     &rg), -ENOSPC);
	assert_int_equal(fr_reshape_geo_init(FR_LEVEL_RAID0, 4, 6, 8, 8 * 8,
					     &rg), 0);
	assert_int_equal(rg.crit, 2 * 6 * 8);
	assert_int_equal(rg.backup_start, 2 * 8);
}

static void test_reshape_refuses_no_more_members(void **state)
{
	struct fr_reshape_geo rg;

	(void)state;
	assert_int_equal(fr_reshape_geo_init(FR_LEVEL_RAID0, 4, 4, 8, 1024,
					     &rg), -EINVAL);
	assert_int_equal(fr_reshape_geo_init(FR_LEVEL_RAID0, 5, 4, 8, 1024,
					     &rg), -EINVAL);
	assert_int_equal(fr_reshape_geo_init(FR_LEVEL_RAID0, 0, 4, 8, 1024,
					     &rg), -EINVAL);
}

/* 2 -> 3 members, one-page chunks, 16 rows: small files on the real fs. */
#define T_OLD		2
#define T_NEW		3
#define T_CHUNK		8
#define T_ROWS		16

struct t_array {
	struct fr_member m[T_NEW];
	char paths[T_NEW][64];
	struct fr_reshape_members rm;
	struct fr_reshape_geo rg;
};

/* Each array sector holds its own number, so any misplaced one shows. */
static void t_fill(uint8_t *buf, uint64_t l)
{
	uint32_t i;

	for (i = 0; i < 512; i += 8)
		memcpy(buf + i, &l, 8);
}

static void t_sector_io(struct t_array *a, uint32_t dev, uint64_t sector,
			uint8_t *buf, bool write)
{
	off_t pos = (off_t)((a->m[dev].sb.data_offset + sector) << 9);
	ssize_t n = write ? pwrite(a->m[dev].fd, buf, 512, pos) :
			    pread(a->m[dev].fd, buf, 512, pos);

	assert_int_equal(n, 512);
}

/* Array sectors [from, to) read through @g hold their own numbers. */
static void t_check(struct t_array *a, const struct fr_geom *g, uint64_t from,
		    uint64_t to)
{
	uint8_t got[512], want[512];
	uint64_t l;

	for (l = from; l < to; l++) {
		struct fr_loc loc;

		fr_geom_map(g, l, &loc);
		t_sector_io(a, loc.dev, loc.sector, got, false);
		t_fill(want, l);
		assert_memory_equal(got, want, 512);
	}
}

/* Every member's superblock as written, all at @events. */
static void t_check_sbs(struct t_array *a, uint32_t state, uint64_t pos,
			uint64_t events)
{
	uint32_t i;

	for (i = 0; i < T_NEW; i++) {
		uint8_t buf[FR_SB_SIZE];
		struct fr_sb sb = { 0 };

		assert_int_equal(pread(a->m[i].fd, buf, sizeof(buf),
				       FR_SB_OFFSET), sizeof(buf));
		assert_int_equal(fr_sb_decode(buf, &sb), FR_SB_OK);
		assert_int_equal(sb.state & (FR_SB_STATE_RESHAPE |
					     FR_SB_STATE_RESHAPE_BACKUP), state);
		assert_int_equal(sb.reshape_position, pos);
		assert_int_equal(sb.reshape_old_ndevs, T_OLD);
		assert_int_equal(sb.ndevs, T_NEW);
		assert_int_equal(sb.slot, i);
		assert_int_equal(sb.events, events);
	}
}

/*
 * Two old members holding a whole old array, one new member full of
 * garbage, and the superblocks in memory as grow --add prepares them
 * before its first write (the new shape, RESHAPE not yet set).
 */
static int setup(void **state)
{
	struct t_array *a = calloc(1, sizeof(*a));
	uint64_t bytes = (2048 + T_ROWS * T_CHUNK) * 512, l;
	uint8_t buf[512];
	uint32_t i;

	assert_non_null(a);
	for (i = 0; i < T_NEW; i++) {
		struct fr_member *m = &a->m[i];
		int fd;

		snprintf(a->paths[i], sizeof(a->paths[i]),
			 "/var/tmp/test_reshape.XXXXXX");
		fd = mkstemp(a->paths[i]);
		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, (off_t)bytes), 0);
		memset(m, 0, sizeof(*m));
		m->path = a->paths[i];
		m->fd = fd;
		fr_t_sb(&m->sb, "grow", FR_LEVEL_RAID0, T_OLD,
			i < T_OLD ? i : 0, T_CHUNK, T_ROWS * T_CHUNK);
		a->rm.slots[i] = m;
	}
	assert_int_equal(fr_reshape_geo_init(FR_LEVEL_RAID0, T_OLD, T_NEW,
					     T_CHUNK, T_ROWS * T_CHUNK,
					     &a->rg), 0);
	for (l = 0; l < a->rg.old.capacity; l++) {
		struct fr_loc loc;

		fr_geom_map(&a->rg.old, l, &loc);
		t_fill(buf, l);
		t_sector_io(a, loc.dev, loc.sector, buf, true);
	}
	memset(buf, 0xee, sizeof(buf));
	for (l = 0; l < T_ROWS * T_CHUNK; l++)
		t_sector_io(a, T_OLD, l, buf, true);
	for (i = 0; i < T_NEW; i++) {
		struct fr_sb *sb = &a->m[i].sb;

		sb->slot = i;
		memset(sb->member_uuid, 0x10 + i, FR_UUID_LEN);
		sb->ndevs = T_NEW;
		sb->array_sectors = a->rg.new.capacity;
		sb->reshape_old_ndevs = T_OLD;
	}
	a->rm.n = T_NEW;
	assert_int_equal(fr_reshape_open_data(&a->rm), 0);
	*state = a;
	return 0;
}

static int teardown(void **state)
{
	struct t_array *a = *state;
	uint32_t i;

	fr_reshape_close_data(&a->rm);
	for (i = 0; i < T_NEW; i++) {
		close(a->m[i].fd);
		unlink(a->paths[i]);
	}
	free(a);
	return 0;
}

/*
 * grow --add's steps 2 and 3: RESHAPE at position 0, then the section;
 * after it the first rows read in the new layout, the old layout's
 * untouched rows still read as before, and every superblock records the
 * section done, three updates on.
 */
static void test_reshape_critical_moves_first_rows_to_new_layout(void **state)
{
	struct t_array *a = *state;

	assert_int_equal(a->rg.crit, 2 * T_NEW * T_CHUNK);
	assert_int_equal(fr_reshape_sb_write(&a->rm, FR_SB_STATE_RESHAPE, 0,
					     0), 0);
	t_check_sbs(a, FR_SB_STATE_RESHAPE, 0, 2);
	assert_int_equal(fr_reshape_critical(&a->rm, &a->rg, false), 0);
	t_check(a, &a->rg.new, 0, a->rg.crit);
	t_check(a, &a->rg.old, a->rg.crit, a->rg.old.capacity);
	t_check_sbs(a, FR_SB_STATE_RESHAPE, a->rg.crit, 4);
}

/*
 * A crash after BACKUP was recorded, mid-way through the new rows: the
 * restore writes them from the backup alone, whatever the rows hold.
 */
static void test_reshape_critical_restores_rows_from_backup(void **state)
{
	struct t_array *a = *state;
	uint8_t junk[512];
	uint64_t s;
	uint32_t i;

	assert_int_equal(fr_reshape_sb_write(&a->rm, FR_SB_STATE_RESHAPE, 0,
					     0), 0);
	assert_int_equal(fr_reshape_critical(&a->rm, &a->rg, false), 0);
	memset(junk, 0x5a, sizeof(junk));
	for (i = 0; i < T_NEW; i++)
		for (s = 0; s < crit_rows(&a->rg) * T_CHUNK; s++)
			t_sector_io(a, i, s, junk, true);
	assert_int_equal(fr_reshape_sb_write(&a->rm, FR_SB_STATE_RESHAPE |
					     FR_SB_STATE_RESHAPE_BACKUP, 0, 0),
			 0);
	t_check_sbs(a, FR_SB_STATE_RESHAPE | FR_SB_STATE_RESHAPE_BACKUP, 0, 5);
	assert_int_equal(fr_reshape_critical(&a->rm, &a->rg, true), 0);
	t_check(a, &a->rg.new, 0, a->rg.crit);
	t_check(a, &a->rg.old, a->rg.crit, a->rg.old.capacity);
	t_check_sbs(a, FR_SB_STATE_RESHAPE, a->rg.crit, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reshape_backup_fits_the_new_members_tails),
		cmocka_unit_test(test_reshape_refuses_members_too_small_for_the_backup),
		cmocka_unit_test(test_reshape_refuses_no_more_members),
		cmocka_unit_test_setup_teardown(test_reshape_critical_moves_first_rows_to_new_layout,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_reshape_critical_restores_rows_from_backup,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
