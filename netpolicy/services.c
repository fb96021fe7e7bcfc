/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Services found by what they publish (below --root for tests): a pid
 * file, else the cgroup of their systemd unit, and the one process named
 * there checked by its comm.  Never a walk of /proc: a command's cost does
 * not grow with the processes on the machine. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void cli_below_root(const struct cli *c, char *buf, size_t len, const char *path)
{
	snprintf(buf, len, "%s%s", c->root ? c->root : "", path);
}

bool cli_pid_is(const struct cli *c, long pid, const char *name)
{
	char rel[48], path[512], comm[32];
	ssize_t n;
	int fd;

	if (pid <= 0)
		return false;
	snprintf(rel, sizeof(rel), "/proc/%ld/comm", pid);
	cli_below_root(c, path, sizeof(path), rel);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	comm[n > 0 ? n : 0] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	return !strcmp(comm, name);
}

/* The first numbers of a file (a pid file, cgroup.procs), at most max. */
static size_t read_pids(const char *path, long *pids, size_t max)
{
	char buf[256], *p = buf, *end;
	size_t n = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return 0;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	while (n < max) {
		long pid = strtol(p, &end, 10);

		if (end == p || pid <= 0)
			break;
		pids[n++] = pid;
		p = end;
	}
	return n;
}

long cli_service_pid(const struct cli *c, const char *name, const char *pidfile)
{
	/* systemd's unit cgroup, unified hierarchy first, then the v1 one */
	static const char *const cgroups[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/systemd" };
	char rel[256], path[PATH_MAX];
	long pids[4];
	size_t n;

	if (pidfile) {
		cli_below_root(c, path, sizeof(path), pidfile);
		if (read_pids(path, pids, 1) == 1 && cli_pid_is(c, pids[0], name))
			return pids[0];
	}
	for (size_t i = 0; i < sizeof(cgroups) / sizeof(cgroups[0]); i++) {
		snprintf(rel, sizeof(rel), "%s/system.slice/%s.service/cgroup.procs", cgroups[i], name);
		cli_below_root(c, path, sizeof(path), rel);
		/* the main process and a few of its children (NetworkManager
		 * keeps its helpers in its unit) */
		n = read_pids(path, pids, sizeof(pids) / sizeof(pids[0]));
		for (size_t k = 0; k < n; k++)
			if (cli_pid_is(c, pids[k], name))
				return pids[k];
		if (n)
			break;
	}
	return 0;
}
