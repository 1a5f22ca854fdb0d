/* SPDX-License-Identifier: GPL-2.0-only */
/**
 * @file raidcalc.h
 * @brief fanraid's userspace RAID library: P/Q parity, recovery, and the
 * offline view of an array described by its dm table line or by options.
 *
 * Every parity operation takes an array of @p ndevs block pointers in the
 * order the Q syndrome uses (lib/raid6 and ISA-L share it):
 *
 *	ptrs[0] .. ptrs[ndevs - 3]	data blocks, data index 0 first
 *	ptrs[ndevs - 2]			P (XOR of the data)
 *	ptrs[ndevs - 1]			Q (sum of 2^i * data[i] in GF(2^8),
 *					polynomial 0x11d)
 *
 * That is the row's data_idx order from fanraid/geom.h, not member order:
 * use fr_geom_data_dev(), fr_geom_p_dev() and fr_geom_q_dev() to fill it.
 *
 * Each operation has a plain-C rc_*_ref() twin that shares nothing with
 * ISA-L; the twins are the test oracle and the benchmark baseline.
 *
 * Functions return 0 or a negative errno unless documented otherwise.
 */
#ifndef RAIDCALC_H
#define RAIDCALC_H

#include <stddef.h>
#include <fanraid/geom.h>

/** Fewest and most blocks a parity call accepts: 2 data + P + Q .. 64. */
#define RC_PQ_MIN_DEVS	FR_MIN_DEVS_RAID6
#define RC_PQ_MAX_DEVS	FR_MAX_DEVS

/**
 * @brief Generate P and Q from the data blocks.
 *
 * @param ndevs Blocks in @p ptrs, RC_PQ_MIN_DEVS..RC_PQ_MAX_DEVS.
 * @param len   Bytes per block; any value, 0 is a no-op.
 * @param ptrs  Layout above. P and Q are overwritten; they must not alias
 *              a data block or each other.
 *
 * Uses ISA-L's pq_gen() on the longest prefix that is a multiple of 32
 * bytes when every pointer is 32-byte aligned, and the reference code for
 * the rest, so any length and alignment gives the same bytes.
 *
 * @return 0, or -EINVAL if @p ndevs is out of range or @p ptrs is NULL.
 */
int rc_pq_gen(unsigned int ndevs, size_t len, void **ptrs);

/** @brief Reference twin of rc_pq_gen(); byte-at-a-time Horner scheme. */
int rc_pq_gen_ref(unsigned int ndevs, size_t len, void **ptrs);

/**
 * @brief Check that P and Q match the data blocks.
 *
 * Same parameters and alignment handling as rc_pq_gen(); nothing is
 * written.
 *
 * @return 0 when both parities match, -EBADMSG when either differs,
 *         -EINVAL on bad arguments.
 */
int rc_pq_check(unsigned int ndevs, size_t len, void **ptrs);

/** @brief Reference twin of rc_pq_check(). */
int rc_pq_check_ref(unsigned int ndevs, size_t len, void **ptrs);

/**
 * @brief Rebuild up to two lost blocks of a RAID6 row from the others.
 *
 * @param ndevs  Blocks in @p ptrs (layout above).
 * @param len    Bytes per block; any value.
 * @param ptrs   All blocks; the failed ones are overwritten with their
 *               recovered contents, the others are only read. No two
 *               pointers may alias.
 * @param nfailed 1 or 2.
 * @param failed Indices into @p ptrs (not member numbers), distinct.
 *
 * Builds the RAID6 generator with gf_gen_rs_matrix() (whose two parity
 * rows are exactly P and Q), inverts the surviving rows with
 * gf_invert_matrix() and decodes with ec_encode_data(), following ISA-L's
 * ec_simple_example.c. Handles every pair: two data, data+P, data+Q, P+Q.
 *
 * @return 0, or -EINVAL on bad arguments.
 */
int rc_recover(unsigned int ndevs, size_t len, void **ptrs,
	       unsigned int nfailed, const unsigned int *failed);

/**
 * @brief Reference twin of rc_recover(): the closed-form lib/raid6
 * formulas (raid6_2data_recov, raid6_datap_recov) in plain C.
 */
int rc_recover_ref(unsigned int ndevs, size_t len, void **ptrs,
		   unsigned int nfailed, const unsigned int *failed);

/** @brief GF(2^8) product over 0x11d, bit by bit; used by the twins. */
u8 rc_gf_mul_ref(u8 a, u8 b);

/** @brief 2^@p e in GF(2^8) over 0x11d. */
u8 rc_gf_exp2_ref(unsigned int e);

/** @brief Multiplicative inverse in GF(2^8); 0 for 0. */
u8 rc_gf_inv_ref(u8 a);

/*
 * The offline array: a fanraid table line plus the member files or
 * devices it names.
 */

/** Longest feature value or device path kept from a table line. */
#define RC_PATH_MAX	4096

/**
 * Most words the feature group may hold: every feature once, rebuild
 * and readd twice, and room for reshape's three. The target's dm_arg
 * bound for <#feature_args>.
 */
#define RC_FEATURE_WORDS_MAX	33

/** Flush policies of the table's flush_policy feature. */
enum rc_flush_policy {
	RC_FLUSH_PASSTHROUGH,	/* the default */
	RC_FLUSH_DROP,
	RC_FLUSH_DIRTY,
};

/** One member: what the table says, and its open descriptor. */
struct rc_member {
	char dev[RC_PATH_MAX];	/* as written in the table: path or MAJ:MIN */
	u64 offset;		/* data area start on the member, sectors */
	int fd;			/* -1 until rc_array_open(), and if missing */
	bool direct;		/* fd has O_DIRECT: buffers must be aligned */
	bool missing;		/* "- -" in the table: a lost raid6 member */
	bool rebuilding;	/* named by a rebuild feature: not valid yet */
};

/**
 * An array as the kernel sees it: geometry derived from the table alone,
 * exactly like the target's constructor (member data area =
 * fr_geom_member_sectors_for(level, n, chunk, len)).
 */
struct rc_array {
	struct fr_geom geom;
	u64 start;			/* table start sector, informational */
	u64 len;			/* target length in sectors */
	enum rc_flush_policy flush;
	bool flush_given;		/* the table named flush_policy */
	u32 max_sync_rate;		/* KiB/s per member, 0 unlimited */
	bool max_sync_rate_given;
	u32 min_sync_rate;		/* KiB/s per member while I/O comes in */
	bool min_sync_rate_given;
	bool resync;			/* parity may not match the data yet */
	u64 rebuild;			/* bit i: "rebuild i" was given */
	/*
	 * Readahead and the raid6 stripe cache shape only the target's
	 * memory, never the layout: kept so the line formats back as given.
	 */
	bool readahead;			/* readahead on (true) or off */
	bool readahead_given;
	u32 ra_window;			/* stripes, 1..FR_RA_MAX_WINDOW */
	bool ra_window_given;
	u32 ra_cache_mb;		/* MiB, 0..FR_RA_MAX_CACHE_MB */
	bool ra_cache_mb_given;
	u32 stripe_cache_mb;		/* MiB, geometry minimum..4096 */
	bool stripe_cache_mb_given;
	u32 max_read_errors;		/* repaired read errors before a member fails */
	bool max_read_errors_given;
	bool superblock;		/* raid6: members carry the superblock */
	u32 safe_mode_delay;		/* ms, with superblock */
	bool safe_mode_delay_given;
	u32 bitmap_region;		/* write-intent bitmap region, sectors */
	bool bitmap_given;
	u64 readd;			/* bit i: "readd i" was given */
	/*
	 * A grow under way: array sectors below reshape_pos are in
	 * geom (every member), the rest in old_geom (the first
	 * reshape_old_ndevs members); len is the old capacity.
	 */
	bool reshape;
	u32 reshape_old_ndevs;
	u64 reshape_pos;
	struct fr_geom old_geom;
	unsigned int nmembers;
	struct rc_member members[FR_MAX_DEVS];
	const char *error;		/* static text of the last failure */
	unsigned int error_arg;		/* table word just past a parse error */
	int error_dev;			/* member the failure is about, or -1 */
};

/**
 * @brief Parse a fanraid table line already split into words.
 *
 * Accepts the target arguments as dmsetup prints them, with or without
 * the leading "<start> <len>":
 *
 *	[<start> <len>] fanraid <level> <chunk_sectors> <#feature_args>
 *		[<feature> [<value>]]* <#devs> <dev> <offset> [<dev> <offset>]...
 *
 * Features (all optional, each at most once, the count counts words and
 * is at most RC_FEATURE_WORDS_MAX), in the target's canonical order:
 * flush_policy passthrough|dirty|drop, max_sync_rate <KiB/s>,
 * min_sync_rate <KiB/s>, rebuild <idx>
 * (raid6, up to twice), resync (raid6), readahead on|off, ra_window
 * <1-64 stripes>, ra_cache_mb <0-4096>, stripe_cache_mb <MiB> (raid6,
 * fr_r6_stripe_cache_min_mb()..4096), max_read_errors <count> (raid6),
 * superblock (raid6), safe_mode_delay <ms> (with superblock), bitmap
 * <region_sectors> (with superblock), readd <idx> (with bitmap, up to
 * twice), reshape <old_ndevs> <position> (raid0). Only rebuild and readd
 * (they mark members rebuilding) and reshape (two layouts, split at the
 * position) change what raidcalc does; the rest steer the running target,
 * never the layout, and are kept for rc_array_format(). "- -" as a
 * pair is a missing raid6 member; at most two members may be missing or
 * rebuilding. Messages match the target's.
 *
 * @param a     Filled on success; a->error names the problem on failure.
 * @param len   Target length in sectors when the words carry none; 0
 *              means the words must carry it. A length in the words wins
 *              only if @p len is 0, otherwise the two must agree.
 *
 * Members are not opened. Every number must be a whole decimal word.
 * The operations below set a->error (static text) and a->error_dev (the
 * member concerned, or -1) when they fail.
 *
 * @return 0, or -EINVAL with a->error and a->error_arg set.
 */
int rc_array_parse(struct rc_array *a, int argc, char *const *argv, u64 len);

/**
 * @brief Print the table line that recreates @p a, target words only
 * ("fanraid raid6 ..."), in the kernel's canonical TABLE form: the
 * features that were given, in the order listed at rc_array_parse().
 *
 * @return bytes that a complete line needs (like snprintf), or -EINVAL.
 */
int rc_array_format(const struct rc_array *a, char *buf, size_t size);

/**
 * @brief Open every member and check that it holds offset + data area.
 *
 * Missing members are skipped.
 * "MAJ:MIN" names are resolved through /sys/dev/block/MAJ:MIN/uevent to
 * /dev/<DEVNAME>. Block devices are opened O_DIRECT so reads bypass the
 * page cache; regular files are not.
 *
 * @param writable Open read-write.
 * @return 0, or -errno with a->error set and a->error_dev the member.
 */
int rc_array_open(struct rc_array *a, bool writable);

/** @brief Close whatever rc_array_open() opened; safe to call twice. */
void rc_array_close(struct rc_array *a);

/**
 * @brief The /dev path of block device @p major:@p minor.
 *
 * Read from sysfs's uevent DEVNAME, so it works without udev (no
 * /dev/block/MAJ:MIN links in the test VM). The fanraid tool uses it too.
 *
 * @return 0, -ENOENT when sysfs names no device, -ENAMETOOLONG when the
 * path does not fit @p size, or -errno from opening sysfs.
 */
int rc_devno_path(u32 major, u32 minor, char *path, size_t size);

/**
 * @brief Read or write @p bytes of member @p dev at byte @p pos of its
 * data area (the member offset is added here). Loops over short
 * transfers. With O_DIRECT, @p buf, @p pos and @p bytes must be 4 KiB
 * aligned; rc_array_buf_alloc() gives such buffers.
 *
 * @return 0, -EIO on a short transfer (end of member), or -errno.
 */
int rc_array_pread(const struct rc_array *a, unsigned int dev, void *buf,
		   size_t bytes, u64 pos);
int rc_array_pwrite(const struct rc_array *a, unsigned int dev,
		    const void *buf, size_t bytes, u64 pos);

/** Buffer alignment good for O_DIRECT and for ISA-L's fast paths. */
#define RC_BUF_ALIGN	4096

/** @brief Allocate @p bytes aligned to RC_BUF_ALIGN; NULL on failure. */
void *rc_array_buf_alloc(size_t bytes);

/** One parity block that does not match its row's data. */
struct rc_mismatch {
	u64 row;		/* stripe row */
	u32 dev;		/* member holding the bad block */
	/*
	 * FR_BLOCK_P or FR_BLOCK_Q; FR_BLOCK_DATA when P and Q, both read,
	 * together name that member's data block as the one that is wrong
	 * (fanraid/syndrome.h), which is then reported instead of them
	 */
	enum fr_block_kind kind;
	bool ambiguous;		/* P and Q both wrong, no single block explains it */
	u64 sector;		/* first bad sector, in the data area */
};

/** Called once per bad parity block; a non-zero return stops the scan. */
typedef int (*rc_mismatch_fn)(const struct rc_mismatch *m, void *ctx);

/**
 * @brief Check P and Q of rows [@p first, @p first + @p count) of an
 * open RAID6 array, reading at most RC_SLICE_BYTES per member at a time.
 *
 * @param fn  Told about each mismatching parity block, may be NULL.
 * @param bad Set to the number of mismatching parity blocks found.
 * Members being rebuilt are read as they are, so rows they have not
 * reached yet will mismatch. With one member missing, the parity block it
 * held is not checked, and a data chunk it held is rebuilt from P so that
 * Q still checks the row.
 *
 * @return 0 when the scan finished (whatever it found), -EINVAL for a
 *         RAID0 array, two missing members or rows past the end, -errno
 *         on I/O error, or @p fn's non-zero return.
 */
int rc_array_verify(struct rc_array *a, u64 first, u64 count,
		    rc_mismatch_fn fn, void *ctx, u64 *bad);

/** Largest read per member in one step of a row scan. */
#define RC_SLICE_BYTES	(256u * 1024)

/**
 * @brief Copy logical sectors [@p logical, + @p nsectors) of an open
 * array into @p fd, mapping each chunk with fr_geom_map(). Missing and
 * rebuilding members, and member @p failed if >= 0, are not read: their
 * chunks are rebuilt with rc_recover() from the rest of the row (RAID6,
 * at most two such members).
 *
 * @return 0, -EINVAL for a range past the target length or too many lost
 *         members, or -errno.
 */
int rc_array_read(struct rc_array *a, u64 logical, u64 nsectors, int fd,
		  int failed);

/**
 * @brief Lay out a logical image read from @p fd onto the members of an
 * open, writable array, computing P and Q for RAID6. The whole member
 * data area of every present member is written; bytes past the end of
 * @p fd (or past the target length) are zero. @p fd must be seekable.
 *
 * @return 0 or -errno.
 */
int rc_array_build(struct rc_array *a, int fd);

/**
 * @brief Rewrite member @p dev of an open, writable RAID6 array from the
 * other members, row by row. Other missing or rebuilding members count as
 * lost too; with @p dev at most two.
 *
 * @return 0 or -errno.
 */
int rc_array_rebuild(struct rc_array *a, unsigned int dev);

/*
 * The same array described by options instead of a table line
 * (`raidcalc verify --level 6 --chunk 512K --data-offset 1M MEMBER...`).
 */

/** What the options say; everything in 512-byte sectors. */
struct rc_array_spec {
	u32 level;		/* enum fr_level */
	u32 ndevs;		/* members */
	u32 chunk_sectors;
	u64 data_offset;	/* where the data area starts, on every member */
	u64 len;		/* array (logical) size, 0 when not given */
	u64 member_sectors;	/* whole member size, 0: measure the members */
	const char *const *names; /* ndevs paths, "missing" for an absent
				   * one; NULL for geometry alone */
};

/**
 * @brief Fill @p a from @p s as rc_array_parse() would from the equivalent
 * table line, so both forms share every operation below.
 *
 * The member data area is, in order of preference:
 *  - fr_geom_member_sectors_for(@p s->len), the kernel's rule, when the
 *    array size is given;
 *  - @p s->member_sectors minus the data offset, rounded down to whole
 *    chunks;
 *  - the smallest present member (file or block device, measured here)
 *    minus the data offset, rounded down to whole chunks.
 * In the last two cases the array size is the resulting capacity.
 *
 * Members are not opened. "missing" needs raid6; at most two.
 *
 * @return 0, or -errno with a->error (static text) and a->error_dev set.
 */
int rc_array_define(struct rc_array *a, const struct rc_array_spec *s);

/**
 * @brief Parse a byte size, the one syntax of raidcalc and fanraid:
 * decimal digits (no leading zero), then optionally K, M, G or T (powers
 * of 1024; "KiB" and "KB" too), s (512-byte sectors) or b (bytes), in any
 * case. A plain number is bytes.
 *
 * @return 0, -EINVAL for anything else, -ERANGE past 64 bits.
 */
int rc_parse_size(const char *s, u64 *bytes);

/**
 * @brief Print @p bytes with the largest suffix that divides it exactly
 * ("512K", "7M", "1000"), so rc_parse_size() reads it back.
 *
 * @return what snprintf() returns.
 */
int rc_format_size(u64 bytes, char *buf, size_t size);

/** Mismatches rc_array_verify_jobs() keeps for its report. */
#define RC_VERIFY_KEEP	16

/** What a parallel verify found. */
struct rc_verify_report {
	u64 rows;		/* rows checked */
	u64 bad;		/* mismatching parity blocks, all of them */
	unsigned int nkept;	/* entries in kept[] */
	struct rc_mismatch kept[RC_VERIFY_KEEP]; /* the lowest rows, P first */
	unsigned int jobs;	/* threads that ran */
};

/** Told every so often how many of @p total rows are done. */
typedef void (*rc_progress_fn)(u64 done, u64 total, void *ctx);

/**
 * @brief rc_array_verify() on @p jobs threads: rows are handed out in
 * batches from a shared counter, each thread reads with its own buffers
 * and its own copy of @p a, so parity work and I/O overlap across cores.
 *
 * @param jobs     Threads, 1..RC_MAX_JOBS; fewer when there are fewer
 *                 batches than threads.
 * @param progress Called from the calling thread about 4 times a second
 *                 while the threads run, and once at the end; may be NULL.
 * @param r        The result; its kept[] is sorted by row, P before Q.
 *
 * With one member missing, each row is still checked as far as it can be:
 * the parity the missing member held is skipped, and a missing data chunk
 * is rebuilt from P so that Q checks the whole row.
 *
 * @return 0 when the scan finished (whatever it found), -EINVAL for raid0,
 *         two missing members or rows past the end, -errno on I/O error
 *         (a->error and a->error_dev say where).
 */
int rc_array_verify_jobs(struct rc_array *a, u64 first, u64 count,
			 unsigned int jobs, rc_progress_fn progress,
			 void *ctx, struct rc_verify_report *r);

/** Most threads rc_array_verify_jobs() starts. */
#define RC_MAX_JOBS	64

/**
 * @brief Rebuild the members in @p want (bitmask, one or two members of an
 * open raid6 array) from the others, writing each one's data area to
 * @p fds[member] at the byte position the member itself would hold it
 * (its offset plus the position in the data area). Missing and rebuilding
 * members count as lost too; at most two lost in all. The members are only
 * read.
 *
 * @return 0 or -errno, with a->error and a->error_dev set.
 */
int rc_array_recover(struct rc_array *a, u64 want, const int *fds);

#endif /* RAIDCALC_H */
