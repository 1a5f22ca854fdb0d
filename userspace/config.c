/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /etc/fanraid.conf (config.h has the grammar). Parsing is pure, on a
 * string, so the unit tests drive every refusal; loading reads the file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "config.h"
#include "table.h"
#include "util.h"

#define FR_CONF_MAX_BYTES	(1 << 20)

void fr_conf_free(struct fr_conf *c)
{
	int i;

	for (i = 0; i < c->ndevices; i++)
		free(c->devices[i]);
	free(c->devices);
	free(c->arrays);
	memset(c, 0, sizeof(*c));
}

static int add_device(struct fr_conf *c, const char *pattern)
{
	char **nd = realloc(c->devices, (c->ndevices + 1) * sizeof(*nd));

	if (!nd)
		return -ENOMEM;
	c->devices = nd;
	nd[c->ndevices] = strdup(pattern);
	if (!nd[c->ndevices])
		return -ENOMEM;
	c->ndevices++;
	return 0;
}

/* ARRAY [NAME] UUID=... [level=...] [devices=N] [name=NAME] [spare-group=NAME] */
static int parse_array(struct fr_conf *c, char **w, int n, int line)
{
	struct fr_conf_array a = { .level = UINT32_MAX }, *na;
	bool have_uuid = false;
	int i;

	for (i = 1; i < n; i++) {
		char *v = strchr(w[i], '=');
		const char *name = NULL;

		if (!v) {
			if (i != 1)
				goto bad;
			name = w[i];
		} else {
			*v++ = '\0';
			if (!strcasecmp(w[i], "uuid")) {
				if (fr_uuid_parse(v, a.uuid))
					goto bad;
				have_uuid = true;
			} else if (!strcasecmp(w[i], "level")) {
				if (fr_level_parse(v, &a.level))
					goto bad;
			} else if (!strcasecmp(w[i], "devices")) {
				if (fr_parse_u32(v, &a.ndevs) || !a.ndevs ||
				    a.ndevs > FR_MAX_DEVS)
					goto bad;
			} else if (!strcasecmp(w[i], "name")) {
				name = v;
			} else if (!strcasecmp(w[i], "spare-group")) {
				/* mdadm's key: arrays that lend each other spares */
				if (!fr_name_is_valid(v))
					goto bad;
				snprintf(a.spare_group, sizeof(a.spare_group),
					 "%s", v);
			} else {
				/* as mdadm: words a newer tool writes are not errors */
				fr_warn("%s:%d: ARRAY: unknown key '%s' ignored",
					c->path, line, w[i]);
			}
		}
		if (name) {
			if (!fr_name_is_valid(name))
				goto bad;
			snprintf(a.name, sizeof(a.name), "%s", name);
		}
	}
	if (!have_uuid) {
		fr_err("%s:%d: ARRAY needs UUID=", c->path, line);
		return -EINVAL;
	}
	na = realloc(c->arrays, (c->narrays + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	c->arrays = na;
	na[c->narrays++] = a;
	return 0;
bad:
	fr_err("%s:%d: ARRAY: invalid word '%s'", c->path, line, w[i]);
	return -EINVAL;
}

static int set_string(struct fr_conf *c, char *dst, char **w, int n, int line)
{
	size_t pos = 0;
	int i;

	if (n < 2) {
		fr_err("%s:%d: %s needs a value", c->path, line, w[0]);
		return -EINVAL;
	}
	/* PROGRAM may take arguments, MAILADDR several addresses */
	for (i = 1; i < n; i++)
		pos += snprintf(dst + pos, pos < FR_CONF_STR_MAX ?
				FR_CONF_STR_MAX - pos : 0, "%s%s",
				i > 1 ? " " : "", w[i]);
	if (pos >= FR_CONF_STR_MAX) {
		fr_err("%s:%d: %s: value too long", c->path, line, w[0]);
		return -EINVAL;
	}
	return 0;
}

/* One logical line, split into words (@w points into @buf). */
static int parse_line(struct fr_conf *c, char *buf, int line)
{
	char *w[FR_MAX_DEVS * 2 + 8], *save = NULL, *t;
	int n = 0, i;

	for (t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == (int)(sizeof(w) / sizeof(w[0]))) {
			fr_err("%s:%d: too many words", c->path, line);
			return -EINVAL;
		}
		w[n++] = t;
	}
	if (!n)
		return 0;
	if (!strcasecmp(w[0], "DEVICE")) {
		for (i = 1; i < n; i++) {
			/* mdadm's keyword for "every device the kernel lists" */
			if (!strcasecmp(w[i], "partitions"))
				t = "/dev/*";
			else
				t = w[i];
			if (add_device(c, t))
				return -ENOMEM;
		}
		return 0;
	}
	if (!strcasecmp(w[0], "ARRAY"))
		return parse_array(c, w, n, line);
	if (!strcasecmp(w[0], "AUTO")) {
		if (n == 2 && (!strcasecmp(w[1], "yes") || !strcasecmp(w[1], "+all"))) {
			c->auto_all = true;
			return 0;
		}
		if (n == 2 && (!strcasecmp(w[1], "no") || !strcasecmp(w[1], "-all"))) {
			c->auto_all = false;
			return 0;
		}
		fr_err("%s:%d: AUTO takes yes or no", c->path, line);
		return -EINVAL;
	}
	if (!strcasecmp(w[0], "MAILADDR"))
		return set_string(c, c->mailaddr, w, n, line);
	if (!strcasecmp(w[0], "MAILFROM"))
		return set_string(c, c->mailfrom, w, n, line);
	if (!strcasecmp(w[0], "PROGRAM"))
		return set_string(c, c->program, w, n, line);
	fr_err("%s:%d: unknown keyword '%s'", c->path, line, w[0]);
	return -EINVAL;
}

/*
 * Joins continuation lines (leading blank) onto their keyword line, drops
 * comments, and hands each logical line to parse_line().
 */
int fr_conf_parse(const char *path, const char *text, struct fr_conf *c)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *logical = malloc(cap);
	int line = 0, start = 0, ret = 0;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->auto_all = true;
	if (!logical)
		return -ENOMEM;
	while (*text && !ret) {
		const char *end = strchrnul(text, '\n');
		const char *hash = memchr(text, '#', end - text);
		size_t n = (hash ? hash : end) - text;

		line++;
		if (!(text[0] == ' ' || text[0] == '\t') && len) {
			logical[len] = '\0';
			ret = parse_line(c, logical, start);
			len = 0;
		}
		if (!len)
			start = line;
		if (len)
			logical[len++] = ' ';
		memcpy(logical + len, text, n);
		len += n;
		text = *end ? end + 1 : end;
	}
	if (!ret && len) {
		logical[len] = '\0';
		ret = parse_line(c, logical, start);
	}
	free(logical);
	if (ret)
		fr_conf_free(c);
	else
		c->path = path;
	return ret;
}

int fr_conf_load(const char *path, struct fr_conf *c)
{
	char *text;
	size_t n;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		if (ret != -ENOENT) {
			fr_err("%s: cannot open: %s", path, strerror(-ret));
			return ret;
		}
		return fr_conf_parse(path, "", c);
	}
	text = malloc(FR_CONF_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(text, 1, FR_CONF_MAX_BYTES + 1, f);
	fclose(f);
	if (n > FR_CONF_MAX_BYTES) {
		fr_err("%s: larger than %d bytes", path, FR_CONF_MAX_BYTES);
		free(text);
		return -EFBIG;
	}
	text[n] = '\0';
	ret = fr_conf_parse(path, text, c);
	free(text);
	if (!ret)
		c->exists = true;
	return ret;
}

static const char *conf_path;
static struct fr_conf conf;
static int conf_state;		/* 0: not loaded, 1: loaded, -1: failed */

void fr_conf_set_path(const char *path)
{
	conf_path = path;
}

const struct fr_conf *fr_conf_get(void)
{
	const char *path = conf_path ? conf_path : getenv("FANRAID_CONF");

	if (!conf_state)
		conf_state = fr_conf_load(path && *path ? path : FR_CONF_PATH,
					  &conf) ? -1 : 1;
	return conf_state > 0 ? &conf : NULL;
}

/*
 * DEVICE patterns are globbed, not matched as strings, so a by-id link
 * admits the node it points to, as mdadm does.
 */
bool fr_conf_device_ok(const struct fr_conf *c, const char *path)
{
	struct stat want, st;
	bool ok = false;
	int i;
	size_t j;

	if (!c || !c->ndevices)
		return true;
	if (stat(path, &want) || !S_ISBLK(want.st_mode))
		return false;
	for (i = 0; i < c->ndevices && !ok; i++) {
		glob_t g;

		if (glob(c->devices[i], 0, NULL, &g))
			continue;
		for (j = 0; j < g.gl_pathc && !ok; j++)
			ok = !stat(g.gl_pathv[j], &st) && S_ISBLK(st.st_mode) &&
			     st.st_rdev == want.st_rdev;
		globfree(&g);
	}
	return ok;
}

const struct fr_conf_array *fr_conf_array_find(const struct fr_conf *c,
					       const uint8_t *uuid)
{
	int i;

	for (i = 0; c && i < c->narrays; i++)
		if (!memcmp(c->arrays[i].uuid, uuid, FR_UUID_LEN))
			return &c->arrays[i];
	return NULL;
}

/* Without ARRAY lines every array may assemble; with them, AUTO decides the rest. */
bool fr_conf_array_ok(const struct fr_conf *c, const uint8_t *uuid)
{
	if (!c || !c->narrays)
		return true;
	return fr_conf_array_find(c, uuid) || c->auto_all;
}
