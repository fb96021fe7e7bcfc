/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as an ethtool netlink reply, into every reply
 * parser of backend/ethnl/ (channels, rings, coalescing, link modes and
 * state, the features string set and bitsets, RSS).  Each must refuse what
 * is not a reply (-EPROTO) without reading past the message, and what it
 * accepts must be within its own limits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/ethnl/ethnl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char (*names)[NP_FEATURE_NAME_LEN] = NULL;
	struct np_channels ch = { 0 };
	struct np_rings rg = { 0 };
	struct np_coalesce co = { 0 };
	struct np_link ln = { 0 };
	struct np_features f = { 0 };
	struct np_rss rss = { 0 };
	unsigned n = 0;
	uint8_t *copy;

	/* A private copy of exactly size bytes: ASan sees any over-read. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	np_ethnl_parse_channels(copy, size, &ch);
	np_ethnl_parse_rings(copy, size, &rg);
	np_ethnl_parse_coalesce(copy, size, &co);
	np_ethnl_parse_linkmodes(copy, size, &ln);
	np_ethnl_parse_linkstate(copy, size, &ln);
	if (np_ethnl_parse_rss(copy, size, &rss) == 0 && rss.indir_size && !rss.indir)
		abort();
	free(rss.indir);
	free(rss.key);
	if (np_ethnl_parse_feature_names(copy, size, &names, &n) == 0) {
		if (n && !names)
			abort();
		for (unsigned i = 0; i < n; i++)
			if (!memchr(names[i], '\0', NP_FEATURE_NAME_LEN))
				abort();
	}
	/* The bitsets against the names this very message gave (or none). */
	np_ethnl_parse_features(copy, size, names, n, &f);
	free(f.v);
	free(names);
	free(copy);
	return 0;
}
