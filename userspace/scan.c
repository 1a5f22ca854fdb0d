/* SPDX-License-Identifier: GPL-2.0-only */
/* Block device enumeration for examine --scan (scan.h). */
#include <errno.h>
#include <string.h>

#include <libudev.h>

#include "cli.h"
#include "scan.h"

static int visit(const struct fr_conf *c, const char *node, fr_scan_fn fn,
		 void *arg)
{
	struct fr_member m;
	int ret;

	if (!fr_conf_device_ok(c, node))
		return 0;
	fr_member_init(&m, node);
	ret = fr_member_open(&m, FR_OPEN_READ);
	if (ret)
		return 0;	/* an empty drive bay, a busy CD: not ours */
	ret = fr_sb_read(&m);
	fr_member_close(&m);
	if (ret || m.sb_err == FR_SB_EMAGIC)
		return 0;
	if (m.sb_err) {
		fr_warn("%s: skipped: %s", node, fr_sb_strerror(m.sb_err));
		return 0;
	}
	return fn(&m, arg);
}

int fr_scan_members(const struct fr_conf *c, fr_scan_fn fn, void *arg)
{
	struct udev_list_entry *e;
	struct udev_enumerate *en;
	struct udev *udev;
	int ret = -ENOMEM;

	udev = udev_new();
	if (!udev)
		goto err;
	en = udev_enumerate_new(udev);
	if (!en)
		goto err_udev;
	if (udev_enumerate_add_match_subsystem(en, "block") ||
	    udev_enumerate_scan_devices(en)) {
		ret = -EIO;
		goto err_en;
	}
	ret = 0;
	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en)) {
		struct udev_device *d;
		const char *node;

		d = udev_device_new_from_syspath(udev,
						 udev_list_entry_get_name(e));
		if (!d)
			continue;
		node = udev_device_get_devnode(d);
		if (node)
			ret = visit(c, node, fn, arg);
		udev_device_unref(d);
		if (ret)
			break;
	}
err_en:
	udev_enumerate_unref(en);
err_udev:
	udev_unref(udev);
err:
	if (ret < 0)
		fr_err("enumerating block devices failed: %s", strerror(-ret));
	return ret;
}
