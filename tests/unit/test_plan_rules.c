/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The planner corrections of issue 9 as properties over machine shapes the
 * review named (adjacent SMT siblings, SMT-4, 4 sockets, NICs without a
 * node or on a node without CPUs, link down, isolated nodes, ...), for
 * every policy:
 * - no plan both shrinks the hardware queues and adds RPS, and RPS appears
 *   only when the NIC cannot have a queue per core the policy wants;
 * - every RPS mask is on its queue's interrupting CPU's node, never holds
 *   that CPU, and holds the CPU's own SMT siblings first;
 * - switching from any policy ends in the state setting the second from
 *   pristine gives;
 * - the machine-wide sysctls never drop below what other devices need;
 * - link down, xps_rxqs, accelerated RFS, rings and busy polling rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_check.h"

struct tcase {
	const char *name;
	struct shape s;
};

static const struct tcase cases[] = {
	{ "adjacent SMT siblings, virtio 4 queues (QEMU threads=2)", {
		.cpus = 16, .threads = 2, .adjacent = true, .driver = "virtio_net", .nic_node = -1,
		.speed = 10000, .max_queues = 4, .queues = 4, .irq_kind = SHAPE_IRQ_SPLIT,
		.other = true, .no_rss = true, .no_adaptive = true } },
	{ "SMT-4 adjacent (POWER), 2 nodes, 4 queues", {
		.cpus = 64, .threads = 4, .adjacent = true, .nodes = 2, .packages = 2,
		.driver = "ixgbe", .nic_node = 1, .speed = 10000, .max_queues = 4, .queues = 4 } },
	{ "4 sockets, mlx5 on node 2", {
		.cpus = 128, .smt = true, .nodes = 4, .packages = 4, .driver = "mlx5_core",
		.nic_node = 2, .speed = 100000, .max_queues = 63, .queues = 63, .other = true,
		.rss_size = 256, .ring_max = 8192, .ring = 1024 } },
	{ "numa_node -1 on 2 nodes", {
		.cpus = 32, .smt = true, .nodes = 2, .packages = 2, .driver = "ice", .nic_node = -1,
		.speed = 25000, .max_queues = 64, .queues = 32 } },
	{ "NIC on a node without CPUs", {
		.cpus = 32, .smt = true, .nodes = 2, .cpuless_nodes = 1, .packages = 2,
		.driver = "mlx5_core", .nic_node = 2, .speed = 100000, .max_queues = 63, .queues = 32 } },
	{ "256 CPUs, 8 queues", {
		.cpus = 256, .smt = true, .nodes = 2, .packages = 2, .driver = "i40e", .nic_node = 1,
		.speed = 40000, .max_queues = 8, .queues = 8 } },
	{ "separate rx/tx channels with IRQs, 2 rx", {
		.cpus = 16, .smt = true, .driver = "ena", .nic_node = -1, .speed = 25000,
		.chan = SHAPE_SEPARATE, .max_queues = 2, .queues = 2, .max_tx = 8, .tx = 8,
		.irq_kind = SHAPE_IRQ_SPLIT } },
	{ "2 queues on 96 CPUs", {
		.cpus = 96, .smt = true, .nodes = 2, .packages = 2, .driver = "igb", .nic_node = 0,
		.speed = 1000, .max_queues = 2, .queues = 2, .irq_kind = SHAPE_IRQ_TXRX } },
	{ "more channels than CPUs", {
		.cpus = 4, .driver = "ice", .speed = 100000, .max_queues = 64, .queues = 64 } },
	{ "link down, 100G mlx5", {
		.cpus = 64, .smt = true, .nodes = 2, .packages = 2, .driver = "mlx5_core",
		.nic_node = 0, .link_down = true, .max_queues = 63, .queues = 63 } },
	{ "isolated CPUs cover the NIC's node", {
		.cpus = 32, .smt = true, .nodes = 2, .packages = 2, .driver = "ice", .nic_node = 1,
		.speed = 25000, .max_queues = 32, .queues = 32, .isolated = "8-15,24-31" } },
	{ "mlx5 63 max on 2 x 32 cores SMT (the fixture)", {
		.cpus = 128, .smt = true, .nodes = 2, .packages = 2, .driver = "mlx5_core",
		.nic_node = 1, .speed = 100000, .max_queues = 63, .queues = 63, .other = true,
		.adaptive_on = true, .rss_size = 256, .ring_max = 8192, .ring = 1024 } },
	{ "ice 48 queues on 2 x 24 cores SMT", {
		.cpus = 96, .smt = true, .nodes = 2, .packages = 2, .driver = "ice", .nic_node = 0,
		.speed = 100000, .max_queues = 48, .queues = 48, .ring_max = 8160, .ring = 2048 } },
	{ "preset xps_rxqs", {
		.cpus = 8, .driver = "ice", .speed = 25000, .max_queues = 8, .queues = 8,
		.xps_rxqs = "0-1" } },
	{ "ntuple fixed off, no NAPI files", {
		.cpus = 8, .driver = "mlx5_core", .speed = 25000, .max_queues = 8, .queues = 8,
		.ntuple_fixed = true, .no_napi = true } },
	{ "1 CPU", {
		.cpus = 1, .driver = "virtio_net", .nic_node = -1, .queues = 1,
		.irq_kind = SHAPE_IRQ_SPLIT, .no_rss = true, .no_adaptive = true } },
};

/* The CPU the plan gives rx queue q's interrupt, -1 when none. */
static int irq_cpu(const struct np_dev *t, unsigned q)
{
	for (unsigned i = 0; i < t->n_irq; i++) {
		const struct np_irq *irq = &t->irq[i];

		if (irq->queue == (int)q && (irq->kind == NP_IRQ_TXRX || irq->kind == NP_IRQ_RX) &&
		    np_cpumask_weight(&irq->affinity) == 1)
			return np_cpumask_next(&irq->affinity, 0);
	}
	return -1;
}

static void local_eligible(const struct np_state *st, struct np_cpumask *ret)
{
	struct np_cpumask e;

	np_cpumask_andnot(&e, &st->topo.online, &st->topo.isolated);
	np_cpumask_andnot(&e, &e, &st->topo.nohz_full);
	np_cpumask_and(ret, &e, &st->dev.local_cpus);
	if (np_cpumask_empty(ret))
		*ret = e;
}

static void check_rps(const struct tcase *tc, const struct np_policy *p, const struct np_state *st,
		      const struct np_plan *plan)
{
	const struct np_dev *t = &plan->target->dev;
	const struct np_topology *topo = &st->topo;
	struct np_cpumask local, irqs;
	bool rps = false;

	local_eligible(st, &local);
	np_cpumask_zero(&irqs);
	for (unsigned q = 0; q < t->n_rxq; q++) {
		int c = irq_cpu(t, q);

		if (c >= 0)
			np_cpumask_set(&irqs, (unsigned)c);
		rps |= !np_cpumask_empty(&t->rxq[q].rps_cpus);
	}
	if (rps && t->n_rxq < st->dev.n_rxq)
		whyf("rx queues shrink %u -> %u and RPS is added", st->dev.n_rxq, t->n_rxq);
	if (rps && t->n_rxq >= shape_count_cores(topo, &local))
		whyf("RPS with %u rx queues for %u local cores", t->n_rxq,
		     shape_count_cores(topo, &local));
	CHECK(tc, p, "RPS only when the NIC cannot have the queues wanted; never with a shrink");

	for (unsigned q = 0; q < t->n_rxq; q++) {
		const struct np_cpumask *m = &t->rxq[q].rps_cpus;
		int c = irq_cpu(t, q);

		if (np_cpumask_empty(m))
			continue;
		if (c < 0) {
			whyf("rx-%u has an RPS mask and no IRQ", q);
			continue;
		}
		if (np_cpumask_test(m, (unsigned)c))
			whyf("rx-%u: RPS mask holds its own IRQ CPU %d", q, c);
		np_cpumask_for_each(cpu, m)
			if ((unsigned)cpu < topo->nr_cpus && topo->cpus[cpu].node != topo->cpus[c].node)
				whyf("rx-%u: IRQ on CPU %d (node %d), RPS CPU %d on node %d", q, c,
				     topo->cpus[c].node, cpu, topo->cpus[cpu].node);
		/* the IRQ CPU's own siblings first */
		np_cpumask_for_each(sib, &local)
			if ((unsigned)sib < topo->nr_cpus && sib != c &&
			    topo->cpus[sib].core == topo->cpus[c].core &&
			    !np_cpumask_test(&irqs, (unsigned)sib) && !np_cpumask_test(m, (unsigned)sib))
				whyf("rx-%u: IRQ on CPU %d, its sibling %d not in its RPS mask", q, c, sib);
	}
	CHECK(tc, p, "RPS masks: the IRQ CPU's siblings, on its node, without it");
}

/* The sysctl records as the engine keeps them: before any device needed
 * them, st's values; other devices' needs given. */
static void base_of(const struct np_state *pristine, const struct np_sysctl *others,
		    struct np_plan_base *b)
{
	memset(b, 0, sizeof(*b));
	b->pristine = pristine;
	b->shared = true;
	b->shared_pristine = pristine->sys;
	if (others)
		b->others = *others;
}

static void check_switch(const struct tcase *tc, const struct np_policy *a,
			 const struct np_state *st)
{
	for (size_t j = 0; j < np_policy_count(); j++) {
		const struct np_policy *b = np_policy_at(j);
		struct np_plan *pa = NULL, *via = NULL, *direct = NULL, *d = NULL;
		struct np_plan_base base;
		struct np_error err;

		/* mixed: test_mixed.c (it needs ntuple filters, which not
		 * every shape here has) */
		if (a == b || b->mixed)
			continue;
		base_of(st, NULL, &base);
		np_error_clear(&err);
		if (np_plan_compute_base(a, NULL, st, &base, &pa, &err) < 0 ||
		    np_plan_compute_base(b, NULL, pa->target, &base, &via, &err) < 0 ||
		    np_plan_compute_base(b, NULL, st, &base, &direct, &err) < 0) {
			whyf("planning failed: %s", err.msg);
		} else if (np_plan_new(&d) < 0 || np_state_dup(direct->target, &d->target) < 0 ||
			   np_plan_diff(d, via->target) < 0) {
			whyf("out of memory");
		} else if (d->n_steps) {
			const struct np_step *s = &d->steps[0];
			const struct np_change *c = &d->changes[s->first_change];
			char x[128], y[128];

			np_value_format(&c->before, x, sizeof(x));
			np_value_format(&c->after, y, sizeof(y));
			whyf("%s then %s: %zu steps from %s alone, first %s %s: %s vs %s", a->name,
			     b->name, d->n_steps, b->name, s->knob->name, c->what, x, y);
		}
		np_plan_free(d);
		np_plan_free(pa);
		np_plan_free(via);
		np_plan_free(direct);
	}
	CHECK(tc, a, "switching from it to any policy = that policy from pristine");
}

static void check_sysctls(const struct tcase *tc, const struct np_policy *p,
			  const struct np_state *st)
{
	const struct np_sysctl others = { .rps_sock_flow_entries = 65536, .busy_poll = 30,
					  .busy_read = 30 };
	struct np_plan_base base;
	struct np_plan *plan = NULL;
	struct np_error err;

	base_of(st, &others, &base);
	np_error_clear(&err);
	if (np_plan_compute_base(p, NULL, st, &base, &plan, &err) < 0) {
		whyf("planning failed: %s", err.msg);
	} else {
		const struct np_sysctl *t = &plan->target->sys;

		if (!st->sys.flow_entries_err && t->rps_sock_flow_entries < 65536)
			whyf("rps_sock_flow_entries %u below another device's 65536",
			     t->rps_sock_flow_entries);
		if (!st->sys.busy_err && (t->busy_poll < 30 || t->busy_read < 30))
			whyf("busy_poll/read %u/%u below another device's 30", t->busy_poll,
			     t->busy_read);
		if (p->rfs_entries && !st->sys.flow_entries_err &&
		    plan->needs.rps_sock_flow_entries != p->rfs_entries)
			whyf("RFS needs not recorded");
	}
	np_plan_free(plan);
	CHECK(tc, p, "machine-wide sysctls: never below another device's needs");
}

static void check_rules(const struct tcase *tc, const struct np_policy *p,
			const struct np_state *st, const struct np_plan *plan)
{
	const struct np_dev *d = &st->dev, *t = &plan->target->dev;
	struct np_cpumask local;
	unsigned cores;

	local_eligible(st, &local);
	cores = shape_count_cores(&st->topo, &local);
	if (p->channels == NP_CHAN_LINK_SPEED && !d->link.speed) {
		unsigned want = cores < 8 ? cores : 8, max = d->channels.max_combined;

		if (!find_note(plan, "channels", "link speed unknown"))
			whyf("link speed unknown and no note");
		if (max && t->channels.combined != (want < max ? want : max))
			whyf("link speed unknown: %u channels, want min(8, %u cores, max %u)",
			     t->channels.combined, cores, max);
	}
	CHECK(tc, p, "link speed unknown: the kernel's default count, with a note");

	for (unsigned q = 0; q < t->n_txq; q++)
		if (!t->txq[q].xps_rxqs_err && !np_cpumask_empty(&t->txq[q].xps_rxqs))
			whyf("tx-%u keeps xps_rxqs", q);
	if (d->n_txq && !np_cpumask_empty(&d->txq[0].xps_rxqs) && !find_note(plan, "xps", "xps_rxqs"))
		whyf("preset xps_rxqs cleared without a note");
	CHECK(tc, p, "xps_rxqs cleared (it would override xps_cpus), with a note");

	if (!d->rings.err) {
		if (t->rings.rx < d->rings.rx || t->rings.rx > d->rings.max_rx ||
		    t->rings.tx < d->rings.tx || t->rings.tx > d->rings.max_tx)
			whyf("rings %u/%u outside own size %u/%u .. max %u/%u", t->rings.rx,
			     t->rings.tx, d->rings.rx, d->rings.tx, d->rings.max_rx, d->rings.max_tx);
		if (p->rings == NP_RING_KEEP && t->rings.rx != d->rings.rx)
			whyf("%s changes rings", p->name);
	}
	CHECK(tc, p, "rings between the driver's own size and its maximum");

	for (unsigned i = 0; i < t->features.n; i++) {
		const struct np_feature *f = &t->features.v[i];

		if (strcmp(f->name, "rx-ntuple-filter"))
			continue;
		if (p->rfs_entries && !st->sys.flow_entries_err && !f->fixed &&
		    (!strcmp(d->driver, "mlx5_core") || !strcmp(d->driver, "ice")) && !f->active)
			whyf("RFS on %s without accelerated RFS", d->driver);
		if (!p->rfs_entries && f->active != d->features.v[i].active)
			whyf("rx-ntuple-filter changed by %s, which plans no RFS", p->name);
		if (f->fixed && f->active != d->features.v[i].active)
			whyf("fixed rx-ntuple-filter changed");
	}
	CHECK(tc, p, "accelerated RFS where the driver has it, only with RFS");

	if (p->rfs_entries && !st->sys.flow_entries_err && !np_cpumask_empty(&st->topo.isolated) &&
	    !find_note(plan, "rfs", "isolated"))
		whyf("RFS with isolated CPUs and no note");
	CHECK(tc, p, "RFS onto isolated CPUs is noted");

	if (p->busy_poll) {
		bool one = np_cpumask_weight(&st->topo.online) < 2;

		if (one && (plan->target->sys.busy_poll || !find_note(plan, "busy-poll", "one CPU")))
			whyf("busy polling on a 1-CPU machine");
		if (!one && plan->target->sys.busy_poll != p->busy_poll)
			whyf("busy_poll %u, want %u", plan->target->sys.busy_poll, p->busy_poll);
	} else if (plan->target->sys.busy_poll || plan->target->sys.busy_read) {
		whyf("%s sets global busy polling", p->name);
	}
	CHECK(tc, p, "global busy polling only when asked for and never on 1 CPU");
}

static void check_case(const struct np_policy *p, const struct np_state *st,
		       const struct np_plan *plan, void *arg)
{
	const struct tcase *tc = arg;

	check_rps(tc, p, st, plan);
	check_rules(tc, p, st, plan);
	check_switch(tc, p, st);
	check_sysctls(tc, p, st);
}

/* The review's case: QEMU threads=2 numbers siblings 0,1 / 2,3 / ...; with
 * 2 queues on 4 cores, queue 1's IRQ lands on CPU 2 and its RPS mask must
 * start with CPU 3, not CPUs of other cores. */
static void test_adjacent_siblings(void)
{
	const struct shape s = { .cpus = 8, .threads = 2, .adjacent = true, .driver = "virtio_net",
				 .nic_node = -1, .speed = 10000, .max_queues = 2, .queues = 2,
				 .irq_kind = SHAPE_IRQ_SPLIT, .no_rss = true, .no_adaptive = true };
	struct np_state *st;
	struct np_plan *plan;

	if (!shape_plan(&s, "throughput", NULL, &st, &plan, "adjacent siblings"))
		return;
	is_int(irq_cpu(&plan->target->dev, 1), 2, "adjacent siblings: queue 1's IRQ on CPU 2");
	ok(np_cpumask_test(&plan->target->dev.rxq[1].rps_cpus, 3),
	   "adjacent siblings: queue 1's RPS mask holds CPU 3, its IRQ CPU's sibling");
	ok(!np_cpumask_test(&plan->target->dev.rxq[1].rps_cpus, 1),
	   "adjacent siblings: ... and not CPU 1, queue 0's IRQ CPU's sibling");
	np_plan_free(plan);
	np_state_free(st);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < NP_ARRAY_SIZE(cases); i++)
		plan_each_policy(NULL, cases[i].name, &cases[i].s, NULL, check_case,
				 (void *)&cases[i]);
	test_adjacent_siblings();
	return tap_done();
}
