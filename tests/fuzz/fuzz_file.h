/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The fuzz targets whose parser reads a file: the input goes to one temp
 * file per process, made on the first call and rewritten on each. */
#ifndef NP_FUZZ_FILE_H
#define NP_FUZZ_FILE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* path: a buffer of len bytes, "" before the first call; tmpl: mkstemp's */
static inline void np_fuzz_to_file(char *path, size_t len, const char *tmpl,
				   const uint8_t *data, size_t size)
{
	int fd;

	if (!path[0]) {
		snprintf(path, len, "%s", tmpl);
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
