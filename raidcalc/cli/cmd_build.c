/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * build: lay a logical image out onto members exactly as the module would
 * have written it (regular files are created and sized as needed), so
 * tests can start from a known array without the kernel.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "cli.h"

int rc_cmd_build(struct rc_opts *o)
{
	struct rc_array a;
	int ret = rc_cli_array(o, &a), err, fd;

	if (ret)
		return ret;
	if (!o->input) {
		fprintf(stderr, "raidcalc build: -i <image> is required\n");
		return RC_EXIT_USAGE;
	}
	fd = open(o->input, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(o->input);
		return RC_EXIT_FAIL;
	}
	ret = rc_cli_open(&a, true);
	if (!ret) {
		err = rc_array_build(&a, fd);
		if (err)
			ret = rc_cli_fail(&a, err, "Build failed");
		rc_array_close(&a);
	}
	close(fd);
	return ret;
}
