/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-queue coalescing in plans.  Every policy: each queue gets the
 * device-wide target, as the device-wide write itself gives every queue on
 * the drivers that have per-queue values (ice_set_coalesce() ->
 * __ice_set_coalesce() with q_num -1, drivers/net/ethernet/intel/ice/
 * ice_ethtool.c), so a policy leaves no queue at an old class's value.
 * The mixed policy: each class's queues get the coalescing of the class's
 * own policy (latency, throughput, cpu), planned by np_plan_coalesce() as
 * that policy would plan it for the device (the driver's ranges, modes and
 * fields); the device-wide value is the default class's.
 */
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "plan/np_mixed.h"
#include "plan/np_policy.h"
#include "plan/policy/np_policy_file.h"

static void set_queues(struct np_dev *t, unsigned first, unsigned n, const uint32_t *val)
{
	uint32_t pq = t->coalesce.per_queue;

	for (unsigned q = first; q < first + n && q < t->n_rxq; q++)
		for (int f = 0; f < NP_COAL__COUNT; f++)
			if (pq & (1u << f))
				t->rxq[q].coal[f] = val[f];
}

void np_plan_queue_coalesce(struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;

	if (t->coalesce.err || !t->coalesce.per_queue)
		return;
	set_queues(t, 0, t->n_rxq, t->coalesce.val);
}

/* The coalescing class cls's policy plans for st's device, from `from`
 * (the device's pristine values): into ret.  Its notes are the class
 * policy's own and are not repeated in the mixed plan. */
static int class_coalesce(const struct np_state *st, const struct np_coalesce *from,
			  enum np_class cls, struct np_coalesce *ret)
{
	const struct np_policy *p = np_policy_builtin(np_class_name(cls));
	struct np_plan tmp = { 0 };
	struct np_state *scratch;

	if (!p)
		return -ENOENT;
	/* np_plan_coalesce writes only target->dev.coalesce: a shallow copy
	 * of the state (its arrays shared, never written) is its target */
	scratch = malloc(sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	*scratch = *st;
	scratch->dev.coalesce = *from;
	tmp.target = scratch;
	np_plan_coalesce(p, st, &tmp);
	*ret = scratch->dev.coalesce;
	free(tmp.notes);
	free(scratch);
	return 0;
}

static void describe(const struct np_coalesce *c, uint32_t fields, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int f = 0; f < NP_COAL__COUNT && used < len; f++) {
		int n;

		if (!(fields & (1u << f)))
			continue;
		if (f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX)
			n = snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "",
				     np_coal_field_name(f), c->val[f] ? "on" : "off");
		else
			n = snprintf(buf + used, len - used, "%s%s %u", used ? ", " : "",
				     np_coal_field_name(f), c->val[f]);
		used += n > 0 ? (size_t)n : 0;
	}
}

int np_plan_mixed_coalesce(const struct np_state *st, const struct np_mixed *m,
			   struct np_plan *plan)
{
	const struct np_state *pr = plan->base.pristine ? plan->base.pristine : st;
	struct np_dev *t = &plan->target->dev;
	struct np_coalesce c;
	char text[120];
	int r;

	if (t->coalesce.err)
		return 0;
	r = class_coalesce(st, &pr->dev.coalesce, m->deflt, &c);
	if (r < 0)
		return r;
	/* only the values: supported, fixed and per_queue are the device's */
	memcpy(t->coalesce.val, c.val, sizeof(c.val));
	if (!t->coalesce.per_queue) {
		/* the backend asks only the drivers the table says have it */
		if (np_driver_lookup(st->dev.driver))
			np_plan_note(plan, "coalesce", "driver %s has no per-queue coalescing: one "
				     "device-wide value, which favours the default class (%s)",
				     st->dev.driver, np_class_name(m->deflt));
		else
			np_plan_note(plan, "coalesce", "per-queue coalescing not read: driver %s is "
				     "not in the driver table; one device-wide value, which favours "
				     "the default class (%s)", st->dev.driver[0] ? st->dev.driver :
				     "(unknown)", np_class_name(m->deflt));
		return 0;
	}
	np_plan_queue_coalesce(plan);
	for (int cls = 0; cls < NP_CLASS__COUNT; cls++) {
		const struct np_mixed_class *k = &m->cls[cls];

		if (!k->used || !k->n_q)
			continue;
		r = class_coalesce(st, &pr->dev.coalesce, (enum np_class)cls, &c);
		if (r < 0)
			return r;
		set_queues(t, k->q_first, k->n_q, c.val);
		describe(&c, t->coalesce.per_queue & ~t->coalesce.fixed, text, sizeof(text));
		np_plan_note(plan, "queue-coalesce", "%s queues %u-%u: %s", np_class_name(cls),
			     k->q_first, k->q_first + k->n_q - 1, text);
	}
	np_plan_note(plan, "coalesce", "per-queue coalescing per class (ETHTOOL_PERQUEUE, %s); the "
		     "device-wide value is the default class's (%s)", st->dev.driver,
		     np_class_name(m->deflt));
	return 0;
}
