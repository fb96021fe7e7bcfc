/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NAPI deferral per NAPI instance where the kernel has per-NAPI config
 * (napi-get reports defer-hard-irqs and gro-flush-timeout: 6.13, netdev.yaml
 * napi-set): the policy's values go to each NAPI with napi-set, and the
 * device-wide sysfs files stay as they are -- since the per-NAPI fields
 * ("net: napi: Make napi_defer_hard_irqs per-NAPI", f15e3b3ddb9f, and "...
 * Make gro_flush_timeout per-NAPI", acb8d4ed5661) a sysfs write sets every
 * NAPI of the device at once and a sysfs read shows only the device's own
 * value, so writing it would undo anything set per NAPI.  Without per-NAPI
 * config the sysfs path of np_plan_napi stays, with a note.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "plan/np_policy.h"

#define PER_NAPI (NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH)

void np_plan_napi_config(const struct np_policy *p, const struct np_state *st,
			 const struct np_plan_base *base, struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	const struct np_dev *pr = base && base->pristine ? &base->pristine->dev : NULL;
	unsigned per = 0;

	if (st->dev.napis.err || !st->dev.napis.n) {
		if (p->napi && !st->dev.napi.err)
			np_plan_note(plan, "napi", "per-NAPI config %s: the device-wide sysfs "
				     "values are used", st->dev.napis.err ?
				     "not supported by kernel (no napi-get)" : "absent (no NAPI instance)");
		return;
	}
	for (unsigned i = 0; i < t->napis.n; i++)
		if ((t->napis.v[i].has & PER_NAPI) == PER_NAPI)
			per++;
	if (!per) {
		if (p->napi && !st->dev.napi.err)
			np_plan_note(plan, "napi", "per-NAPI config not supported by kernel (napi-get "
				     "reports no defer-hard-irqs, 6.13): the device-wide sysfs values are used");
		return;
	}
	/* the sysfs files stay as they are */
	if (!st->dev.napi.err) {
		t->napi.defer_hard_irqs = st->dev.napi.defer_hard_irqs;
		t->napi.gro_flush_timeout = st->dev.napi.gro_flush_timeout;
	}
	for (unsigned i = 0; i < t->napis.n; i++) {
		struct np_napi_inst *n = &t->napis.v[i];
		const struct np_napi_inst *was = pr ? np_napi_find(pr, n->id) : NULL;

		if ((n->has & PER_NAPI) != PER_NAPI)
			continue;
		if (p->napi) {
			n->defer_hard_irqs = p->napi_defer_hard_irqs;
			n->gro_flush_timeout = p->gro_flush_timeout;
		} else if (was && (was->has & PER_NAPI) == PER_NAPI) {
			/* a knob the policy does not own: back to pristine */
			n->defer_hard_irqs = was->defer_hard_irqs;
			n->gro_flush_timeout = was->gro_flush_timeout;
		}
	}
	if (p->napi)
		np_plan_note(plan, "napi", "defer-hard-irqs %u and gro-flush-timeout %" PRIu64 " ns set "
			     "on each of %u NAPI instances (napi-set, netdev.yaml); the device-wide "
			     "sysfs files stay as they are", p->napi_defer_hard_irqs,
			     p->gro_flush_timeout, per);
}
