/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What other programs read about members: udev properties (examine
 * --export, imported by 69-fanraid.rules so lsblk -f shows
 * fanraid_member) and fanraid.conf ARRAY lines (examine --scan).
 */
#ifndef FR_EXPORT_H
#define FR_EXPORT_H

#include <stdio.h>

#include "probe.h"

void fr_export_member(FILE *f, const struct fr_sb *sb);
int fr_examine_export(const char *path);
int fr_examine_scan(void);

#endif /* FR_EXPORT_H */
