/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hot spares: devices whose superblock names an array and the spare slot
 * (FR_SB_SLOT_SPARE). No table holds them; they are found by scanning the
 * block devices (fanraid.conf's DEVICE lines filter them), and put in
 * service by the same steps as replace.
 */
#ifndef FR_SPARE_H
#define FR_SPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "probe.h"
#include "table.h"

#define FR_MAX_SPARES	16

/*
 * The spares of the array with @uuid that @t does not hold, up to
 * FR_MAX_SPARES, in scan order. Returns how many, or a negative errno.
 */
int fr_spares_find(const uint8_t *uuid, const struct fr_table *t,
		   char (*paths)[FR_PATH_MAX]);

/* fr_replace_slot() flags */
#define FR_REPLACE_FORCE	(1u << 0)	/* --force: any contents */
#define FR_REPLACE_SPARE_GROUP	(1u << 1)	/* a spare of another array is fine */

/*
 * Rebuild dead or missing raid6 slot @slot of running array @name onto
 * @dev (replace's steps); FR_EXIT_OK or the exit code, errors printed.
 */
int fr_replace_slot(const char *name, uint32_t slot, const char *dev,
		    unsigned int flags);

/*
 * @nm is fit to join an array shaped like @tmpl (cmd_replace.c): open
 * exclusively, large enough, and blank unless @force (signatures found are
 * to be wiped: *@wipe). A spare of, or an old member of, this array passes,
 * and with FR_REPLACE_SPARE_GROUP a spare of any array.
 */
int fr_check_new_member(unsigned int flags, struct fr_member *nm,
			const struct fr_sb *tmpl, bool *wipe);

#endif /* FR_SPARE_H */
