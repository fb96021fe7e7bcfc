/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The statistics of `try`: medians and the Mann-Whitney U test (the
 * Wilcoxon rank-sum test) of one condition's samples against the
 * baseline's.  A rank test because run times and throughputs of a busy
 * machine are not normal (a few slow runs), and because it needs nothing
 * but the order of the samples.  Two-sided; the exact distribution of the
 * rank sum (ties included) when both sides are small, else the normal
 * approximation with the tie correction and a continuity correction (which
 * calls three tied runs against three significant, p 0.047, where the exact
 * p is 0.1).
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

/*
 * Exact two-sided p of a's rank sum: of every way to choose na of the n
 * ranks as a's, the share whose sum lies at least as far from its mean as
 * the observed one.  Ranks are doubled (a tie's mid-rank is then an
 * integer), so ties are exact too; counted by subset size and sum.
 */
static double exact_p(const int *rank2, size_t n, size_t na, int obs2)
{
	static double ways[TRY_EXACT_N + 1][TRY_EXACT_SUM + 1];
	double total = 0, tail = 0, mean2 = (double)na * (double)(n + 1);
	int max = 0;

	memset(ways, 0, sizeof(ways));
	ways[0][0] = 1;
	for (size_t i = 0; i < n; i++) {
		max += rank2[i];
		for (size_t k = na < i + 1 ? na : i + 1; k >= 1; k--)
			for (int sum = max; sum >= rank2[i]; sum--)
				ways[k][sum] += ways[k - 1][sum - rank2[i]];
	}
	for (int sum = 0; sum <= max; sum++) {
		total += ways[na][sum];
		if (fabs(sum - mean2) >= fabs(obs2 - mean2) - 1e-9)
			tail += ways[na][sum];
	}
	return total > 0 ? fmin(1, tail / total) : NAN;
}

double try_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *ret_u)
{
	double all[2 * TRY_STATS_MAX], rank_a = 0, u, mu, sigma2, z, ties = 0;
	int rank2[2 * TRY_EXACT_N];
	size_t n = na + nb;

	if (!na || !nb || na > TRY_STATS_MAX || nb > TRY_STATS_MAX)
		return NAN;
	/* a NaN equals nothing, not even itself: no rank, and no end to a run of ties */
	for (size_t i = 0; i < na + nb; i++)
		if (!isfinite(i < na ? a[i] : b[i - na]))
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
		size_t j = i + 1;

		while (j < n && all[j] == all[i])
			j++;
		ties += pow((double)(j - i), 3) - (double)(j - i);
		i = j;
	}
	u = rank_a - (double)na * (double)(na + 1) / 2;
	if (ret_u)
		*ret_u = u;
	if (na <= TRY_EXACT_N && nb <= TRY_EXACT_N) {
		/* every value's doubled mid-rank, a's first */
		for (size_t i = 0; i < n; i++) {
			double x = i < na ? a[i] : b[i - na];
			size_t lo = 0, hi;

			while (lo < n && all[lo] < x)
				lo++;
			hi = lo;
			while (hi < n && all[hi] == x)
				hi++;
			rank2[i] = (int)(lo + 1 + hi);
		}
		return exact_p(rank2, n, na, (int)lround(2 * rank_a));
	}
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

double try_least_p(size_t n)
{
	double a[TRY_STATS_MAX], b[TRY_STATS_MAX];

	if (!n || n > TRY_STATS_MAX)
		return NAN;
	/* the most extreme outcome: every run of one side below every run of
	 * the other, no ties */
	for (size_t i = 0; i < n; i++) {
		a[i] = (double)i;
		b[i] = (double)(n + i);
	}
	return try_mann_whitney(a, n, b, n, NULL);
}

int try_least_rounds(double alpha)
{
	for (size_t n = 1; n <= TRY_STATS_MAX; n++)
		if (try_least_p(n) < alpha)
			return (int)n;
	return -1;
}
