/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ring sizes: one request of the changed sizes (drivers reallocate the
 * queues); one request per size when the engine asks which one a driver
 * refuses (apply/refuse.c), so that a refused tx size costs the rx one
 * nothing. */
#include <stdio.h>
#include <string.h>

#include "plan/np_plan.h"

static const char *const ring_names[NP_RING__COUNT] = {
	[NP_RING_RX] = "rx", [NP_RING_RX_MINI] = "rx-mini", [NP_RING_RX_JUMBO] = "rx-jumbo",
	[NP_RING_TX] = "tx",
};

const char *np_ring_field_name(int f)
{
	return f >= 0 && f < NP_RING__COUNT ? ring_names[f] : "?";
}

static uint32_t *ring_field(struct np_rings *r, int f)
{
	uint32_t *v[NP_RING__COUNT] = { &r->rx, &r->rx_mini, &r->rx_jumbo, &r->tx };

	return v[f];
}

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	struct np_rings a = from->dev.rings, b = to->dev.rings;
	uint32_t fields = 0;

	if (a.err || b.err)
		return 0;
	for (int f = 0; f < NP_RING__COUNT; f++)
		if (*ring_field(&a, f) != *ring_field(&b, f))
			fields |= 1u << f;
	for (int f = 0; f < NP_RING__COUNT; f++) {
		if (!(fields & (1u << f)) || (!plan->split && f != __builtin_ctz(fields)))
			continue;
		if (np_plan_add_step(plan, &np_knob_rings, -1, plan->split ? 1u << f : fields) < 0)
			return -ENOMEM;
		for (int g = f; g < NP_RING__COUNT; g++)
			if ((fields & (1u << g)) && (g == f || !plan->split) &&
			    np_plan_add_uint(plan, ring_names[g], *ring_field(&a, g),
					     *ring_field(&b, g)) < 0)
				return -ENOMEM;
	}
	return 0;
}

/* The step's sizes, the others as they are: a size the driver refused
 * before is not sent again with the next one. */
static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	struct np_rings want = cur->dev.rings;
	struct np_rings goal = to->dev.rings;

	for (int f = 0; f < NP_RING__COUNT; f++)
		if (!step->fields || (step->fields & (1u << f)))
			*ring_field(&want, f) = *ring_field(&goal, f);
	return be->ops->set_rings(be, &cur->dev, &want, err);
}

const struct np_knob np_knob_rings = {
	.name = "rings",
	.diff = diff,
	.apply = apply,
	.reopens_queues = true,
	.rereads = NP_READ_RINGS | NP_READ_QUEUES,
};
