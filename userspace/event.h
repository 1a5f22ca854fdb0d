/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Telling someone: the monitor's events go to the log (stdout, the
 * journal under systemd), to fanraid.conf's PROGRAM as
 * `PROGRAM EVENT ARRAY [DETAIL]` (mdadm's convention: a path, run
 * without a shell), and the serious
 * ones by mail to MAILADDR through sendmail(8).
 */
#ifndef FR_EVENT_H
#define FR_EVENT_H

#include <stdbool.h>

#include "config.h"

#define FR_SENDMAIL	"/usr/sbin/sendmail"

bool fr_event_mailed(const char *event);
void fr_event_notify(const struct fr_conf *c, const char *event,
		     const char *array, const char *detail);

#endif /* FR_EVENT_H */
