/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ring sizes: one request; drivers reallocate the queues. */
#include "plan/np_plan.h"

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_rings *a = &from->dev.rings, *b = &to->dev.rings;
	const struct np_count_change c[] = {
		{ "rx", a->rx, b->rx },
		{ "rx-mini", a->rx_mini, b->rx_mini },
		{ "rx-jumbo", a->rx_jumbo, b->rx_jumbo },
		{ "tx", a->tx, b->tx },
	};

	if (a->err || b->err)
		return 0;
	return np_plan_add_counts(plan, &np_knob_rings, c, NP_ARRAY_SIZE(c));
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	return be->ops->set_rings(be, &cur->dev, &to->dev.rings, err);
}

const struct np_knob np_knob_rings = {
	.name = "rings",
	.diff = diff,
	.apply = apply,
	.reopens_queues = true,
	.rereads = NP_READ_RINGS | NP_READ_QUEUES,
};
