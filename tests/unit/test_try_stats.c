/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * try's significance rule on synthetic samples (netpolicy/try_stats.c):
 * the Mann-Whitney U test's p-value against values worked out by hand
 * (two separated groups of five: U = 0, p = 2 / C(10,5) = 2/252, also
 * when each group's values are all equal), groups
 * that interleave, equal values, three against three (which can never be
 * significant: the smallest p is 2/20), ties and large groups through the
 * normal approximation, and medians.
 */
#include <math.h>

#include "../../netpolicy/try_stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	const double lo[] = { 5, 1, 4, 2, 3 }, hi[] = { 6, 10, 7, 9, 8 };
	const double odd[] = { 1, 3, 5, 7, 9 }, even[] = { 2, 4, 6, 8, 10 };
	const double same[] = { 4, 4, 4, 4 };
	const double three_lo[] = { 1, 2, 3 }, three_hi[] = { 4, 5, 6 };
	double big_a[40], big_b[40], u = -1, p;

	p = try_mann_whitney(lo, N(lo), hi, N(hi), &u);
	ok(u == 0 && fabs(p - 2.0 / 252) < 1e-12, "five below five: U 0, p 2/252 (%g %g)", u, p);
	p = try_mann_whitney(hi, N(hi), lo, N(lo), &u);
	ok(u == 25 && fabs(p - 2.0 / 252) < 1e-12, "and the other way round: U 25, same p");
	p = try_mann_whitney(odd, N(odd), even, N(even), &u);
	ok(u == 10 && p > 0.5, "interleaved: U 10, p %g", p);
	p = try_mann_whitney(same, N(same), same, N(same), NULL);
	ok(p == 1, "all equal: p 1 (%g)", p);
	p = try_mann_whitney(three_lo, 3, three_hi, 3, NULL);
	ok(fabs(p - 0.1) < 1e-12, "three below three: p 0.1, never below 0.05 (%g)", p);
	ok(isnan(try_mann_whitney(lo, 0, hi, 5, NULL)), "an empty side: no test");
	{
		const double eights[] = { 8, 8, 8 }, ones[] = { 1, 1, 1 };
		const double e5[] = { 8, 8, 8, 8, 8 }, o5[] = { 1, 1, 1, 1, 1 };

		p = try_mann_whitney(ones, 3, eights, 3, NULL);
		ok(fabs(p - 0.1) < 1e-12, "three tied below three tied: exact p 0.1, not the "
		   "normal approximation's 0.047 (%g)", p);
		p = try_mann_whitney(o5, 5, e5, 5, NULL);
		ok(fabs(p - 2.0 / 252) < 1e-12, "five tied below five tied: 2/252 (%g)", p);
	}

	/* 40 against 40, shifted by 1 with every value tied once: normal
	 * approximation; and the same groups against themselves */
	for (int i = 0; i < 40; i++) {
		big_a[i] = i / 2;
		big_b[i] = i / 2 + 5;
	}
	p = try_mann_whitney(big_a, 40, big_b, 40, &u);
	ok(p < 0.01, "40 against 40 shifted by a quarter of the range: p %g", p);
	p = try_mann_whitney(big_a, 40, big_a, 40, &u);
	ok(p > 0.9 && u == 800, "a group against itself: U 800, p %g", p);

	{
		const double nan5[] = { NAN, NAN, NAN, NAN, NAN }, inf5[] = { 1, 2, INFINITY, 4, 5 };

		ok(isnan(try_mann_whitney(nan5, 5, hi, 5, NULL)), "NaN samples: no p, and an end");
		ok(isnan(try_mann_whitney(lo, 5, inf5, 5, NULL)), "an infinite sample: no p");
	}

	/* the exact test's floor: 2 / C(2n, n) */
	ok(fabs(try_least_p(3) - 0.1) < 1e-9, "3 a side: p never below 0.1 (%g)", try_least_p(3));
	ok(fabs(try_least_p(4) - 2.0 / 70) < 1e-9, "4 a side: 2/70 (%g)", try_least_p(4));
	ok(try_least_rounds(0.05) == 4, "alpha 0.05: 4 rounds (%d)", try_least_rounds(0.05));
	ok(try_least_rounds(0.05 / 4) == 5, "four policies: 5 rounds (%d)", try_least_rounds(0.05 / 4));
	ok(try_least_rounds(0.05 / 15) == 6, "fifteen policies: 6 rounds (%d)",
	   try_least_rounds(0.05 / 15));

	ok(try_median(lo, N(lo)) == 3, "median of five");
	ok(try_median(even, 4) == 5, "median of four is the mean of the middle two");
	ok(isnan(try_median(lo, 0)), "no median of nothing");
	return tap_done();
}
