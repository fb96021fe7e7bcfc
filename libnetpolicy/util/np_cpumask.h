/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fixed-size CPU (or queue) bitmaps: no allocation, cheap to copy into plans. */
#ifndef NP_CPUMASK_H
#define NP_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Larger than any machine we expect; discovery refuses bigger ones (-E2BIG). */
#define NP_CPUS_MAX 2048
/* A --cpus list or a config's "cpus" as written: the plan and the policy
 * record keep it in a buffer of this size. */
#define NP_CPUS_TEXT_MAX 256
#define NP_CPUMASK_WORDS (NP_CPUS_MAX / 64)

struct np_cpumask {
	uint64_t w[NP_CPUMASK_WORDS];
};

void np_cpumask_zero(struct np_cpumask *m);
void np_cpumask_set(struct np_cpumask *m, unsigned cpu);
void np_cpumask_clear(struct np_cpumask *m, unsigned cpu);
bool np_cpumask_test(const struct np_cpumask *m, unsigned cpu);
unsigned np_cpumask_weight(const struct np_cpumask *m);
bool np_cpumask_empty(const struct np_cpumask *m);
bool np_cpumask_equal(const struct np_cpumask *a, const struct np_cpumask *b);
/* ret = a & b, a | b, a & ~b (ret may alias a or b) */
void np_cpumask_and(struct np_cpumask *ret, const struct np_cpumask *a, const struct np_cpumask *b);
void np_cpumask_or(struct np_cpumask *ret, const struct np_cpumask *a, const struct np_cpumask *b);
void np_cpumask_andnot(struct np_cpumask *ret, const struct np_cpumask *a, const struct np_cpumask *b);
/* First set bit >= from, or -1. */
int np_cpumask_next(const struct np_cpumask *m, unsigned from);
#define np_cpumask_for_each(cpu, m) \
	for (int cpu = np_cpumask_next((m), 0); cpu >= 0; cpu = np_cpumask_next((m), (unsigned)cpu + 1))

/* "0-3,8,10-11" (kernel cpulist; empty string is the empty set). -EINVAL, -ERANGE. */
int np_cpumask_parse_list(const char *s, struct np_cpumask *ret);
/* "ff,00000001" (kernel bitmap: 32-bit hex groups, most significant first). */
int np_cpumask_parse_hex(const char *s, struct np_cpumask *ret);
/* Returns 0 or -ENOSPC. */
int np_cpumask_format_list(const struct np_cpumask *m, char *buf, size_t len);
/* Formats nbits bits as the kernel prints masks: at least one group, all groups zero-padded. */
int np_cpumask_format_hex(const struct np_cpumask *m, unsigned nbits, char *buf, size_t len);

#endif
