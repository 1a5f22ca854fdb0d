/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/probe.c with libblkid replaced by scripted fakes (test_probe.mk):
 * R17's contract (-errno on a failed probe, 0 plus a description when a
 * signature is found, 1 when clean), the wording create prints, topology,
 * the bounded wipe loop, and that every probe is freed on every path.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <blkid.h>

#include "probe.h"

static struct {
	bool new_fails;
	bool set_device_fails;
	int fullprobe;
	const char *type, *usage, *label, *pttype;
	int allocated;
	int freed;
	int probes_left;	/* blkid_do_probe returns 0 this many times */
	int wipes;
	bool wipe_fails;
	bool no_topology;
} fake;

static char fake_probe;
static char fake_topology;

blkid_probe __wrap_blkid_new_probe(void)
{
	if (fake.new_fails)
		return NULL;
	fake.allocated++;
	return (blkid_probe)&fake_probe;
}

void __wrap_blkid_free_probe(blkid_probe pr)
{
	assert_ptr_equal(pr, &fake_probe);
	fake.freed++;
}

int __wrap_blkid_probe_set_device(blkid_probe pr, int fd, blkid_loff_t off,
				  blkid_loff_t size)
{
	(void)pr;
	(void)fd;
	(void)off;
	(void)size;
	return fake.set_device_fails ? -1 : 0;
}

int __wrap_blkid_probe_enable_superblocks(blkid_probe pr, int enable)
{
	(void)pr;
	assert_int_equal(enable, 1);
	return 0;
}

int __wrap_blkid_probe_set_superblocks_flags(blkid_probe pr, int flags)
{
	(void)pr;
	(void)flags;
	return 0;
}

int __wrap_blkid_probe_enable_partitions(blkid_probe pr, int enable)
{
	(void)pr;
	assert_int_equal(enable, 1);
	return 0;
}

int __wrap_blkid_probe_set_partitions_flags(blkid_probe pr, int flags)
{
	(void)pr;
	(void)flags;
	return 0;
}

int __wrap_blkid_do_fullprobe(blkid_probe pr)
{
	(void)pr;
	return fake.fullprobe;
}

int __wrap_blkid_do_probe(blkid_probe pr)
{
	(void)pr;
	if (fake.probes_left < 0)
		return 0;	/* a signature that never goes away */
	return fake.probes_left-- > 0 ? 0 : 1;
}

int __wrap_blkid_do_wipe(blkid_probe pr, int dryrun)
{
	(void)pr;
	assert_int_equal(dryrun, 0);
	fake.wipes++;
	return fake.wipe_fails ? -1 : 0;
}

int __wrap_blkid_probe_lookup_value(blkid_probe pr, const char *name,
				    const char **data, size_t *len)
{
	const char *v = NULL;

	(void)pr;
	(void)len;
	if (!strcmp(name, "TYPE"))
		v = fake.type;
	else if (!strcmp(name, "USAGE"))
		v = fake.usage;
	else if (!strcmp(name, "LABEL"))
		v = fake.label;
	else if (!strcmp(name, "PTTYPE"))
		v = fake.pttype;
	if (!v)
		return -1;
	*data = v;
	return 0;
}

blkid_loff_t __wrap_blkid_probe_get_size(blkid_probe pr)
{
	(void)pr;
	return 64ll << 30;
}

blkid_topology __wrap_blkid_probe_get_topology(blkid_probe pr)
{
	(void)pr;
	return fake.no_topology ? NULL : (blkid_topology)&fake_topology;
}

unsigned long __wrap_blkid_topology_get_minimum_io_size(blkid_topology tp)
{
	(void)tp;
	return 4096;
}

unsigned long __wrap_blkid_topology_get_optimal_io_size(blkid_topology tp)
{
	(void)tp;
	return 1 << 20;
}

unsigned long __wrap_blkid_topology_get_alignment_offset(blkid_topology tp)
{
	(void)tp;
	return 0;
}

static int reset(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.fullprobe = 0;
	return 0;
}

static int check_freed(void **state)
{
	(void)state;
	assert_int_equal(fake.allocated, fake.freed);
	return 0;
}

static int t_signatures(char *desc, size_t len)
{
	struct fr_member m;

	fr_member_init(&m, "/dev/fake");
	m.fd = 0;
	return fr_probe_signatures(&m, desc, len);
}

static void test_probe_clean_member_is_one(void **state)
{
	char desc[FR_PROBE_DESC_MAX] = "";

	(void)state;
	fake.fullprobe = 1;
	assert_int_equal(t_signatures(desc, sizeof(desc)), 1);
	/* a probe that finds neither TYPE nor PTTYPE is clean too */
	fake.fullprobe = 0;
	assert_int_equal(t_signatures(desc, sizeof(desc)), 1);
}

static void test_probe_describes_what_it_found(void **state)
{
	static const struct {
		const char *type, *usage, *label, *pttype, *want;
	} cases[] = {
		{ "ext4", "filesystem", "precious", NULL,
		  "an existing ext4 filesystem (label 'precious')" },
		{ "xfs", "filesystem", NULL, NULL, "an existing xfs filesystem" },
		{ "linux_raid_member", "raid", "host:0", NULL,
		  "an existing linux_raid_member RAID superblock (label 'host:0')" },
		{ "crypto_LUKS", "crypto", NULL, NULL,
		  "existing crypto_LUKS encrypted data" },
		{ "swap", "other", NULL, NULL, "an existing swap signature" },
		{ NULL, NULL, NULL, "gpt", "a gpt partition table" },
		{ "btrfs", "filesystem", "", "dos",
		  "an existing btrfs filesystem" },
	};
	char desc[FR_PROBE_DESC_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake.type = cases[i].type;
		fake.usage = cases[i].usage;
		fake.label = cases[i].label;
		fake.pttype = cases[i].pttype;
		assert_int_equal(t_signatures(desc, sizeof(desc)), 0);
		assert_string_equal(desc, cases[i].want);
	}
}

static void test_probe_errors_are_negative_and_free_the_probe(void **state)
{
	char desc[FR_PROBE_DESC_MAX];

	(void)state;
	fake.fullprobe = -1;
	assert_int_equal(t_signatures(desc, sizeof(desc)), -EIO);
	fake.fullprobe = 1;
	fake.set_device_fails = true;
	assert_int_equal(t_signatures(desc, sizeof(desc)), -EIO);
	fake.new_fails = true;
	assert_int_equal(t_signatures(desc, sizeof(desc)), -ENOMEM);
}

static void test_probe_topology_fills_member(void **state)
{
	struct fr_member m;

	(void)state;
	fr_member_init(&m, "/dev/fake");
	m.fd = 0;
	assert_int_equal(fr_probe_topology(&m), 0);
	assert_true(m.size == 64ull << 30);
	assert_int_equal(m.min_io, 4096);
	assert_int_equal(m.opt_io, 1 << 20);
	fake.no_topology = true;
	fr_member_init(&m, "/dev/fake");
	m.fd = 0;
	assert_int_equal(fr_probe_topology(&m), 0);
	assert_int_equal(m.opt_io, 0);
}

/* A wipe erases until the probe finds nothing, and gives up on a stuck one. */
static void test_probe_wipe_loops_until_clean_and_is_bounded(void **state)
{
	char path[] = "/tmp/test_probe.XXXXXX";
	struct fr_member m;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	fr_member_init(&m, path);
	m.fd = fd;
	fake.probes_left = 3;
	assert_int_equal(fr_wipe_signatures(&m), 0);
	assert_int_equal(fake.wipes, 3);
	fake.wipes = 0;
	fake.probes_left = -1;
	assert_int_equal(fr_wipe_signatures(&m), -EIO);
	assert_int_equal(fake.wipes, 64);
	fake.probes_left = 2;
	fake.wipe_fails = true;
	assert_int_equal(fr_wipe_signatures(&m), -EIO);
	close(fd);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, reset, check_freed)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_probe_clean_member_is_one),
		T(test_probe_describes_what_it_found),
		T(test_probe_errors_are_negative_and_free_the_probe),
		T(test_probe_topology_fills_member),
		T(test_probe_wipe_loops_until_clean_and_is_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
