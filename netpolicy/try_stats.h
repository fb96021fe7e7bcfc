/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* try's statistics (try_stats.c), apart so a unit test can link them alone. */
#ifndef NP_TRY_STATS_H
#define NP_TRY_STATS_H

#include <stddef.h>

/* the most rounds of one condition (--rounds) */
#define TRY_STATS_MAX 100
/* exact rank-sum distribution up to this many samples a side (its table:
 * doubled rank sums of up to 2N ranks) */
#define TRY_EXACT_N 12
#define TRY_EXACT_SUM (2 * TRY_EXACT_N * (2 * TRY_EXACT_N + 1))

/* The median of v[0..n) (NAN for none). */
double try_median(const double *v, size_t n);
/* Two-sided p-value of the Mann-Whitney U test of a against b (NAN when a
 * side is empty or too large); *ret_u (may be NULL): U of a, the number of
 * pairs with a's value above b's, ties counted half. */
double try_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *ret_u);

/* The smallest p try_mann_whitney() can give with n runs a side (every run
 * of one side below the other's): a difference needs p below alpha, so
 * fewer rounds than try_least_rounds(alpha) can never call one. */
double try_least_p(size_t n);
/* The fewest runs a side whose try_least_p is below alpha, -1 none (up to
 * TRY_STATS_MAX). */
int try_least_rounds(double alpha);

#endif
