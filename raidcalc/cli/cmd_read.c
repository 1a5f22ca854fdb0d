/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read: logical sectors out of the members, to a file or stdout; with -m,
 * that member is treated as missing and rebuilt from the others (raid6).
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "cli.h"

int rc_cmd_read(struct rc_opts *o)
{
	struct rc_array a;
	u64 count;
	int ret = rc_cli_array(o, &a), err, fd = STDOUT_FILENO;

	if (ret)
		return ret;
	if (o->start > a.len) {
		fprintf(stderr, "raidcalc read: start past the end of the target (%llu)\n",
			(unsigned long long)a.len);
		return RC_EXIT_USAGE;
	}
	count = o->count_given ? o->count : a.len - o->start;
	if (o->output) {
		fd = open(o->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0644);
		if (fd < 0) {
			perror(o->output);
			return RC_EXIT_FAIL;
		}
	}
	ret = rc_cli_open(&a, false);
	if (!ret) {
		err = rc_array_read(&a, o->start, count, fd, o->member);
		if (err)
			ret = rc_cli_fail(&a, err, "Read failed");
		rc_array_close(&a);
	}
	if (o->output && close(fd) && !ret) {
		perror(o->output);
		ret = RC_EXIT_FAIL;
	}
	return ret;
}
