/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What `try` takes from outside: the --log directory it writes the
 * workload's output into, and that output, where the --metric pattern is
 * looked for.  netpolicy runs as root: the directory is trusted as the
 * state directory is (owned by root or the caller, writable by nobody
 * else), its files are opened without following links and an existing one
 * of another owner is not truncated.  The output is the workload's, so
 * anything: the pattern (a backtracking matcher: a back reference can take
 * exponential time) is matched, by try_metric.c, in a child process that is
 * killed after TRY_MATCH_MAX_S or at a signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "try_run.h"

/* the part of the output searched for the metric: the end, where iperf3,
 * netperf and sockperf print their summaries */
#define TRY_OUTPUT_MAX (1 << 20)
/* a metric taking longer than this to find is the pattern's fault */
#define TRY_MATCH_MAX_S 5

int try_log_dir_open(const char *dir)
{
	struct stat sb;
	int fd;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "netpolicy: try: --log %s: %s\n", dir, strerror(errno));
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0) {
		fprintf(stderr, "netpolicy: try: --log %s: %s\n", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (sb.st_uid != 0 && sb.st_uid != geteuid()) {
		fprintf(stderr, "netpolicy: try: --log %s: not trusted: owned by uid %u, not by "
			"root\n", dir, (unsigned)sb.st_uid);
		close(fd);
		return -1;
	}
	if (sb.st_mode & 0022) {
		fprintf(stderr, "netpolicy: try: --log %s: not trusted: writable by others "
			"(mode %04o)\n", dir, (unsigned)(sb.st_mode & 07777));
		close(fd);
		return -1;
	}
	return fd;
}

int try_log_file_open(int dirfd, const char *name)
{
	struct stat sb;
	int fd;

	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		    O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    ftruncate(fd, 0) < 0) {
		int e = fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode) ? EINVAL :
			sb.st_uid != geteuid() ? EPERM : errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int try_metric(const regex_t *re, int fd, double *ret)
{
	struct { int r; double v; } res = { -EIO, 0 };
	off_t end = lseek(fd, 0, SEEK_END);
	int p[2], status;
	bool ready = false;
	ssize_t n = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		char *buf = malloc(TRY_OUTPUT_MAX + 1);

		close(p[0]);
		res.r = -ENOMEM;
		if (buf) {
			lseek(fd, end > TRY_OUTPUT_MAX ? end - TRY_OUTPUT_MAX : 0, SEEK_SET);
			n = read(fd, buf, TRY_OUTPUT_MAX);
			res.r = try_find_metric(re, buf, n > 0 ? (size_t)n : 0, &res.v);
		}
		_exit(write(p[1], &res, sizeof(res)) == sizeof(res) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -errno;
	}
	/* a signal to netpolicy is acted on within 0.1 s, whatever the pattern does */
	for (int waited = 0; waited < TRY_MATCH_MAX_S * 10 && !cli_signal_received(); waited++) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };

		if (poll(&pfd, 1, 100) > 0) {
			n = read(p[0], &res, sizeof(res));
			ready = true;
			break;
		}
	}
	if (!ready)
		res.r = cli_signal_received() ? -EINTR : -ETIME;
	else if (n != (ssize_t)sizeof(res))
		res.r = -EIO;
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(p[0]);
	*ret = res.v;
	return res.r;
}

/* the part of the output read for a failed run's last lines */
#define TRY_TAIL_READ 4096
#define TRY_TAIL_LINE 160

void try_output_tail(int fd, char *buf, size_t size)
{
	char raw[TRY_TAIL_READ];
	size_t at[TRY_TAIL_LINES], len[TRY_TAIL_LINES], pos, used = 0;
	struct stat sb;
	off_t from;
	ssize_t n;
	int lines = 0;

	buf[0] = '\0';
	if (size < 2 || fstat(fd, &sb) < 0 || sb.st_size <= 0)
		return;
	from = sb.st_size > TRY_TAIL_READ ? sb.st_size - TRY_TAIL_READ : 0;
	n = pread(fd, raw, sizeof(raw), from);
	if (n <= 0)
		return;
	pos = (size_t)n;
	while (pos && (raw[pos - 1] == '\n' || raw[pos - 1] == '\r'))
		pos--;
	/* the lines from the end back; the first one read is cut unless the
	 * file starts there, and shown only when it is the only one */
	while (lines < TRY_TAIL_LINES && pos) {
		size_t q = pos;

		while (q && raw[q - 1] != '\n')
			q--;
		if (!q && from > 0 && lines)
			break;
		at[lines] = q;
		len[lines++] = pos - q;
		pos = q ? q - 1 : 0;
	}
	for (int i = lines - 1; i >= 0; i--) {
		size_t l = len[i] > TRY_TAIL_LINE ? TRY_TAIL_LINE : len[i];

		if (used + l + 2 > size)
			break;
		if (used)
			buf[used++] = '\n';
		for (size_t k = 0; k < l; k++) {
			unsigned char ch = (unsigned char)raw[at[i] + k];

			/* the workload's bytes, never a terminal's escape */
			buf[used++] = ch == '\t' ? ' ' : ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
		}
	}
	buf[used] = '\0';
}
