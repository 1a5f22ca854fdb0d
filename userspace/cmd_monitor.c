/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fanraid monitor [--oneshot] [--config FILE]
 *
 * One thread per running array blocks in DM_DEVICE_WAITEVENT (dmwait.c);
 * when the target raises an event (a member failed, a sync started or
 * ended, the device is going away) it reads the status again, compares it
 * with what it saw before and reports the difference (event.c). New
 * arrays are found from the kernel's block uevents through libudev, so
 * nothing polls. --oneshot reports the arrays that are degraded or failed
 * now and exits, for a daily reminder (as mdadm --monitor --oneshot).
 *
 * Events (mdadm's names where md has the same thing): NewArray,
 * DeviceDisappeared, Fail, DegradedArray, FailedArray, ResyncStarted,
 * ResyncFinished, RebuildStarted, RebuildFinished, CheckStarted,
 * CheckFinished, MismatchesFound; and SpareActivated, fanraid's own.
 *
 * Hot spares: whenever a raid6 array shows a dead or missing slot (at
 * start, and after every event), the monitor rebuilds it onto a spare of
 * that array (fanraid add) with replace's steps, as mdadm --monitor does
 * for md, so nobody has to be there. The kernel cannot: a spare is no
 * table member, and the table must name what the slot holds.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libudev.h>

#include "cli.h"
#include "config.h"
#include "dm.h"
#include "dmwait.h"
#include "event.h"
#include "spare.h"
#include "status.h"
#include "table.h"

struct snap {
	uint32_t level;
	uint32_t ndevs;
	char health[FR_MAX_DEVS + 1];
	char action[FR_ACTION_MAX + 1];
	uint64_t mismatch_cnt;
	char paths[FR_MAX_DEVS][FR_PATH_MAX];
};

struct watch {
	char name[128];
	struct watch *next;
};

static const struct fr_conf *conf;
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static struct watch *watches;

static int snap_read(const char *name, struct snap *s)
{
	struct fr_dm_target table, info;
	struct fr_status st;
	struct fr_table t;
	uint32_t i;
	int ret;

	ret = fr_dm_status(name, FR_DM_TABLE, &table);
	if (!ret)
		ret = fr_dm_status(name, FR_DM_INFO, &info);
	if (ret)
		return ret;
	if (fr_table_parse(table.params, &t) || fr_status_parse(info.params, &st) ||
	    st.ndevs != t.ndevs)
		return -EINVAL;
	s->level = t.level;
	s->ndevs = t.ndevs;
	memcpy(s->health, st.health, sizeof(s->health));
	memcpy(s->action, st.action, sizeof(s->action));
	s->mismatch_cnt = st.mismatch_cnt;
	for (i = 0; i < t.ndevs; i++)
		fr_table_dev_path(&t.devs[i], s->paths[i]);
	return 0;
}

static uint32_t dead_count(const struct snap *s)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->ndevs; i++)
		n += s->health[i] == 'D';
	return n;
}

/* DegradedArray or FailedArray for an array short of members, else nothing. */
static void report_health(const char *name, const struct snap *s)
{
	uint32_t dead = dead_count(s);
	char detail[64];

	if (!dead)
		return;
	snprintf(detail, sizeof(detail), "%u of %u members dead or missing",
		 dead, s->ndevs);
	fr_event_notify(conf, dead > (s->level == FR_LEVEL_RAID6 ? 2u : 0u) ?
			"FailedArray" : "DegradedArray", name, detail);
}

static const char *action_event(const char *action, bool started)
{
	if (!strcmp(action, "resync"))
		return started ? "ResyncStarted" : "ResyncFinished";
	if (!strcmp(action, "recover"))
		return started ? "RebuildStarted" : "RebuildFinished";
	return started ? "CheckStarted" : "CheckFinished";
}

static void report_changes(const char *name, const struct snap *old,
			   const struct snap *s)
{
	char detail[FR_PATH_MAX + 64];
	bool failed = false;
	uint32_t i;

	for (i = 0; i < s->ndevs && i < old->ndevs; i++) {
		if (old->health[i] == 'D' || s->health[i] != 'D')
			continue;
		snprintf(detail, sizeof(detail), "slot %u (%s)", i, old->paths[i]);
		fr_event_notify(conf, "Fail", name, detail);
		failed = true;
	}
	if (failed)
		report_health(name, s);
	/*
	 * The target raises an event when a sync or scrub ends, not when it
	 * starts, so a scrub that ran between two events shows only as idle
	 * before and after with a new mismatch count. One that found the
	 * same count as the last cannot be told from no scrub at all.
	 */
	if (!strcmp(old->action, "idle") && !strcmp(s->action, "idle") &&
	    s->mismatch_cnt != old->mismatch_cnt) {
		snprintf(detail, sizeof(detail), "%llu mismatched sectors",
			 (unsigned long long)s->mismatch_cnt);
		fr_event_notify(conf, "CheckFinished", name, detail);
		if (s->mismatch_cnt)
			fr_event_notify(conf, "MismatchesFound", name, detail);
	}
	if (strcmp(old->action, s->action)) {
		if (strcmp(old->action, "idle")) {
			snprintf(detail, sizeof(detail), "%llu mismatched sectors",
				 (unsigned long long)s->mismatch_cnt);
			fr_event_notify(conf, action_event(old->action, false),
					name, s->level == FR_LEVEL_RAID6 ?
					detail : "");
			if (s->mismatch_cnt && (!strcmp(old->action, "check") ||
						!strcmp(old->action, "repair")))
				fr_event_notify(conf, "MismatchesFound", name,
						detail);
		}
		if (strcmp(s->action, "idle"))
			fr_event_notify(conf, action_event(s->action, true),
					name, "");
	}
}

/*
 * A spare lent by another array of @uuid's spare group (fanraid.conf's
 * ARRAY ... spare-group=NAME, as mdadm's): 1 and its path in @path, or 0.
 */
static int group_spare(const uint8_t *uuid, char path[FR_PATH_MAX])
{
	char spares[FR_MAX_SPARES][FR_PATH_MAX];
	const struct fr_conf_array *a = fr_conf_array_find(conf, uuid), *o;
	struct fr_table none = { .ndevs = 0 };
	int i;

	if (!a || !*a->spare_group)
		return 0;
	for (i = 0; i < conf->narrays; i++) {
		o = &conf->arrays[i];
		if (o == a || strcmp(o->spare_group, a->spare_group))
			continue;
		if (fr_spares_find(o->uuid, &none, spares) > 0) {
			snprintf(path, FR_PATH_MAX, "%s", spares[0]);
			return 1;
		}
	}
	return 0;
}

/*
 * Every dead or missing slot of a raid6 array gets a spare while there
 * are some: its own first, then one of its spare group's.
 */
static void use_spares(const char *name, const struct snap *s)
{
	char spares[FR_MAX_SPARES][FR_PATH_MAX], detail[FR_PATH_MAX + 64];
	uint8_t uuid[FR_UUID_LEN];
	struct fr_table t;
	unsigned int flags;
	uint64_t len;
	uint32_t i;
	int n;

	if (s->level != FR_LEVEL_RAID6 || !dead_count(s))
		return;
	for (i = 0; i < s->ndevs; i++) {
		if (s->health[i] != 'D')
			continue;
		if (fr_array_open(name, &t, &len, uuid))
			return;
		flags = 0;
		n = fr_spares_find(uuid, &t, spares);
		if (n <= 0) {
			n = group_spare(uuid, spares[0]);
			flags = FR_REPLACE_SPARE_GROUP;
		}
		if (n <= 0)
			return;
		if (fr_replace_slot(name, i, spares[0], flags)) {
			fr_warn("%s: rebuilding slot %u onto spare %s failed",
				name, i, spares[0]);
			return;
		}
		fflush(stdout);
		snprintf(detail, sizeof(detail), "slot %u rebuilding onto %s", i,
			 spares[0]);
		/* mdadm's MoveSpare: a spare that came from another array */
		fr_event_notify(conf, flags ? "MoveSpare" : "SpareActivated",
				name, detail);
	}
}

static void watch_drop(struct watch *w)
{
	struct watch **p;

	pthread_mutex_lock(&watch_lock);
	for (p = &watches; *p; p = &(*p)->next)
		if (*p == w) {
			*p = w->next;
			break;
		}
	pthread_mutex_unlock(&watch_lock);
	free(w);
}

/*
 * Event counter first, status second, then wait on that counter: an event
 * between the two reads makes the wait return at once, so none is lost.
 */
static void *watch_thread(void *arg)
{
	struct watch *w = arg;
	struct snap *buf = calloc(2, sizeof(*buf)), *old = buf, *cur = buf + 1;
	uint32_t nr;
	int ret;

	if (!buf)
		goto out;
	if (fr_dm_event_nr(w->name, &nr) || snap_read(w->name, old))
		goto out;
	report_health(w->name, old);
	use_spares(w->name, old);
	for (;;) {
		struct snap *t;

		ret = fr_dm_wait_event(w->name, nr);
		if (!ret)
			ret = fr_dm_event_nr(w->name, &nr);
		if (!ret)
			ret = snap_read(w->name, cur);
		if (ret == -ENXIO)
			break;
		if (ret) {
			fr_warn("%s: reading status failed: %s", w->name,
				strerror(-ret));
			continue;
		}
		report_changes(w->name, old, cur);
		use_spares(w->name, cur);
		t = old;
		old = cur;
		cur = t;
	}
	fr_event_notify(conf, "DeviceDisappeared", w->name, "");
out:
	free(buf);
	watch_drop(w);
	return NULL;
}

static int watch_add(const char *name, void *arg)
{
	struct fr_dm_target t;
	bool *announce = arg;
	struct watch *w;
	pthread_attr_t attr;
	pthread_t th;

	/* only fanraid devices: the status call tells */
	if (fr_dm_status(name, FR_DM_TABLE, &t))
		return 0;
	pthread_mutex_lock(&watch_lock);
	for (w = watches; w; w = w->next)
		if (!strcmp(w->name, name))
			break;
	if (w) {
		pthread_mutex_unlock(&watch_lock);
		return 0;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		pthread_mutex_unlock(&watch_lock);
		return -ENOMEM;
	}
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->next = watches;
	watches = w;
	pthread_mutex_unlock(&watch_lock);
	if (*announce)
		fr_event_notify(conf, "NewArray", name, "");
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &attr, watch_thread, w)) {
		watch_drop(w);
		fr_warn("%s: cannot start a watcher thread", name);
	}
	pthread_attr_destroy(&attr);
	return 0;
}

static int oneshot_one(const char *name, void *arg)
{
	struct snap s;

	(void)arg;
	if (!snap_read(name, &s))
		report_health(name, &s);
	return 0;
}

/* The kernel's block uevents (no udev daemon needed): a dm device came or changed. */
static struct udev_monitor *uevents_open(struct udev **udev)
{
	struct udev_monitor *mon;

	*udev = udev_new();
	if (!*udev)
		return NULL;
	mon = udev_monitor_new_from_netlink(*udev, "kernel");
	if (mon && (udev_monitor_filter_add_match_subsystem_devtype(mon, "block", "disk") ||
		    udev_monitor_enable_receiving(mon))) {
		udev_monitor_unref(mon);
		mon = NULL;
	}
	return mon;
}

int fr_cmd_monitor(const struct fr_opts *o)
{
	struct udev_monitor *mon;
	struct udev *udev;
	bool announce = false;
	struct pollfd pfd;
	int ret;

	fr_conf_set_path(o->config);
	conf = fr_conf_get();
	if (!conf)
		return FR_EXIT_FAIL;
	if (o->oneshot) {
		ret = fr_dm_list(oneshot_one, NULL);
		return ret ? FR_EXIT_FAIL : FR_EXIT_OK;
	}
	if (!*conf->program && !*conf->mailaddr)
		fr_warn("no PROGRAM or MAILADDR in %s: events are only printed",
			conf->path);
	/* a PROGRAM that exits early must not kill us through a pipe */
	signal(SIGPIPE, SIG_IGN);
	/* subscribe before listing, so an array made in between is not missed */
	mon = uevents_open(&udev);
	if (!mon) {
		fr_err("monitor: cannot listen to kernel uevents");
		return FR_EXIT_FAIL;
	}
	ret = fr_dm_list(watch_add, &announce);
	if (ret) {
		fr_err("device-mapper: listing devices failed: %s", strerror(-ret));
		return FR_EXIT_FAIL;
	}
	printf("monitoring fanraid arrays\n");
	fflush(stdout);
	announce = true;
	pfd.fd = udev_monitor_get_fd(mon);
	pfd.events = POLLIN;
	for (;;) {
		struct udev_device *d;
		const char *sysname;

		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			fr_err("monitor: poll: %s", strerror(errno));
			break;
		}
		d = udev_monitor_receive_device(mon);
		if (!d)
			continue;
		sysname = udev_device_get_sysname(d);
		/* dm announces a loaded table with a change event on resume */
		if (sysname && !strncmp(sysname, "dm-", 3))
			fr_dm_list(watch_add, &announce);
		udev_device_unref(d);
	}
	udev_monitor_unref(mon);
	udev_unref(udev);
	return FR_EXIT_FAIL;
}
