/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ring sizes: one request; drivers reallocate the queues. */
#include "../np_plan.h"

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_rings *a = &from->dev.rings, *b = &to->dev.rings;
	const struct { const char *name; uint32_t before, after; } c[] = {
		{ "rx", a->rx, b->rx },
		{ "rx-mini", a->rx_mini, b->rx_mini },
		{ "rx-jumbo", a->rx_jumbo, b->rx_jumbo },
		{ "tx", a->tx, b->tx },
	};
	bool added = false;
	char x[16], y[16];

	if (a->err || b->err)
		return 0;
	for (size_t i = 0; i < NP_ARRAY_SIZE(c); i++) {
		if (c[i].before == c[i].after)
			continue;
		if (!added && np_plan_add_step(plan, &np_knob_rings, -1, 0) < 0)
			return -ENOMEM;
		added = true;
		np_fmt_u32(x, sizeof(x), c[i].before);
		np_fmt_u32(y, sizeof(y), c[i].after);
		if (np_plan_add_change(plan, c[i].name, x, y) < 0)
			return -ENOMEM;
	}
	return 0;
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
};
