/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * np_spread_rps (plan/plan_rps.c) finds each local CPU's nearest queue
 * through groups of queues and a heap per group.  Here a direct reading of
 * the rule, every queue asked for every CPU with the planner's own
 * np_cpu_distance (what the planner did before), must give the same masks:
 * on the shapes that stress the groups (SMT, several packages per node,
 * nodes without the NIC), with queues whose
 * rps_cpus is unreadable, and on a topology whose core numbers the groups
 * cannot index (the planner then asks every queue itself).
 *
 * And what the last-level caches change (an EPYC-like machine, an L3 per
 * 4-core CCX): IRQs one per LLC before a second in any, each RPS mask and
 * each XPS CPU in its queue's LLC.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan/np_policy.h"
#include "shapes.h"
#include "tap.h"

/* The rule as written: nearest, then least loaded, then lowest queue. */
static void reference(const struct np_state *st, const struct np_cpu_order *o, unsigned nrx,
		      struct np_dev *t)
{
	const struct np_topology *topo = &st->topo;
	unsigned *load = calloc(nrx, sizeof(*load));
	struct np_cpumask irq;

	np_cpumask_zero(&irq);
	for (unsigned q = 0; q < nrx; q++)
		np_cpumask_set(&irq, np_queue_cpu(o, q));
	np_cpumask_for_each(cpu, &o->local) {
		int best = -1, best_d = 4;

		if ((unsigned)cpu >= topo->nr_cpus || np_cpumask_test(&irq, (unsigned)cpu))
			continue;
		for (unsigned q = 0; q < nrx; q++) {
			int d = np_cpu_distance(topo, np_queue_cpu(o, q), (unsigned)cpu);

			if (t->rxq[q].rps_err || d > 3)
				continue;
			if (best < 0 || d < best_d || (d == best_d && load[q] < load[best])) {
				best = (int)q;
				best_d = d;
			}
		}
		if (best >= 0) {
			np_cpumask_set(&t->rxq[best].rps_cpus, (unsigned)cpu);
			load[best]++;
		}
	}
	free(load);
}

static void zero_rps(struct np_dev *d)
{
	for (unsigned q = 0; q < d->n_rxq; q++)
		np_cpumask_zero(&d->rxq[q].rps_cpus);
}

/* Both ways on the state as built (maybe edited by the caller). */
static void compare(const char *name, struct np_state *st, unsigned nrx)
{
	struct np_plan plan = { 0 };
	struct np_state *want = NULL;
	struct np_cpu_order o;
	struct np_cpumask local;
	unsigned same = 0, spread;

	if (nrx > st->dev.n_rxq)
		nrx = st->dev.n_rxq;
	np_cpumask_and(&local, &st->dev.local_cpus, &st->topo.online);
	if (np_cpumask_empty(&local))
		local = st->topo.online;
	if (np_cpu_order(&st->topo, &st->topo.online, &local, &o) < 0 ||
	    np_state_dup(st, &plan.target) < 0 || np_state_dup(st, &want) < 0) {
		ok(0, "%s: out of memory", name);
		return;
	}
	zero_rps(&plan.target->dev);
	zero_rps(&want->dev);
	spread = np_spread_rps(st, &o, nrx, &plan);
	reference(st, &o, nrx, &want->dev);
	for (unsigned q = 0; q < st->dev.n_rxq; q++)
		same += np_cpumask_equal(&plan.target->dev.rxq[q].rps_cpus, &want->dev.rxq[q].rps_cpus);
	is_int(same, st->dev.n_rxq, "%s: %u rx queues, the same RPS masks as asking every queue",
	       name, nrx);
	ok(spread > 0, "%s: some CPUs spread (%u)", name, spread);
	np_state_free(plan.target);
	np_state_free(want);
	np_cpu_order_clear(&o);
}

static const struct {
	const char *name;
	struct shape s;
	unsigned nrx;
} cases[] = {
	{ "1024 CPUs, 1 node, 256 queues", { .cpus = 1024, .smt = true, .driver = "mlx5_core",
		.max_queues = 256, .queues = 256, .speed = 100000 }, 200 },
	{ "128 CPUs, 4 nodes, 2 packages", { .cpus = 128, .smt = true, .nodes = 4, .packages = 2,
		.driver = "mlx5_core", .nic_node = 3, .max_queues = 64, .queues = 64 }, 24 },
	{ "64 CPUs, 2 packages on one node", { .cpus = 64, .smt = true, .packages = 2,
		.driver = "ice", .nic_node = -1, .max_queues = 64, .queues = 64 }, 10 },
	{ "SMT-4 adjacent, 2 nodes", { .cpus = 64, .threads = 4, .adjacent = true, .nodes = 2,
		.packages = 2, .driver = "ixgbe", .nic_node = 1, .max_queues = 8, .queues = 8 }, 3 },
	{ "48 CPUs without SMT, 3 queues", { .cpus = 48, .nodes = 2, .packages = 2,
		.driver = "ixgbe", .nic_node = -1, .max_queues = 3, .queues = 3 }, 3 },
	{ "64 CPUs, 8 LLCs on 2 nodes", { .cpus = 64, .smt = true, .nodes = 2, .llcs = 8,
		.driver = "mlx5_core", .nic_node = 0, .max_queues = 8, .queues = 8 }, 6 },
	{ "256 CPUs, 32 LLCs, 2 packages, 4 nodes", { .cpus = 256, .smt = true, .nodes = 4,
		.packages = 2, .llcs = 32, .driver = "mlx5_core", .nic_node = 1,
		.max_queues = 64, .queues = 64 }, 13 },
};

/* 1 node, 16 cores with SMT in 4 LLCs of 4 cores (CPUs 4k..4k+3 and their
 * siblings 16 + 4k..), 8 queues: cores 0, 4, 8, 12 take the first four
 * IRQs, one per LLC, then 1, 5, 9, 13; every RPS CPU and every XPS CPU is in
 * its queue's LLC. */
static void test_llc(void)
{
	struct shape s = { .cpus = 32, .smt = true, .llcs = 4, .driver = "mlx5_core",
			   .nic_node = 0, .max_queues = 8, .queues = 8 };
	static const unsigned want[] = { 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
	struct np_plan plan = { 0 };
	struct np_state *st = NULL;
	struct np_cpu_order o;
	unsigned same = 0, rps_in = 0, rps_out = 0, xps_in = 0, xps_out = 0;

	if (shape_build(&s, &st) < 0 || np_cpu_order(&st->topo, &st->topo.online,
						     &st->topo.online, &o) < 0 ||
	    np_state_dup(st, &plan.target) < 0) {
		ok(0, "LLC: shape");
		return;
	}
	is_int(st->topo.nr_llcs, 4, "LLC: 4 LLCs in the shape");
	for (unsigned i = 0; i < NP_ARRAY_SIZE(want) && i < o.n; i++)
		same += o.order[i] == want[i];
	is_int(same, NP_ARRAY_SIZE(want), "LLC: primary cores round robin over the LLCs "
	       "(%u %u %u %u %u ...)", o.order[0], o.order[1], o.order[2], o.order[3], o.order[4]);
	is_int(o.order[16], 16, "LLC: SMT siblings after every core, round robin too (%u %u)",
	       o.order[16], o.order[17]);
	is_int(o.order[17], 20, "LLC: the second sibling is in the second LLC");
	zero_rps(&plan.target->dev);
	np_spread_rps(st, &o, 8, &plan);
	np_plan_xps(st, &o, 8, &plan);
	for (unsigned q = 0; q < 8; q++) {
		int l = np_cpu_llc(&st->topo, np_queue_cpu(&o, q));

		np_cpumask_for_each(cpu, &plan.target->dev.rxq[q].rps_cpus) {
			if (np_cpu_llc(&st->topo, (unsigned)cpu) == l)
				rps_in++;
			else
				rps_out++;
		}
		np_cpumask_for_each(cpu, &plan.target->dev.txq[q].xps_cpus) {
			if (np_cpu_llc(&st->topo, (unsigned)cpu) == l)
				xps_in++;
			else
				xps_out++;
		}
	}
	is_int(rps_in, 24, "LLC: every CPU without an IRQ in some RPS mask");
	is_int(rps_out, 0, "LLC: no RPS CPU outside its queue's LLC");
	is_int(xps_in, 32, "LLC: every CPU in some XPS map");
	is_int(xps_out, 0, "LLC: no XPS CPU outside its queue's LLC");
	ok(np_cpumask_weight(&plan.target->dev.rxq[0].rps_cpus) == 3,
	   "LLC: rx-0 takes 3 CPUs of its LLC (the LLC's 6 split with rx-4)");
	np_state_free(plan.target);
	np_state_free(st);
	np_cpu_order_clear(&o);
}

int main(void)
{
	test_llc();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct np_state *st = NULL;

		if (shape_build(&cases[i].s, &st) < 0) {
			ok(0, "%s: shape", cases[i].name);
			continue;
		}
		compare(cases[i].name, st, cases[i].nrx);
		/* unreadable rps_cpus on every third queue: never chosen */
		for (unsigned q = 0; q < st->dev.n_rxq; q += 3)
			st->dev.rxq[q].rps_err = -EACCES;
		compare("... with unreadable rps_cpus", st, cases[i].nrx);
		np_state_free(st);
	}
	{
		/* core numbers beyond nr_cores (a hand-written model): the
		 * groups cannot index them and every queue is asked */
		struct shape s = { .cpus = 32, .smt = true, .packages = 2, .driver = "ice",
				   .nic_node = -1, .max_queues = 16, .queues = 16 };
		struct np_state *st = NULL;

		if (shape_build(&s, &st) < 0) {
			ok(0, "odd cores: shape");
		} else {
			for (unsigned c = 0; c < st->topo.nr_cpus; c++)
				st->topo.cpus[c].core += 1000 * (int)(c % 2);
			compare("core numbers beyond nr_cores", st, 5);
			np_state_free(st);
		}
	}
	return tap_done();
}
