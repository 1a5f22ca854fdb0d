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
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "raidcalc.h"

#define RC_BENCH_COLD_BYTES	(512ull << 20)

struct rc_bench {
	unsigned int ndevs;
	size_t len;
	bool cold;
	double seconds;		/* minimum run time per case */
	unsigned int nsets;	/* block sets in the pool */
	u8 *pool;
	void **ptrs;		/* nsets x ndevs */
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
	if (!b->pool || !b->ptrs)
		return -ENOMEM;
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
	b->pool = NULL;
	b->ptrs = NULL;
}

static int rc_bench_case(struct rc_bench *b, const struct rc_bench_op *op)
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
	fprintf(stderr, "%-14s %-4s %2u members (%2u data) x %zu KiB %s: %8.3f GB/s\n",
		op->op, op->impl, b->ndevs, k, b->len >> 10,
		b->cold ? "cold" : "warm", gbps);
	fflush(stdout);
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

static void rc_bench_usage(void)
{
	fprintf(stderr, "usage: rc_pq_bench [-l block_bytes] [-d devs,devs,...] [-t seconds] [-c] [-q]\n"
			"  -l  bytes per member block (default 65536)\n"
			"  -d  member counts (default 4,6,8,12,16,32,64)\n"
			"  -t  minimum seconds per case (default 0.25)\n"
			"  -c  cold cache: rotate through %llu MiB of blocks\n"
			"  -q  ISA-L only, skip the slow reference twins\n",
		RC_BENCH_COLD_BYTES >> 20);
}

int main(int argc, char **argv)
{
	struct rc_bench b = { .len = 65536, .seconds = 0.25 };
	char devs[256] = "4,6,8,12,16,32,64", list[256], *tok, *save, *end;
	bool quick = false;
	unsigned int i;
	unsigned long n;
	int c, err = 0;

	while ((c = getopt(argc, argv, "l:d:t:cqh")) != -1) {
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
		default:
			goto usage;
		}
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
				err = rc_bench_case(&b, &rc_ops[i]);
		rc_bench_teardown(&b);
	}
	if (err)
		fprintf(stderr, "rc_pq_bench: %s\n", strerror(-err));
	return err ? 1 : 0;
usage:
	rc_bench_usage();
	return 2;
}
