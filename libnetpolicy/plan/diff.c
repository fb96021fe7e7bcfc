/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The differ: two states into the ordered steps of a plan, each knob of the
 * table (knob/knob.c, in apply order) adding what differs for it.  Apart
 * from the plan builder the knobs call, so that the table's files do not
 * import the file that walks them.
 */
#include <errno.h>
#include <stdlib.h>

#include "plan/np_policy.h"

/* Room for cap elements at least, without changing n; 0 or -ENOMEM. */
static int reserve(void **v, size_t *cap, size_t want, size_t size)
{
	void *nv;

	if (*cap >= want)
		return 0;
	nv = realloc(*v, want * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = want;
	return 0;
}

int np_plan_diff(struct np_plan *plan, const struct np_state *from)
{
	const struct np_dev *t = &plan->target->dev;
	/* Most steps are one per queue file and per IRQ: room for them at
	 * once instead of a copy of every change (two CPU masks each) at
	 * each doubling. */
	size_t most = 2 * ((size_t)t->n_rxq + t->n_txq) + t->n_irq + 32;

	if (reserve((void **)&plan->steps, &plan->cap_steps, most, sizeof(*plan->steps)) < 0 ||
	    reserve((void **)&plan->changes, &plan->cap_changes, most, sizeof(*plan->changes)) < 0)
		return -ENOMEM;
	for (size_t i = 0; np_knobs[i]; i++) {
		int r = np_knobs[i]->diff(plan, from, plan->target);

		if (r < 0)
			return r;
	}
	return 0;
}
