/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsing the INFO status line into a struct. Pure and strict: any word
 * that is not exactly what the grammar says makes the whole line invalid,
 * so a changed kernel format is noticed instead of misreported.
 */
#include <errno.h>
#include <string.h>

#include "status.h"
#include "table.h"
#include "util.h"

const char *fr_health_name(char c)
{
	switch (c) {
	case 'A':
		return "alive";
	case 'a':
		return "syncing";
	case 'D':
		return "dead";
	}
	return "unknown";
}

/* Copies the next space-separated word of *@p into @word; -EINVAL if none or too long. */
static int next_word(const char **p, char *word, size_t len)
{
	const char *s = *p;
	size_t n;

	if (*s == ' ')
		return -EINVAL;
	n = strcspn(s, " ");
	if (!n || n >= len)
		return -EINVAL;
	memcpy(word, s, n);
	word[n] = '\0';
	s += n;
	if (*s == ' ') {
		s++;
		/* a separator must be followed by a word */
		if (!*s || *s == ' ')
			return -EINVAL;
	}
	*p = s;
	return 0;
}

static int next_u64(const char **p, uint64_t *v)
{
	char word[24];

	if (next_word(p, word, sizeof(word)))
		return -EINVAL;
	return fr_parse_u64(word, v) ? -EINVAL : 0;
}

/* 0, or -EINVAL for a malformed line; @st is undefined on error. */
int fr_status_parse(const char *line, struct fr_status *st)
{
	const char *p = line;
	char word[FR_MAX_DEVS + 8];
	uint64_t v;
	char *slash;
	uint32_t i, j;

	memset(st, 0, sizeof(*st));
	if (next_word(&p, word, sizeof(word)) ||
	    strncmp(word, "raid", 4) || fr_level_parse(word, &st->level))
		return -EINVAL;
	if (next_u64(&p, &v) || v < fr_level_min_devs(st->level) ||
	    v > FR_MAX_DEVS)
		return -EINVAL;
	st->ndevs = (uint32_t)v;

	if (next_word(&p, st->health, sizeof(st->health)) ||
	    strlen(st->health) != st->ndevs ||
	    strspn(st->health, "AaD") != st->ndevs)
		return -EINVAL;

	if (next_word(&p, word, sizeof(word)))
		return -EINVAL;
	slash = strchr(word, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (fr_parse_u64(word, &st->sync_cur) ||
	    fr_parse_u64(slash + 1, &st->sync_total) ||
	    st->sync_cur > st->sync_total)
		return -EINVAL;

	if (next_word(&p, st->action, sizeof(st->action)) ||
	    strspn(st->action, "abcdefghijklmnopqrstuvwxyz_") !=
	    strlen(st->action))
		return -EINVAL;

	for (i = 0; i < st->ndevs; i++) {
		struct fr_member_stats *m = &st->members[i];
		uint64_t *c[FR_STATUS_COUNTERS] = {
			&m->reads, &m->writes, &m->read_sectors,
			&m->write_sectors, &m->flushes, &m->errors,
		};

		for (j = 0; j < FR_STATUS_COUNTERS; j++)
			if (next_u64(&p, c[j]))
				return -EINVAL;
	}
	{
		uint64_t *tail[] = {
			&st->mismatch_cnt, &st->ra_hits, &st->ra_misses,
			&st->ra_prefetched, &st->ra_wasted,
			&st->flushes_elided, &st->stripe_cache_kib,
			&st->stripe_cache_peak_kib,
		};

		/* each group is there whole or not at all: 1, 5 and 2 words */
		for (j = 0; j < sizeof(tail) / sizeof(tail[0]) && *p; j++)
			if (next_u64(&p, tail[j]))
				return -EINVAL;
		if (j != 0 && j != 1 && j != 6 && j != 8)
			return -EINVAL;
		st->has_mismatch_cnt = j >= 1;
		st->has_ra_stats = j >= 6;
		st->has_stripe_cache = j == 8;
	}
	/*
	 * target 1.2.0+: read errors repaired, then sectors blamed by check,
	 * one word per member each
	 */
	if (*p && st->has_stripe_cache) {
		for (i = 0; i < st->ndevs; i++)
			if (next_u64(&p, &st->members[i].read_errors_corrected))
				return -EINVAL;
		for (i = 0; i < st->ndevs; i++)
			if (next_u64(&p, &st->members[i].check_blamed_sectors))
				return -EINVAL;
		st->has_read_errors_corrected = true;
	}
	/* v1.3.0+: a number and one of three words, both or neither */
	if (st->has_read_errors_corrected && *p) {
		if (next_u64(&p, &st->sb_events) ||
		    next_word(&p, st->sb_state, sizeof(st->sb_state)) ||
		    (strcmp(st->sb_state, "clean") &&
		     strcmp(st->sb_state, "dirty") &&
		     strcmp(st->sb_state, "none")) ||
		    !strcmp(st->sb_state, "none") != !st->sb_events)
			return -EINVAL;
		st->has_sb = true;
	}
	/* v1.4.0+: the bitmap's region, its bits set, the regions synced */
	if (st->has_sb && *p) {
		if (next_u64(&p, &v) || v > UINT32_MAX ||
		    next_u64(&p, &st->bitmap_dirty) ||
		    next_u64(&p, &st->sync_regions) ||
		    next_word(&p, word, sizeof(word)))
			return -EINVAL;
		st->lost_row = UINT64_MAX;
		if (strcmp(word, "-") && (fr_parse_u64(word, &st->lost_row) ||
					  st->lost_row == UINT64_MAX))
			return -EINVAL;
		st->bitmap_region_sectors = (uint32_t)v;
		st->has_bitmap = true;
	}
	/* v1.7.0+: a grow's copied and recorded positions, or "- -" */
	if (st->has_bitmap && *p) {
		char safe[32];

		if (next_word(&p, word, sizeof(word)) ||
		    next_word(&p, safe, sizeof(safe)))
			return -EINVAL;
		if (strcmp(word, "-") || strcmp(safe, "-")) {
			if (fr_parse_u64(word, &st->reshape_done) ||
			    fr_parse_u64(safe, &st->reshape_safe) ||
			    st->reshape_safe > st->reshape_done)
				return -EINVAL;
			st->reshape = true;
		}
		st->has_reshape_words = true;
	}
	while (*p) {
		if (next_word(&p, word, sizeof(word)))
			return -EINVAL;
		st->extra_words++;
	}
	return 0;
}
