/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* "did you mean": the closest word by optimal string alignment distance
 * (Levenshtein with adjacent transpositions), for mistyped commands,
 * options, policies and devices. */
#include <string.h>

#include "np_private.h"

/* Words longer than this are no typo of a short name: not compared. */
#define SUGGEST_MAX 64

static unsigned distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];

	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			unsigned v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

const char *np_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t len = word ? strlen(word) : 0;
	unsigned most = len <= 4 ? 1 : (unsigned)(len / 3), best_d = ~0u;
	const char *best = NULL;

	if (!len || len > SUGGEST_MAX)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (!cands[i] || strlen(cands[i]) > SUGGEST_MAX || !strcmp(cands[i], word))
			continue;
		d = distance(word, cands[i]);
		if (d <= most && d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	return best;
}
