/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a usage error suggests: the word a typo meant, the right order of
 * a device and its command. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *cli_did_you_mean(const char *word, const char *const *names, size_t n,
			     const char *dashes)
{
	static char hint[80];
	const char *best = np_suggest(word, names, n);

	hint[0] = '\0';
	if (best)
		snprintf(hint, sizeof(hint), " (did you mean '%s%s'?)", dashes, best);
	return hint;
}

/* A device command without its device, given words after it ("set
 * throughput eth0"): the device is the word that is no built-in policy. */
int cli_order_hint(const char *name, const char *args, char **words, int nwords)
{
	const struct np_policy *p;
	int dev = nwords - 1;

	if (nwords == 2 && np_policy_lookup(words[1], &p, NULL) == 0)
		dev = 0;
	if (!nwords || nwords > 2 || np_policy_lookup(words[dev], &p, NULL) == 0)
		return cli_usage_error("%s: which device? ('netpolicy DEVICE %s%s%s')", name,
				       name, nwords ? " " : " ...", nwords ? words[0] : "");
	return cli_usage_error("%s: which device? the device comes first: 'netpolicy %s %s%s%s'",
			       name, words[dev], name,
			       nwords == 2 || args[0] ? " " : "",
			       nwords == 2 ? words[1 - dev] : args);
}

