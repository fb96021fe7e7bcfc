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

#include "np_drivers.h"
#include "np_policy.h"

static uint32_t roundup_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return p;
}

static const char *unsupported(int e)
{
	return e == -EOPNOTSUPP ? "not supported by driver" : strerror(-e);
}

static int eligible_cpus(const struct np_plan_opts *opts, const struct np_topology *t,
			 struct np_cpumask *ret, struct np_error *err)
{
	struct np_cpumask m, off;

	if (opts && opts->cpus) {
		int r;

		if (!*opts->cpus)
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

/* How many queues the policy wants, before driver limits. */
static unsigned want_queues(const struct np_policy *p, const struct np_state *st,
			    const struct np_cpu_order *o)
{
	unsigned n;

	switch (p->channels) {
	case NP_CHAN_LINK_SPEED:
		n = st->dev.link.err || !st->dev.link.speed ? 1 : (st->dev.link.speed + 9999) / 10000;
		if (n > o->n_local_cores && o->n_local_cores)
			n = o->n_local_cores;
		break;
	case NP_CHAN_LOCAL_CORES:
	default:
		n = o->n_local_cores ? o->n_local_cores : o->n_cores;
		break;
	}
	return n ? n : 1;
}

static void resize_queues(struct np_dev *d, unsigned nrx, unsigned ntx, int *r)
{
	if (nrx != d->n_rxq) {
		struct np_rxq *q = realloc(d->rxq, sizeof(*q) * (nrx ? nrx : 1));

		if (!q) {
			*r = -ENOMEM;
			return;
		}
		for (unsigned i = d->n_rxq; i < nrx; i++)
			memset(&q[i], 0, sizeof(q[i]));
		d->rxq = q;
		d->n_rxq = nrx;
	}
	if (ntx != d->n_txq) {
		struct np_txq *q = realloc(d->txq, sizeof(*q) * (ntx ? ntx : 1));

		if (!q) {
			*r = -ENOMEM;
			return;
		}
		for (unsigned i = d->n_txq; i < ntx; i++)
			memset(&q[i], 0, sizeof(q[i]));
		d->txq = q;
		d->n_txq = ntx;
	}
}

/* The queues open after a channel change from `cur` to `want` channels,
 * between 1 and the device's `max` (when known). */
static unsigned queue_count(unsigned open, uint64_t want, uint64_t cur, unsigned max)
{
	int64_t n = (int64_t)open + (int64_t)want - (int64_t)cur;

	if (max && n > (int64_t)max)
		n = max;
	return n < 1 ? 1 : (unsigned)n;
}

static unsigned clamp_note(struct np_plan *plan, unsigned want, uint32_t max, const char *what)
{
	if (max && want > max) {
		np_plan_note(plan, "channels", "%u %s queues wanted, driver maximum is %u", want, what,
			     max);
		return max;
	}
	return want;
}

static int plan_channels(const struct np_policy *p, const struct np_plan_opts *opts,
			 const struct np_state *st, const struct np_cpu_order *o,
			 struct np_plan *plan, unsigned *ret_nq)
{
	struct np_dev *t = &plan->target->dev;
	const struct np_channels *c = &st->dev.channels;
	unsigned want = want_queues(p, st, o), nrx, ntx;
	/* reported but not settable: vmxnet3 (np_drivers.h), or the probe */
	const struct np_driver *drv = np_driver_lookup(st->dev.driver);
	const char *why = NULL;
	int r = 0;

	if (c->err)
		why = unsupported(c->err);
	else if (c->fixed || (drv && drv->no_set_channels))
		why = "no channel setter in driver";
	else if (opts && np_knob_listed(opts->drop, "channels"))
		why = "refused (when this policy was applied) by";
	if (why) {
		np_plan_note(plan, "channels", "%s %s: keeping %u rx / %u tx queues",
			     why, st->dev.driver, st->dev.n_rxq, st->dev.n_txq);
		*ret_nq = st->dev.n_rxq;
		return 0;
	}
	if (c->max_combined) {
		t->channels.combined = clamp_note(plan, want, c->max_combined, "combined");
		*ret_nq = t->channels.combined;
	} else {
		if (c->max_rx)
			t->channels.rx = clamp_note(plan, want, c->max_rx, "rx");
		if (c->max_tx)
			t->channels.tx = clamp_note(plan, want, c->max_tx, "tx");
		*ret_nq = c->max_rx ? t->channels.rx : st->dev.n_rxq;
	}
	/* Queues beyond the channel counts (XDP tx queues, say) stay.  In 64
	 * bits and clamped: a state whose channels exceed its queues must not
	 * wrap into a huge count. */
	nrx = queue_count(st->dev.n_rxq, (uint64_t)t->channels.combined + t->channels.rx,
			  (uint64_t)c->combined + c->rx, st->dev.num_rx_queues);
	ntx = queue_count(st->dev.n_txq, (uint64_t)t->channels.combined + t->channels.tx,
			  (uint64_t)c->combined + c->tx, st->dev.num_tx_queues);
	resize_queues(t, nrx, ntx, &r);
	return r;
}

/* The CPU serving queue q. */
static unsigned queue_cpu(const struct np_cpu_order *o, unsigned q)
{
	return o->order[q % o->n];
}

static void plan_irqs(const struct np_state *st, const struct np_cpu_order *o, unsigned nq,
		      struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	unsigned queue_irqs = 0;

	for (unsigned i = 0; i < t->n_irq; i++) {
		struct np_irq *irq = &t->irq[i];

		/* Non-queue IRQs (config, async events) and IRQs of queues the
		 * plan does not use are left where they are. */
		if (irq->queue < 0 || (unsigned)irq->queue >= nq)
			continue;
		if (irq->err) {
			np_plan_note(plan, "irq-affinity", "IRQ %u (%s): affinity unreadable (%s), left alone",
				     irq->irq, irq->name, strerror(-irq->err));
			continue;
		}
		queue_irqs++;
		np_cpumask_zero(&irq->affinity);
		np_cpumask_set(&irq->affinity, queue_cpu(o, (unsigned)irq->queue));
	}
	if (!t->n_irq)
		np_plan_note(plan, "irq-affinity", "no IRQs found for %s (%s): interrupt affinity not planned",
			     st->dev.ifname, st->dev.driver[0] ? st->dev.driver : "no driver");
	else if (!queue_irqs)
		np_plan_note(plan, "irq-affinity", "no per-queue IRQs recognised among %u IRQs", t->n_irq);
	if (nq > o->n)
		np_plan_note(plan, "irq-affinity", "%u queues share %u CPUs", nq, o->n);
}

/* Every online CPU sends through one queue: its own CPU's, else one on its
 * core, else one on its node (round robin), else any (round robin), so no CPU
 * falls back to hashing.  Lookup tables keep this linear in CPUs + queues
 * (1024 CPUs x 256 queues took milliseconds scanning the queues per CPU). */
static int plan_xps(const struct np_state *st, const struct np_cpu_order *o, unsigned nq,
		    struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	const struct np_topology *topo = &st->topo;
	unsigned ntx = nq < t->n_txq ? nq : t->n_txq, nnodes = topo->nr_nodes, rr = 0;
	int *by_cpu, *by_core, *node_start, *node_q;
	bool noted = false;

	if (!ntx)
		return 0;
	/* size_t: a 32-bit sum of counts wrapped into a short buffer */
	by_cpu = malloc(sizeof(int) * ((size_t)topo->nr_cpus + topo->nr_cores + nnodes + 1 + ntx));
	if (!by_cpu)
		return -ENOMEM;
	by_core = by_cpu + topo->nr_cpus;
	node_start = by_core + topo->nr_cores;
	node_q = node_start + nnodes + 1;
	for (unsigned i = 0; i < topo->nr_cpus + topo->nr_cores; i++)
		by_cpu[i] = -1;
	memset(node_start, 0, sizeof(int) * (nnodes + 1));
	/* lowest queue first, as the IRQ plan hands out CPUs */
	for (unsigned q = ntx; q-- > 0;) {
		const struct np_cpu *c = &topo->cpus[queue_cpu(o, q)];

		by_cpu[queue_cpu(o, q)] = (int)q;
		if (c->core >= 0 && (unsigned)c->core < topo->nr_cores)
			by_core[c->core] = (int)q;
		if ((unsigned)c->node < nnodes)
			node_start[c->node + 1]++;
	}
	/* Queues grouped by node, in queue order within a node: node_start[n]
	 * serves as node n's fill cursor, then shifts back to its start. */
	for (unsigned n = 0; n < nnodes; n++)
		node_start[n + 1] += node_start[n];
	for (unsigned q = 0; q < ntx; q++) {
		unsigned n = (unsigned)topo->cpus[queue_cpu(o, q)].node;

		if (n < nnodes)
			node_q[node_start[n]++] = (int)q;
	}
	for (unsigned n = nnodes; n > 0; n--)
		node_start[n] = node_start[n - 1];
	node_start[0] = 0;

	for (unsigned q = 0; q < t->n_txq; q++) {
		if (t->txq[q].xps_err) {
			if (!noted && t->txq[q].xps_err == -ENOENT)
				np_plan_note(plan, "xps", "no xps_cpus for tx-%u (the kernel offers XPS only "
					     "on multiqueue devices)", q);
			else if (!noted)
				np_plan_note(plan, "xps", "tx-%u xps_cpus: %s", q, strerror(-t->txq[q].xps_err));
			noted = true;
			continue;
		}
		np_cpumask_zero(&t->txq[q].xps_cpus);
	}
	np_cpumask_for_each(cpu, &topo->online) {
		const struct np_cpu *c;
		int best;

		if ((unsigned)cpu >= topo->nr_cpus)
			break;
		c = &topo->cpus[cpu];
		best = by_cpu[cpu];
		if (best < 0 && c->core >= 0 && (unsigned)c->core < topo->nr_cores)
			best = by_core[c->core];
		if (best < 0) {
			unsigned n = (unsigned)c->node, nc = 0;

			if (n < nnodes)
				nc = (unsigned)(node_start[n + 1] - node_start[n]);
			best = nc ? node_q[node_start[n] + (int)(rr % nc)] : (int)(rr % ntx);
			rr++;
		}
		if (!t->txq[best].xps_err)
			np_cpumask_set(&t->txq[best].xps_cpus, (unsigned)cpu);
	}
	free(by_cpu);
	return 0;
}

static void plan_rps(const struct np_policy *p, const struct np_state *st,
		     const struct np_cpu_order *o, unsigned nq, struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	unsigned nrx = nq < t->n_rxq ? nq : t->n_rxq, nlocal = np_cpumask_weight(&o->local);
	uint32_t per_queue = 0;
	bool spread = p->rps == NP_RPS_FEW_QUEUES && nrx && nrx < nlocal;
	unsigned i = 0;

	if (p->rfs_entries && t->n_rxq)
		per_queue = roundup_pow2((p->rfs_entries + t->n_rxq - 1) / t->n_rxq);
	for (unsigned q = 0; q < t->n_rxq; q++) {
		if (!t->rxq[q].rps_err)
			np_cpumask_zero(&t->rxq[q].rps_cpus);
		if (!t->rxq[q].flow_err)
			t->rxq[q].rps_flow_cnt = per_queue;
	}
	if (spread) {
		/* Hand the local CPUs out round robin, so each CPU does the
		 * protocol work of one queue. */
		np_cpumask_for_each(cpu, &o->local) {
			unsigned q = i++ % nrx;

			if (!t->rxq[q].rps_err)
				np_cpumask_set(&t->rxq[q].rps_cpus, (unsigned)cpu);
		}
		np_plan_note(plan, "rps", "%u rx queues for %u local CPUs: RPS spreads the rest", nrx, nlocal);
	}
	if (t->n_rxq && t->rxq[0].rps_err)
		np_plan_note(plan, "rps", "rps_cpus: %s", strerror(-t->rxq[0].rps_err));

	if (!p->rfs_entries)
		return;
	if (st->sys.flow_entries_err) {
		np_plan_note(plan, "rfs", "rps_sock_flow_entries unavailable (%s; it exists only in the "
			     "initial network namespace): RFS cannot steer",
			     strerror(-st->sys.flow_entries_err));
		return;
	}
	/* Global: never lower what another NIC's policy or the admin set. */
	if (st->sys.rps_sock_flow_entries < p->rfs_entries)
		plan->target->sys.rps_sock_flow_entries = p->rfs_entries;
}

static void plan_rings(const struct np_policy *p, const struct np_state *st, struct np_plan *plan)
{
	struct np_rings *r = &plan->target->dev.rings;

	if (p->rings == NP_RING_KEEP)
		return;
	if (r->err) {
		np_plan_note(plan, "rings", "%s %s", unsupported(r->err), st->dev.driver);
		return;
	}
	if (r->fixed) {
		np_plan_note(plan, "rings", "no ring setter in driver %s: sizes stay", st->dev.driver);
		return;
	}
	if (r->max_rx)
		r->rx = r->max_rx;
	if (r->max_tx)
		r->tx = r->max_tx;
}

static void plan_rss(const struct np_state *st, unsigned nq, struct np_plan *plan)
{
	struct np_rss *rss = &plan->target->dev.rss;

	if (rss->err || !rss->indir_size) {
		np_plan_note(plan, "rss", "%s %s: the driver's own spreading stays",
			     rss->err ? unsupported(rss->err) : "no indirection table from",
			     st->dev.driver);
		return;
	}
	/* Even over the planned queues: what the kernel's default table is. */
	for (uint32_t i = 0; i < rss->indir_size; i++)
		rss->indir[i] = nq ? i % nq : 0;
	rss->rx_rings = nq;
}

static void plan_features(const struct np_state *st, struct np_plan *plan)
{
	struct np_features *f = &plan->target->dev.features;

	if (f->err)
		return;
	for (unsigned i = 0; i < f->n; i++) {
		/* The NIC's hash in skb->hash spares RPS/RFS and XPS a software
		 * hash per packet. */
		if (strcmp(f->v[i].name, "rx-hashing"))
			continue;
		if (f->v[i].fixed && !f->v[i].active)
			np_plan_note(plan, "features", "rx-hashing is off and fixed by driver %s",
				     st->dev.driver);
		else if (!f->v[i].fixed)
			f->v[i].wanted = f->v[i].active = true;
	}
}

static void plan_napi(const struct np_policy *p, const struct np_state *st, struct np_plan *plan)
{
	struct np_state *t = plan->target;

	if (p->napi) {
		if (st->dev.napi.err) {
			np_plan_note(plan, "napi", "napi_defer_hard_irqs/gro_flush_timeout: %s",
				     strerror(-st->dev.napi.err));
		} else {
			t->dev.napi.defer_hard_irqs = p->napi_defer_hard_irqs;
			t->dev.napi.gro_flush_timeout = p->gro_flush_timeout;
		}
	}
	if (p->busy_poll || p->busy_read) {
		if (st->sys.busy_err) {
			np_plan_note(plan, "busy-poll", "busy_poll/busy_read unavailable (%s)",
				     strerror(-st->sys.busy_err));
		} else {
			/* Global too: raise, never lower. */
			if (t->sys.busy_poll < p->busy_poll)
				t->sys.busy_poll = p->busy_poll;
			if (t->sys.busy_read < p->busy_read)
				t->sys.busy_read = p->busy_read;
		}
	}
}

int np_policy_plan(const struct np_policy *p, const struct np_plan_opts *opts,
		   const struct np_state *st, struct np_plan *plan, struct np_error *err)
{
	struct np_cpu_order o;
	struct np_cpumask eligible, local;
	unsigned nq = 0;
	int r;

	r = eligible_cpus(opts, &st->topo, &eligible, err);
	if (r < 0)
		return r;
	local = st->dev.local_cpus;
	np_cpumask_and(&local, &local, &eligible);
	if (np_cpumask_empty(&local)) {
		/* A NIC on a node with no CPU we may use: everything is remote. */
		if (!np_cpumask_empty(&st->dev.local_cpus))
			np_plan_note(plan, "irq-affinity",
				     "no allowed CPU is local to the NIC: using remote CPUs");
		local = eligible;
	}
	r = np_cpu_order(&st->topo, &eligible, &local, &o);
	if (r < 0)
		return np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
	if (!o.n) {
		np_cpu_order_clear(&o);
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL, "no usable CPU in the topology");
	}
	r = plan_channels(p, opts, st, &o, plan, &nq);
	if (r < 0)
		goto out;
	plan_features(st, plan);
	plan_rss(st, nq, plan);
	plan_rings(p, st, plan);
	np_plan_coalesce(p, st, plan);
	plan_napi(p, st, plan);
	plan_irqs(st, &o, nq, plan);
	r = plan_xps(st, &o, nq, plan);
	if (r < 0)
		goto out;
	plan_rps(p, st, &o, nq, plan);
	if (opts && opts->drop)
		np_plan_keep(plan, st, opts->drop);
out:
	np_cpu_order_clear(&o);
	if (r < 0)
		return np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
	return 0;
}

/* The public entry: a plan is the planner's target plus the differ's steps
 * from the state it was planned on. */
int np_plan_compute(struct np_ctx *ctx, const struct np_policy *policy,
		    const struct np_plan_opts *opts, const struct np_state *state,
		    struct np_plan **ret, struct np_error *err)
{
	struct np_plan *plan = NULL;
	int r;

	(void)ctx;
	if (!policy || !state)
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL, "no policy or no state");
	if (np_plan_new(&plan) < 0 || np_state_dup(state, &plan->target) < 0) {
		np_plan_free(plan);
		return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	}
	plan->policy = policy;
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
	r = np_policy_plan(policy, opts, state, plan, err);
	if (r < 0)
		goto fail;
	r = np_plan_diff(plan, state);
	if (r < 0) {
		np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
		goto fail;
	}
	*ret = plan;
	return 0;
fail:
	np_plan_free(plan);
	return r;
}
