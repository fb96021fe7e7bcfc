/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers the unit tests share: fixture trees and readable masks. */
#ifndef NP_TEST_FIXTURE_H
#define NP_TEST_FIXTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#include "np_cpumask.h"

/* A directory fd on tests/fixtures/sysfs/NAME (NP_SRCDIR comes from make check). */
static inline int open_fixture(const char *name)
{
	const char *src = getenv("NP_SRCDIR");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/%s", src ? src : ".", name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		printf("Bail out! cannot open %s (is NP_SRCDIR set?)\n", path);
		exit(1);
	}
	return fd;
}

/* A mask as a cpulist, in one of four rotating buffers (several per printf). */
static inline const char *list(const struct np_cpumask *m)
{
	static char buf[4][1024];
	static int i;

	i = (i + 1) % 4;
	np_cpumask_format_list(m, buf[i], sizeof(buf[i]));
	return buf[i];
}

#endif
