// SPDX-License-Identifier: GPL-2.0-only
/*
 * fanraid table parsing: constructor and destructor.
 *
 * Every malformed line is refused with a ti->error that names the argument;
 * every failure unwinds through fanraid_dtr(), which tolerates a half-built
 * context.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/blkdev.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include <fanraid/bitmap.h>

#include "fanraid.h"

const char *fanraid_flush_policy_name(enum fanraid_flush_policy policy)
{
	switch (policy) {
	case FANRAID_FLUSH_DROP:
		return "drop";
	case FANRAID_FLUSH_DIRTY:
		return "dirty";
	case FANRAID_FLUSH_PASSTHROUGH:
		break;
	}
	return "passthrough";
}

/* <level> <chunk_sectors> */
static int fanraid_parse_geometry(struct dm_arg_set *as, u32 *level,
				  u32 *chunk_sectors, char **error)
{
	const char *arg;
	enum fr_geom_err err;

	if (as->argc < 2) {
		*error = "Not enough arguments";
		return -EINVAL;
	}

	arg = dm_shift_arg(as);
	if (!strcmp(arg, "raid0")) {
		*level = FR_LEVEL_RAID0;
	} else if (!strcmp(arg, "raid6")) {
		*level = FR_LEVEL_RAID6;
	} else {
		*error = "Invalid RAID level: must be raid0 or raid6";
		return -EINVAL;
	}

	arg = dm_shift_arg(as);
	if (kstrtou32(arg, 10, chunk_sectors)) {
		*error = "Invalid chunk size: not a number";
		return -EINVAL;
	}
	err = fr_geom_check_chunk(*chunk_sectors);
	if (err) {
		*error = (char *)fr_geom_strerror(err);
		return -EINVAL;
	}
	return 0;
}

static int fanraid_parse_flush_policy(struct fanraid_features *f,
				      const char *value, char **error)
{
	if (f->flush_policy_set) {
		*error = "Feature flush_policy duplicated";
		return -EINVAL;
	}
	if (!strcmp(value, "passthrough")) {
		f->flush_policy = FANRAID_FLUSH_PASSTHROUGH;
	} else if (!strcmp(value, "drop")) {
		f->flush_policy = FANRAID_FLUSH_DROP;
	} else if (!strcmp(value, "dirty")) {
		f->flush_policy = FANRAID_FLUSH_DIRTY;
	} else {
		*error = "Invalid flush_policy: must be passthrough, dirty or drop";
		return -EINVAL;
	}
	f->flush_policy_set = true;
	return 0;
}

/* max_sync_rate, or min_sync_rate when @min: KiB/s per member. */
static int fanraid_parse_sync_rate(struct fanraid_features *f, bool min,
				   const char *value, char **error)
{
	bool *set = min ? &f->min_sync_rate_set : &f->max_sync_rate_set;
	u32 *rate = min ? &f->min_sync_rate : &f->max_sync_rate;

	if (*set) {
		*error = min ? "Feature min_sync_rate duplicated" :
			       "Feature max_sync_rate duplicated";
		return -EINVAL;
	}
	if (kstrtou32(value, 10, rate)) {
		*error = min ? "Invalid min_sync_rate: not a number of KiB/s" :
			       "Invalid max_sync_rate: not a number of KiB/s";
		return -EINVAL;
	}
	*set = true;
	return 0;
}

/* "on" or "off"; shared with the readahead message. */
int fanraid_parse_on_off(const char *value, bool *on)
{
	if (!strcmp(value, "on"))
		*on = true;
	else if (!strcmp(value, "off"))
		*on = false;
	else
		return -EINVAL;
	return 0;
}

static int fanraid_parse_readahead(struct fanraid_features *f,
				   const char *name, const char *value,
				   char **error)
{
	if (!strcmp(name, "readahead")) {
		if (f->readahead_set) {
			*error = "Feature readahead duplicated";
			return -EINVAL;
		}
		if (fanraid_parse_on_off(value, &f->readahead)) {
			*error = "Invalid readahead: must be on or off";
			return -EINVAL;
		}
		f->readahead_set = true;
	} else if (!strcmp(name, "ra_window")) {
		if (f->ra_window_set) {
			*error = "Feature ra_window duplicated";
			return -EINVAL;
		}
		if (kstrtou32(value, 10, &f->ra_window) || !f->ra_window ||
		    f->ra_window > FR_RA_MAX_WINDOW) {
			*error = "Invalid ra_window: must be 1-64 stripes";
			return -EINVAL;
		}
		f->ra_window_set = true;
	} else {
		if (f->ra_cache_mb_set) {
			*error = "Feature ra_cache_mb duplicated";
			return -EINVAL;
		}
		if (kstrtou32(value, 10, &f->ra_cache_mb) ||
		    f->ra_cache_mb > FR_RA_MAX_CACHE_MB) {
			*error = "Invalid ra_cache_mb: must be 0-4096 MiB";
			return -EINVAL;
		}
		f->ra_cache_mb_set = true;
	}
	return 0;
}

static int fanraid_parse_stripe_cache(struct fanraid_features *f,
				      const char *value, char **error)
{
	if (f->stripe_cache_mb_set) {
		*error = "Feature stripe_cache_mb duplicated";
		return -EINVAL;
	}
	if (kstrtou32(value, 10, &f->stripe_cache_mb) || !f->stripe_cache_mb ||
	    f->stripe_cache_mb > FR_R6_STRIPE_CACHE_MAX_MB) {
		*error = "Invalid stripe_cache_mb: must be 1-4096 MiB";
		return -EINVAL;
	}
	f->stripe_cache_mb_set = true;
	return 0;
}

static int fanraid_parse_max_read_errors(struct fanraid_features *f,
					 const char *value, char **error)
{
	if (f->max_read_errors_set) {
		*error = "Feature max_read_errors duplicated";
		return -EINVAL;
	}
	if (kstrtou32(value, 10, &f->max_read_errors)) {
		*error = "Invalid max_read_errors: not a number (0-4294967295)";
		return -EINVAL;
	}
	f->max_read_errors_set = true;
	return 0;
}

static int fanraid_parse_safe_mode_delay(struct fanraid_features *f,
					 const char *value, char **error)
{
	if (f->safe_mode_delay_set) {
		*error = "Feature safe_mode_delay duplicated";
		return -EINVAL;
	}
	/* Any u32 of ms: 0 marks clean as soon as writes stop. */
	if (kstrtou32(value, 10, &f->safe_mode_delay)) {
		*error = "Invalid safe_mode_delay: not a number of ms (0-4294967295)";
		return -EINVAL;
	}
	f->safe_mode_delay_set = true;
	return 0;
}

static int fanraid_parse_rebuild(struct fanraid_features *f,
				 const char *value, char **error)
{
	u32 idx;

	if (kstrtou32(value, 10, &idx) || idx >= FR_MAX_DEVS) {
		*error = "Invalid rebuild index";
		return -EINVAL;
	}
	if (test_and_set_bit(idx, f->rebuild)) {
		*error = "Feature rebuild duplicated for one member";
		return -EINVAL;
	}
	return 0;
}

static int fanraid_parse_bitmap(struct fanraid_features *f, const char *value,
				char **error)
{
	if (f->bitmap_set) {
		*error = "Feature bitmap duplicated";
		return -EINVAL;
	}
	if (kstrtou32(value, 10, &f->bitmap_region) || !f->bitmap_region ||
	    f->bitmap_region & (f->bitmap_region - 1) ||
	    f->bitmap_region > FR_BITMAP_MAX_REGION) {
		*error = "Invalid bitmap region: not a power of two of sectors (1-2147483648)";
		return -EINVAL;
	}
	f->bitmap_set = true;
	return 0;
}

static int fanraid_parse_readd(struct fanraid_features *f, const char *value,
			       char **error)
{
	u32 idx;

	if (kstrtou32(value, 10, &idx) || idx >= FR_MAX_DEVS) {
		*error = "Invalid readd index";
		return -EINVAL;
	}
	if (test_and_set_bit(idx, f->readd)) {
		*error = "Feature readd duplicated for one member";
		return -EINVAL;
	}
	return 0;
}

/*
 * reshape <old_ndevs> <position>: the member count before a grow and the
 * array sectors recorded as copied; checked against the geometry later
 * (fanraid_reshape_create()).
 */
static int fanraid_parse_reshape(struct dm_arg_set *as,
				 struct fanraid_features *f,
				 unsigned int *nwords, char **error)
{
	const char *old, *pos;

	if (f->reshape) {
		*error = "Feature reshape duplicated";
		return -EINVAL;
	}
	if (*nwords < 2) {
		*error = "Feature reshape requires <old_ndevs> <position>";
		return -EINVAL;
	}
	old = dm_shift_arg(as);
	pos = dm_shift_arg(as);
	*nwords -= 2;
	if (kstrtou32(old, 10, &f->reshape_old_ndevs) ||
	    f->reshape_old_ndevs > FR_MAX_DEVS) {
		*error = "Invalid reshape member count";
		return -EINVAL;
	}
	if (kstrtou64(pos, 10, &f->reshape_pos)) {
		*error = "Invalid reshape position";
		return -EINVAL;
	}
	f->reshape = true;
	return 0;
}

/*
 * <#feature_args> [<feature> [<value>]]*; the count counts words.
 *   flush_policy passthrough|dirty|drop, max_sync_rate <KiB/s>,
 *   min_sync_rate <KiB/s>, rebuild <idx> (up to twice), resync,
 *   readahead on|off, ra_window <stripes>, ra_cache_mb <MiB>, stripe_cache_mb <MiB>,
 *   max_read_errors <count>, superblock, safe_mode_delay <ms>,
 *   bitmap <region_sectors>, readd <idx> (up to twice),
 *   reshape <old_ndevs> <position>
 */
static int fanraid_parse_features(struct dm_arg_set *as,
				  struct fanraid_features *f, char **error)
{
	static const struct dm_arg feature_count = {
		0, 33, "Invalid number of feature arguments"
	};
	unsigned int nwords;
	const char *name, *value;
	int r;

	/*
	 * dm_read_arg_group() reads the count with sscanf("%u"), which wraps
	 * where kstrtouint() fails: 4294967296 would count no words and the
	 * features would then be read as the device count.
	 */
	if (as->argc && kstrtouint(as->argv[0], 10, &nwords)) {
		*error = feature_count.error;
		return -EINVAL;
	}
	r = dm_read_arg_group(&feature_count, as, &nwords, error);
	if (r)
		return r;

	while (nwords) {
		name = dm_shift_arg(as);
		nwords--;
		if (!strcmp(name, "resync")) {
			if (f->resync) {
				*error = "Feature resync duplicated";
				return -EINVAL;
			}
			f->resync = true;
			continue;
		}
		if (!strcmp(name, "superblock")) {
			if (f->superblock) {
				*error = "Feature superblock duplicated";
				return -EINVAL;
			}
			f->superblock = true;
			continue;
		}
		if (!strcmp(name, "reshape")) {
			r = fanraid_parse_reshape(as, f, &nwords, error);
			if (r)
				return r;
			continue;
		}
		if (strcmp(name, "flush_policy") && strcmp(name, "max_sync_rate") &&
		    strcmp(name, "min_sync_rate") && strcmp(name, "rebuild") &&
		    strcmp(name, "readahead") &&
		    strcmp(name, "ra_window") && strcmp(name, "ra_cache_mb") &&
		    strcmp(name, "stripe_cache_mb") &&
		    strcmp(name, "max_read_errors") &&
		    strcmp(name, "safe_mode_delay") &&
		    strcmp(name, "bitmap") && strcmp(name, "readd")) {
			*error = "Unrecognised feature argument";
			return -EINVAL;
		}
		if (!nwords) {
			*error = "Feature argument requires a value";
			return -EINVAL;
		}
		value = dm_shift_arg(as);
		nwords--;
		if (!strcmp(name, "flush_policy"))
			r = fanraid_parse_flush_policy(f, value, error);
		else if (!strcmp(name, "max_sync_rate"))
			r = fanraid_parse_sync_rate(f, false, value, error);
		else if (!strcmp(name, "min_sync_rate"))
			r = fanraid_parse_sync_rate(f, true, value, error);
		else if (!strcmp(name, "rebuild"))
			r = fanraid_parse_rebuild(f, value, error);
		else if (!strcmp(name, "stripe_cache_mb"))
			r = fanraid_parse_stripe_cache(f, value, error);
		else if (!strcmp(name, "max_read_errors"))
			r = fanraid_parse_max_read_errors(f, value, error);
		else if (!strcmp(name, "safe_mode_delay"))
			r = fanraid_parse_safe_mode_delay(f, value, error);
		else if (!strcmp(name, "bitmap"))
			r = fanraid_parse_bitmap(f, value, error);
		else if (!strcmp(name, "readd"))
			r = fanraid_parse_readd(f, value, error);
		else
			r = fanraid_parse_readahead(f, name, value, error);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Readahead defaults: on (streams whose reader queues are served directly,
 * so deep readers do not pay for its copies; ra_cache_mb 0 turns it off);
 * a window of four stripes; a cache of twice the window (at least 16 MiB,
 * at most 256 MiB unless asked for), allocated even when off so a message
 * can turn readahead on at run time.
 */
static void fanraid_default_readahead(struct fanraid_c *fc)
{
	struct fanraid_features *f = &fc->features;
	u64 stripe_mb;

	if (!f->readahead_set)
		f->readahead = true;
	if (!f->ra_window_set)
		f->ra_window = FANRAID_RA_DEFAULT_WINDOW;
	if (f->ra_cache_mb_set)
		return;
	stripe_mb = DIV_ROUND_UP_ULL(fr_geom_full_stripe_sectors(&fc->geom), 2048);
	f->ra_cache_mb = clamp_t(u64, 2 * f->ra_window * stripe_mb,
				 FANRAID_RA_MIN_CACHE_MB, 256);
}

/* Features that only make sense once the level and members are known. */
static int fanraid_check_features(struct fanraid_c *fc, char **error)
{
	struct fanraid_features *f = &fc->features;
	DECLARE_BITMAP(lost, FR_MAX_DEVS);

	if (f->safe_mode_delay_set && !f->superblock) {
		*error = "Feature safe_mode_delay requires superblock";
		return -EINVAL;
	}
	if (f->bitmap_set && !f->superblock) {
		*error = "Feature bitmap requires superblock";
		return -EINVAL;
	}
	if (!bitmap_empty(f->readd, FR_MAX_DEVS) && !f->bitmap_set) {
		*error = "Feature readd requires bitmap";
		return -EINVAL;
	}
	if (!fc->r6) {
		if (f->resync || f->max_sync_rate_set || f->min_sync_rate_set ||
		    f->stripe_cache_mb_set ||
		    f->max_read_errors_set || f->superblock ||
		    !bitmap_empty(f->rebuild, FR_MAX_DEVS)) {
			*error = "Features rebuild, resync, max_sync_rate, min_sync_rate, stripe_cache_mb, max_read_errors and superblock require raid6";
			return -EINVAL;
		}
		return 0;
	}
	if (!f->max_read_errors_set)
		f->max_read_errors = FANRAID_MAX_READ_ERRORS;
	if (find_next_bit(f->rebuild, FR_MAX_DEVS, fc->ndevs) < FR_MAX_DEVS) {
		*error = "Invalid rebuild index: no such member";
		return -EINVAL;
	}
	if (find_next_bit(f->readd, FR_MAX_DEVS, fc->ndevs) < FR_MAX_DEVS) {
		*error = "Invalid readd index: no such member";
		return -EINVAL;
	}
	if (bitmap_intersects(f->rebuild, f->readd, FR_MAX_DEVS)) {
		*error = "Member both rebuilt and re-added";
		return -EINVAL;
	}
	if (bitmap_intersects(f->rebuild, fc->failed, FR_MAX_DEVS) ||
	    bitmap_intersects(f->readd, fc->failed, FR_MAX_DEVS)) {
		*error = "Cannot rebuild a missing member";
		return -EINVAL;
	}
	bitmap_or(lost, f->rebuild, fc->failed, FR_MAX_DEVS);
	bitmap_or(lost, lost, f->readd, FR_MAX_DEVS);
	if (bitmap_weight(lost, FR_MAX_DEVS) > 2) {
		*error = "Too many members missing or rebuilding for raid6 (max 2)";
		return -EINVAL;
	}
	return 0;
}

/* <#devs>, checked against the level and the pairs that follow. */
static int fanraid_parse_dev_count(struct dm_arg_set *as, u32 level,
				   u32 *ndevs, char **error)
{
	enum fr_geom_err err;

	if (!as->argc) {
		*error = "Missing device count";
		return -EINVAL;
	}
	if (kstrtou32(dm_shift_arg(as), 10, ndevs)) {
		*error = "Invalid device count: not a number";
		return -EINVAL;
	}
	err = fr_geom_check_devs(level, *ndevs);
	if (err) {
		*error = (char *)fr_geom_strerror(err);
		return -EINVAL;
	}
	if (as->argc < 2 * *ndevs) {
		*error = "Device count larger than the <dev> <offset> pairs given";
		return -EINVAL;
	}
	if (as->argc > 2 * *ndevs) {
		*error = "Trailing arguments after the device list";
		return -EINVAL;
	}
	return 0;
}

/*
 * One <dev> <offset> pair. The member must hold the whole data area that
 * the geometry (derived from the target length) places on it.
 */
static int fanraid_parse_dev(struct dm_target *ti, struct fanraid_c *fc,
			     u32 i, struct dm_arg_set *as)
{
	struct fanraid_dev *dev = &fc->devs[i];
	const char *path = dm_shift_arg(as);
	const char *offset = dm_shift_arg(as);
	unsigned long long start;
	sector_t size;
	u32 j;
	int r;

	/* "- -" stands for a missing RAID6 member, as in dm-raid. */
	if (!strcmp(path, "-")) {
		if (strcmp(offset, "-")) {
			ti->error = "Missing member needs - as its offset";
			return -EINVAL;
		}
		if (fc->geom.level != FR_LEVEL_RAID6) {
			ti->error = "Missing member (-) requires raid6";
			return -EINVAL;
		}
		set_bit(i, fc->failed);
		return 0;
	}
	if (kstrtoull(offset, 10, &start)) {
		ti->error = "Invalid device offset: not a number or out of range";
		return -EINVAL;
	}
	if (start > (sector_t)~0ULL - fc->geom.member_sectors) {
		ti->error = "Device offset plus member data area overflows";
		return -EINVAL;
	}
	dev->offset = start;

	r = dm_get_device(ti, path, dm_table_get_mode(ti->table), &dev->dm_dev);
	if (r) {
		DMERR("member %u (%s): lookup failed: %d", i, path, r);
		ti->error = "Device lookup failed";
		return r;
	}

	for (j = 0; j < i; j++) {
		if (fc->devs[j].dm_dev &&
		    fc->devs[j].dm_dev->bdev->bd_dev == dev->dm_dev->bdev->bd_dev) {
			DMERR("member %u (%s): same device as member %u", i, path, j);
			ti->error = "Duplicate member device";
			return -EINVAL;
		}
	}

	size = bdev_nr_sectors(dev->dm_dev->bdev);
	if (start >= size || size - start < fc->geom.chunk_sectors) {
		DMERR("member %u (%s): %llu sectors, offset %llu, chunk %u",
		      i, path, (unsigned long long)size, start,
		      fc->geom.chunk_sectors);
		ti->error = "Member too small for its offset plus one chunk";
		return -EINVAL;
	}
	if (size - start < fc->geom.member_sectors) {
		DMERR("member %u (%s): %llu sectors after offset, %llu needed",
		      i, path, (unsigned long long)(size - start),
		      (unsigned long long)fc->geom.member_sectors);
		ti->error = "Target length exceeds the capacity of the members";
		return -EINVAL;
	}
	return 0;
}

static int fanraid_set_target_limits(struct dm_target *ti,
				     struct fanraid_c *fc)
{
	u32 n = fc->ndevs, max_io = fc->geom.chunk_sectors;
	/*
	 * RAID0 sends each member its part of the range. RAID6 takes the
	 * range whole and zeroes rows on every member (fanraid-r6-discard.c),
	 * and io_hints decides whether the members allow it; a secure erase
	 * of one member's part would leave parity that does not match.
	 */
	u32 ranged = fc->r6 ? 1 : n;

	/*
	 * RAID6 too: a read of a healthy row goes to its member whole, as in
	 * RAID0. Map trims writes and reads of a row with a lost block to
	 * their stripe window (fanraid_r6_trim()).
	 */
	if (dm_set_target_max_io_len(ti, max_io)) {
		ti->error = "Cannot set max I/O length to the chunk size";
		return -EINVAL;
	}
	/* No volatile cache to flush: advertising none lets the block layer drop them. */
	ti->num_flush_bios =
		fc->features.flush_policy == FANRAID_FLUSH_DROP ? 0 : n;
	ti->num_discard_bios = ranged;
	ti->num_secure_erase_bios = fc->r6 ? 0 : n;
	ti->num_write_zeroes_bios = ranged;
	ti->discards_supported = fc->r6 != NULL;
	/* A range during a grow would span both layouts: zero pages are written instead. */
	if (fc->rs) {
		ti->num_discard_bios = 0;
		ti->num_secure_erase_bios = 0;
		ti->num_write_zeroes_bios = 0;
		ti->discards_supported = false;
	}
	ti->per_io_data_size = sizeof(struct fanraid_bio);
	return 0;
}

/*
 * Construct a fanraid mapping:
 *   <level> <chunk_sectors> <#feature_args> [<feature> [<value>]]*
 *   <#devs> <dev> <offset> [<dev> <offset>]*
 *
 * level:         raid0 | raid6
 * chunk_sectors: power of two, 8..32768
 * features:      flush_policy passthrough|dirty|drop, max_sync_rate <KiB/s>,
 *                min_sync_rate <KiB/s> (raid6),
 *                rebuild <idx> (raid6, up to twice), resync (raid6),
 *                readahead on|off, ra_window <stripes>, ra_cache_mb <MiB>,
 *                stripe_cache_mb <MiB> (raid6), max_read_errors <count> (raid6),
 *                superblock (raid6), safe_mode_delay <ms> (with superblock,
 *                default 200), bitmap <region_sectors> (with superblock),
 *                readd <idx> (with bitmap, up to twice),
 *                reshape <old_ndevs> <position> (raid0: a grow under way;
 *                the length is the old layout's)
 * dev offset:    member and the start of its data area, in sectors;
 *                "- -" for a missing raid6 member; with superblock, the
 *                member's block at byte 4096 of the device is read and
 *                kept current
 */
int fanraid_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	struct fanraid_features features = {};
	struct fanraid_c *fc;
	u32 level, chunk, ndevs, i;
	enum fr_geom_err err;
	u64 member_sectors;
	int r;

	r = fanraid_parse_geometry(&as, &level, &chunk, &ti->error);
	if (r)
		return r;
	r = fanraid_parse_features(&as, &features, &ti->error);
	if (r)
		return r;
	r = fanraid_parse_dev_count(&as, level, &ndevs, &ti->error);
	if (r)
		return r;

	fc = kzalloc(struct_size(fc, devs, ndevs), GFP_KERNEL);
	if (!fc) {
		ti->error = "Cannot allocate fanraid context";
		return -ENOMEM;
	}
	fc->ndevs = ndevs;
	fc->ti = ti;
	fc->features = features;
	INIT_WORK(&fc->trigger_event, fanraid_trigger_event);
	ti->private = fc;
	fanraid_member_init(fc);
	if (fanraid_member_stats_alloc(fc)) {
		ti->error = "Cannot allocate member counters";
		r = -ENOMEM;
		goto bad;
	}
	if (fanraid_ra_stats_alloc(fc)) {
		ti->error = "Cannot allocate readahead counters";
		r = -ENOMEM;
		goto bad;
	}

	/* During a grow the length is still the old layout's. */
	member_sectors = fr_geom_member_sectors_for(level,
			features.reshape ? features.reshape_old_ndevs : ndevs,
			chunk, ti->len);
	err = fr_geom_init(&fc->geom, level, ndevs, chunk, member_sectors);
	if (err) {
		ti->error = (char *)fr_geom_strerror(err);
		r = -EINVAL;
		goto bad;
	}

	for (i = 0; i < ndevs; i++) {
		r = fanraid_parse_dev(ti, fc, i, &as);
		if (r)
			goto bad;
	}

	if (level == FR_LEVEL_RAID6) {
		r = fanraid_r6_create(fc, &ti->error);
		if (r)
			goto bad;
	}
	r = fanraid_check_features(fc, &ti->error);
	if (r)
		goto bad;
	r = fanraid_reshape_create(fc, &ti->error);
	if (r)
		goto bad;
	if (fc->r6)
		fanraid_sync_init(fc);
	if (!fc->features.safe_mode_delay_set)
		fc->features.safe_mode_delay = FANRAID_SAFE_MODE_DELAY_MS;
	if (fc->features.superblock) {
		r = fanraid_meta_create(fc, &ti->error);
		if (r)
			goto bad;
		/* The superblocks may name failed members the table has present. */
		r = fanraid_check_features(fc, &ti->error);
		if (r)
			goto bad;
		r = fanraid_bitmap_create(fc, &ti->error);
		if (r)
			goto bad;
	}
	fanraid_default_readahead(fc);
	/* The cache holds members' chunks of one layout; a grow has two. */
	if (fc->features.ra_cache_mb && !fc->rs) {
		r = fanraid_ra_create(fc, &ti->error);
		if (r)
			goto bad;
	} else if (fc->features.readahead && fc->features.readahead_set &&
		   !fc->rs) {
		ti->error = "Readahead on needs a cache (ra_cache_mb > 0)";
		r = -EINVAL;
		goto bad;
	}
	r = fanraid_set_target_limits(ti, fc);
	if (r)
		goto bad;

	DMINFO("%s: raid%u, %u members, chunk %u sectors, flush_policy %s, readahead %s (%u stripes, %u MiB)",
	       dm_table_device_name(ti->table), level, ndevs, chunk,
	       fanraid_flush_policy_name(fc->features.flush_policy),
	       fc->features.readahead && fc->ra ? "on" : "off",
	       fc->features.ra_window, fc->features.ra_cache_mb);
	return 0;

bad:
	fanraid_dtr(ti);
	return r;
}

void fanraid_dtr(struct dm_target *ti)
{
	struct fanraid_c *fc = ti->private;
	u32 i;

	if (!fc)
		return;
	/*
	 * A table that went live was suspended first, which stopped the sync
	 * pass; this makes sure of it before the bitmap, superblock and
	 * readahead state the pass uses go.
	 */
	if (fc->r6 && fc->r6->fc)
		fanraid_sync_presuspend(fc);
	/* It reaches into the superblock state, which goes next. */
	flush_work(&fc->trigger_event);
	fanraid_reshape_destroy(fc);
	fanraid_bitmap_destroy(fc);
	fanraid_meta_destroy(fc);
	fanraid_r6_destroy(fc);
	fanraid_ra_destroy(fc);
	flush_work(&fc->trigger_event);
	for (i = 0; i < fc->ndevs; i++)
		if (fc->devs[i].dm_dev)
			dm_put_device(ti, fc->devs[i].dm_dev);
	fanraid_ra_stats_free(fc);
	fanraid_member_stats_free(fc);
	kfree(fc);
	ti->private = NULL;
}
