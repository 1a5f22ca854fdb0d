/* SPDX-License-Identifier: GPL-2.0-only */
/* Sync progress: percent, speed, time left (progress.h). */
#include <stdio.h>
#include <time.h>

#include "progress.h"
#include "util.h"

double fr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The rate is smoothed (half old, half new) so one slow second under
 * foreground I/O does not swing the time left; a restart (cur going
 * back, a new total) starts over.
 */
void fr_progress_sample(struct fr_progress *p, uint64_t cur, uint64_t total,
			double t)
{
	if (p->t > 0 && total == p->total && cur >= p->cur && t > p->t) {
		double r = (cur - p->cur) / (t - p->t);

		p->rate = p->rate > 0 ? (p->rate + r) / 2 : r;
	} else {
		p->rate = 0;
	}
	p->cur = cur;
	p->total = total;
	p->t = t;
}

void fr_progress_format(const struct fr_progress *p, const char *action,
			char *buf, size_t len)
{
	double pct = p->total ? 100.0 * p->cur / p->total : 100.0;
	char speed[32];
	int n;

	n = snprintf(buf, len, "%s %.1f%% (%llu/%llu sectors)", action, pct,
		     (unsigned long long)p->cur, (unsigned long long)p->total);
	if (p->rate <= 0 || n < 0 || (size_t)n >= len)
		return;
	fr_format_size((uint64_t)(p->rate * 512), speed, sizeof(speed));
	{
		uint64_t left = (uint64_t)((p->total - p->cur) / p->rate);

		snprintf(buf + n, len - n, ", %s/s, %llu:%02llu:%02llu left",
			 speed, (unsigned long long)(left / 3600),
			 (unsigned long long)(left / 60 % 60),
			 (unsigned long long)(left % 60));
	}
}
