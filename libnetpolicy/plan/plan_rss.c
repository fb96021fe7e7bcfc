/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The RSS indirection table of a plan: spread evenly over the planned
 * queues, and left as the driver made it when it already is.
 */
#include <stdint.h>
#include <string.h>

#include "plan/np_policy.h"

/* Every entry names one of the nq queues and each queue has as many entries
 * as the next (one more where the size does not divide).  igb's own table
 * is blocks (entry j -> j * n / 128, igb_setup_mrqc() in igb_main.c, 6.12):
 * as even as i % n, and rewriting it would set the kernel's "user-set" flag
 * that makes later channel shrinks fail. */
static bool rss_even_over(const struct np_rss *r, unsigned nq)
{
	uint32_t count[64] = {};

	if (!nq || nq > 64 || r->rx_rings != nq)
		return false;
	for (uint32_t i = 0; i < r->indir_size; i++) {
		if (r->indir[i] >= nq)
			return false;
		count[r->indir[i]]++;
	}
	for (unsigned q = 0; q < nq; q++)
		if (count[q] != r->indir_size / nq && count[q] != r->indir_size / nq + 1)
			return false;
	return true;
}

void np_plan_rss(const struct np_state *st, unsigned nq, struct np_plan *plan)
{
	struct np_rss *rss = &plan->target->dev.rss;

	/* A table that already spreads evenly over the planned queues stays
	 * as the driver made it. */
	if (rss_even_over(&st->dev.rss, nq) && st->dev.rss.indir_size == rss->indir_size) {
		memcpy(rss->indir, st->dev.rss.indir, sizeof(*rss->indir) * rss->indir_size);
		rss->rx_rings = nq;
		return;
	}
	/* Even over the planned queues: what the kernel's default table is. */
	for (uint32_t i = 0; i < rss->indir_size; i++)
		rss->indir[i] = nq ? i % nq : 0;
	rss->rx_rings = nq;
}
