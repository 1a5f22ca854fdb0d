/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every block device the kernel knows (libudev enumeration over sysfs, so
 * it needs no udev daemon), filtered by fanraid.conf's DEVICE lines, with
 * its superblock read read-only.
 */
#ifndef FR_SCAN_H
#define FR_SCAN_H

#include "config.h"
#include "probe.h"

/* Called for each device holding a valid fanraid superblock; non-zero stops. */
typedef int (*fr_scan_fn)(const struct fr_member *m, void *arg);

int fr_scan_members(const struct fr_conf *c, fr_scan_fn fn, void *arg);

#endif /* FR_SCAN_H */
