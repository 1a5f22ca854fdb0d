/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * userspace/config.c: /etc/fanraid.conf as mdadm.conf's shape has it:
 * keywords in any case, comments, continuation lines, ARRAY by UUID, AUTO,
 * and a named refusal for every malformed line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "table.h"

#define U1 "6f1c2e0a-93b4-4a51-8f7d-2b8e5c0d9a11"

static void test_conf_empty_admits_everything(void **state)
{
	struct fr_conf c;
	uint8_t uuid[FR_UUID_LEN] = { 1 };

	(void)state;
	assert_int_equal(fr_conf_parse("t", "", &c), 0);
	assert_true(c.auto_all);
	assert_int_equal(c.ndevices, 0);
	assert_true(fr_conf_array_ok(&c, uuid));
	assert_true(fr_conf_device_ok(&c, "/dev/anything"));
	assert_string_equal(c.program, "");
	fr_conf_free(&c);
}

static void test_conf_parses_every_keyword(void **state)
{
	const char *text =
		"# a comment\n"
		"device /dev/nvme*n1   # trailing comment\n"
		"DEVICE /dev/sd*\n"
		"  /dev/vd*\n"			/* continues the DEVICE line */
		"ARRAY data UUID=" U1 " level=raid6 devices=6 spare-group=ssd\n"
		"\n"
		"ARRAY UUID=6f1c2e0a93b44a518f7d2b8e5c0d9a12 name=two\n"
		"AUTO no\n"
		"MAILADDR root ops@example.com\n"
		"MailFrom fanraid@host\n"
		"PROGRAM /usr/local/sbin/fanraid-event\n";
	uint8_t uuid[FR_UUID_LEN], other[FR_UUID_LEN] = { 0 };
	const struct fr_conf_array *a;
	struct fr_conf c;

	(void)state;
	assert_int_equal(fr_conf_parse("t", text, &c), 0);
	assert_int_equal(c.ndevices, 3);
	assert_string_equal(c.devices[0], "/dev/nvme*n1");
	assert_string_equal(c.devices[2], "/dev/vd*");
	assert_int_equal(c.narrays, 2);
	assert_false(c.auto_all);
	assert_string_equal(c.mailaddr, "root ops@example.com");
	assert_string_equal(c.mailfrom, "fanraid@host");
	assert_string_equal(c.program, "/usr/local/sbin/fanraid-event");
	assert_int_equal(fr_uuid_parse(U1, uuid), 0);
	a = fr_conf_array_find(&c, uuid);
	assert_non_null(a);
	assert_string_equal(a->name, "data");
	assert_int_equal(a->level, FR_LEVEL_RAID6);
	assert_int_equal(a->ndevs, 6);
	assert_string_equal(a->spare_group, "ssd");
	assert_string_equal(c.arrays[1].spare_group, "");
	assert_string_equal(c.arrays[1].name, "two");
	assert_int_equal(c.arrays[1].level, UINT32_MAX);
	/* AUTO no: only listed arrays */
	assert_true(fr_conf_array_ok(&c, uuid));
	assert_false(fr_conf_array_ok(&c, other));
	fr_conf_free(&c);
}

static void test_conf_auto_yes_admits_unlisted(void **state)
{
	uint8_t other[FR_UUID_LEN] = { 0 };
	struct fr_conf c;

	(void)state;
	assert_int_equal(fr_conf_parse("t", "ARRAY a UUID=" U1 "\nAUTO yes\n", &c), 0);
	assert_true(fr_conf_array_ok(&c, other));
	fr_conf_free(&c);
}

static void test_conf_rejects_malformed_lines(void **state)
{
	static const char *const bad[] = {
		"ARRAY data\n",				/* no UUID */
		"ARRAY data UUID=xyz\n",
		"ARRAY data UUID=" U1 " level=5\n",
		"ARRAY data UUID=" U1 " devices=0\n",
		"ARRAY data UUID=" U1 " devices=65\n",
		"ARRAY -bad UUID=" U1 "\n",		/* invalid name */
		"ARRAY a UUID=" U1 " extra\n",		/* a second bare word */
		"ARRAY a UUID=" U1 " spare-group=\n",	/* empty group */
		"ARRAY a UUID=" U1 " spare-group=a/b\n",	/* not a name */
		"AUTO maybe\n",
		"AUTO\n",
		"MAILADDR\n",
		"PROGRAM\n",
		"FROBNICATE yes\n",
	};
	struct fr_conf c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (fr_conf_parse("t", bad[i], &c) == 0)
			fail_msg("accepted: %s", bad[i]);
	}
}

static void test_conf_unknown_array_key_is_ignored(void **state)
{
	struct fr_conf c;

	(void)state;
	assert_int_equal(fr_conf_parse("t", "ARRAY a UUID=" U1 " spares=1\n", &c), 0);
	assert_int_equal(c.narrays, 1);
	fr_conf_free(&c);
}

static void test_conf_missing_file_is_empty(void **state)
{
	struct fr_conf c;

	(void)state;
	assert_int_equal(fr_conf_load("/nonexistent/fanraid.conf", &c), 0);
	assert_false(c.exists);
	assert_int_equal(c.narrays, 0);
	fr_conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_empty_admits_everything),
		cmocka_unit_test(test_conf_parses_every_keyword),
		cmocka_unit_test(test_conf_auto_yes_admits_unlisted),
		cmocka_unit_test(test_conf_rejects_malformed_lines),
		cmocka_unit_test(test_conf_unknown_array_key_is_ignored),
		cmocka_unit_test(test_conf_missing_file_is_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
