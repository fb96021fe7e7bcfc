/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Offload features, one request per feature: the kernel flips dependent
 * bits itself, and a failure then names the one feature that failed. */
#include <string.h>

#include "plan/np_plan.h"

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_features *b = &to->dev.features;

	if (from->dev.features.err || b->err)
		return 0;
	for (unsigned i = 0; i < b->n; i++) {
		const struct np_feature *f = np_features_find(&from->dev.features, b->v[i].name);

		if (!f || f->fixed || f->wanted == b->v[i].wanted)
			continue;
		if (np_plan_add_step(plan, &np_knob_features, (int)i, 0) < 0 ||
		    np_plan_add_bool(plan, b->v[i].name, f->wanted, b->v[i].wanted) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	const struct np_feature *f = &to->dev.features.v[step->index];

	return be->ops->set_feature(be, &cur->dev, f->name, f->wanted, err);
}

const struct np_knob np_knob_features = {
	.name = "features",
	.diff = diff,
	.apply = apply,
};
