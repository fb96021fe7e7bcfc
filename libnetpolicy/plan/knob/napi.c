/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device-wide NAPI deferral: napi_defer_hard_irqs and gro_flush_timeout,
 * which work together (deferral needs the timer to re-poll). */
#include <inttypes.h>

#include "plan/np_plan.h"

enum { DEFER, GRO_FLUSH };

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_napi *a = &from->dev.napi, *b = &to->dev.napi;

	if (a->err || b->err)
		return 0;
	/* The timeout first when raising deferral, last when lowering it, so
	 * deferral is never on without the timer that ends it. */
	if (a->defer_hard_irqs != b->defer_hard_irqs) {
		if (np_plan_add_step(plan, &np_knob_napi, DEFER, 0) < 0 ||
		    np_plan_add_uint(plan, "defer-hard-irqs", a->defer_hard_irqs, b->defer_hard_irqs) < 0)
			return -ENOMEM;
	}
	if (a->gro_flush_timeout != b->gro_flush_timeout) {
		if (np_plan_add_step(plan, &np_knob_napi, GRO_FLUSH, 0) < 0 ||
		    np_plan_add_uint(plan, "gro-flush-timeout", a->gro_flush_timeout,
				     b->gro_flush_timeout) < 0)
			return -ENOMEM;
		if (b->defer_hard_irqs > a->defer_hard_irqs && plan->n_steps >= 2) {
			struct np_step t = plan->steps[plan->n_steps - 1];

			plan->steps[plan->n_steps - 1] = plan->steps[plan->n_steps - 2];
			plan->steps[plan->n_steps - 2] = t;
		}
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	char v[24];

	if (step->index == DEFER) {
		np_fmt_u32(v, sizeof(v), to->dev.napi.defer_hard_irqs);
		return be->ops->write_attr(be, &cur->dev, NP_ATTR_NAPI_DEFER_HARD_IRQS, 0, v, err);
	}
	snprintf(v, sizeof(v), "%" PRIu64, to->dev.napi.gro_flush_timeout);
	return be->ops->write_attr(be, &cur->dev, NP_ATTR_GRO_FLUSH_TIMEOUT, 0, v, err);
}

const struct np_knob np_knob_napi = {
	.name = "napi",
	.diff = diff,
	.apply = apply,
};
