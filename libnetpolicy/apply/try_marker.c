/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The marker of a try in progress: "<stem>.try" beside its journal, one line
 * "PID START ROUND CONDITION" (START: the process's start time, field 22 of
 * /proc/PID/stat, in clock ticks since boot).  A try's journal looks like an
 * interrupted run's to every reader (show, check, metrics); the marker tells
 * them the run is alive.  A pid alone is not enough: after the process died
 * the pid may be another process's, whose start time differs.  The marker
 * is removed when the run ends; a marker whose process is gone (killed) is
 * ignored, and its journal is then the interrupted run it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/np_store.h"

/* The start time of process pid (field 22 of /proc/PID/stat, after the
 * command name in parentheses, which may itself hold spaces and ')'); 0
 * when there is no such process.  The machine's /proc, not a --root's:
 * the try runs on this machine whatever root it reads devices from. */
static unsigned long long proc_start(long pid)
{
	char path[48], buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* after ") ": state is field 3, start time field 22 */
	if (!p || sscanf(p + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%*s %*s %*s %*s %llu", &start) != 1)
		return 0;
	return start;
}

int np_store_try_mark(struct np_store *s, const char *condition, unsigned round,
		      struct np_error *err)
{
	char line[160];
	long pid = (long)getpid();

	if (!condition || !condition[0] || strchr(condition, '\n') || strlen(condition) >= 64)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "a condition's name of one line "
			      "of at most 63 bytes");
	snprintf(line, sizeof(line), "%ld %llu %u %s\n", pid, proc_start(pid), round, condition);
	return np_store_write(s, NP_FILE_TRY, line, err);
}

void np_store_try_unmark(struct np_store *s)
{
	struct np_error ignored;

	np_error_clear(&ignored);
	if (s->dirfd >= 0 && np_store_remove(s, NP_FILE_TRY, &ignored) < 0)
		np_log(s->ctx, NP_LOG_WARNING, "%s: %s (a stale try marker is ignored)", s->ifname,
		       ignored.msg);
}

int np_store_try_live(struct np_store *s, struct np_try_live *ret)
{
	unsigned long long start;
	char *text = NULL, cond[64];
	struct np_error ignored;
	size_t len;
	long pid;
	int n = 0;

	memset(ret, 0, sizeof(*ret));
	np_error_clear(&ignored);
	if (!np_store_has(s, NP_FILE_TRY) || np_store_read(s, NP_FILE_TRY, &text, &len, &ignored) < 0)
		return 0;
	/* a marker not of this form (damaged) is no live try */
	if (sscanf(text, "%ld %llu %u %63[^\n]%n", &pid, &start, &ret->round, cond, &n) != 4 ||
	    pid <= 0 || !start || proc_start(pid) != start) {
		free(text);
		return 0;
	}
	free(text);
	ret->pid = pid;
	snprintf(ret->condition, sizeof(ret->condition), "%s", cond);
	return 1;
}
