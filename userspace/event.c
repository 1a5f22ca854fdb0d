/* SPDX-License-Identifier: GPL-2.0-only */
/* Event delivery: log, PROGRAM, mail (event.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "event.h"

/* What md mails about, in fanraid's words; the rest only goes to the log and PROGRAM. */
bool fr_event_mailed(const char *event)
{
	static const char *const mailed[] = {
		"Fail", "DegradedArray", "FailedArray", "MismatchesFound",
		"TestMessage",
	};
	size_t i;

	for (i = 0; i < sizeof(mailed) / sizeof(mailed[0]); i++)
		if (!strcmp(event, mailed[i]))
			return true;
	return false;
}

/* Runs @argv and waits for it; its output goes where ours goes. */
static int run_wait(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
}

/* PROGRAM may carry arguments of its own, so the shell splits it. */
static void run_program(const char *program, const char *event,
			const char *array, const char *detail)
{
	char *argv[] = {
		"/bin/sh", "-c", "exec $0 \"$@\"", (char *)program,
		(char *)event, (char *)array, (char *)detail, NULL,
	};
	int ret;

	if (!*detail)
		argv[6] = NULL;
	ret = run_wait(argv);
	if (ret)
		fr_warn("PROGRAM %s %s %s: exit %d", program, event, array, ret);
}

static void send_mail(const struct fr_conf *c, const char *event,
		      const char *array, const char *detail)
{
	char host[256] = "localhost", cmd[FR_CONF_STR_MAX + 64], self[256];
	FILE *p, *st = NULL;
	ssize_t n;
	int ret;

	gethostname(host, sizeof(host) - 1);
	/* -t: the recipients are in the To: header, -i: a lone '.' is text */
	snprintf(cmd, sizeof(cmd), "%s -t -i", FR_SENDMAIL);
	p = popen(cmd, "we");
	if (!p) {
		fr_warn("%s: cannot run: %s", FR_SENDMAIL, strerror(errno));
		return;
	}
	if (*c->mailfrom)
		fprintf(p, "From: %s\n", c->mailfrom);
	fprintf(p, "To: %s\nSubject: %s event on %s:%s\n\n", c->mailaddr,
		event, array, host);
	fprintf(p, "This is an automatically generated mail message from fanraid\nrunning on %s.\n\n",
		host);
	fprintf(p, "A %s event has been detected on fanraid array %s%s%s.\n\n",
		event, array, *detail ? ": " : "", detail);
	fflush(p);
	/* the array as `fanraid status` shows it, from this very binary */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0 && !memchr(self, '\'', n) && !strchr(array, '\'')) {
		self[n] = '\0';
		snprintf(cmd, sizeof(cmd), "'%s' status '%s' 2>&1", self, array);
		st = popen(cmd, "re");
	}
	if (st) {
		char line[512];

		fprintf(p, "Current status:\n\n");
		while (fgets(line, sizeof(line), st))
			fputs(line, p);
		pclose(st);
	}
	ret = pclose(p);
	if (ret)
		fr_warn("%s: mail to %s failed (status %d)", FR_SENDMAIL,
			c->mailaddr, ret);
}

/* Threads report one event at a time, so lines and mails do not interleave. */
static pthread_mutex_t notify_lock = PTHREAD_MUTEX_INITIALIZER;

void fr_event_notify(const struct fr_conf *c, const char *event,
		     const char *array, const char *detail)
{
	pthread_mutex_lock(&notify_lock);
	printf("%s %s%s%s\n", event, array, *detail ? " " : "", detail);
	fflush(stdout);
	if (*c->program)
		run_program(c->program, event, array, detail);
	if (*c->mailaddr && fr_event_mailed(event))
		send_mail(c, event, array, detail);
	pthread_mutex_unlock(&notify_lock);
}
