/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The planner on machine shapes: for every shape and every policy, the
 * properties a plan must have (limits, CPU placement, steering coverage,
 * order, idempotence), not golden values, so tuning a policy's numbers
 * does not break the tests while breaking its rules does.
 *
 * Over 600 lines on purpose: about a fifth is the table of shapes, and
 * every property check walks the same (shape x policy) loop over the one
 * plan it made; split, each file would plan every shape again or share
 * the loop through a header of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "plan_check.h"

struct tcase {
	const char *name;
	struct shape s;
	const char *cpus;	/* --cpus, or NULL */
};

static const struct tcase cases[] = {
	{ .name = "1-cpu VM", .s = {
		.cpus = 1, .driver = "virtio_net", .nic_node = -1, .queues = 1,
		.irq_kind = SHAPE_IRQ_SPLIT, .other = true, .no_rss = true, .no_adaptive = true } },
	{ .name = "2-cpu VM, virtio 4 queues", .s = {
		.cpus = 2, .driver = "virtio_net", .nic_node = -1, .max_queues = 4, .queues = 4,
		.irq_kind = SHAPE_IRQ_SPLIT, .other = true, .no_rss = true, .no_adaptive = true,
		.no_rings = true } },
	{ .name = "16 cpus SMT, ixgbe 64 max", .s = {
		.cpus = 16, .smt = true, .driver = "ixgbe", .speed = 10000, .max_queues = 64,
		.queues = 16, .other = true, .no_adaptive = true, .coal_mask = 1u << NP_COAL_RX_USECS |
		1u << NP_COAL_TX_USECS } },
	{ .name = "2 sockets 64 cores SMT, mlx5 63 max on node 1", .s = {
		.cpus = 128, .smt = true, .nodes = 2, .packages = 2, .driver = "mlx5_core",
		.nic_node = 1, .speed = 100000, .max_queues = 63, .queues = 63, .other = true,
		.adaptive_on = true, .rss_size = 256, .ring_max = 8192, .ring = 1024 } },
	{ .name = "2 sockets, mlx5 grows 4 -> local cores", .s = {
		.cpus = 128, .smt = true, .nodes = 2, .packages = 2, .driver = "mlx5_core",
		.nic_node = 0, .speed = 25000, .max_queues = 63, .queues = 4, .other = true } },
	{ .name = "8 nodes x 64 cpus, 128 queues on node 3", .s = {
		.cpus = 512, .smt = true, .nodes = 8, .packages = 2, .driver = "mlx5_core",
		.nic_node = 3, .speed = 200000, .max_queues = 128, .queues = 128, .other = true,
		.rss_size = 512 } },
	{ .name = "isolated and nohz_full cpus", .s = {
		.cpus = 32, .smt = true, .nodes = 2, .driver = "ice", .speed = 25000,
		.max_queues = 64, .queues = 32, .isolated = "2-5,18-21", .nohz_full = "6,22",
		.other = true } },
	{ .name = "isolated first threads (siblings still usable)", .s = {
		.cpus = 16, .smt = true, .driver = "ice", .speed = 25000, .max_queues = 16,
		.queues = 16, .isolated = "0-3" } },
	{ .name = "offline cpus", .s = {
		.cpus = 16, .smt = true, .driver = "ixgbe", .speed = 10000, .max_queues = 64,
		.queues = 8, .offline = "4-5,12", .other = true } },
	{ .name = "fewer IRQs than queues", .s = {
		.cpus = 16, .driver = "ixgbe", .speed = 10000, .max_queues = 64, .queues = 16,
		.irqs = 8, .other = true } },
	{ .name = "veth-like: separate rx/tx, no IRQs", .s = {
		.cpus = 8, .driver = "veth", .nic_node = -1, .speed = 10000, .chan = SHAPE_SEPARATE,
		.max_queues = 8, .queues = 8, .irqs = SHAPE_NO_IRQS, .no_rings = true,
		.no_coalesce = true, .no_rss = true, .netns = true } },
	{ .name = "veth-like: more tx than rx channels", .s = {
		.cpus = 8, .driver = "veth", .nic_node = -1, .chan = SHAPE_SEPARATE, .max_queues = 2,
		.queues = 2, .max_tx = 8, .tx = 8, .irqs = SHAPE_NO_IRQS, .no_rings = true,
		.no_coalesce = true, .no_rss = true } },
	{ .name = "e1000e-like: channels unsupported", .s = {
		.cpus = 4, .driver = "e1000e", .speed = 1000, .chan = SHAPE_NO_CHANNELS,
		.irq_kind = SHAPE_IRQ_SPLIT, .other = true, .no_rss = true,
		.coal_mask = 1u << NP_COAL_RX_USECS } },
	{ .name = "fixed 12 queues on 2 nodes (remote cores needed)", .s = {
		.cpus = 16, .nodes = 2, .driver = "e1000e", .nic_node = 1, .chan = SHAPE_NO_CHANNELS,
		.queues = 12, .irq_kind = SHAPE_IRQ_TXRX } },
	{ .name = "coalesce without adaptive", .s = {
		.cpus = 8, .driver = "i40e", .speed = 40000, .max_queues = 8, .queues = 8,
		.no_adaptive = true } },
	{ .name = "RSS unsupported, rx-hashing off", .s = {
		.cpus = 8, .driver = "ixgbe", .speed = 10000, .max_queues = 8, .queues = 8,
		.no_rss = true, .rxhash_off = true } },
	{ .name = "rx-hashing off and fixed, no NAPI files", .s = {
		.cpus = 8, .driver = "ixgbe", .speed = 10000, .max_queues = 8, .queues = 8,
		.rxhash_off = true, .rxhash_fixed = true, .no_napi = true } },
	{ .name = "clamped by driver maximum", .s = {
		.cpus = 32, .driver = "ice", .speed = 400000, .max_queues = 8, .queues = 8 } },
	{ .name = "NIC node's cpus all isolated", .s = {
		.cpus = 16, .nodes = 2, .driver = "ice", .nic_node = 1, .speed = 25000,
		.max_queues = 16, .queues = 16, .isolated = "8-15" } },
	{ .name = "--cpus on the remote node's siblings", .s = {
		.cpus = 128, .smt = true, .nodes = 2, .packages = 2, .driver = "mlx5_core",
		.nic_node = 1, .speed = 100000, .max_queues = 63, .queues = 63 },
	  .cpus = "64-71" },
	{ .name = "--cpus naming isolated cpus", .s = {
		.cpus = 32, .smt = true, .nodes = 2, .driver = "ice", .speed = 25000,
		.max_queues = 64, .queues = 32, .isolated = "2-5,18-21" },
	  .cpus = "2-5,18-21" },
	{ .name = "veth-like: more rx than tx channels", .s = {
		.cpus = 8, .driver = "veth", .nic_node = -1, .chan = SHAPE_SEPARATE, .max_queues = 8,
		.queues = 1, .max_tx = 2, .tx = 1, .irqs = SHAPE_NO_IRQS, .no_rings = true,
		.no_coalesce = true, .no_rss = true } },
	{ .name = "3 nodes of uneven size, NIC without a node", .s = {
		.cpus = 22, .nodes = 3, .driver = "ice", .nic_node = -1, .speed = 100000,
		.max_queues = 64, .queues = 22, .other = true } },
	{ .name = "NIC on a node whose cpus are all offline", .s = {
		.cpus = 16, .nodes = 2, .driver = "ixgbe", .nic_node = 1, .speed = 10000,
		.max_queues = 64, .queues = 16, .offline = "8-15" } },
	{ .name = "first threads offline, siblings online", .s = {
		.cpus = 32, .smt = true, .driver = "i40e", .speed = 40000, .max_queues = 64,
		.queues = 4, .offline = "0-7" } },
	{ .name = "virtio with fewer vectors than queues", .s = {
		.cpus = 8, .driver = "virtio_net", .nic_node = -1, .max_queues = 8, .queues = 8,
		.irq_kind = SHAPE_IRQ_SPLIT, .irqs = 3, .other = true, .no_rss = true,
		.no_adaptive = true } },
	{ .name = "nohz_full on most cpus", .s = {
		.cpus = 64, .smt = true, .driver = "mlx5_core", .speed = 25000, .max_queues = 63,
		.queues = 63, .nohz_full = "1-31,33-63" } },
	{ .name = "16 nodes x 64 cpus, 256 queues, unknown speed", .s = {
		.cpus = 1024, .smt = true, .nodes = 16, .packages = 4, .driver = "mlx5_core",
		.nic_node = 5, .max_queues = 256, .queues = 256, .rss_size = 2048 } },
};

/* --- helpers ------------------------------------------------------------- */

static const char *list(const struct np_cpumask *m)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	if (np_cpumask_format_list(m, buf[i], sizeof(buf[i])) < 0)
		snprintf(buf[i], sizeof(buf[i]), "(long)");
	return buf[i];
}

static bool same_core(const struct np_topology *t, unsigned a, unsigned b)
{
	return t->cpus[a].package_id == t->cpus[b].package_id &&
	       t->cpus[a].core_id == t->cpus[b].core_id;
}

static int knob_pos(const struct np_knob *k)
{
	for (int i = 0; np_knobs[i]; i++)
		if (np_knobs[i] == k)
			return i;
	return -1;
}

static void dump_steps(const struct np_plan *plan, size_t max)
{
	for (size_t i = 0; i < plan->n_steps && i < max; i++) {
		const struct np_step *s = &plan->steps[i];

		printf("#     step %zu %s", i, s->knob->name);
		for (unsigned k = 0; k < s->n_changes; k++) {
			const struct np_change *ch = &plan->changes[s->first_change + k];
			char x[80], y[80];

			np_value_format(&ch->before, x, sizeof(x));
			np_value_format(&ch->after, y, sizeof(y));
			printf(" [%s: %s -> %s]", ch->what, x, y);
		}
		printf("\n");
	}
}

/* What the plan must come to, computed from the state without the planner's
 * own helpers. */
struct expect {
	struct np_cpumask eligible, local;
	unsigned n_cores, n_local_cores;
	unsigned want;		/* queues the policy asks for, before driver limits */
	unsigned nrx, ntx;	/* planned rx and tx queues */
	bool clamped;
};

static void expect(const struct np_policy *p, const struct np_state *st, const char *cpus,
		   struct expect *e)
{
	const struct np_dev *d = &st->dev;
	const struct np_channels *c = &d->channels;

	memset(e, 0, sizeof(*e));
	if (cpus) {
		np_cpumask_parse_list(cpus, &e->eligible);
	} else {
		np_cpumask_andnot(&e->eligible, &st->topo.online, &st->topo.isolated);
		np_cpumask_andnot(&e->eligible, &e->eligible, &st->topo.nohz_full);
	}
	np_cpumask_and(&e->local, &e->eligible, &d->local_cpus);
	if (np_cpumask_empty(&e->local))
		e->local = e->eligible;
	e->n_cores = shape_count_cores(&st->topo, &e->eligible);
	e->n_local_cores = shape_count_cores(&st->topo, &e->local);
	if (p->channels == NP_CHAN_LINK_SPEED) {
		/* unknown speed (link down): the kernel's default, at most 8 */
		e->want = d->link.speed ? (d->link.speed + 9999) / 10000 : 8;
		if (e->want > e->n_local_cores)
			e->want = e->n_local_cores;
	} else {
		e->want = e->n_local_cores;
	}
	if (!e->want)
		e->want = 1;
	if (c->err) {
		e->nrx = d->n_rxq;
		e->ntx = d->n_txq;
	} else if (c->max_combined) {
		e->nrx = e->ntx = e->want < c->max_combined ? e->want : c->max_combined;
		e->clamped = e->want > c->max_combined;
	} else {
		e->nrx = e->want < c->max_rx ? e->want : c->max_rx;
		e->ntx = e->want < c->max_tx ? e->want : c->max_tx;
		e->clamped = e->want > c->max_rx || e->want > c->max_tx;
	}
}

/* --- properties ------------------------------------------------------------ */

static void check_channels(const struct tcase *tc, const struct np_policy *p,
			   const struct np_state *st, const struct np_plan *plan,
			   const struct expect *e)
{
	const struct np_channels *a = &st->dev.channels, *b = &plan->target->dev.channels;
	const struct np_dev *t = &plan->target->dev;

	if (a->err) {
		if (memcmp(a, b, sizeof(*a)) || t->n_rxq != st->dev.n_rxq)
			whyf("unsupported channels changed");
	} else if (a->max_combined) {
		if (b->combined < 1 || b->combined > a->max_combined)
			whyf("combined %u outside 1..%u", b->combined, a->max_combined);
	} else {
		if (a->max_rx && (b->rx < 1 || b->rx > a->max_rx))
			whyf("rx %u outside 1..%u", b->rx, a->max_rx);
		if (a->max_tx && (b->tx < 1 || b->tx > a->max_tx))
			whyf("tx %u outside 1..%u", b->tx, a->max_tx);
	}
	CHECK(tc, p, "channels within driver limits and >= 1");

	if (t->n_rxq != e->nrx || t->n_txq != e->ntx)
		whyf("%u rx / %u tx queues planned, want %u / %u (%s, %u local cores, speed %u)",
		     t->n_rxq, t->n_txq, e->nrx, e->ntx, p->channels == NP_CHAN_LINK_SPEED ?
		     "link speed" : "local cores", e->n_local_cores, st->dev.link.speed);
	CHECK(tc, p, p->channels == NP_CHAN_LINK_SPEED ?
	      "queues: one per 10 Gb/s, capped by local cores and driver" :
	      "queues: one per eligible local physical core, capped by driver");
}

static void check_irqs(const struct tcase *tc, const struct np_policy *p,
		       const struct np_state *st, const struct np_plan *plan,
		       const struct expect *e)
{
	const struct np_dev *t = &plan->target->dev;
	const struct np_topology *topo = &st->topo;
	int *qcpu = calloc(e->nrx + 1, sizeof(*qcpu));
	unsigned nq = 0, nremote = 0;
	struct np_cpumask used_local;

	np_cpumask_zero(&used_local);
	for (unsigned q = 0; q <= e->nrx; q++)
		qcpu[q] = -1;
	for (unsigned i = 0; i < t->n_irq; i++) {
		const struct np_irq *irq = &t->irq[i];
		int cpu;

		if (irq->queue < 0 || (unsigned)irq->queue >= e->nrx || irq->err)
			continue;
		if (np_cpumask_weight(&irq->affinity) != 1) {
			whyf("IRQ %u (%s) queue %d on %s, want one CPU", irq->irq, irq->name,
			     irq->queue, list(&irq->affinity));
			continue;
		}
		cpu = np_cpumask_next(&irq->affinity, 0);
		if (!np_cpumask_test(&topo->online, (unsigned)cpu))
			whyf("IRQ %u on offline CPU %d", irq->irq, cpu);
		if (!tc->cpus && (np_cpumask_test(&topo->isolated, (unsigned)cpu) ||
				  np_cpumask_test(&topo->nohz_full, (unsigned)cpu)))
			whyf("IRQ %u on isolated/nohz_full CPU %d", irq->irq, cpu);
		if (!np_cpumask_test(&e->eligible, (unsigned)cpu))
			whyf("IRQ %u on CPU %d, not among %s", irq->irq, cpu, list(&e->eligible));
		if (qcpu[irq->queue] < 0) {
			qcpu[irq->queue] = cpu;
			nq++;
		}
	}
	CHECK(tc, p, "queue IRQs: one eligible online CPU each");

	if (p->channels == NP_CHAN_LOCAL_CORES) {
		if (nq <= e->n_cores)
			for (unsigned a = 0; a < e->nrx; a++)
				for (unsigned b = a + 1; b < e->nrx && qcpu[a] >= 0; b++)
					if (qcpu[b] >= 0 && same_core(topo, (unsigned)qcpu[a],
								       (unsigned)qcpu[b]))
						whyf("queues %u and %u share the core of CPUs %d/%d "
						     "with %u eligible cores", a, b, qcpu[a], qcpu[b],
						     e->n_cores);
		CHECK(tc, p, "no two queues' IRQs on one physical core while cores suffice");

		for (unsigned q = 0; q < e->nrx; q++) {
			if (qcpu[q] < 0)
				continue;
			if (np_cpumask_test(&e->local, (unsigned)qcpu[q]))
				np_cpumask_set(&used_local, (unsigned)qcpu[q]);
			else
				nremote++;
		}
		if (nremote && shape_count_cores(topo, &used_local) < e->n_local_cores)
			whyf("%u queues on remote cores while only %u of %u local cores are used",
			     nremote, shape_count_cores(topo, &used_local), e->n_local_cores);
		CHECK(tc, p, "local cores before remote ones");
	}
	free(qcpu);
}

static void check_rss_xps(const struct tcase *tc, const struct np_policy *p,
			  const struct np_state *st, const struct np_plan *plan,
			  const struct expect *e)
{
	const struct np_dev *t = &plan->target->dev;
	const struct np_rss *rss = &t->rss;
	const struct np_feature *hash = np_features_find(&st->dev.features, "rx-hashing");
	/* rx-hashing off and fixed: no RSS engine reads the table, and the
	 * plan leaves it as the driver keeps it (netpolicy(8), What degrades) */
	bool unused = !st->dev.features.err && hash && hash->fixed && !hash->active;

	if (!rss->err && !unused)
		for (uint32_t i = 0; i < rss->indir_size; i++)
			if (rss->indir[i] >= e->nrx) {
				whyf("indir[%u] = %u, only %u rx queues", i, rss->indir[i], e->nrx);
				break;
			}
	if (rss->err && memcmp(&st->dev.rss, rss, sizeof(*rss)))
		whyf("unsupported RSS changed");
	CHECK(tc, p, "RSS table only references planned rx queues");

	np_cpumask_for_each(cpu, &st->topo.online) {
		unsigned n = 0;

		for (unsigned q = 0; q < t->n_txq; q++)
			if (!t->txq[q].xps_err && np_cpumask_test(&t->txq[q].xps_cpus, (unsigned)cpu))
				n++;
		if (n != 1)
			whyf("CPU %d is in %u tx queues' xps_cpus", cpu, n);
	}
	for (unsigned q = 0; q < t->n_txq; q++) {
		struct np_cpumask off;

		np_cpumask_andnot(&off, &t->txq[q].xps_cpus, &st->topo.online);
		if (!np_cpumask_empty(&off))
			whyf("tx-%u xps_cpus has offline CPUs %s", q, list(&off));
		if (q >= e->ntx && !np_cpumask_empty(&t->txq[q].xps_cpus))
			whyf("tx-%u beyond the %u planned tx queues has xps_cpus %s", q, e->ntx,
			     list(&t->txq[q].xps_cpus));
	}
	CHECK(tc, p, "XPS: every online CPU in exactly one planned tx queue");
}

static void check_steps(const struct tcase *tc, const struct np_policy *p,
			const struct np_state *st, const struct np_plan *plan)
{
	const struct np_dev *t = &plan->target->dev;
	bool shrink = t->n_rxq < st->dev.n_rxq, early = false, late = false;
	int last = -1;

	for (size_t i = 0; i < plan->n_steps; i++) {
		const struct np_step *s = &plan->steps[i];
		int pos = knob_pos(s->knob);

		if (pos < 0)
			whyf("step %zu: knob %s not in np_knobs", i, s->knob->name);
		else if (pos < last)
			whyf("step %zu (%s) after a later knob (%s)", i, s->knob->name,
			     np_knobs[last]->name);
		else
			last = pos;
		if (!s->n_changes)
			whyf("step %zu (%s) changes nothing", i, s->knob->name);
		early |= s->knob == &np_knob_rss_early;
		late |= s->knob == &np_knob_rss;
	}
	if (early && !shrink)
		whyf("rss before channels although rx queues do not shrink (%u -> %u)",
		     st->dev.n_rxq, t->n_rxq);
	if (late && shrink)
		whyf("rss after channels although rx queues shrink (%u -> %u)", st->dev.n_rxq,
		     t->n_rxq);
	CHECK(tc, p, "steps in np_knobs order; RSS early only on a shrink");
}

static void check_notes(const struct tcase *tc, const struct np_policy *p,
			const struct np_state *st, const struct np_plan *plan,
			const struct expect *e)
{
	const struct np_dev *d = &st->dev;
	const struct np_coalesce *c = &d->coalesce;
	uint32_t adaptive = 1u << NP_COAL_ADAPTIVE_RX | 1u << NP_COAL_ADAPTIVE_TX;

	if (d->channels.err && !find_note(plan, "channels", NULL))
		whyf("no channels note for unsupported channels");
	if (p->channels == NP_CHAN_LINK_SPEED && !d->link.speed &&
	    !find_note(plan, "channels", "link speed unknown"))
		whyf("link speed unknown and no note");
	if (e->clamped && !find_note(plan, "channels", "maximum"))
		whyf("%u queues wanted above the driver maximum and no note", e->want);
	if (d->rings.err && p->rings == NP_RING_BURST && !find_note(plan, "rings", NULL))
		whyf("no rings note for unsupported rings");
	if (c->err && !find_note(plan, "coalesce", NULL))
		whyf("no coalesce note for unsupported coalescing");
	if (!c->err && p->adaptive && !(c->supported & adaptive) &&
	    !find_note(plan, "coalesce", "adaptive"))
		whyf("no note that the driver lacks adaptive moderation");
	if ((d->rss.err || !d->rss.indir_size) && !find_note(plan, "rss", NULL))
		whyf("no rss note for an unsupported RSS table");
	if (!d->n_irq && !find_note(plan, "irq-affinity", NULL))
		whyf("no irq-affinity note for a NIC without IRQs");
	if (p->napi && d->napi.err && !find_note(plan, "napi", NULL))
		whyf("no napi note without NAPI files");
	if (p->rfs_entries && st->sys.flow_entries_err && !find_note(plan, "rfs", NULL))
		whyf("no rfs note without rps_sock_flow_entries");
	for (unsigned i = 0; i < d->features.n; i++)
		if (!strcmp(d->features.v[i].name, "rx-hashing") && d->features.v[i].fixed &&
		    !d->features.v[i].active && !find_note(plan, "features", "rx-hashing"))
			whyf("no note for fixed-off rx-hashing");
	CHECK(tc, p, "notes for unsupported knobs and clamping");
}

static void check_idempotent(struct np_ctx *ctx, const struct tcase *tc,
			     const struct np_policy *p, const struct np_plan *plan)
{
	NP_PLAN_OPTS(opts, .cpus = tc->cpus);
	struct np_plan *again = NULL;
	struct np_error err;
	int r;

	np_error_clear(&err);
	r = np_plan_compute(ctx, p, &opts, plan->target, &again, &err);
	if (r < 0)
		whyf("replanning the target failed: %s", err.msg);
	else if (again->n_steps)
		whyf("replanning the target gives %zu steps", again->n_steps);
	CHECK(tc, p, "idempotent: the target plans zero steps");
	if (again && again->n_steps)
		dump_steps(again, 5);
	np_plan_free(again);
}

static void check_json(const struct tcase *tc, const struct np_policy *p,
		       const struct np_plan *plan)
{
	struct json_object *o = NULL, *steps;

	if (np_plan_to_json(plan, &o) < 0 || !json_object_object_get_ex(o, "steps", &steps) ||
	    json_object_array_length(steps) != plan->n_steps)
		whyf("plan JSON missing or wrong step count");
	json_object_put(o);
	CHECK(tc, p, "plan serializes");
}

struct case_run {
	struct np_ctx *ctx;
	const struct tcase *tc;
};

static void check_case(const struct np_policy *p, const struct np_state *st,
		       const struct np_plan *plan, void *arg)
{
	const struct case_run *run = arg;
	const struct tcase *tc = run->tc;
	struct expect e;

	expect(p, st, tc->cpus, &e);
	check_channels(tc, p, st, plan, &e);
	check_irqs(tc, p, st, plan, &e);
	check_rss_xps(tc, p, st, plan, &e);
	check_steps(tc, p, st, plan);
	check_notes(tc, p, st, plan, &e);
	check_idempotent(run->ctx, tc, p, plan);
	check_json(tc, p, plan);
}

static void test_case(struct np_ctx *ctx, const struct tcase *tc)
{
	const NP_PLAN_OPTS(opts, .cpus = tc->cpus);
	struct case_run run = { ctx, tc };

	plan_each_policy(ctx, tc->name, &tc->s, &opts, check_case, &run);
}

/* --- errors ------------------------------------------------------------------ */

static void plan_error(struct np_ctx *ctx, const char *name, const struct shape *s,
		       const char *cpus, int code, enum np_phase phase)
{
	NP_PLAN_OPTS(opts, .cpus = cpus);
	struct np_state *st = NULL;
	struct np_plan *plan = NULL;
	struct np_error err;

	if (shape_build(s, &st) < 0) {
		ok(0, "%s: shape builds", name);
		return;
	}
	for (size_t i = 0; i < np_policy_count(); i++) {
		int r;

		np_error_clear(&err);
		r = np_plan_compute(ctx, np_policy_at(i), &opts, st, &plan, &err);
		is_int(r, code, "%s (%s): error code", name, np_policy_name(np_policy_at(i)));
		is_int(err.code, code, "%s: err.code", name);
		is_str(np_phase_name(err.phase), np_phase_name(phase), "%s: phase", name);
		ok(err.msg[0] != '\0', "%s: has a message (%s)", name, err.msg);
		ok(plan == NULL, "%s: no plan returned", name);
	}
	np_state_free(st);
}

static void test_errors(struct np_ctx *ctx)
{
	const struct shape offline = { .cpus = 16, .offline = "4-5", .max_queues = 8, .queues = 8 };
	const struct shape isolated = { .cpus = 4, .isolated = "0-3", .max_queues = 8, .queues = 4 };
	const struct shape nohz = { .cpus = 4, .isolated = "0-1", .nohz_full = "2-3",
				    .max_queues = 8, .queues = 4 };
	struct np_state *st = NULL;

	plan_error(ctx, "--cpus with an offline CPU", &offline, "0-5", -EINVAL, NP_PHASE_INPUT);
	plan_error(ctx, "--cpus beyond the machine", &offline, "100", -EINVAL, NP_PHASE_INPUT);
	plan_error(ctx, "--cpus not a list", &offline, "0-x", -EINVAL, NP_PHASE_INPUT);
	plan_error(ctx, "all CPUs isolated", &isolated, NULL, -EINVAL, NP_PHASE_PLAN);
	plan_error(ctx, "all CPUs isolated or nohz_full", &nohz, NULL, -EINVAL, NP_PHASE_PLAN);

	/* the same machine is fine when the admin names CPUs */
	if (shape_build(&isolated, &st) == 0) {
		NP_PLAN_OPTS(opts, .cpus = "1,3");
		struct np_plan *plan = NULL;
		struct np_error err;
		int r;

		np_error_clear(&err);
		r = np_plan_compute(ctx, np_policy_at(0), &opts, st, &plan, &err);
		is_int(r, 0, "all CPUs isolated, --cpus 1,3: plans");
		if (plan)
			is_str(plan->cpus, "1,3", "the plan remembers --cpus");
		np_plan_free(plan);
		np_state_free(st);
	}
}

/* --- the differ's words ---------------------------------------------------------- */

static struct np_plan *diff_of(const struct np_state *from, void (*edit)(struct np_state *))
{
	struct np_plan *plan = NULL;

	if (np_plan_new(&plan) < 0 || np_state_dup(from, &plan->target) < 0) {
		np_plan_free(plan);
		return NULL;
	}
	edit(plan->target);
	if (np_plan_diff(plan, from) < 0) {
		np_plan_free(plan);
		return NULL;
	}
	return plan;
}

static void expect_change(const struct np_plan *plan, size_t step, const char *knob, unsigned k,
			  const char *what, const char *before, const char *after)
{
	const struct np_change *c;
	char x[80], y[80];

	if (!plan || step >= plan->n_steps || k >= plan->steps[step].n_changes) {
		ok(0, "%s: step %zu change %u exists", knob, step, k);
		return;
	}
	is_str(plan->steps[step].knob->name, knob, "step %zu is %s", step, knob);
	c = &plan->changes[plan->steps[step].first_change + k];
	is_str(c->what, what, "%s: what", knob);
	np_value_format(&c->before, x, sizeof(x));
	np_value_format(&c->after, y, sizeof(y));
	is_str(x, before, "%s %s: before", knob, what);
	is_str(y, after, "%s %s: after", knob, what);
}

static void edit_channels(struct np_state *t)
{
	t->dev.channels.combined = 2;
}

static void edit_coalesce(struct np_state *t)
{
	t->dev.coalesce.val[NP_COAL_RX_USECS] = 50;
	t->dev.coalesce.val[NP_COAL_ADAPTIVE_RX] = 1;
}

static void edit_irq_xps(struct np_state *t)
{
	np_cpumask_zero(&t->dev.irq[0].affinity);
	np_cpumask_set(&t->dev.irq[0].affinity, 2);
	np_cpumask_set(&t->dev.txq[1].xps_cpus, 2);
	np_cpumask_zero(&t->dev.txq[3].xps_cpus);
}

static void edit_napi_up(struct np_state *t)
{
	t->dev.napi.defer_hard_irqs = 2;
	t->dev.napi.gro_flush_timeout = 200000;
	t->sys.busy_poll = 50;
}

static void edit_napi_down(struct np_state *t)
{
	t->dev.napi.defer_hard_irqs = 0;
	t->dev.napi.gro_flush_timeout = 0;
}

static void edit_nothing(struct np_state *t)
{
	(void)t;
}

static void test_diff(void)
{
	const struct shape s = { .cpus = 4, .max_queues = 8, .queues = 4 };
	struct np_state *st = NULL, *up = NULL;
	struct np_plan *plan;

	if (shape_build(&s, &st) < 0) {
		ok(0, "diff shape builds");
		return;
	}
	plan = diff_of(st, edit_nothing);
	ok(plan && plan->n_steps == 0 && plan->n_changes == 0, "equal states: no steps");
	np_plan_free(plan);

	plan = diff_of(st, edit_channels);
	ok(plan && plan->n_steps == 1, "channels 4 -> 2: one step");
	expect_change(plan, 0, "channels", 0, "combined", "4", "2");
	np_plan_free(plan);

	/* adaptive moderation turned on goes last, in a request of its own:
	 * drivers refuse usecs in the same request as adaptive on */
	plan = diff_of(st, edit_coalesce);
	ok(plan && plan->n_steps == 2, "coalesce: the usecs, then adaptive on alone");
	if (plan && plan->n_steps == 2) {
		is_int(plan->steps[0].fields, 1u << NP_COAL_RX_USECS,
		       "coalesce: only the changed value field first");
		is_int(plan->steps[1].fields, 1u << NP_COAL_ADAPTIVE_RX,
		       "coalesce: adaptive-rx on last");
	}
	expect_change(plan, 0, "coalesce", 0, "rx-usecs", "3", "50");
	expect_change(plan, 1, "coalesce", 0, "adaptive-rx", "off", "on");
	np_plan_free(plan);

	plan = diff_of(st, edit_irq_xps);
	ok(plan && plan->n_steps == 3, "one IRQ and two XPS changes: three steps");
	expect_change(plan, 0, "irq-affinity", 0, "100 eth0-TxRx-0", "0-3", "2");
	expect_change(plan, 1, "xps", 0, "tx-1", "1", "1-2");
	expect_change(plan, 2, "xps", 0, "tx-3", "3", "none");
	if (plan && plan->n_steps == 3) {
		is_int(plan->steps[0].index, 0, "irq step indexes the IRQ array");
		is_int(plan->steps[2].index, 3, "xps step indexes the tx queue");
	}
	np_plan_free(plan);

	/* the timeout that ends deferral goes first when deferral rises ... */
	plan = diff_of(st, edit_napi_up);
	ok(plan && plan->n_steps == 3, "napi up + busy_poll: three steps");
	expect_change(plan, 0, "napi", 0, "gro-flush-timeout", "0", "200000");
	expect_change(plan, 1, "napi", 0, "defer-hard-irqs", "0", "2");
	expect_change(plan, 2, "sysctl", 0, "net.core.busy_poll", "0", "50");
	/* ... and last when it falls */
	if (plan) {
		struct np_plan *down = NULL;

		if (np_state_dup(plan->target, &up) == 0)
			down = diff_of(up, edit_napi_down);
		ok(down && down->n_steps == 2, "napi down: two steps");
		expect_change(down, 0, "napi", 0, "defer-hard-irqs", "2", "0");
		expect_change(down, 1, "napi", 0, "gro-flush-timeout", "200000", "0");
		np_plan_free(down);
		np_state_free(up);
	}
	np_plan_free(plan);
	np_state_free(st);
}

/* --- formatting and XPS balance ------------------------------------------------ */

/* np_fmt_mask() writes its own cpulist for speed: it must say what
 * np_cpumask_format_list() says. */
static void test_fmt_mask(void)
{
	struct np_cpumask m;
	char want[4096], got[4096], small[24];
	unsigned seed = 12345, bad = 0;

	np_cpumask_zero(&m);
	np_fmt_mask(got, sizeof(got), &m);
	is_str(got, "", "empty mask prints as the empty cpulist, as in states");
	for (int i = 0; i < 500; i++) {
		unsigned density = 1 + i % 7;

		np_cpumask_zero(&m);
		for (unsigned cpu = 0; cpu < NP_CPUS_MAX; cpu++) {
			seed = seed * 1103515245 + 12345;
			/* runs and gaps of varied lengths, edges included */
			if ((seed >> 16) % 8 < density)
				np_cpumask_set(&m, cpu);
		}
		if (i == 0) {
			np_cpumask_zero(&m);
			np_cpumask_set(&m, NP_CPUS_MAX - 1);
		}
		if (i == 1)
			for (unsigned cpu = 0; cpu < NP_CPUS_MAX; cpu++)
				np_cpumask_set(&m, cpu);
		np_cpumask_format_list(&m, want, sizeof(want));
		np_fmt_mask(got, sizeof(got), &m);
		if (strcmp(want, got) && !bad++)
			printf("#   got '%.60s...', want '%.60s...'\n", got, want);
	}
	is_int(bad, 0, "np_fmt_mask = np_cpumask_format_list on 500 masks");

	np_cpumask_parse_list("0,2,4,6,8,10,12,14,16,18", &m);
	is_int(np_fmt_mask(small, sizeof(small), &m), -ENOSPC,
	       "a list too long for the buffer is refused, never cut short");
	np_cpumask_parse_list("1000-1023", &m);
	np_fmt_mask(small, sizeof(small), &m);
	is_str(small, "1000-1023", "a list that fits is whole");
	{
		static char big[NP_CPULIST_MAX];

		np_cpumask_zero(&m);
		for (unsigned cpu = 0; cpu < NP_CPUS_MAX; cpu += 2)
			np_cpumask_set(&m, cpu);
		is_int(np_fmt_mask(big, sizeof(big), &m), 0,
		       "every other CPU of NP_CPUS_MAX fits NP_CPULIST_MAX");
		ok(!strstr(big, "...") && !strncmp(big + strlen(big) - 5, ",2046", 5),
		   "and is listed to the last CPU");
	}
}

/* CPUs without a queue on their core are dealt round robin over all the
 * queues of their node, not only the first 64. */
static void test_xps_balance(struct np_ctx *ctx)
{
	const struct shape s = { .cpus = 256, .driver = "mlx5_core", .max_queues = 256,
				 .queues = 256 };
	NP_PLAN_OPTS(opts, .cpus = "0-99");
	struct np_state *st = NULL;
	struct np_plan *plan = NULL;
	unsigned lo = ~0u, hi = 0;

	if (shape_build(&s, &st) < 0 || np_plan_compute(ctx, np_policy_at(1), &opts, st, &plan,
							NULL) < 0) {
		ok(0, "xps balance: plans");
		np_state_free(st);
		return;
	}
	is_int(plan->target->dev.n_txq, 100, "xps balance: 100 queues for CPUs 0-99");
	for (unsigned q = 0; q < plan->target->dev.n_txq; q++) {
		unsigned w = np_cpumask_weight(&plan->target->dev.txq[q].xps_cpus);

		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
	}
	ok(hi - lo <= 1, "xps balance: 256 CPUs over 100 queues, %u..%u CPUs per queue", lo, hi);
	np_plan_free(plan);
	np_state_free(st);
}

/* --- the shape builder itself -------------------------------------------------- */

static void test_shapes(void)
{
	const struct shape s = { .cpus = 128, .smt = true, .nodes = 2, .packages = 2,
				 .offline = "5,70-71", .nic_node = 1, .max_queues = 63, .queues = 8,
				 .other = true, .irq_kind = SHAPE_IRQ_SPLIT };
	const struct shape bad[] = {
		{ .cpus = 0 },
		{ .cpus = 3, .smt = true },
		{ .cpus = 4, .offline = "0-3" },
		{ .cpus = 4, .isolated = "4" },
		{ .cpus = 4, .nic_node = 1 },
		{ .cpus = 4, .max_queues = 2, .queues = 4 },
	};
	struct np_state *st = NULL;

	for (size_t i = 0; i < NP_ARRAY_SIZE(bad); i++) {
		struct np_state *x = NULL;

		is_int(shape_build(&bad[i], &x), -EINVAL, "impossible shape %zu refused", i);
		np_state_free(x);
	}
	if (shape_build(&s, &st) < 0) {
		ok(0, "shape builds");
		return;
	}
	is_int(st->topo.nr_cpus, 128, "nr_cpus");
	is_int(np_cpumask_weight(&st->topo.online), 125, "3 CPUs offline");
	is_int(st->topo.nr_cores, 64, "64 cores (CPU 5's sibling keeps its core)");
	is_int(st->topo.nr_packages, 2, "2 packages");
	ok(st->topo.smt, "smt");
	is_str(list(&st->topo.node_cpus[1]), "32-63,96-127", "node 1: second half of both threads");
	is_int(st->topo.cpus[70].online, 0, "CPU 70 offline");
	ok(st->topo.cpus[37].core == st->topo.cpus[101].core && st->topo.cpus[101].thread == 1,
	   "CPU 37 and 101 are siblings");
	is_int(st->topo.cpus[68].core_id, 4, "core_id is per package");
	is_str(list(&st->dev.local_cpus), "32-63,96-127", "NIC local to node 1");
	is_int(st->dev.n_irq, 17, "8 rx + 8 tx + 1 other IRQs");
	is_int(st->dev.irq[8].kind, NP_IRQ_TX, "tx IRQs after rx ones");
	is_str(st->dev.irq[16].name, "eth0", "other IRQ last");
	is_int(st->dev.n_rxq, 8, "rx queues = channels");
	is_int(st->dev.rss.indir[9], 1, "default RSS table");
	np_state_free(st);
}

int main(void)
{
	struct np_ctx *ctx = NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (np_ctx_new(&ctx, NULL) < 0) {
		printf("Bail out! np_ctx_new\n");
		return 1;
	}
	test_shapes();
	for (size_t i = 0; i < NP_ARRAY_SIZE(cases); i++)
		test_case(ctx, &cases[i]);
	test_errors(ctx);
	test_diff();
	test_fmt_mask();
	test_xps_balance(ctx);
	np_ctx_free(ctx);
	return tap_done();
}
