/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The statistics of `try`: medians and the Mann-Whitney U test (the
 * Wilcoxon rank-sum test) of one condition's samples against the
 * baseline's.  A rank test because run times and throughputs of a busy
 * machine are not normal (a few slow runs), and because it needs nothing
 * but the order of the samples.  Two-sided; exact distribution of U when
 * there are no ties and both sides are small, else the normal
 * approximation with the tie correction and a continuity correction.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "try_stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double try_median(const double *v, size_t n)
{
	double s[TRY_STATS_MAX];

	if (!n || n > TRY_STATS_MAX)
		return NAN;
	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The number of orderings of m x's and n y's with exactly u pairs x > y:
 * N(u; m, n) = N(u - n; m - 1, n) + N(u; m, n - 1) (the largest value is
 * an x, beating every y, or a y). */
static double count_u(int u, int m, int n, double memo[][TRY_EXACT_N + 1][TRY_EXACT_U + 1])
{
	double *slot;

	if (u < 0)
		return 0;
	if (m == 0 || n == 0)
		return u == 0;
	if (u > m * n)
		return 0;
	slot = &memo[m][n][u];
	if (*slot < 0)
		*slot = count_u(u - n, m - 1, n, memo) + count_u(u, m, n - 1, memo);
	return *slot;
}

static double exact_p(double u, int m, int n)
{
	static double memo[TRY_EXACT_N + 1][TRY_EXACT_N + 1][TRY_EXACT_U + 1];
	double total = 0, tail = 0, lo = fmin(u, m * n - u);

	for (size_t i = 0; i < sizeof(memo) / sizeof(double); i++)
		((double *)memo)[i] = -1;
	for (int k = 0; k <= m * n; k++) {
		double c = count_u(k, m, n, memo);

		total += c;
		if (k <= lo)
			tail += c;
	}
	return fmin(1, 2 * tail / total);
}

double try_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *ret_u)
{
	double all[2 * TRY_STATS_MAX], rank_a = 0, u, mu, sigma2, z, ties = 0;
	size_t n = na + nb;

	if (!na || !nb || na > TRY_STATS_MAX || nb > TRY_STATS_MAX)
		return NAN;
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, n, sizeof(*all), cmp_double);
	/* each of a's values ranks at the middle of its run of equal values */
	for (size_t i = 0; i < na; i++) {
		size_t lo = 0, hi;

		while (lo < n && all[lo] < a[i])
			lo++;
		hi = lo;
		while (hi < n && all[hi] == a[i])
			hi++;
		rank_a += (double)(lo + 1 + hi) / 2;
	}
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && all[j] == all[i])
			j++;
		ties += pow((double)(j - i), 3) - (double)(j - i);
		i = j;
	}
	u = rank_a - (double)na * (double)(na + 1) / 2;
	if (ret_u)
		*ret_u = u;
	if (ties == 0 && na <= TRY_EXACT_N && nb <= TRY_EXACT_N)
		return exact_p(u, (int)na, (int)nb);
	mu = (double)na * (double)nb / 2;
	sigma2 = (double)na * (double)nb / 12 *
		 ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (sigma2 <= 0)
		return 1;	/* every value equal */
	z = (fabs(u - mu) - 0.5) / sqrt(sigma2);
	if (z < 0)
		z = 0;
	return fmin(1, erfc(z / sqrt(2)));
}
