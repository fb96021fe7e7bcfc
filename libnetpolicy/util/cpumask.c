/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPU bitmaps and the two text forms the kernel uses for them: cpulists
 * ("0-3,8") and hex masks ("ff,00000001", as in rps_cpus). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/np_cpumask.h"

void np_cpumask_zero(struct np_cpumask *m)
{
	memset(m, 0, sizeof(*m));
}

void np_cpumask_set(struct np_cpumask *m, unsigned cpu)
{
	if (cpu < NP_CPUS_MAX)
		m->w[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

void np_cpumask_clear(struct np_cpumask *m, unsigned cpu)
{
	if (cpu < NP_CPUS_MAX)
		m->w[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

bool np_cpumask_test(const struct np_cpumask *m, unsigned cpu)
{
	return cpu < NP_CPUS_MAX && (m->w[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned np_cpumask_weight(const struct np_cpumask *m)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NP_CPUMASK_WORDS; i++)
		n += (unsigned)__builtin_popcountll(m->w[i]);
	return n;
}

bool np_cpumask_empty(const struct np_cpumask *m)
{
	for (unsigned i = 0; i < NP_CPUMASK_WORDS; i++)
		if (m->w[i])
			return false;
	return true;
}

bool np_cpumask_equal(const struct np_cpumask *a, const struct np_cpumask *b)
{
	return !memcmp(a->w, b->w, sizeof(a->w));
}

void np_cpumask_and(struct np_cpumask *ret, const struct np_cpumask *a, const struct np_cpumask *b)
{
	for (unsigned i = 0; i < NP_CPUMASK_WORDS; i++)
		ret->w[i] = a->w[i] & b->w[i];
}

void np_cpumask_or(struct np_cpumask *ret, const struct np_cpumask *a, const struct np_cpumask *b)
{
	for (unsigned i = 0; i < NP_CPUMASK_WORDS; i++)
		ret->w[i] = a->w[i] | b->w[i];
}

void np_cpumask_andnot(struct np_cpumask *ret, const struct np_cpumask *a,
		       const struct np_cpumask *b)
{
	for (unsigned i = 0; i < NP_CPUMASK_WORDS; i++)
		ret->w[i] = a->w[i] & ~b->w[i];
}

int np_cpumask_next(const struct np_cpumask *m, unsigned from)
{
	unsigned i = from / 64;
	uint64_t w;

	if (from >= NP_CPUS_MAX)
		return -1;
	w = m->w[i] & (~UINT64_C(0) << (from % 64));
	for (;;) {
		if (w)
			return (int)(i * 64 + (unsigned)__builtin_ctzll(w));
		if (++i >= NP_CPUMASK_WORDS)
			return -1;
		w = m->w[i];
	}
}

/* A decimal CPU number; -ERANGE beyond NP_CPUS_MAX, -EINVAL if no digits. */
static int parse_cpu(const char **s, unsigned *ret)
{
	const char *p = *s;
	unsigned long v = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v >= NP_CPUS_MAX) {
			/* keep consuming so the error is about the value, not syntax */
			while (isdigit((unsigned char)*++p))
				;
			*s = p;
			return -ERANGE;
		}
		p++;
	}
	*s = p;
	*ret = (unsigned)v;
	return 0;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Kernel bitmap_parselist() syntax: N, A-B, and A-B:U/G ("use the first U
 * CPUs of every group of G"), comma separated. */
int np_cpumask_parse_list(const char *s, struct np_cpumask *ret)
{
	struct np_cpumask m;
	const char *p;
	int r;

	np_cpumask_zero(&m);
	p = skip_space(s);
	if (!*p) {
		*ret = m;
		return 0;
	}
	for (;;) {
		unsigned a, b, used = 1, group = 1;

		r = parse_cpu(&p, &a);
		if (r < 0)
			return r;
		b = a;
		if (*p == '-') {
			p++;
			r = parse_cpu(&p, &b);
			if (r < 0)
				return r;
			if (b < a)
				return -EINVAL;
			if (*p == ':') {
				p++;
				r = parse_cpu(&p, &used);
				if (r < 0)
					return r == -ERANGE ? -EINVAL : r;
				if (*p++ != '/')
					return -EINVAL;
				r = parse_cpu(&p, &group);
				if (r < 0)
					return r == -ERANGE ? -EINVAL : r;
				if (!used || !group || used > group)
					return -EINVAL;
			}
		}
		for (unsigned c = a; c <= b; c++)
			if ((c - a) % group < used)
				np_cpumask_set(&m, c);
		if (*p != ',')
			break;
		p++;
	}
	if (*skip_space(p))
		return -EINVAL;
	*ret = m;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Groups are read from the right (least significant) end, so each digit's
 * bit position is known without counting the groups first. */
int np_cpumask_parse_hex(const char *s, struct np_cpumask *ret)
{
	struct np_cpumask m;
	const char *begin, *end;
	bool commas;
	unsigned base = 0;

	np_cpumask_zero(&m);
	begin = skip_space(s);
	end = begin + strlen(begin);
	while (end > begin && isspace((unsigned char)end[-1]))
		end--;
	if (end - begin >= 2 && begin[0] == '0' && (begin[1] == 'x' || begin[1] == 'X'))
		begin += 2;
	if (begin == end)
		return -EINVAL;
	commas = memchr(begin, ',', (size_t)(end - begin)) != NULL;
	while (end > begin) {
		const char *g = end;
		unsigned bit = base;

		while (g > begin && g[-1] != ',')
			g--;
		if (g == end || (commas && end - g > 8))
			return -EINVAL;
		for (const char *p = end; p > g; p--) {
			int v = hexval(p[-1]);

			if (v < 0)
				return -EINVAL;
			for (int i = 0; i < 4; i++, bit++) {
				if (!(v & (1 << i)))
					continue;
				if (bit >= NP_CPUS_MAX)
					return -ERANGE;
				np_cpumask_set(&m, bit);
			}
		}
		if (g == begin)
			break;
		end = g - 1;	/* past the comma */
		if (end == begin)
			return -EINVAL;	/* leading comma */
		base += 32;
	}
	*ret = m;
	return 0;
}

int np_cpumask_format_list(const struct np_cpumask *m, char *buf, size_t len)
{
	size_t off = 0;
	int a, b;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (a = np_cpumask_next(m, 0); a >= 0; a = np_cpumask_next(m, (unsigned)b + 1)) {
		int n;

		b = a;
		while (b + 1 < NP_CPUS_MAX && np_cpumask_test(m, (unsigned)b + 1))
			b++;
		if (a == b)
			n = snprintf(buf + off, len - off, "%s%d", off ? "," : "", a);
		else
			n = snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", a, b);
		if (n < 0 || (size_t)n >= len - off) {
			buf[0] = '\0';
			return -ENOSPC;
		}
		off += (size_t)n;
	}
	return 0;
}

static uint32_t group32(const struct np_cpumask *m, unsigned bit)
{
	return (uint32_t)(m->w[bit / 64] >> (bit % 64));
}

/* The kernel's %*pb: 32-bit groups, most significant first, the first
 * group only as wide as the bits it holds (2 CPUs print "3", 40 print
 * "ff,ffffffff").  Bits at or above nbits cannot be written to the kernel
 * and would be dropped silently: -ERANGE instead. */
int np_cpumask_format_hex(const struct np_cpumask *m, unsigned nbits, char *buf, size_t len)
{
	unsigned first, i;
	size_t off = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	if (nbits > NP_CPUS_MAX)
		return -EINVAL;
	if (!nbits)
		nbits = 1;
	if (np_cpumask_next(m, nbits) >= 0)
		return -ERANGE;
	first = nbits % 32 ? nbits % 32 : 32;
	for (i = (nbits + 31) / 32 * 32; i > 0; i -= 32) {
		unsigned width = i == (nbits + 31) / 32 * 32 ? (first + 3) / 4 : 8;
		int n;

		n = snprintf(buf + off, len - off, "%s%0*x", off ? "," : "", (int)width,
			     group32(m, i - 32));
		if (n < 0 || (size_t)n >= len - off) {
			buf[0] = '\0';
			return -ENOSPC;
		}
		off += (size_t)n;
	}
	return 0;
}
