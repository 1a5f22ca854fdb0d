/* SPDX-License-Identifier: GPL-2.0-only */
/* Event delivery: log, PROGRAM, mail (event.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

/*
 * Starts @argv with stdin from @in and stdout to @out (-1: ours), without
 * a shell: the monitor may run where /bin/sh is not (an initramfs).
 */
static pid_t spawn(char *const argv[], int in, int out)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if ((in >= 0 && dup2(in, STDIN_FILENO) < 0) ||
	    (out >= 0 && dup2(out, STDOUT_FILENO) < 0))
		_exit(126);
	execv(argv[0], argv);
	_exit(127);
}

static int wait_child(pid_t pid)
{
	int status;

	if (pid < 0)
		return -errno;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
}

/* PROGRAM EVENT ARRAY [DETAIL], executed directly as mdadm does. */
static void run_program(const char *program, const char *event,
			const char *array, const char *detail)
{
	char *argv[] = {
		(char *)program, (char *)event, (char *)array, (char *)detail,
		NULL,
	};
	int ret;

	if (!*detail)
		argv[3] = NULL;
	ret = wait_child(spawn(argv, -1, -1));
	if (ret)
		fr_warn("PROGRAM %s %s %s: exit %d", program, event, array, ret);
}

/* The message on sendmail's stdin, then `fanraid status ARRAY` from this very binary. */
static void send_mail(const struct fr_conf *c, const char *event,
		      const char *array, const char *detail)
{
	/* -t: the recipients are in the To: header, -i: a lone '.' is text */
	char *mail_argv[] = { FR_SENDMAIL, "-t", "-i", NULL };
	char host[256] = "localhost", self[256];
	char *st_argv[] = { self, "status", (char *)array, NULL };
	pid_t mail;
	ssize_t n;
	FILE *f;
	int p[2], ret;

	gethostname(host, sizeof(host) - 1);
	if (pipe2(p, O_CLOEXEC)) {
		fr_warn("mail: pipe: %s", strerror(errno));
		return;
	}
	mail = spawn(mail_argv, p[0], -1);
	close(p[0]);
	f = fdopen(p[1], "w");
	if (!f) {
		close(p[1]);
		wait_child(mail);
		return;
	}
	if (*c->mailfrom)
		fprintf(f, "From: %s\n", c->mailfrom);
	fprintf(f, "To: %s\nSubject: %s event on %s:%s\n\n", c->mailaddr,
		event, array, host);
	fprintf(f, "This is an automatically generated mail message from fanraid\nrunning on %s.\n\n",
		host);
	fprintf(f, "A %s event has been detected on fanraid array %s%s%s.\n\n",
		event, array, *detail ? ": " : "", detail);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		fprintf(f, "Current status:\n\n");
		fflush(f);
		wait_child(spawn(st_argv, -1, p[1]));
	}
	fclose(f);
	ret = wait_child(mail);
	if (ret)
		fr_warn("%s: mail to %s failed (exit %d)", FR_SENDMAIL,
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
