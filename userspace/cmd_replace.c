/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid replace NAME SLOT DEV: rebuilding a member needs RAID6 in the
 * kernel target, which v1.0 does not have. The verb exists so scripts and
 * users get a clear answer instead of "unknown command".
 */
#include "cli.h"

int fr_cmd_replace(const struct fr_opts *o)
{
	fr_err("%s: replace is not supported yet (needs raid6 rebuild in the kernel target)",
	       o->argv[0]);
	return FR_EXIT_FAIL;
}
