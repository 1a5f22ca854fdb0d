/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /etc/fanraid.conf, shaped like mdadm.conf (docs/fanraid.8, FILES):
 *
 *	DEVICE /dev/nvme*n1 /dev/disk/by-id/ata-*	which devices to scan
 *	ARRAY data UUID=6f1c... level=raid6 devices=6	arrays to assemble
 *	      [spare-group=NAME]			share spares (monitor)
 *	AUTO yes|no					others too? (yes)
 *	MAILADDR root					monitor: mail to
 *	MAILFROM fanraid@host				monitor: mail from
 *	PROGRAM /usr/local/sbin/fanraid-event		monitor: run on events
 *
 * '#' starts a comment; a line that starts with blanks continues the one
 * before it. A missing file is an empty one: every device, every array.
 */
#ifndef FR_CONFIG_H
#define FR_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "sb.h"

#define FR_CONF_PATH		"/etc/fanraid.conf"
#define FR_CONF_STR_MAX		256

struct fr_conf_array {
	char name[FR_SB_NAME_LEN];	/* "" when the line gave none */
	uint8_t uuid[FR_UUID_LEN];
	uint32_t level;			/* UINT32_MAX: not given */
	uint32_t ndevs;			/* 0: not given */
	char spare_group[FR_SB_NAME_LEN]; /* "": shares no spares */
};

struct fr_conf {
	const char *path;
	bool exists;
	char **devices;			/* glob patterns; none: every device */
	int ndevices;
	struct fr_conf_array *arrays;
	int narrays;
	bool auto_all;			/* AUTO: arrays without an ARRAY line too */
	char mailaddr[FR_CONF_STR_MAX];
	char mailfrom[FR_CONF_STR_MAX];
	char program[FR_CONF_STR_MAX];
};

int fr_conf_parse(const char *path, const char *text, struct fr_conf *c);
int fr_conf_load(const char *path, struct fr_conf *c);
void fr_conf_free(struct fr_conf *c);

/*
 * The process-wide configuration the verbs honour: loaded on first use
 * from fr_conf_set_path()'s file, else $FANRAID_CONF, else FR_CONF_PATH.
 * NULL when the file could not be parsed (the error is printed).
 */
void fr_conf_set_path(const char *path);
const struct fr_conf *fr_conf_get(void);

bool fr_conf_device_ok(const struct fr_conf *c, const char *path);
bool fr_conf_array_ok(const struct fr_conf *c, const uint8_t *uuid);
const struct fr_conf_array *fr_conf_array_find(const struct fr_conf *c,
					       const uint8_t *uuid);

#endif /* FR_CONFIG_H */
