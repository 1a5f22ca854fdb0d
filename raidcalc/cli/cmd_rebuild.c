/* SPDX-License-Identifier: GPL-2.0-only */
/* rebuild: rewrite member -m from the other members of a raid6 array. */
#include <stdio.h>
#include "cli.h"

int rc_cmd_rebuild(struct rc_opts *o)
{
	struct rc_array a;
	int ret = rc_cli_array(o, &a), err;

	if (ret)
		return ret;
	if (a.geom.level != FR_LEVEL_RAID6 || o->member < 0 ||
	    (u32)o->member >= a.nmembers) {
		fprintf(stderr, "raidcalc rebuild: needs a raid6 table and -m <0..%u>\n",
			a.nmembers - 1);
		return RC_EXIT_USAGE;
	}
	ret = rc_cli_open(&a, true);
	if (ret)
		return ret;
	err = rc_array_rebuild(&a, (unsigned int)o->member);
	if (err)
		ret = rc_cli_fail(&a, err, "Rebuild failed");
	rc_array_close(&a);
	return ret;
}
