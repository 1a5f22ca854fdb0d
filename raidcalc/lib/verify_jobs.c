/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rc_array_verify() spread over threads. A verify of real members is as
 * much parity arithmetic as it is reading, so one thread per core keeps
 * both the disks and the CPUs busy. Rows go out in batches from one
 * atomic counter, so the threads stay close together on the members
 * (near-sequential reads) and finish together whatever the batch costs.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "slice.h"

/* Bytes per member in one batch: large enough to read efficiently. */
#define RC_BATCH_BYTES		(4ull << 20)
#define RC_PROGRESS_NSEC	250000000L

struct rc_run {
	u64 first, end, batch;
	atomic_ullong next;		/* first row of the next batch */
	atomic_ullong done;		/* rows finished */
	atomic_bool stop;		/* a thread failed: the others quit */
	atomic_uint running;
};

struct rc_job {
	struct rc_run *run;
	struct rc_array a;		/* own copy: a->error is per thread */
	u64 bad;
	unsigned int nkept;
	struct rc_mismatch kept[RC_VERIFY_KEEP];
	int err;
	pthread_t tid;
};

/* A thread sees its rows in order, so its first mismatches are its lowest. */
static int rc_job_keep(const struct rc_mismatch *m, void *ctx)
{
	struct rc_job *j = ctx;

	if (j->nkept < RC_VERIFY_KEEP)
		j->kept[j->nkept++] = *m;
	return 0;
}

static void *rc_job_main(void *arg)
{
	struct rc_job *j = arg;
	struct rc_run *run = j->run;
	struct rc_slice s;
	u64 row, n;

	j->err = rc_slice_init(&s, &j->a);
	while (!j->err && !atomic_load(&run->stop)) {
		row = atomic_fetch_add(&run->next, run->batch);
		if (row >= run->end)
			break;
		n = run->end - row < run->batch ? run->end - row : run->batch;
		j->err = rc_verify_rows(&s, row, n, rc_job_keep, j, &j->bad);
		atomic_fetch_add(&run->done, n);
	}
	if (j->err)
		atomic_store(&run->stop, true);
	rc_slice_free(&s);
	atomic_fetch_sub(&run->running, 1);
	return NULL;
}

static int rc_mismatch_cmp(const void *x, const void *y)
{
	const struct rc_mismatch *a = x, *b = y;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

/* The lowest RC_VERIFY_KEEP of every thread's lowest RC_VERIFY_KEEP. */
static void rc_report_merge(struct rc_verify_report *r, struct rc_job *jobs,
			    unsigned int njobs)
{
	struct rc_mismatch *all;
	unsigned int i, n = 0, k;

	all = calloc((size_t)njobs * RC_VERIFY_KEEP, sizeof(*all));
	for (i = 0; i < njobs; i++) {
		r->bad += jobs[i].bad;
		for (k = 0; all && k < jobs[i].nkept; k++)
			all[n++] = jobs[i].kept[k];
	}
	if (!all) {
		/* out of memory: the first thread's list is still true */
		memcpy(r->kept, jobs[0].kept, sizeof(r->kept));
		r->nkept = jobs[0].nkept;
		return;
	}
	qsort(all, n, sizeof(*all), rc_mismatch_cmp);
	r->nkept = n < RC_VERIFY_KEEP ? n : RC_VERIFY_KEEP;
	memcpy(r->kept, all, r->nkept * sizeof(*all));
	free(all);
}

static void rc_wait_progress(struct rc_run *run, u64 total,
			     rc_progress_fn progress, void *ctx)
{
	const struct timespec tick = { 0, RC_PROGRESS_NSEC };

	if (!progress)
		return;
	while (atomic_load(&run->running)) {
		progress(atomic_load(&run->done), total, ctx);
		nanosleep(&tick, NULL);
	}
	progress(atomic_load(&run->done), total, ctx);
}

int rc_array_verify_jobs(struct rc_array *a, u64 first, u64 count,
			 unsigned int jobs, rc_progress_fn progress,
			 void *ctx, struct rc_verify_report *r)
{
	u64 chunk_bytes = (u64)a->geom.chunk_sectors << FR_SECTOR_SHIFT;
	struct rc_run run = { .first = first, .end = first + count };
	struct rc_job *job;
	unsigned int i, started = 0;
	int err;

	memset(r, 0, sizeof(*r));
	a->error = NULL;
	a->error_dev = -1;
	err = rc_verify_args(a, first, count);
	if (err)
		return err;
	if (jobs < 1 || jobs > RC_MAX_JOBS) {
		a->error = "Invalid number of jobs";
		return -EINVAL;
	}
	run.batch = RC_BATCH_BYTES / chunk_bytes ? RC_BATCH_BYTES / chunk_bytes
						 : 1;
	if (count < run.batch * jobs)
		run.batch = count / jobs ? count / jobs : 1;
	if (jobs > count)
		jobs = count ? (unsigned int)count : 1;
	atomic_init(&run.next, first);
	atomic_init(&run.done, 0);
	atomic_init(&run.stop, false);
	atomic_init(&run.running, jobs);
	job = calloc(jobs, sizeof(*job));
	if (!job)
		return -ENOMEM;
	for (i = 0; i < jobs; i++) {
		job[i].run = &run;
		job[i].a = *a;
		err = -pthread_create(&job[i].tid, NULL, rc_job_main, &job[i]);
		if (err) {
			a->error = "Cannot start verify threads";
			/* the ones started still count down "running" */
			atomic_fetch_sub(&run.running, jobs - i);
			atomic_store(&run.stop, true);
			break;
		}
		started++;
	}
	rc_wait_progress(&run, count, progress, ctx);
	for (i = 0; i < started; i++) {
		pthread_join(job[i].tid, NULL);
		if (job[i].err && !err) {
			err = job[i].err;
			a->error = job[i].a.error;
			a->error_dev = job[i].a.error_dev;
		}
	}
	if (started) {
		rc_report_merge(r, job, started);
		r->rows = atomic_load(&run.done);
		r->jobs = started;
	}
	if (err && !a->error)
		a->error = "Verify failed";
	free(job);
	return err;
}
