/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-NAPI defer-hard-irqs and gro-flush-timeout (netdev napi-set, 6.13):
 * one request per NAPI instance, matched between states by NAPI id. */
#include "plan/np_plan.h"

#define FIELDS (NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH)

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	char what[48];

	for (unsigned i = 0; !to->dev.napis.err && i < to->dev.napis.n; i++) {
		const struct np_napi_inst *b = &to->dev.napis.v[i], *a = np_napi_find(&from->dev, b->id);
		uint32_t fields = 0;

		if (!a)
			continue;
		if ((a->has & b->has & NP_NAPI_HAS_DEFER) && a->defer_hard_irqs != b->defer_hard_irqs)
			fields |= NP_NAPI_HAS_DEFER;
		if ((a->has & b->has & NP_NAPI_HAS_GRO_FLUSH) &&
		    a->gro_flush_timeout != b->gro_flush_timeout)
			fields |= NP_NAPI_HAS_GRO_FLUSH;
		if (!fields)
			continue;
		if (np_plan_add_step(plan, &np_knob_napi_config, (int)i, fields) < 0)
			return -ENOMEM;
		if (fields & NP_NAPI_HAS_DEFER) {
			snprintf(what, sizeof(what), "napi %u defer-hard-irqs", b->id);
			if (np_plan_add_uint(plan, what, a->defer_hard_irqs, b->defer_hard_irqs) < 0)
				return -ENOMEM;
		}
		if (fields & NP_NAPI_HAS_GRO_FLUSH) {
			snprintf(what, sizeof(what), "napi %u gro-flush-timeout", b->id);
			if (np_plan_add_uint(plan, what, a->gro_flush_timeout, b->gro_flush_timeout) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	const struct np_napi_inst *want = &to->dev.napis.v[step->index];

	if (!be->ops->set_napi)
		return np_err(err, -EOPNOTSUPP, NP_PHASE_APPLY, "napi-config",
			      "napi-set: not supported by this backend");
	return be->ops->set_napi(be, &cur->dev, want, step->fields & FIELDS, err);
}

const struct np_knob np_knob_napi_config = {
	.name = "napi-config",
	.diff = diff,
	.apply = apply,
	/* a channel change makes and ends NAPI instances */
	.per_queue = true,
};
