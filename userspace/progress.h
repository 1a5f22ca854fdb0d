/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sync progress as md shows it in /proc/mdstat: percent done, speed and
 * time left, from two samples of the status line's sync_ratio.
 */
#ifndef FR_PROGRESS_H
#define FR_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct fr_progress {
	uint64_t cur, total;		/* sectors, from sync_ratio */
	double t;			/* seconds, CLOCK_MONOTONIC */
	double rate;			/* sectors per second; 0: not known yet */
};

double fr_now(void);
void fr_progress_sample(struct fr_progress *p, uint64_t cur, uint64_t total,
			double t);
void fr_progress_format(const struct fr_progress *p, const char *action,
			char *buf, size_t len);

#endif /* FR_PROGRESS_H */
