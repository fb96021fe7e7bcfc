/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A whole text file given by a user (a machine model, the configuration):
 * untrusted, so bounded.  Opened non-blocking, because opening a FIFO for
 * reading waits for a writer and would hang the command (with a device lock
 * held); only regular files, because /dev/zero or a pipe never ends; at most
 * `max` bytes, checked again while reading since the file may grow.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "np_private.h"

int np_text_file_read(int dirfd, const char *path, size_t max, char **ret, size_t *ret_len)
{
	struct stat sb;
	size_t got = 0, cap;
	char *buf;
	int fd, r = 0;

	fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0)
		r = -errno;
	else if (S_ISDIR(sb.st_mode))
		r = -EISDIR;
	else if (!S_ISREG(sb.st_mode))
		r = -EINVAL;
	else if (sb.st_size < 0 || (unsigned long long)sb.st_size > max)
		r = -EFBIG;
	if (r < 0) {
		close(fd);
		return r;
	}
	/* one byte more than the size: a file that grew is noticed */
	cap = (size_t)sb.st_size + 2;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n = read(fd, buf + got, cap - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
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
	close(fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[got] = '\0';
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
	return strerror(code < 0 ? -code : code);
}
