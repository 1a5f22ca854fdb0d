/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid/geom.h, the mapping shared by the module and userspace. Sweeps
 * members 1..64 x every chunk size x RAID0/RAID6 (SPDK's test_setup
 * matrix), checking that map and unmap are inverses, that each row uses
 * every member exactly once, and that RAID6 parity rotates like md's
 * left-symmetric layout.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <fanraid/geom.h>

static const u32 rc_t_levels[] = { FR_LEVEL_RAID0, FR_LEVEL_RAID6 };

/* Calls @fn for every valid level x members x chunk size. */
static void rc_t_sweep(void (*fn)(u32 level, u32 n, u32 chunk))
{
	unsigned int l;
	u32 n, chunk, level;

	for (l = 0; l < 2; l++) {
		level = rc_t_levels[l];
		for (n = fr_level_min_devs(level); n <= FR_MAX_DEVS; n++)
			for (chunk = FR_MIN_CHUNK_SECTORS;
			     chunk <= FR_MAX_CHUNK_SECTORS; chunk <<= 1)
				fn(level, n, chunk);
	}
}

static void rc_t_roundtrip(const struct fr_geom *g, u64 logical)
{
	struct fr_loc loc;
	struct fr_rloc rl;

	fr_geom_map(g, logical, &loc);
	assert_true(loc.dev < g->ndevs);
	assert_true(loc.sector < g->member_sectors);
	assert_int_equal(loc.row, fr_geom_row_of(g, logical));
	fr_geom_unmap(g, loc.dev, loc.sector, &rl);
	assert_int_equal(rl.kind, FR_BLOCK_DATA);
	assert_int_equal(rl.logical, logical);
	assert_int_equal(rl.row, loc.row);
	assert_int_equal(rl.data_idx, loc.data_idx);
}

static void rc_t_check_roundtrip(u32 level, u32 n, u32 chunk)
{
	struct fr_geom g = { 0 };
	u64 rows = 2 * n + 3, c, last;

	assert_int_equal(fr_geom_init(&g, level, n, chunk, rows * chunk + 5),
			 FR_GEOM_OK);
	assert_int_equal(g.rows, rows);
	/* first, second and last sector of each of the first chunks */
	for (c = 0; c < 3 * (u64)n && c * chunk < g.capacity; c++) {
		rc_t_roundtrip(&g, c * chunk);
		rc_t_roundtrip(&g, c * chunk + 1);
		rc_t_roundtrip(&g, c * chunk + chunk - 1);
	}
	last = g.capacity - 1;
	rc_t_roundtrip(&g, last);
}

static void test_geom_map_and_unmap_are_inverse(void **state)
{
	(void)state;
	rc_t_sweep(rc_t_check_roundtrip);
}

/* Every member holds exactly one block of each row: data, P or Q. */
static void rc_t_check_row_cover(u32 level, u32 n, u32 chunk)
{
	unsigned int seen[FR_MAX_DEVS], ndata, np, nq;
	struct fr_geom g = { 0 };
	struct fr_rloc rl;
	u64 row;
	u32 i, dev;

	assert_int_equal(fr_geom_init(&g, level, n, chunk, (u64)(n + 1) *
				      chunk), FR_GEOM_OK);
	for (row = 0; row < g.rows; row++) {
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < g.data_devs; i++)
			seen[fr_geom_data_dev(&g, row, i)]++;
		if (level == FR_LEVEL_RAID6) {
			seen[fr_geom_p_dev(&g, row)]++;
			seen[fr_geom_q_dev(&g, row)]++;
		}
		ndata = np = nq = 0;
		for (dev = 0; dev < n; dev++) {
			assert_int_equal(seen[dev], 1);
			fr_geom_unmap(&g, dev, row * chunk + chunk / 2, &rl);
			assert_int_equal(rl.row, row);
			ndata += rl.kind == FR_BLOCK_DATA;
			np += rl.kind == FR_BLOCK_P;
			nq += rl.kind == FR_BLOCK_Q;
		}
		assert_int_equal(ndata, g.data_devs);
		assert_int_equal(np, level == FR_LEVEL_RAID6);
		assert_int_equal(nq, level == FR_LEVEL_RAID6);
	}
}

static void test_geom_each_row_uses_every_member_once(void **state)
{
	(void)state;
	rc_t_sweep(rc_t_check_row_cover);
}

/*
 * md's raid5_compute_sector, ALGORITHM_LEFT_SYMMETRIC for RAID6:
 * pd = n-1-(row%n), qd = pd+1 (wrapping), data i on (pd+2+i)%n.
 */
static void test_geom_raid6_rotates_like_md_left_symmetric(void **state)
{
	/* n = 4, rows 0..4: { P, Q, D0, D1 } members, written out by hand */
	static const u32 want[5][4] = {
		{ 3, 0, 1, 2 }, { 2, 3, 0, 1 }, { 1, 2, 3, 0 },
		{ 0, 1, 2, 3 }, { 3, 0, 1, 2 },
	};
	struct fr_geom g = { 0 };
	u32 n, i, pd;
	u64 row;

	(void)state;
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID6, 4, 8, 5 * 8),
			 FR_GEOM_OK);
	for (row = 0; row < 5; row++) {
		assert_int_equal(fr_geom_p_dev(&g, row), want[row][0]);
		assert_int_equal(fr_geom_q_dev(&g, row), want[row][1]);
		assert_int_equal(fr_geom_data_dev(&g, row, 0), want[row][2]);
		assert_int_equal(fr_geom_data_dev(&g, row, 1), want[row][3]);
	}
	for (n = FR_MIN_DEVS_RAID6; n <= FR_MAX_DEVS; n++) {
		assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID6, n, 8,
					      (u64)3 * n * 8), FR_GEOM_OK);
		for (row = 0; row < 3 * (u64)n; row++) {
			pd = n - 1 - (u32)(row % n);
			assert_int_equal(fr_geom_p_dev(&g, row), pd);
			assert_int_equal(fr_geom_q_dev(&g, row), (pd + 1) % n);
			for (i = 0; i < n - 2; i++)
				assert_int_equal(fr_geom_data_dev(&g, row, i),
						 (pd + 2 + i) % n);
		}
	}
}

static void test_geom_maps_last_sector_to_last_member(void **state)
{
	struct fr_geom g = { 0 };
	struct fr_loc loc;

	(void)state;
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 5, 128, 1000 * 128 +
				      77), FR_GEOM_OK);
	assert_int_equal(g.member_sectors, 1000 * 128);
	assert_int_equal(g.capacity, 5 * 1000 * 128);
	fr_geom_map(&g, g.capacity - 1, &loc);
	assert_int_equal(loc.dev, 4);
	assert_int_equal(loc.sector, g.member_sectors - 1);
	fr_geom_map(&g, 0, &loc);
	assert_int_equal(loc.dev, 0);
	assert_int_equal(loc.sector, 0);
	/* RAID0 chunk c: member c % n, row c / n */
	fr_geom_map(&g, 7 * 128 + 3, &loc);
	assert_int_equal(loc.dev, 2);
	assert_int_equal(loc.sector, 128 + 3);
}

/* The kernel derives member size from the target length alone. */
static void rc_t_check_member_for(u32 level, u32 n, u32 chunk)
{
	static const u64 lens[] = { 1, 7, 8, 4095, 1u << 20, (1u << 20) + 1,
				    123456789, 1ull << 40 };
	struct fr_geom g = { 0 };
	u64 ms, stripe;
	unsigned int i;

	stripe = (u64)chunk * (n - fr_level_parity_devs(level));
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		ms = fr_geom_member_sectors_for(level, n, chunk, lens[i]);
		assert_int_equal(ms % chunk, 0);
		assert_int_equal(fr_geom_init(&g, level, n, chunk, ms),
				 FR_GEOM_OK);
		/* whole rows covering len, and no row more */
		assert_true(g.capacity >= lens[i]);
		assert_true(g.capacity - stripe < lens[i]);
		assert_int_equal(g.member_sectors, ms);
	}
	assert_int_equal(fr_geom_member_sectors_for(level, n, chunk, 0), 0);
}

static void test_geom_member_sectors_cover_length_in_whole_rows(void **state)
{
	(void)state;
	rc_t_sweep(rc_t_check_member_for);
	assert_int_equal(fr_geom_member_sectors_for(FR_LEVEL_RAID6, 3, 8, 64),
			 0);
	assert_int_equal(fr_geom_member_sectors_for(FR_LEVEL_RAID0, 2, 12, 64),
			 0);
}

static void test_geom_init_names_each_bad_argument(void **state)
{
	struct fr_geom g = { 0 };

	(void)state;
	assert_int_equal(fr_geom_init(&g, 5, 4, 8, 64), FR_GEOM_EBADLEVEL);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 0, 8, 64),
			 FR_GEOM_ETOOFEWDEVS);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID6, 3, 8, 64),
			 FR_GEOM_ETOOFEWDEVS);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID6, FR_MAX_DEVS + 1, 8,
				      64), FR_GEOM_ETOOMANYDEVS);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 2, 24, 64),
			 FR_GEOM_ECHUNKPOW2);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 2, 0, 64),
			 FR_GEOM_ECHUNKPOW2);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 2, 4, 64),
			 FR_GEOM_ECHUNKSMALL);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 2, 65536, 1 << 20),
			 FR_GEOM_ECHUNKLARGE);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 2, 16, 15),
			 FR_GEOM_EMEMBERSMALL);
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID0, 64, 8,
				      FR_MAX_CAPACITY_SECTORS / 8),
			 FR_GEOM_ECAPACITY);
	assert_int_equal(fr_geom_check_chunk(16), FR_GEOM_OK);
	assert_int_equal(fr_geom_check_devs(FR_LEVEL_RAID6, 4), FR_GEOM_OK);
	assert_string_not_equal(fr_geom_strerror(FR_GEOM_ECHUNKSMALL),
				fr_geom_strerror(FR_GEOM_ECHUNKLARGE));
	assert_string_equal(fr_geom_strerror(FR_GEOM_ECHUNKPOW2),
			    "Invalid chunk size: not a power of two");
}

/* The largest array that fits is accepted and its last sector maps. */
static void test_geom_accepts_capacity_at_the_limit(void **state)
{
	struct fr_geom g = { 0 };
	u64 rows = FR_MAX_CAPACITY_SECTORS / 8 / 62;

	(void)state;
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID6, 64, 8, rows * 8),
			 FR_GEOM_OK);
	assert_true(g.capacity <= FR_MAX_CAPACITY_SECTORS);
	rc_t_roundtrip(&g, g.capacity - 1);
	rc_t_roundtrip(&g, g.capacity / 2 + 3);
}

static void test_geom_chunk_helpers_stop_at_chunk_end(void **state)
{
	struct fr_geom g = { 0 };

	(void)state;
	assert_int_equal(fr_geom_init(&g, FR_LEVEL_RAID6, 6, 64, 64 * 10),
			 FR_GEOM_OK);
	assert_int_equal(fr_geom_chunk_remaining(&g, 0), 64);
	assert_int_equal(fr_geom_chunk_remaining(&g, 63), 1);
	assert_int_equal(fr_geom_chunk_remaining(&g, 64 + 10), 54);
	assert_int_equal(fr_geom_full_stripe_sectors(&g), 4 * 64);
	assert_int_equal(fr_geom_row_of(&g, 4 * 64 - 1), 0);
	assert_int_equal(fr_geom_row_of(&g, 4 * 64), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geom_map_and_unmap_are_inverse),
		cmocka_unit_test(test_geom_each_row_uses_every_member_once),
		cmocka_unit_test(test_geom_raid6_rotates_like_md_left_symmetric),
		cmocka_unit_test(test_geom_maps_last_sector_to_last_member),
		cmocka_unit_test(test_geom_member_sectors_cover_length_in_whole_rows),
		cmocka_unit_test(test_geom_init_names_each_bad_argument),
		cmocka_unit_test(test_geom_accepts_capacity_at_the_limit),
		cmocka_unit_test(test_geom_chunk_helpers_stop_at_chunk_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
