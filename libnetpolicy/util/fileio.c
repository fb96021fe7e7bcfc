/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small sysfs/procfs files, always relative to a root directory fd so the
 * same code reads the live system and fixture trees. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "np_private.h"

/* What this thread has read through the functions below: statistics for
 * the counted-read tests and bench/, never an input to any decision. */
static _Thread_local struct np_io_stats stats;

void np_io_stats_get(struct np_io_stats *ret)
{
	*ret = stats;
}

void np_io_stats_reset(void)
{
	stats = (struct np_io_stats){ 0 };
}

static int open_at(int dirfd, const char *path, int flags)
{
	int fd;

	while (*path == '/')
		path++;
	fd = openat(dirfd, path, flags | O_CLOEXEC);
	stats.opens++;
	return fd < 0 ? -errno : fd;
}

int np_open_dir_at(int dirfd, const char *path)
{
	return open_at(dirfd, path, O_RDONLY | O_DIRECTORY);
}

int np_dir_names(int fd, int (*fn)(const char *name, void *arg), void *arg)
{
	/* aligned for struct dirent64, which getdents64 fills */
	union {
		struct dirent64 de;
		char buf[8192];
	} u;
	ssize_t n;

	while ((n = getdents64(fd, u.buf, sizeof(u.buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *de = (const struct dirent64 *)(u.buf + off);
			int r = fn(de->d_name, arg);

			if (r)
				return r;
			off += de->d_reclen;
		}
	}
	return n < 0 ? -errno : 0;
}

int np_exists_at(int dirfd, const char *path)
{
	while (*path == '/')
		path++;
	stats.lookups++;
	return faccessat(dirfd, path, F_OK, 0) < 0 ? -errno : 0;
}

int np_read_file_at(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	size_t got = 0;
	int fd;

	if (!len)
		return -ENOSPC;
	fd = open_at(dirfd, path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	for (;;) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		stats.bytes += (uint64_t)n;
		/* sysfs and procfs hand out a whole attribute in one read, and a
		 * regular file reads short only at its end: a short read is the
		 * end, which saves a second read(2) per file (discovery reads a
		 * few per queue). */
		if (got < len - 1)
			break;
		if (got == len - 1) {
			char c;

			/* A file larger than the buffer must not be read as a
			 * truncated (and so wrong) value. */
			if (read(fd, &c, 1) > 0) {
				close(fd);
				return -ENOSPC;
			}
			break;
		}
	}
	close(fd);
	while (got && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
		got--;
	buf[got] = '\0';
	return (int)got;
}

int np_read_u64_at(int dirfd, const char *path, uint64_t *ret)
{
	char buf[64], *end;
	unsigned long long v;
	int r;

	r = np_read_file_at(dirfd, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno || end == buf || *end)
		return -EINVAL;
	*ret = v;
	return 0;
}

int np_read_u32_at(int dirfd, const char *path, uint32_t *ret)
{
	uint64_t v;
	int r;

	r = np_read_u64_at(dirfd, path, &v);
	if (r < 0)
		return r;
	if (v > UINT32_MAX)
		return -ERANGE;
	*ret = (uint32_t)v;
	return 0;
}

int np_parse_triple(const char *buf, uint32_t v[3])
{
	const char *p = buf;

	for (int i = 0; i < 3; i++) {
		unsigned long long x;
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		x = strtoull(p, &end, 10);
		if (errno || x > INT32_MAX)
			return -ERANGE;
		v[i] = (uint32_t)x;
		p = end;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return *p ? -EINVAL : 0;
}

int np_write_file_at(int dirfd, const char *path, const char *value)
{
	size_t len = strlen(value);
	ssize_t n;
	int fd, r = 0;

	while (*path == '/')
		path++;
	fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	/* sysfs and procfs take a value in one write; a short write is an error. */
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && !r)
		r = -errno;
	return r;
}

int np_read_int_at(int dirfd, const char *path, int *ret)
{
	char buf[32], *end;
	long v;
	int r;

	r = np_read_file_at(dirfd, path, buf, sizeof(buf));
	if (r < 0)
		return r;
	errno = 0;
	v = strtol(buf, &end, 10);
	/* ids and NUMA nodes: -1 means "none" in sysfs */
	if (errno || end == buf || *end || v < -1 || v > 1 << 24)
		return -EINVAL;
	*ret = (int)v;
	return 0;
}

int np_read_link_name_at(int dirfd, const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	while (*path == '/')
		path++;
	stats.lookups++;
	n = readlinkat(dirfd, path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

int np_for_each_line_at(int dirfd, const char *path, int (*fn)(char *line, void *arg), void *arg)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int fd, r = 0;

	fd = open_at(dirfd, path, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	while (!r && (n = getline(&line, &cap, f)) > 0) {
		stats.bytes += (uint64_t)n;
		r = fn(line, arg);
	}
	free(line);
	fclose(f);
	return r;
}

int np_write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
