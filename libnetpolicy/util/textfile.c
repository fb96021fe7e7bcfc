/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A whole text file given by a user (a machine model, the configuration, a
 * custom policy): untrusted, so bounded.  Opened non-blocking, because
 * opening a FIFO for reading waits for a writer and would hang the command
 * (with a device lock held); only regular files, because /dev/zero or a pipe
 * never ends; at most `max` bytes, checked again while reading since the
 * file may grow.
 *
 * Files that decide what root writes to the machine (netpolicy.conf, the
 * policies of policies.d: a custom policy sets machine-wide sysctls) are
 * read as they are only when nobody but root could have written them: owned
 * by root or by the user running netpolicy, and not writable by group or
 * others (NP_TEXT_TRUSTED); the state directory is held to the same rule
 * (store.c).  The check is made on the file opened (fstat), so a rename
 * between check and read cannot swap it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "np_private.h"

int np_stat_trusted(const struct stat *sb, char *why, size_t why_len)
{
	uid_t me = geteuid();

	if (sb->st_uid != 0 && sb->st_uid != me) {
		if (me)
			snprintf(why, why_len, "owned by uid %u, not by root or uid %u",
				 (unsigned)sb->st_uid, (unsigned)me);
		else
			snprintf(why, why_len, "owned by uid %u, not by root", (unsigned)sb->st_uid);
		return -EPERM;
	}
	if (sb->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, why_len, "writable by %s (mode %04o)",
			 (sb->st_mode & S_IWOTH) ? "others" : "its group",
			 (unsigned)(sb->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

int np_trusted_dir_open(int dirfd, const char *path, char *why, size_t why_len)
{
	struct stat sb;
	int fd, r;

	do
		fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		snprintf(why, why_len, "%s", strerror(errno));
		return -errno;
	}
	if (fstat(fd, &sb) < 0) {
		r = -errno;
		snprintf(why, why_len, "%s", strerror(-r));
	} else {
		r = np_stat_trusted(&sb, why, why_len);
	}
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int np_text_file_read(int dirfd, const char *path, size_t max, char **ret, size_t *ret_len)
{
	return np_text_file_read_guarded(dirfd, path, max, 0, NULL, 0, ret, ret_len);
}

/* Whether the open file may be read: a regular file, trusted when asked,
 * at most max bytes. */
static int check_opened(int fd, size_t max, unsigned flags, char *why, size_t why_len,
			struct stat *sb)
{
	if (fstat(fd, sb) < 0)
		return -errno;
	if (S_ISDIR(sb->st_mode))
		return -EISDIR;
	if (!S_ISREG(sb->st_mode))
		return -EINVAL;
	if ((flags & NP_TEXT_TRUSTED) && np_stat_trusted(sb, why, why_len) < 0)
		return -EPERM;
	if (sb->st_size < 0 || (unsigned long long)sb->st_size > max)
		return -EFBIG;
	return 0;
}

/* Read fd to its end into a buffer sized from the stat (one byte more than
 * the size, so a file that grew is noticed) and grown up to max. */
static int read_all(int fd, size_t size, size_t max, char **ret, size_t *ret_len)
{
	size_t got = 0, cap = size + 2;
	char *buf = malloc(cap);
	int r = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read(fd, buf + got, cap - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		got += (size_t)n;
		if (got > max) {
			r = -EFBIG;
			break;
		}
		if (got == cap - 1) {
			char *nb;

			if (cap - 1 > max) {
				r = -EFBIG;
				break;
			}
			cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
		}
	}
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[got] = '\0';
	*ret = buf;
	*ret_len = got;
	return 0;
}

int np_text_file_read_guarded(int dirfd, const char *path, size_t max, unsigned flags,
			      char *why, size_t why_len, char **ret, size_t *ret_len)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	char scratch[96], *buf = NULL;
	struct stat sb;
	size_t got = 0;
	int fd, r;

	if (!why) {
		why = scratch;
		why_len = sizeof(scratch);
	}
	if (why_len)
		why[0] = '\0';
	if (flags & NP_TEXT_NOFOLLOW)
		oflags |= O_NOFOLLOW;
	do
		fd = openat(dirfd, path, oflags);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	r = check_opened(fd, max, flags, why, why_len, &sb);
	if (r >= 0)
		r = read_all(fd, (size_t)sb.st_size, max, &buf, &got);
	close(fd);
	if (r < 0)
		return r;
	*ret = buf;
	if (ret_len)
		*ret_len = got;
	return 0;
}

const char *np_text_file_strerror(int code)
{
	if (code == -EINVAL || code == EINVAL)
		return "not a regular file";
	if (code == -EFBIG || code == EFBIG)
		return "file too large";
	if (code == -ELOOP || code == ELOOP)
		return "a symbolic link (not followed here)";
	return strerror(code < 0 ? -code : code);
}
