/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a policy does not own and what the machine shares.
 *
 * A policy owns the knobs it sets; every knob some other policy sets goes
 * back to the device's pristine value, so `set X` ends in the same state
 * whatever ran before.  The net.core sysctls are one per machine: each
 * device's plan takes the most any device still needs, at least their value
 * before any device needed them, so one device's reset or switch never takes
 * away what another device's policy needs.
 */
#include <errno.h>
#include <string.h>

#include "plan/np_policy.h"

/* Coalescing fields some policy sets: the ones a switch must put back. */
static const enum np_coal_field policy_coal_fields[] = {
	NP_COAL_ADAPTIVE_RX, NP_COAL_ADAPTIVE_TX, NP_COAL_RX_USECS, NP_COAL_RX_FRAMES,
	NP_COAL_TX_USECS, NP_COAL_TX_FRAMES,
};

static void restore_coalesce(const struct np_state *pr, struct np_plan *plan)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;
	const struct np_coalesce *o = &pr->dev.coalesce;

	if (c->err || o->err)
		return;
	for (size_t i = 0; i < NP_ARRAY_SIZE(policy_coal_fields); i++) {
		enum np_coal_field f = policy_coal_fields[i];

		if ((c->supported & ~c->fixed & o->supported) & (1u << f))
			c->val[f] = o->val[f];
	}
}

/* The features a policy may set (np_policy_features: rx-ntuple-filter for
 * accelerated RFS in plan_steer.c, the rest in custom policies) go back to
 * their pristine value; rx-hashing every policy sets again. */
static void restore_features(const struct np_state *pr, struct np_plan *plan)
{
	struct np_features *f = &plan->target->dev.features;

	if (f->err || pr->dev.features.err)
		return;
	for (size_t k = 0; k < np_policy_n_features; k++) {
		const struct np_feature *o = np_features_find(&pr->dev.features,
							      np_policy_features[k].name);

		for (unsigned i = 0; o && i < f->n; i++)
			if (!strcmp(f->v[i].name, o->name) && !f->v[i].fixed) {
				f->v[i].wanted = o->wanted;
				f->v[i].active = o->active;
			}
	}
}

void np_plan_restore(const struct np_policy *p, const struct np_state *st,
		     const struct np_plan_base *base, struct np_plan *plan)
{
	const struct np_state *pr = base ? base->pristine : NULL;

	(void)p;
	(void)st;
	if (!pr)
		return;		/* the device as it is is pristine */
	restore_coalesce(pr, plan);
	restore_features(pr, plan);
	/* rings: plan_rings starts from the pristine size; NAPI: np_plan_napi */
}

void np_plan_napi(const struct np_policy *p, const struct np_state *st,
		  const struct np_plan_base *base, struct np_plan *plan)
{
	struct np_napi *t = &plan->target->dev.napi;
	const struct np_state *pr = base ? base->pristine : NULL;

	if (st->dev.napi.err) {
		if (p->napi)
			np_plan_note(plan, "napi", "napi_defer_hard_irqs/gro_flush_timeout: %s",
				     strerror(-st->dev.napi.err));
	} else if (p->napi) {
		t->defer_hard_irqs = p->napi_defer_hard_irqs;
		t->gro_flush_timeout = p->gro_flush_timeout;
	} else if (pr && !pr->dev.napi.err) {
		t->defer_hard_irqs = pr->dev.napi.defer_hard_irqs;
		t->gro_flush_timeout = pr->dev.napi.gro_flush_timeout;
	}
}

static uint32_t max3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t m = a > b ? a : b;

	return m > c ? m : c;
}

void np_plan_sysctls(const struct np_policy *p, const struct np_state *st,
		     const struct np_plan_base *base, struct np_plan *plan)
{
	static const struct np_sysctl none;
	struct np_sysctl *t = &plan->target->sys, *need = &plan->needs;
	/* Without any device's record netpolicy has raised nothing: the live
	 * values are the ones to come back to. */
	const struct np_sysctl *pr = base && base->shared ? &base->shared_pristine : &st->sys;
	const struct np_sysctl *others = base ? &base->others : &none;

	if (p->busy_poll || p->busy_read) {
		if (st->sys.busy_err) {
			np_plan_note(plan, "busy-poll", "busy_poll/busy_read unavailable (%s)",
				     strerror(-st->sys.busy_err));
		} else if (np_cpumask_weight(&st->topo.online) < 2) {
			/* napi.rst: the busy-polling task spins on its CPU;
			 * with one CPU it spins against the work it waits for. */
			np_plan_note(plan, "busy-poll", "not on a machine with one CPU: the "
				     "poller would spin against the softirq it waits for");
		} else {
			need->busy_poll = p->busy_poll;
			need->busy_read = p->busy_read;
		}
	}
	plan->shared_pristine = *pr;
	plan->shared_pristine.flow_entries_err = st->sys.flow_entries_err;
	plan->shared_pristine.busy_err = st->sys.busy_err;
	if (!st->sys.flow_entries_err)
		t->rps_sock_flow_entries = max3(pr->rps_sock_flow_entries,
						need->rps_sock_flow_entries,
						others->rps_sock_flow_entries);
	if (!st->sys.busy_err) {
		t->busy_poll = max3(pr->busy_poll, need->busy_poll, others->busy_poll);
		t->busy_read = max3(pr->busy_read, need->busy_read, others->busy_read);
	}
}
