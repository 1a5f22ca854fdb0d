/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Waiting for a device-mapper device's events (dm_table_event(): a member
 * failed, a sync started or ended, the device is being removed), the way
 * dmeventd does: read the event counter, then DM_DEVICE_WAITEVENT on it.
 * Kept out of dm.c, whose verbs never block.
 */
#ifndef FR_DMWAIT_H
#define FR_DMWAIT_H

#include <stdint.h>

int fr_dm_event_nr(const char *name, uint32_t *event_nr);
int fr_dm_wait_event(const char *name, uint32_t event_nr);

#endif /* FR_DMWAIT_H */
