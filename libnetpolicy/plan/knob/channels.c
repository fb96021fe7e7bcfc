/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Channels (queue counts): one request for all four counts. */
#include "plan/np_plan.h"

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_channels *a = &from->dev.channels, *b = &to->dev.channels;
	const struct np_count_change c[] = {
		{ "combined", a->combined, b->combined },
		{ "rx", a->rx, b->rx },
		{ "tx", a->tx, b->tx },
		{ "other", a->other, b->other },
	};

	if (a->err || b->err)
		return 0;
	return np_plan_add_counts(plan, &np_knob_channels, c, NP_ARRAY_SIZE(c));
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	return be->ops->set_channels(be, &cur->dev, &to->dev.channels, err);
}

const struct np_knob np_knob_channels = {
	.name = "channels",
	.diff = diff,
	.apply = apply,
	.reopens_queues = true,
	/* coalescing too: a change that pairs igb's or ixgbe's vectors makes
	 * tx-usecs read 0 (np_drivers.h paired_reads_zero), one that unpairs
	 * them brings back a Tx rate of its own */
	.rereads = NP_READ_QUEUES | NP_READ_COALESCE,
};
