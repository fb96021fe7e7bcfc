/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as a kernel reply to the steering requests:
 * an RSS_GET / RSS_CREATE_ACT netlink message and the ntuple ioctl structs
 * (GRXCLSRLCNT, GRXCLSRLALL, GRXCLSRULE).  The decoders must refuse what
 * is not one (-EPROTO) without reading past the end, and what they accept
 * must be within their own limits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/np_steer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct np_rss_ctx_info info;
	struct np_ntuple_table t;
	struct np_ntuple_rule rule;
	uint32_t locs[64], n, ctx;
	uint8_t *copy;

	/* A private copy of exactly size bytes: ASan sees any over-read. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (np_rss_ctx_dec_reply(copy, size, &info) == 0 &&
	    (info.n_indir > NP_RSS_CTX_INDIR_MAX || info.key_len > NP_RSS_CTX_KEY_MAX))
		abort();
	if (np_ntuple_dec_count(copy, size, &t) == 0 && t.size && t.n_rules > t.size)
		abort();
	if (np_ntuple_dec_all(copy, size, 64, locs, &n) == 0 && n > 64)
		abort();
	if (np_ntuple_dec_rule(copy, size, &rule) == 0 && !(rule.fs.flow_type & FLOW_RSS) &&
	    rule.rss_context)
		abort();
	if (np_rss_ctx_dec_srssh(copy, size, &ctx) == 0 && (ctx == 0 || ctx == ETH_RXFH_CONTEXT_ALLOC))
		abort();
	free(copy);
	return 0;
}
