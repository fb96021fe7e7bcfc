/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_plan_refine: planning once more after queues reopened, and
 * np_plan_without: after the driver refused a knob, so that the engine
 * applies plans and never makes one (pure: the base the plan was made
 * from travels with it). */
#include <errno.h>

#include "plan/np_plan.h"
#include "plan/np_policy.h"

static int again(const struct np_plan *plan, const struct np_state *now, const char *drop,
		 const struct np_state *pristine, struct np_plan **ret, struct np_error *err)
{
	struct np_plan_opts opts = { .sz = sizeof(opts), .cpus = plan->cpus[0] ? plan->cpus : NULL,
				     .drop = drop && drop[0] ? drop : NULL,
				     /* the link a channel change bounced is the one
				      * the plan was made for */
				     .link_speed = plan->link_speed };
	struct np_plan_base base = plan->base;

	if (!plan->policy)
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL, "a rollback plan has no policy");
	/* from what the plan was made from: the same pristine values and
	 * machine-wide needs */
	if (!base.pristine)
		base.pristine = pristine;
	return np_plan_compute_mixed(plan->policy, &opts, plan->mixed, now, &base, ret, err);
}

int np_plan_without(const struct np_plan *plan, const struct np_state *now, const char *drop,
		    struct np_plan **ret, struct np_error *err)
{
	return again(plan, now, drop, NULL, ret, err);
}

int np_plan_refine(const struct np_plan *plan, const struct np_state *now,
		   const struct np_state *made_from, struct np_plan **ret, struct np_error *err)
{
	return again(plan, now, plan->drop, made_from, ret, err);
}
