/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * try's --metric parser: the value of the pattern's first group in the last
 * line of the workload's output it matches.  The output is the workload's,
 * so anything: NUL bytes count as spaces (a NUL ending the search hid every
 * later line), and the value must be a finite number (a NaN never equals
 * itself: the rank test's tie loop spun for ever on one).  try_files.c runs
 * this in a child process with a time bound; on its own here so that the
 * fuzz target tests/fuzz/fuzz_try_metric runs this very code.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "try_run.h"

int try_find_metric(const regex_t *re, char *buf, size_t n, double *ret)
{
	double v = 0;
	int found = 0;

	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
	for (char *line = buf, *next; line && *line; line = next) {
		regmatch_t m[2];
		char *endp;
		double x;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (regexec(re, line, 2, m, 0) || m[1].rm_so < 0)
			continue;
		line[m[1].rm_eo] = '\0';
		x = strtod(line + m[1].rm_so, &endp);
		if (endp != line + m[1].rm_so) {
			v = x;
			found = 1;
		}
	}
	if (found && !isfinite(v))
		return -EDOM;
	*ret = v;
	return found;
}
