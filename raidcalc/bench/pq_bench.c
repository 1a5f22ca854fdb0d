/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parity micro-benchmark: P/Q generation, P/Q check and two-block RAID6
 * recovery through ISA-L (what raidcalc uses) against the plain-C twins
 * (what the tests trust), across member counts.
 *
 * Output is machine-readable first: one JSON object per line on stdout,
 * the first describing the run, then one per case. A one-line human
 * summary of each case goes to stderr, saying what was measured (members
 * x block size, warm or cold) the way ISA-L's pq_gen_perf does.
 *
 * Throughput counts the data blocks only (k = members - 2 blocks of @len
 * bytes per call), in GB/s of 10^9 bytes, so numbers for different member
 * counts compare as "how fast is user data protected".
 *
 * Warm: one set of blocks, reused, so it stays in cache. Cold: a pool of
 * sets larger than any last-level cache, used round robin.
 *
 * -T prints the table issue 2 asks for: P+Q generation (ISA-L and the
 * reference) and two-block recovery next to memcpy of the same data
 * bytes, measured in the same run, for 4, 8, 16 and 32 members and
 * 64 KiB and 512 KiB chunks, with ISA-L P+Q as a share of memcpy. The
 * table goes to stderr with the other human lines; JSON stays on stdout.
 * Each cell is the best of RC_BENCH_ROUNDS interleaved rounds, so a
 * neighbour's burst on a shared machine hurts every column alike.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "raidcalc.h"

#define RC_BENCH_COLD_BYTES	(512ull << 20)

#define RC_BENCH_ROUNDS		3

struct rc_bench {
	unsigned int ndevs;
	size_t len;
	bool cold;
	bool quiet;		/* -T: the table replaces per-case lines */
	double seconds;		/* minimum run time per case */
	unsigned int nsets;	/* block sets in the pool */
	u8 *pool;
	void **ptrs;		/* nsets x ndevs */
	u8 *dst;		/* memcpy target: the data blocks of one set */
};

struct rc_bench_op {
	const char *op;
	const char *impl;
	int (*fn)(struct rc_bench *b, void **ptrs);
};

static int rc_op_gen_isal(struct rc_bench *b, void **p)
{
	return rc_pq_gen(b->ndevs, b->len, p);
}

static int rc_op_gen_ref(struct rc_bench *b, void **p)
{
	return rc_pq_gen_ref(b->ndevs, b->len, p);
}

static int rc_op_check_isal(struct rc_bench *b, void **p)
{
	return rc_pq_check(b->ndevs, b->len, p);
}

static int rc_op_check_ref(struct rc_bench *b, void **p)
{
	return rc_pq_check_ref(b->ndevs, b->len, p);
}

/* The hardest case: two data blocks lost, both rebuilt from P and Q. */
static const unsigned int rc_lost[2] = { 0, 1 };

static int rc_op_recov_isal(struct rc_bench *b, void **p)
{
	return rc_recover(b->ndevs, b->len, p, 2, rc_lost);
}

static int rc_op_recov_ref(struct rc_bench *b, void **p)
{
	return rc_recover_ref(b->ndevs, b->len, p, 2, rc_lost);
}

/* The yardstick: copying the row's data blocks costs this much. */
static int rc_op_memcpy(struct rc_bench *b, void **p)
{
	unsigned int i;

	for (i = 0; i < b->ndevs - 2; i++)
		memcpy(b->dst + i * b->len, p[i], b->len);
	return 0;
}

static const struct rc_bench_op rc_op_copy = { "memcpy", "libc",
					       rc_op_memcpy };

static const struct rc_bench_op rc_ops[] = {
	{ "pq_gen", "isal", rc_op_gen_isal },
	{ "pq_gen", "ref", rc_op_gen_ref },
	{ "pq_check", "isal", rc_op_check_isal },
	{ "pq_check", "ref", rc_op_check_ref },
	{ "recover_2data", "isal", rc_op_recov_isal },
	{ "recover_2data", "ref", rc_op_recov_ref },
};

static double rc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int rc_bench_setup(struct rc_bench *b)
{
	size_t set = (size_t)b->ndevs * b->len, i;
	unsigned int s, d;

	b->nsets = 1;
	if (b->cold)
		b->nsets = (unsigned int)(RC_BENCH_COLD_BYTES / set) + 1;
	b->pool = rc_array_buf_alloc(set * b->nsets);
	b->ptrs = calloc((size_t)b->nsets * b->ndevs, sizeof(*b->ptrs));
	b->dst = rc_array_buf_alloc(set);
	if (!b->pool || !b->ptrs || !b->dst)
		return -ENOMEM;
	memset(b->dst, 1, set);
	/* any bytes will do, but not zero pages the kernel could share */
	for (i = 0; i < set * b->nsets; i++)
		b->pool[i] = (u8)(i * 131 + 7);
	for (s = 0; s < b->nsets; s++)
		for (d = 0; d < b->ndevs; d++)
			b->ptrs[s * b->ndevs + d] = b->pool + s * set +
						    d * b->len;
	/* consistent parity, so check and recover see real rows */
	for (s = 0; s < b->nsets; s++)
		rc_pq_gen(b->ndevs, b->len, &b->ptrs[s * b->ndevs]);
	return 0;
}

static void rc_bench_teardown(struct rc_bench *b)
{
	free(b->pool);
	free(b->ptrs);
	free(b->dst);
	b->pool = NULL;
	b->ptrs = NULL;
	b->dst = NULL;
}

static int rc_bench_case(struct rc_bench *b, const struct rc_bench_op *op,
			 double *out)
{
	double t0, t, gbps;
	unsigned long long iters = 0;
	unsigned int k = b->ndevs - 2;
	int err;

	/* one untimed call: first-touch faults are not parity work */
	err = op->fn(b, b->ptrs);
	if (err && err != -EBADMSG)
		return err;
	t0 = rc_now();
	do {
		err = op->fn(b, &b->ptrs[(iters % b->nsets) * b->ndevs]);
		if (err && err != -EBADMSG)
			return err;
		iters++;
		t = rc_now() - t0;
	} while (t < b->seconds);
	gbps = (double)iters * k * b->len / t / 1e9;
	printf("{\"op\":\"%s\",\"impl\":\"%s\",\"devs\":%u,\"data_devs\":%u,"
	       "\"len\":%zu,\"cache\":\"%s\",\"iters\":%llu,\"seconds\":%.4f,"
	       "\"data_gbps\":%.3f}\n", op->op, op->impl, b->ndevs, k, b->len,
	       b->cold ? "cold" : "warm", iters, t, gbps);
	if (!b->quiet)
		fprintf(stderr, "%-14s %-4s %2u members (%2u data) x %zu KiB %s: %8.3f GB/s\n",
			op->op, op->impl, b->ndevs, k, b->len >> 10,
			b->cold ? "cold" : "warm", gbps);
	fflush(stdout);
	if (out && gbps > *out)
		*out = gbps;
	return 0;
}

static void rc_bench_header(const struct rc_bench *b, const char *devs)
{
	char model[256] = "unknown", line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !strchr(line, ':'))
			continue;
		snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
		model[strcspn(model, "\n\"\\")] = '\0';
		break;
	}
	if (f)
		fclose(f);
	printf("{\"bench\":\"rc_pq_bench\",\"cpu\":\"%s\",\"len\":%zu,"
	       "\"devs\":\"%s\",\"cache\":\"%s\",\"min_seconds\":%.3f,"
	       "\"unit\":\"data_gbps = 1e9 bytes of data blocks per second\"}\n",
	       model, b->len, devs, b->cold ? "cold" : "warm", b->seconds);
}

/* Columns of the -T table, in order; memcpy first, as the yardstick. */
static const struct rc_bench_op *const rc_table_ops[] = {
	&rc_op_copy, &rc_ops[0], &rc_ops[1], &rc_ops[4], &rc_ops[5],
};

#define RC_TABLE_NOPS	(sizeof(rc_table_ops) / sizeof(rc_table_ops[0]))

/* A GB/s cell; "-" for a column -q skipped. */
static void rc_bench_cell(double gbps, int width)
{
	if (gbps > 0)
		fprintf(stderr, "%*.2f", width, gbps);
	else
		fprintf(stderr, "%*s", width, "-");
}

/* One line of the table: the best of RC_BENCH_ROUNDS interleaved rounds. */
static int rc_bench_row(struct rc_bench *b, bool quick)
{
	double best[RC_TABLE_NOPS] = { 0 };
	unsigned int r, i;
	int err;

	err = rc_bench_setup(b);
	for (r = 0; !err && r < RC_BENCH_ROUNDS; r++)
		for (i = 0; !err && i < RC_TABLE_NOPS; i++)
			if (!quick || strcmp(rc_table_ops[i]->impl, "ref"))
				err = rc_bench_case(b, rc_table_ops[i],
						    &best[i]);
	rc_bench_teardown(b);
	if (err)
		return err;
	fprintf(stderr, "%5u %6zuK", b->ndevs, b->len >> 10);
	for (i = 0; i < RC_TABLE_NOPS; i++)
		rc_bench_cell(best[i], i < 3 ? 9 : 10);
	fprintf(stderr, " %8.0f%%\n", best[0] > 0 ? 100 * best[1] / best[0] : 0);
	printf("{\"table\":\"pq_vs_memcpy\",\"devs\":%u,\"len\":%zu,"
	       "\"memcpy_gbps\":%.3f,\"pq_gen_isal_gbps\":%.3f,"
	       "\"pq_gen_ref_gbps\":%.3f,\"recover_2data_isal_gbps\":%.3f,"
	       "\"recover_2data_ref_gbps\":%.3f,\"pq_isal_over_memcpy\":%.3f}\n",
	       b->ndevs, b->len, best[0], best[1], best[2], best[3], best[4],
	       best[0] > 0 ? best[1] / best[0] : 0);
	fflush(stdout);
	return 0;
}

/* Issue 2's grid: 4, 8, 16, 32 members x 64 KiB and 512 KiB chunks. */
static int rc_bench_table(struct rc_bench *b, bool quick)
{
	static const unsigned int devs[] = { 4, 8, 16, 32 };
	static const size_t lens[] = { 64 << 10, 512 << 10 };
	unsigned int d, l;
	int err = 0;

	b->quiet = true;
	fprintf(stderr, "GB/s of data blocks (devices - 2 per row), %s cache, best of %u rounds x %.2f s%s\n",
		b->cold ? "cold" : "warm", RC_BENCH_ROUNDS, b->seconds,
		quick ? ", reference twins skipped (-q)" : "");
	fprintf(stderr, "%5s %7s%9s%9s%9s%10s%10s %9s\n", "devs", "chunk",
		"memcpy", "pq_isal", "pq_ref", "rec2_isal", "rec2_ref",
		"isal/cpy");
	for (l = 0; !err && l < sizeof(lens) / sizeof(lens[0]); l++) {
		for (d = 0; !err && d < sizeof(devs) / sizeof(devs[0]); d++) {
			b->ndevs = devs[d];
			b->len = lens[l];
			err = rc_bench_row(b, quick);
		}
	}
	return err;
}

static void rc_bench_usage(void)
{
	fprintf(stderr, "usage: rc_pq_bench [-l block_bytes] [-d devs,devs,...] [-t seconds] [-c] [-q] [-T]\n"
			"  -l  bytes per member block (default 65536)\n"
			"  -d  member counts (default 4,6,8,12,16,32,64)\n"
			"  -t  minimum seconds per case (default 0.25)\n"
			"  -c  cold cache: rotate through %llu MiB of blocks\n"
			"  -q  ISA-L only, skip the slow reference twins\n"
			"  -T  table against memcpy: 4,8,16,32 members x 64K,512K (-l, -d ignored)\n",
		RC_BENCH_COLD_BYTES >> 20);
}

int main(int argc, char **argv)
{
	struct rc_bench b = { .len = 65536, .seconds = 0.25 };
	char devs[256] = "4,6,8,12,16,32,64", list[256], *tok, *save, *end;
	bool quick = false, table = false;
	unsigned int i;
	unsigned long n;
	int c, err = 0;

	while ((c = getopt(argc, argv, "l:d:t:cqTh")) != -1) {
		switch (c) {
		case 'l':
			b.len = strtoul(optarg, &end, 10);
			if (*end || !b.len || b.len > (256u << 20))
				goto usage;
			break;
		case 'd':
			snprintf(devs, sizeof(devs), "%s", optarg);
			break;
		case 't':
			b.seconds = strtod(optarg, &end);
			if (*end || b.seconds <= 0)
				goto usage;
			break;
		case 'c':
			b.cold = true;
			break;
		case 'q':
			quick = true;
			break;
		case 'T':
			table = true;
			break;
		default:
			goto usage;
		}
	}
	if (table) {
		rc_bench_header(&b, "4,8,16,32");
		err = rc_bench_table(&b, quick);
		if (err)
			fprintf(stderr, "rc_pq_bench: %s\n", strerror(-err));
		return err ? 1 : 0;
	}
	rc_bench_header(&b, devs);
	snprintf(list, sizeof(list), "%s", devs);
	for (tok = strtok_r(list, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		n = strtoul(tok, &end, 10);
		if (*end || n < RC_PQ_MIN_DEVS || n > RC_PQ_MAX_DEVS)
			goto usage;
		b.ndevs = (unsigned int)n;
		err = rc_bench_setup(&b);
		for (i = 0; !err && i < sizeof(rc_ops) / sizeof(rc_ops[0]); i++)
			if (!quick || strcmp(rc_ops[i].impl, "ref"))
				err = rc_bench_case(&b, &rc_ops[i], NULL);
		rc_bench_teardown(&b);
	}
	if (err)
		fprintf(stderr, "rc_pq_bench: %s\n", strerror(-err));
	return err ? 1 : 0;
usage:
	rc_bench_usage();
	return 2;
}
