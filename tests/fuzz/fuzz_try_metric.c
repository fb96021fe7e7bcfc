/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as a try workload's output, searched by the
 * --metric parser (try_find_metric) with one of a few patterns of the kind
 * users give (the first byte chooses it).  The parser must never crash or
 * read past the output, return only 1 (a finite number), 0 or -EDOM, and
 * keep its promise of the last matching line: nothing before a line (NUL
 * bytes, a line of any length, an unterminated one) hides it, and a
 * matching line before the output changes nothing the output decides.
 * The pattern's time bound is try_files.c's (a child killed after 5 s):
 * patterns with back references are tests/cli/try_hostile.bats'.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "try_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* a pattern and a line it takes 7 from ("": no such line, e.g. a group
 * that need not take part in the match) */
static const struct { const char *re, *line; } patterns[] = {
	{ "val=(.*)", "val=7" },
	{ "val=([0-9]+)", "val=7" },
	{ "([0-9.]+) Gbits/sec", "[  5] 0.00-10.00 sec 7 Gbits/sec receiver" },
	{ "^x=([^ ]*)$", "x=7" },
	{ "(.*)", "7" },
	{ "lat(ency)?=([0-9.e+-]+)", "" },
	{ "a|(b)", "" },
	{ "()", "" },
};
#define N_PATTERNS (sizeof(patterns) / sizeof(patterns[0]))

static regex_t compiled[N_PATTERNS];

/* try_find_metric on before + "\n" (when both) + data + "\n" + after (when
 * after); r and *v its answer */
static int search(const regex_t *re, const char *before, const uint8_t *data, size_t size,
		  const char *after, double *v)
{
	size_t nb = strlen(before), na = strlen(after), n = 0;
	char *buf = malloc(nb + size + na + 3);
	int r;

	if (!buf)
		abort();
	memcpy(buf, before, nb);
	n = nb;
	if (nb)
		buf[n++] = '\n';
	memcpy(buf + n, data, size);
	n += size;
	if (na) {
		buf[n++] = '\n';
		memcpy(buf + n, after, na);
		n += na;
	}
	r = try_find_metric(re, buf, n, v);
	free(buf);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	const char *probe;
	const regex_t *re;
	double v = -1, w = -1;
	int r, q;

	if (!ready) {
		for (size_t i = 0; i < N_PATTERNS; i++)
			if (regcomp(&compiled[i], patterns[i].re, REG_EXTENDED))
				abort();
		ready = true;
	}
	if (size < 1)
		return 0;
	re = &compiled[data[0] % N_PATTERNS];
	probe = patterns[data[0] % N_PATTERNS].line;
	data++;
	size--;

	r = search(re, "", data, size, "", &v);
	if (r != 1 && r != 0 && r != -EDOM)
		abort();
	if ((r == 1 && !isfinite(v)) || (r == 0 && v != 0))
		abort();
	if (!probe[0])
		return 0;
	/* a matching line after the output is found, whatever came before it */
	q = search(re, "", data, size, probe, &w);
	if (q != 1 || w != 7)
		abort();
	/* one before it: the output's own last match still decides */
	q = search(re, probe, data, size, "", &w);
	if (r == 0 ? q != 1 || w != 7 : q != r || (r == 1 && w != v))
		abort();
	return 0;
}
