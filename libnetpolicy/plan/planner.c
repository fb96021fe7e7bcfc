/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The planner: policy + options + discovered state -> target state.  Pure:
 * no I/O, so every policy is tested on machine shapes no lab has.
 *
 * What the driver lacks is a note, never an error: the plan does what this
 * NIC can do.  Errors are only for what makes any plan wrong (no CPU the
 * policy may use, a --cpus list naming offline CPUs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "plan/np_mixed.h"
#include "plan/np_policy.h"

static int eligible_cpus(const struct np_plan_opts *opts, const struct np_topology *t,
			 struct np_cpumask *ret, struct np_error *err)
{
	struct np_cpumask m, off;

	if (opts && opts->cpus) {
		int r;

		/* blanks only is empty too: the list parser skips them */
		if (!opts->cpus[strspn(opts->cpus, " \t\n")])
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "--cpus: empty; name the CPUs to use (like 0-3,8)");
		if (strlen(opts->cpus) >= NP_CPUS_TEXT_MAX)
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "--cpus: longer than %d characters", NP_CPUS_TEXT_MAX - 1);
		r = np_cpumask_parse_list(opts->cpus, &m);

		if (r < 0)
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "--cpus: '%s' is not a CPU list (like 0-3,8)", opts->cpus);
		np_cpumask_andnot(&off, &m, &t->online);
		if (!np_cpumask_empty(&off)) {
			char buf[128];

			np_cpumask_format_list(&off, buf, sizeof(buf));
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "--cpus: CPU %s not online", buf);
		}
		/* Named CPUs are used even when isolated: the admin asked. */
		*ret = m;
	} else {
		np_cpumask_andnot(&m, &t->online, &t->isolated);
		np_cpumask_andnot(&m, &m, &t->nohz_full);
		*ret = m;
	}
	if (np_cpumask_empty(ret))
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL,
			      "no CPU available for interrupts (all online CPUs are isolated or "
			      "nohz_full); name some with --cpus");
	return 0;
}

/* The kernel's own default queue count (net/core/dev.c,
 * netif_get_num_default_rss_queues): physical cores, at most
 * DEFAULT_MAX_NUM_RSS_QUEUES (8). */
#define KERNEL_DEFAULT_QUEUES 8

static bool link_speed_known(const struct np_link *l)
{
	return !l->err && l->speed && l->speed != UINT32_MAX;
}

/*
 * The speed (Mb/s) the plan is made for, 0 unknown.  With the carrier down
 * the device reports none; the speed the applied policy was planned for
 * (opts->link_speed, from its record) stands in for it, since a plan must
 * not change because a link bounced: igb drops carrier for ~200 ms on each
 * channel change, its own ones included, and `check` or `watch` in that
 * moment would otherwise call the speed-less plan's difference drift.
 */
static uint32_t plan_link_speed(const struct np_plan_opts *opts, const struct np_state *st,
				struct np_plan *plan)
{
	if (link_speed_known(&st->dev.link))
		return st->dev.link.speed;
	if (!opts || !opts->link_speed)
		return 0;
	np_plan_note(plan, "channels", "link speed unknown (link down?): planning for %u Mb/s, "
		     "the speed when the policy was applied", opts->link_speed);
	return opts->link_speed;
}

/*
 * How many queues the policy wants, before driver limits.  Counted in
 * physical cores: scaling.rst (RSS Configuration) "for interrupt handling, HT
 * has shown no benefit in initial tests, so limit the number of queues to
 * the number of CPU cores in the system", and the kernel's default does the
 * same.
 */
static unsigned want_queues(const struct np_policy *p, const struct np_cpu_order *o,
			    struct np_plan *plan)
{
	unsigned cores = o->n_local_cores ? o->n_local_cores : o->n_cores, n;

	switch (p->channels) {
	case NP_CHAN_LINK_SPEED:
		if (plan->link_speed) {
			n = (plan->link_speed + 9999) / 10000;
		} else {
			/* Link down at boot or at udev add: one queue would
			 * starve a fast NIC once the link comes up. */
			n = KERNEL_DEFAULT_QUEUES;
			np_plan_note(plan, "channels", "link speed unknown (link down?): planning the "
				     "kernel's default of up to %u queues; run `set` again once the "
				     "link is up", KERNEL_DEFAULT_QUEUES);
		}
		if (n > cores)
			n = cores;
		break;
	case NP_CHAN_MAX: {
		const struct np_channels *c = &plan->target->dev.channels;

		n = c->err ? 0 : c->max_combined ? c->max_combined :
		    c->max_rx > c->max_tx ? c->max_rx : c->max_tx;
		if (!n) {
			n = cores;
			np_plan_note(plan, "channels", "channels = max: the driver reports no "
				     "maximum; one queue per core (%u)", n);
		}
		break;
	}
	case NP_CHAN_COUNT:
		/* the number asked for, not capped at the cores: the admin
		 * knows the workload (np_plan_channels notes the driver's
		 * maximum, plan_irqs queues sharing CPUs) */
		n = p->channels_n;
		break;
	case NP_CHAN_LOCAL_CORES:
	default:
		n = cores;
		break;
	}
	return n ? n : 1;
}

/* The pristine affinity of an IRQ by number, NULL when unknown. */
static const struct np_irq *pristine_irq(const struct np_plan_base *base, const struct np_irq *irq)
{
	const struct np_dev *d = base && base->pristine ? &base->pristine->dev : NULL;

	for (unsigned i = 0; d && i < d->n_irq; i++)
		if (d->irq[i].irq == irq->irq && !strcmp(d->irq[i].name, irq->name) && !d->irq[i].err)
			return &d->irq[i];
	return NULL;
}

static bool channels_change(const struct np_channels *a, const struct np_channels *b)
{
	return !a->err && !b->err &&
	       (a->combined != b->combined || a->rx != b->rx || a->tx != b->tx);
}

static void plan_irqs(const struct np_state *st, const struct np_cpu_order *o, unsigned nq,
		      const struct np_plan_base *base, struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	const struct np_driver *drv;
	unsigned queue_irqs = 0;

	for (unsigned i = 0; i < t->n_irq; i++) {
		struct np_irq *irq = &t->irq[i];

		/* Non-queue IRQs (config, async events) are not ours; IRQs of
		 * queues the plan does not use go back to where they were
		 * before netpolicy (a driver that keeps their vectors keeps
		 * what an earlier policy set otherwise). */
		if (irq->queue < 0)
			continue;
		if ((unsigned)irq->queue >= nq) {
			const struct np_irq *pr = pristine_irq(base, irq);

			if (pr && !irq->err)
				irq->affinity = pr->affinity;
			continue;
		}
		if (irq->err) {
			np_plan_note(plan, "irq-affinity", "IRQ %u (%s): affinity unreadable (%s), left alone",
				     irq->irq, irq->name, strerror(-irq->err));
			continue;
		}
		queue_irqs++;
		np_cpumask_zero(&irq->affinity);
		np_cpumask_set(&irq->affinity, np_queue_cpu(o, (unsigned)irq->queue));
	}
	if (!t->n_irq)
		np_plan_note(plan, "irq-affinity", "no IRQs found for %s (%s): interrupt affinity not planned",
			     st->dev.ifname, st->dev.driver[0] ? st->dev.driver : "no driver");
	else if (!queue_irqs)
		np_plan_note(plan, "irq-affinity", "no per-queue IRQs recognised among %u IRQs", t->n_irq);
	np_plan_irq_notes(st, nq, channels_change(&st->dev.channels, &t->channels), plan);
	if (nq > o->n)
		np_plan_note(plan, "irq-affinity", "%u queues share %u CPUs", nq, o->n);
	if (t->n_irq && channels_change(&st->dev.channels, &t->channels) &&
	    (drv = np_driver_lookup(st->dev.driver)) && drv->chan_affinity == NP_CHAN_RESETS)
		np_plan_note(plan, "irq-affinity", "driver %s requests its vectors again on a channel "
			     "change: the IRQs are planned again after it, by their names then",
			     st->dev.driver);
}

/* rx-hashing off and fixed: the device hashes no flow to a queue. */
static bool rx_hash_off(const struct np_state *st)
{
	const struct np_feature *f = np_features_find(&st->dev.features, "rx-hashing");

	return !st->dev.features.err && f && f->fixed && !f->active;
}

/* The CPUs the plan may use (eligible) in the order queues take them:
 * local to the NIC first, or all remote when no allowed CPU is local. */
static int order_cpus(const struct np_plan_opts *opts, const struct np_state *st,
		      struct np_plan *plan, struct np_cpumask *eligible, struct np_cpu_order *o,
		      struct np_error *err)
{
	struct np_cpumask local;
	int r;

	r = eligible_cpus(opts, &st->topo, eligible, err);
	if (r < 0)
		return r;
	local = st->dev.local_cpus;
	np_cpumask_and(&local, &local, eligible);
	if (np_cpumask_empty(&local)) {
		/* A NIC on a node with no CPU we may use: everything is remote. */
		if (!np_cpumask_empty(&st->dev.local_cpus))
			np_plan_note(plan, "irq-affinity",
				     "no allowed CPU is local to the NIC: using remote CPUs");
		local = *eligible;
	}
	r = np_cpu_order(&st->topo, eligible, &local, o);
	if (r < 0)
		return np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
	if (!o->n) {
		np_cpu_order_clear(o);
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL, "no usable CPU in the topology");
	}
	return 0;
}

/* Every knob after the channel count, for nq queues (want asked). */
static int plan_knobs(const struct np_policy *p, const struct np_state *st,
		      const struct np_plan_base *base, const struct np_cpu_order *o, unsigned nq,
		      unsigned want, struct np_plan *plan)
{
	unsigned hw_rx = 0;	/* the queues the NIC spreads over, when not nq */
	int r;

	np_plan_features(p, st, plan);
	if (!plan->target->dev.rss.err && plan->target->dev.rss.indir_size && rx_hash_off(st)) {
		/* no RSS engine in use: a table write is refused (EINVAL) or
		 * does nothing, and the receive work lands on one queue, so
		 * RPS is what spreads it where the policy spreads */
		np_plan_note(plan, "rss", "rx-hashing is off and fixed by driver %s: its indirection "
			     "table is not in use and stays as the driver keeps it", st->dev.driver);
		hw_rx = 1;
	} else if (plan->target->dev.rss.err || !plan->target->dev.rss.indir_size)
		np_plan_note(plan, "rss", "%s %s: the driver's own spreading stays",
			     plan->target->dev.rss.err ? np_unsupported(plan->target->dev.rss.err) :
			     "no indirection table from", st->dev.driver);
	else
		np_plan_rss(st, nq, plan);
	np_plan_rings(p, st, base, nq, plan);
	np_plan_coalesce(p, st, plan);
	np_plan_queue_coalesce(plan);
	/* mixed: NAPI per class, once the classes are made (np_policy_plan) */
	if (!plan->mixed) {
		np_plan_napi(p, st, base, plan);
		np_plan_napi_config(p, st, base, plan);
	}
	plan_irqs(st, o, nq, base, plan);
	if (!plan->mixed)
		np_plan_napi_threads(st, o, nq, plan);
	r = np_plan_xps(st, o, nq, plan);
	if (r < 0)
		return r;
	np_plan_rps(p, st, o, hw_rx ? hw_rx : nq, want, plan);
	np_plan_sysctls(p, st, base, plan);
	/* last: a custom policy's offloads win over what steering wants */
	np_plan_policy_features(p, st, plan);
	return 0;
}

/* A driver whose traffic another netdev may carry (np_drivers.h): the
 * plan tunes this one and says where to look. */
static void driver_note(const struct np_state *st, struct np_plan *plan)
{
	const struct np_driver *drv = np_driver_lookup(st->dev.driver);

	if (drv && drv->traffic_note)
		np_plan_note(plan, "channels", "%s %s: %s", st->dev.driver, st->dev.ifname,
			     drv->traffic_note);
}

int np_policy_plan(const struct np_policy *p, const struct np_plan_opts *opts,
		   const struct np_state *st, const struct np_plan_base *base,
		   struct np_plan *plan, struct np_error *err)
{
	struct np_cpu_order o;
	struct np_cpumask eligible;
	unsigned nq = 0, want;
	int r;

	r = order_cpus(opts, st, plan, &eligible, &o, err);
	if (r < 0)
		return r;
	/* IRQs the driver refused to move stay where the kernel put them:
	 * the queues' CPUs (XPS, RPS) are those */
	if (opts && np_knob_listed(opts->drop, "irq-affinity")) {
		struct np_cpu_order eff;

		r = np_cpu_order_effective(st, &o, &eff);
		if (r < 0) {
			np_cpu_order_clear(&o);
			return np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
		}
		if (r > 0) {
			np_cpu_order_clear(&o);
			o = eff;
		}
	}
	/* knobs this policy does not own first: the policy's values win */
	np_plan_restore(p, st, base, plan);
	/* the ntuple rules and RSS contexts netpolicy made go unless the
	 * mixed policy makes them again; foreign ones stay as they are */
	if (base)
		np_steer_drop_owned(&plan->target->dev.steer, &base->owned);
	plan->link_speed = plan_link_speed(opts, st, plan);
	driver_note(st, plan);
	want = want_queues(p, &o, plan);
	r = np_plan_channels(opts, st, want, plan, &nq);
	if (r == 1) {
		np_cpu_order_clear(&o);
		return np_err(err, -EBUSY, NP_PHASE_PLAN, "channels",
			      "ntuple rules that are not netpolicy's block the change to %u queues "
			      "in driver %s (--strict: nothing applied; without it the channel "
			      "count is kept)", want, st->dev.driver);
	}
	if (r >= 0)
		r = plan_knobs(p, st, base, &o, nq, want, plan);
	if (r < 0)
		goto out;
	/* the classes on top: their IRQs, XPS, RSS tables and rules */
	if (plan->mixed) {
		plan->mixed->opts.eligible = eligible;
		r = np_plan_mixed(st, &plan->mixed->opts, plan, &plan->mixed->m, err);
		if (r < 0) {
			np_cpu_order_clear(&o);
			return r;
		}
		np_plan_mixed_napi(st, base, &plan->mixed->m, plan);
	}
	np_plan_pm_qos(p, st, base, plan);
	if (opts && opts->drop)
		r = np_plan_keep(plan, st, opts->drop);
out:
	np_cpu_order_clear(&o);
	if (r < 0)
		return np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
	return 0;
}

/* The mixed policy's options into plan->mixed: parsed from opts, each one
 * opts lack taken from the policy's file (netpolicy-policy(5): the command
 * line wins, key by key), or the ones a plan made again keeps. */
static int mixed_options(const struct np_policy *policy, const struct np_plan_opts *opts,
			 const struct np_mixed_plan *mixed, struct np_plan *plan,
			 struct np_error *err)
{
	if (!policy->mixed) {
		if (np_mixed_opts_given(opts))
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "flows, a default class and "
				      "weights are for the mixed policy (set mixed --flow CLASS:SPEC), "
				      "not for %s", policy->name);
		return 0;
	}
	plan->mixed = malloc(sizeof(*plan->mixed));
	if (!plan->mixed)
		return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	if (mixed) {
		*plan->mixed = *mixed;
		memset(&plan->mixed->m, 0, sizeof(plan->mixed->m));
		return 0;
	}
	{
		struct np_plan_opts o = { .sz = sizeof(o) };

		if (opts && (opts->flags & NP_PLAN_OPTS_MIXED))
			o = *opts;
		o.flags |= NP_PLAN_OPTS_MIXED;
		if (!o.n_flows) {
			o.flows = policy->flows;
			o.n_flows = policy->n_flows;
		}
		if (!o.default_class)
			o.default_class = policy->default_class;
		if (!o.weights)
			o.weights = policy->weights;
		return np_mixed_opts_parse(&o, plan->mixed, err);
	}
}

/* A plan is the planner's target plus the differ's steps from the state it
 * was planned on.  np_plan_compute (compose.c) reads the base first. */
/* A driver the table does not know: the kernel said which knobs and fields
 * it has, but not which values it takes (ranges, special values, ordering).
 * The plan says which of its values nothing has checked; a value the driver
 * refuses is left out at apply time (apply/refuse.c). */
static void unverified(const struct np_state *st, struct np_plan *plan)
{
	static const char *const knobs[] = { "channels", "rings", "coalesce", "queue-coalesce",
					     "ntuple" };
	const char *drv = st->dev.driver[0] ? st->dev.driver : "(unknown)";

	if (np_driver_lookup(st->dev.driver))
		return;
	for (size_t k = 0; k < NP_ARRAY_SIZE(knobs); k++)
		for (size_t i = 0; i < plan->n_steps; i++)
			if (!strcmp(plan->steps[i].knob->name, knobs[k])) {
				np_plan_note(plan, knobs[k], "values not verified for driver %s (not "
					     "in the driver table): one it refuses is left out and "
					     "reported, or with --strict fails the apply", drv);
				break;
			}
}

int np_plan_compute_base(const struct np_policy *policy, const struct np_plan_opts *opts,
			 const struct np_state *state, const struct np_plan_base *base,
			 struct np_plan **ret, struct np_error *err)
{
	return np_plan_compute_mixed(policy, opts, NULL, state, base, ret, err);
}

int np_plan_compute_mixed(const struct np_policy *policy, const struct np_plan_opts *opts,
			  const struct np_mixed_plan *mixed, const struct np_state *state,
			  const struct np_plan_base *base, struct np_plan **ret, struct np_error *err)
{
	struct np_plan *plan = NULL;
	int r;

	if (!policy || !state)
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL, "no policy or no state");
	if (np_plan_new(&plan) < 0 || np_state_dup(state, &plan->target) < 0) {
		np_plan_free(plan);
		return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	}
	plan->policy = policy;
	r = mixed_options(policy, opts, mixed, plan, err);
	if (r < 0)
		goto fail;
	if (base) {
		struct np_state *pr = NULL;

		plan->base = *base;
		plan->base.pristine = NULL;
		if (base->pristine && np_state_dup(base->pristine, &pr) < 0) {
			np_plan_free(plan);
			return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
		}
		plan->base.pristine = pr;
	}
	if (opts && opts->cpus) {
		if (strlen(opts->cpus) >= sizeof(plan->cpus)) {
			np_plan_free(plan);
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "--cpus: list too long");
		}
		snprintf(plan->cpus, sizeof(plan->cpus), "%s", opts->cpus);
	}
	if (opts && opts->drop) {
		if (strlen(opts->drop) >= sizeof(plan->drop)) {
			np_plan_free(plan);
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "knobs to leave out: list too long");
		}
		snprintf(plan->drop, sizeof(plan->drop), "%s", opts->drop);
	}
	r = np_policy_plan(policy, opts, state, base, plan, err);
	if (r < 0)
		goto fail;
	r = np_plan_diff(plan, state);
	if (r < 0) {
		np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
		goto fail;
	}
	unverified(state, plan);
	*ret = plan;
	return 0;
fail:
	np_plan_free(plan);
	return r;
}
