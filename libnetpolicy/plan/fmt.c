/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Formatting for plans: change names, numbers and CPU lists, written
 * without stdio where plans of thousands of changes made it show.  Shared by
 * the plan builder, the knobs and the value formatter, below all of them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan/np_policy.h"

/* Why a knob is left out, for a note: "not supported by driver" (the note
 * names the driver next), else the errno's text. */
const char *np_unsupported(int e)
{
	return e == -EOPNOTSUPP ? "not supported by driver" : strerror(-e);
}

/* snprintf(dst, len, "%s", src) without stdio's setup cost, which showed in
 * plans of thousands of changes. */
void np_fmt_copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Decimal digits of v at p; returns the end (no NUL). */
static char *put_uint(char *p, unsigned v)
{
	char tmp[12];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

void np_fmt_u32(char *buf, size_t len, uint32_t v)
{
	if (len < 11)
		snprintf(buf, len, "%u", v);
	else
		*put_uint(buf, v) = '\0';
}

void np_fmt_what(char *buf, size_t len, const char *pre, uint32_t v, const char *post)
{
	char num[12];

	*put_uint(num, v) = '\0';
	np_fmt_copy(buf, len, pre);
	np_fmt_copy(buf + strlen(buf), len - strlen(buf), num);
	np_fmt_copy(buf + strlen(buf), len - strlen(buf), post);
}

/* First clear bit >= from, or NP_CPUS_MAX. */
static unsigned next_clear(const struct np_cpumask *m, unsigned from)
{
	unsigned i = from / 64;
	uint64_t w;

	if (from >= NP_CPUS_MAX)
		return NP_CPUS_MAX;
	w = ~m->w[i] & (~UINT64_C(0) << (from % 64));
	while (!w) {
		if (++i >= NP_CPUMASK_WORDS)
			return NP_CPUS_MAX;
		w = ~m->w[i];
	}
	return i * 64 + (unsigned)__builtin_ctzll(w);
}

/*
 * The cpulist np_cpumask_format_list() writes, but a plan's JSON formats two
 * masks per IRQ and queue: with 1024 CPUs x 256 queues, bit-by-bit runs and
 * one snprintf per run were most of the time.
 */
int np_fmt_mask(char *buf, size_t len, const struct np_cpumask *m)
{
	char *p = buf, *end = buf + len;
	int a = np_cpumask_next(m, 0);

	if (!len)
		return -ENOSPC;
	while (a >= 0) {
		unsigned b = next_clear(m, (unsigned)a) - 1;

		/* room for ",2047-2047" and the NUL */
		if (end - p < 10 + 1) {
			*buf = '\0';
			return -ENOSPC;
		}
		if (p > buf)
			*p++ = ',';
		p = put_uint(p, (unsigned)a);
		if (b != (unsigned)a) {
			*p++ = '-';
			p = put_uint(p, b);
		}
		a = np_cpumask_next(m, b + 1);
	}
	*p = '\0';
	return 0;
}
