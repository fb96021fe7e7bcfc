/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * np_plan_refine: the engine's re-plan after queues reopen is the
 * planner's.  A NIC whose driver requests its queue IRQs when the queues
 * open (4 vectors before the channel change, one per queue after it): the
 * refined plan covers the new vectors, keeps the plan's CPUs, and is what
 * planning from the new reading gives.
 */
#include <errno.h>
#include <string.h>

#include "plan/np_policy.h"
#include "shapes.h"
#include "tap.h"

int main(void)
{
	struct shape before = { .cpus = 16, .queues = 16, .max_queues = 16, .irqs = 4 };
	NP_PLAN_OPTS(opts, .cpus = "0-3");
	struct np_state *st = NULL, *now = NULL;
	struct np_plan *plan = NULL, *refined = NULL, *direct = NULL;
	const struct np_policy *policy;
	struct np_error err = { 0 };
	struct np_cpumask allowed;
	bool inside = true;
	unsigned covered = 0;
	struct shape after;

	np_cpumask_parse_list("0-3", &allowed);
	ok(np_policy_lookup("throughput", &policy, &err) == 0, "throughput exists");
	ok(shape_build(&before, &st) == 0, "the NIC before");
	ok(np_plan_compute(NULL, policy, &opts, st, &plan, &err) == 0, "planned (%s)", err.msg);
	if (!plan)
		return tap_done();
	/* np_plan_changes answers what the plan's JSON lists */
	ok(np_plan_changes(plan, "irq-affinity") && np_plan_changes(plan, "channels"),
	   "the plan changes IRQ affinity and channels");
	ok(!np_plan_changes(plan, "no-such-knob") && !np_plan_changes(plan, NULL),
	   "and no knob it has no step of");

	/* what the device is after the channel step: every queue its vector */
	after = before;
	after.queues = plan->target->dev.channels.combined;
	after.irqs = 0;
	ok(shape_build(&after, &now) == 0, "the NIC after its queues reopened");
	is_int(np_plan_refine(plan, now, NULL, &refined, &err), 0, "refined (%s)", err.msg);
	if (!refined)
		return tap_done();
	ok(refined->policy == plan->policy, "same policy");
	is_str(refined->cpus, "0-3", "same CPUs");
	for (unsigned i = 0; i < refined->target->dev.n_irq; i++) {
		const struct np_irq *irq = &refined->target->dev.irq[i];
		struct np_cpumask out;

		if (irq->queue < 0)
			continue;
		covered++;
		np_cpumask_andnot(&out, &irq->affinity, &allowed);
		inside &= !np_cpumask_empty(&irq->affinity) && np_cpumask_empty(&out);
	}
	is_int(covered, after.queues, "every queue vector of the new reading is planned");
	ok(inside, "each within the plan's CPUs");
	ok(np_plan_compute(NULL, policy, &opts, now, &direct, &err) == 0, "planned from now");
	is_int(refined->n_steps, direct ? direct->n_steps : 0,
	       "refining is planning from the new reading with the plan's options");

	np_plan_free(direct);
	np_plan_free(refined);
	refined = NULL;
	/* a rollback plan has no policy to refine */
	plan->policy = NULL;
	is_int(np_plan_refine(plan, now, NULL, &refined, &err), -EINVAL, "a rollback plan: -EINVAL");
	plan->policy = policy;
	np_plan_free(plan);
	np_state_free(st);
	np_state_free(now);
	return tap_done();
}
