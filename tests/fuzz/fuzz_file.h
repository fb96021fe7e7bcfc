/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fuzz target whose parser reads a file (fuzz_config): the input goes to one temp
 * file per process, made on the first call and rewritten on each. */
#ifndef NP_FUZZ_FILE_H
#define NP_FUZZ_FILE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* $TMPDIR, else /tmp.  A tmpfs there (TMPDIR=/dev/shm) runs the targets
 * that write their input twice as fast as a disk: every run rewrites it. */
static inline const char *np_fuzz_tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	return d && d[0] == '/' ? d : "/tmp";
}

/* path: a buffer of len bytes, "" before the first call; name: the file's
 * name below np_fuzz_tmpdir(), a template ending in XXXXXX */
static inline void np_fuzz_to_file(char *path, size_t len, const char *name,
				   const uint8_t *data, size_t size)
{
	int fd;

	if (!path[0]) {
		if ((size_t)snprintf(path, len, "%s/%s", np_fuzz_tmpdir(), name) >= len)
			abort();
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
	}
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

#endif
