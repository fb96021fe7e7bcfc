/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpumask: set algebra and the kernel's two text forms. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/np_cpumask.h"
#include "tap.h"

static const char *list(const struct np_cpumask *m)
{
	static char buf[8192];

	if (np_cpumask_format_list(m, buf, sizeof(buf)) < 0)
		return "(ENOSPC)";
	return buf;
}

static const char *hex(const struct np_cpumask *m, unsigned nbits)
{
	static char buf[1024];
	int r = np_cpumask_format_hex(m, nbits, buf, sizeof(buf));

	if (r < 0)
		snprintf(buf, sizeof(buf), "(%s)", strerror(-r));
	return buf;
}

/* Test names must stay on one TAP line. */
static const char *esc(const char *s)
{
	static char buf[128];
	size_t o = 0;

	for (; *s && o + 3 < sizeof(buf); s++) {
		if (*s == '\n') {
			buf[o++] = '\\';
			buf[o++] = 'n';
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* parse_list then format_list gives `want` */
static void list_rt(const char *in, const char *want)
{
	struct np_cpumask m;
	int r = np_cpumask_parse_list(in, &m);

	is_int(r, 0, "parse_list '%s'", esc(in));
	if (!r)
		is_str(list(&m), want, "format_list of '%s'", esc(in));
}

static void hex_rt(const char *in, unsigned nbits, const char *want_list, const char *want_hex)
{
	struct np_cpumask m, back;
	int r = np_cpumask_parse_hex(in, &m);

	is_int(r, 0, "parse_hex '%s'", esc(in));
	if (r)
		return;
	is_str(list(&m), want_list, "parse_hex '%s' as list", esc(in));
	is_str(hex(&m, nbits), want_hex, "format_hex(%u) of '%s'", nbits, esc(in));
	r = np_cpumask_parse_hex(hex(&m, nbits), &back);
	ok(!r && np_cpumask_equal(&m, &back), "format_hex '%s' parses back", want_hex);
}

static void algebra(void)
{
	struct np_cpumask a, b, c;

	np_cpumask_zero(&a);
	ok(np_cpumask_empty(&a), "zero mask is empty");
	is_int(np_cpumask_next(&a, 0), -1, "next on empty");
	np_cpumask_set(&a, 0);
	np_cpumask_set(&a, 63);
	np_cpumask_set(&a, 64);
	np_cpumask_set(&a, NP_CPUS_MAX - 1);
	np_cpumask_set(&a, NP_CPUS_MAX);	/* ignored, not a crash */
	is_int(np_cpumask_weight(&a), 4, "weight");
	ok(np_cpumask_test(&a, 63) && np_cpumask_test(&a, 64), "bits 63 and 64 set");
	ok(!np_cpumask_test(&a, NP_CPUS_MAX), "bit NP_CPUS_MAX reads as clear");
	is_int(np_cpumask_next(&a, 1), 63, "next from 1");
	is_int(np_cpumask_next(&a, 65), NP_CPUS_MAX - 1, "next across words");
	is_int(np_cpumask_next(&a, NP_CPUS_MAX), -1, "next past the end");
	np_cpumask_clear(&a, 63);
	ok(!np_cpumask_test(&a, 63), "clear");

	np_cpumask_parse_list("0-7", &a);
	np_cpumask_parse_list("4-11", &b);
	np_cpumask_and(&c, &a, &b);
	is_str(list(&c), "4-7", "and");
	np_cpumask_or(&c, &a, &b);
	is_str(list(&c), "0-11", "or");
	np_cpumask_andnot(&c, &a, &b);
	is_str(list(&c), "0-3", "andnot");
	np_cpumask_andnot(&a, &a, &b);
	ok(np_cpumask_equal(&a, &c), "andnot with ret aliasing a");

	int n = 0, sum = 0;
	np_cpumask_parse_list("1,5,64,2047", &a);
	np_cpumask_for_each(cpu, &a) {
		n++;
		sum += cpu;
	}
	is_int(n, 4, "for_each visits every CPU");
	is_int(sum, 1 + 5 + 64 + 2047, "for_each visits the right CPUs");
}

static void lists(void)
{
	struct np_cpumask m;

	list_rt("", "");
	list_rt("\n", "");
	list_rt("0", "0");
	list_rt("0-3,8", "0-3,8");
	list_rt("0-3,8,10-11\n", "0-3,8,10-11");
	list_rt("3,2,1,0", "0-3");
	list_rt("0-1,1-2", "0-2");
	list_rt("63-64", "63-64");
	list_rt("2047", "2047");
	list_rt("0-2047", "0-2047");
	list_rt("0-7:2/4", "0-1,4-5");
	list_rt("0-15:1/8", "0,8");

	const char *bad[] = { "x", "1,", ",1", "1-", "-1", "3-1", "1 2", "0-7:2", "0-7:3/2",
			      "0-7:0/2", "1--2", "0x3", "1-2-3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(np_cpumask_parse_list(bad[i], &m), -EINVAL, "parse_list rejects '%s'",
		       bad[i]);
	is_int(np_cpumask_parse_list("2048", &m), -ERANGE, "parse_list 2048 is out of range");
	is_int(np_cpumask_parse_list("0-4095", &m), -ERANGE, "parse_list 0-4095 out of range");
	is_int(np_cpumask_parse_list("99999999999999999999", &m), -ERANGE, "huge number");

	char small[4];
	np_cpumask_parse_list("0-3,8", &m);
	is_int(np_cpumask_format_list(&m, small, sizeof(small)), -ENOSPC, "format_list ENOSPC");
	is_int(np_cpumask_format_list(&m, small, 0), -ENOSPC, "format_list len 0");
}

static void hexes(void)
{
	struct np_cpumask m;

	/* The kernel prints nr_cpu_ids bits: 2 CPUs -> one digit. */
	hex_rt("0", 2, "", "0");
	hex_rt("3", 2, "0-1", "3");
	hex_rt("00000000", 32, "", "00000000");
	hex_rt("ff", 8, "0-7", "ff");
	hex_rt("ff", 32, "0-7", "000000ff");
	hex_rt("ffff", 20, "0-15", "0ffff");
	hex_rt("f0,0000000f", 40, "0-3,36-39", "f0,0000000f");
	hex_rt("ff,00000001", 40, "0,32-39", "ff,00000001");
	hex_rt("1,00000000", 33, "32", "1,00000000");
	hex_rt("80000000,00000000", 64, "63", "80000000,00000000");
	hex_rt("1,00000000,00000000", 65, "64", "1,00000000,00000000");
	hex_rt("100000000", 33, "32", "1,00000000");	/* no commas: one big number */
	hex_rt("0x3\n", 4, "0-1", "3");
	hex_rt("F", 4, "0-3", "f");
	hex_rt("00000000,00000001", 32, "0", "00000001");	/* leading zero groups */

	np_cpumask_zero(&m);
	np_cpumask_set(&m, 2047);
	{
		char want[1024] = "80000000";

		for (int i = 0; i < 63; i++)
			strcat(want, ",00000000");
		is_str(hex(&m, 2048), want, "format_hex CPU 2047");
		struct np_cpumask back;
		ok(!np_cpumask_parse_hex(want, &back) && np_cpumask_equal(&m, &back),
		   "CPU 2047 round trip");
		char over[1100] = "1,";
		strcat(over, want + 9);	/* 1 followed by 64 groups of zeros: bit 2048 */
		strcat(over, ",00000000");
		is_int(np_cpumask_parse_hex(over, &back), -ERANGE, "parse_hex bit 2048 is -ERANGE");
		/* zeros above NP_CPUS_MAX are harmless */
		char zeros[1100] = "0,";
		strcat(zeros, want);
		ok(!np_cpumask_parse_hex(zeros, &back) && np_cpumask_equal(&m, &back),
		   "parse_hex with a zero group above 2048 bits");
	}

	const char *bad[] = { "", ",", "1,", ",1", "1,,2", "g", "123456789,0", "1 2", "0x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		is_int(np_cpumask_parse_hex(bad[i], &m), -EINVAL, "parse_hex rejects '%s'", bad[i]);

	char buf[64];
	np_cpumask_parse_list("5", &m);
	is_int(np_cpumask_format_hex(&m, 4, buf, sizeof(buf)), -ERANGE,
	       "format_hex refuses bits above nbits");
	is_int(np_cpumask_format_hex(&m, 8, buf, 2), -ENOSPC, "format_hex ENOSPC");
	is_int(np_cpumask_format_hex(&m, 4096, buf, sizeof(buf)), -EINVAL,
	       "format_hex nbits too big");
	np_cpumask_zero(&m);
	is_int(np_cpumask_format_hex(&m, 0, buf, sizeof(buf)), 0, "format_hex nbits 0");
	is_str(buf, "0", "nbits 0 still prints one digit");
}

int main(void)
{
	algebra();
	lists();
	hexes();
	return tap_done();
}
