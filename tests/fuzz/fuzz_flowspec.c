/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any text into np_flow_parse.  Besides not crashing, a
 * parse that succeeds must format (np_flow_rule_format) and parse back to
 * the very same rules: what show prints is what set would send.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/np_flow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[NP_FLOW_TEXT_MAX + 2], fmt[NP_FLOW_TEXT_MAX], again[NP_FLOW_TEXT_MAX + 16];
	struct np_flow f, g;
	struct np_error err;
	size_t col = 0;

	if (size > NP_FLOW_TEXT_MAX + 1)
		size = NP_FLOW_TEXT_MAX + 1;
	memcpy(text, data, size);
	text[size] = '\0';
	np_error_clear(&err);
	if (np_flow_parse(text, &f, &col, &err) < 0) {
		/* An error always points into the text or just past it. */
		if (col < 1 || col > strlen(text) + 1 || err.phase != NP_PHASE_INPUT)
			abort();
		return 0;
	}
	if (f.n_rules < 1 || f.n_rules > NP_FLOW_MAX_RULES)
		abort();
	for (unsigned i = 0; i < f.n_rules; i++) {
		int n = np_flow_rule_format(&f.rule[i], fmt, sizeof(fmt));

		if (n <= 0 || (size_t)n >= sizeof(fmt))
			abort();
		memcpy(again, "cpu:", 4);
		memcpy(again + 4, fmt, (size_t)n + 1);
		if (np_flow_parse(again, &g, NULL, NULL) < 0 || g.n_rules != 1 ||
		    memcmp(&g.rule[0], &f.rule[i], sizeof(g.rule[0])))
			abort();
	}
	return 0;
}
