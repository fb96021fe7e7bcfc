/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Software steering (Documentation/networking/scaling.rst): XPS for every
 * CPU, RPS only where the hardware cannot have the queues the policy wants,
 * RFS and, where the driver steers flows in hardware, accelerated RFS.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "plan/np_policy.h"

static uint32_t roundup_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return p;
}

/* A preset xps_rxqs wins over xps_cpus for every socket that recorded its
 * receive queue (net/core/dev.c, get_xps_queue: the XPS_RXQS map is looked
 * up first): the planned per-CPU map would silently not apply. */
static void clear_xps_rxqs(struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	bool noted = false;

	for (unsigned q = 0; q < t->n_txq; q++) {
		if (t->txq[q].xps_rxqs_err || np_cpumask_empty(&t->txq[q].xps_rxqs))
			continue;
		if (!noted)
			np_plan_note(plan, "xps", "xps_rxqs set on tx-%u: cleared, it would take "
				     "precedence over the planned xps_cpus", q);
		noted = true;
		np_cpumask_zero(&t->txq[q].xps_rxqs);
	}
}

/* Queues grouped by their CPU's node (llc false) or LLC, in queue order
 * within a group: group k is q[start[k] .. start[k + 1]).  start has
 * nkeys + 1 entries, q ntx; a queue whose CPU has no key is in no group. */
static void group_queues(const struct np_topology *topo, const struct np_cpu_order *o,
			 unsigned ntx, bool llc, unsigned nkeys, int *start, int *q)
{
	memset(start, 0, sizeof(int) * (nkeys + 1));
	for (unsigned i = 0; i < ntx; i++) {
		unsigned cpu = np_queue_cpu(o, i);
		unsigned k = (unsigned)(llc ? np_cpu_llc(topo, cpu) : topo->cpus[cpu].node);

		if (k < nkeys)
			start[k + 1]++;
	}
	for (unsigned k = 0; k < nkeys; k++)
		start[k + 1] += start[k];
	/* start[k] serves as group k's fill cursor, then shifts back */
	for (unsigned i = 0; i < ntx; i++) {
		unsigned cpu = np_queue_cpu(o, i);
		unsigned k = (unsigned)(llc ? np_cpu_llc(topo, cpu) : topo->cpus[cpu].node);

		if (k < nkeys)
			q[start[k]++] = (int)i;
	}
	for (unsigned k = nkeys; k > 0; k--)
		start[k] = start[k - 1];
	start[0] = 0;
}

/* Every online CPU sends through one queue: its own CPU's, else one on its
 * core, else one in its LLC (round robin per LLC, where the topology has
 * LLCs: the completions and the socket's lines stay in the L3 the sender
 * uses), else one on its node (round robin), else any (round robin), so no
 * CPU falls back to hashing.  Lookup tables keep this linear in CPUs +
 * queues (1024 CPUs x 256 queues took milliseconds scanning the queues per
 * CPU). */
int np_plan_xps(const struct np_state *st, const struct np_cpu_order *o, unsigned nq,
		struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	const struct np_topology *topo = &st->topo;
	unsigned ntx = nq < t->n_txq ? nq : t->n_txq, nnodes = topo->nr_nodes, rr = 0;
	unsigned nllc = topo->nr_llcs;
	int *by_cpu, *by_core, *node_start, *node_q, *llc_start, *llc_q, *llc_rr;
	bool noted = false;

	if (!ntx)
		return 0;
	/* size_t: a 32-bit sum of counts wrapped into a short buffer */
	by_cpu = malloc(sizeof(int) * ((size_t)topo->nr_cpus + topo->nr_cores + nnodes + 1 + ntx +
				       2 * (size_t)nllc + 1 + ntx));
	if (!by_cpu)
		return -ENOMEM;
	by_core = by_cpu + topo->nr_cpus;
	node_start = by_core + topo->nr_cores;
	node_q = node_start + nnodes + 1;
	llc_start = node_q + ntx;
	llc_q = llc_start + nllc + 1;
	llc_rr = llc_q + ntx;
	for (unsigned i = 0; i < topo->nr_cpus + topo->nr_cores; i++)
		by_cpu[i] = -1;
	memset(llc_rr, 0, sizeof(int) * nllc);
	/* lowest queue first, as the IRQ plan hands out CPUs */
	for (unsigned q = ntx; q-- > 0;) {
		const struct np_cpu *c = &topo->cpus[np_queue_cpu(o, q)];

		by_cpu[np_queue_cpu(o, q)] = (int)q;
		if (c->core >= 0 && (unsigned)c->core < topo->nr_cores)
			by_core[c->core] = (int)q;
	}
	group_queues(topo, o, ntx, false, nnodes, node_start, node_q);
	group_queues(topo, o, ntx, true, nllc, llc_start, llc_q);

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
		int best, l;

		if ((unsigned)cpu >= topo->nr_cpus)
			break;
		c = &topo->cpus[cpu];
		best = by_cpu[cpu];
		if (best < 0 && c->core >= 0 && (unsigned)c->core < topo->nr_cores)
			best = by_core[c->core];
		l = np_cpu_llc(topo, (unsigned)cpu);
		if (best < 0 && l >= 0 && llc_start[l + 1] > llc_start[l])
			best = llc_q[llc_start[l] + llc_rr[l]++ % (llc_start[l + 1] - llc_start[l])];
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
	clear_xps_rxqs(plan);
	return 0;
}


/* RPS from each queue's interrupting CPU outward (plan_rps.c). */
static void spread_rps(const struct np_state *st, const struct np_cpu_order *o, unsigned nrx,
		       struct np_plan *plan)
{
	unsigned spread = np_spread_rps(st, o, nrx, plan);

	if (spread)
		np_plan_note(plan, "rps", "%u rx queues for %u local cores: RPS spreads their protocol "
			     "work over %u more local CPUs, each to its queue's core or LLC first",
			     nrx, o->n_local_cores, spread);
}

/*
 * Drivers that implement ndo_rx_flow_steer, so that the rx-ntuple-filter
 * feature turns RFS into accelerated RFS (scaling.rst, "Accelerated RFS"):
 * the NIC itself delivers a flow to the queue whose IRQ is on the CPU that
 * reads it.  Elsewhere ntuple only enables manual filters.
 */
static const char *const arfs_drivers[] = {
	"mlx5_core",	/* drivers/net/ethernet/mellanox/mlx5/core/en_arfs.c, mlx5e_rx_flow_steer */
	"mlx4_en",	/* drivers/net/ethernet/mellanox/mlx4/en_netdev.c, mlx4_en_filter_rfs */
	"ice",		/* drivers/net/ethernet/intel/ice/ice_arfs.c, ice_rx_flow_steer */
	"bnxt_en",	/* drivers/net/ethernet/broadcom/bnxt/bnxt.c, bnxt_rx_flow_steer */
	"sfc",		/* drivers/net/ethernet/sfc/rx_common.c, efx_filter_rfs */
	"qede",		/* drivers/net/ethernet/qlogic/qede/qede_filter.c, qede_rx_flow_steer */
};

/* A driver the table does not know: only what the device reported is
 * said, never whether the driver steers flows itself (it may). */
static void arfs_unknown(const struct np_state *st, const struct np_feature *v,
			 struct np_plan *plan)
{
	const char *drv = st->dev.driver[0] ? st->dev.driver : "(unknown)";

	if (!v)
		np_plan_note(plan, "rfs", "the device reports no rx-ntuple-filter feature: RFS "
			     "steers in software");
	else if (v->fixed && !v->active)
		np_plan_note(plan, "rfs", "rx-ntuple-filter is off and fixed: no accelerated RFS");
	else
		np_plan_note(plan, "rfs", "the device reports rx-ntuple-filter %s; whether driver "
			     "%s (not in the driver table) steers RFS flows with it (accelerated "
			     "RFS) is not known: left as it is", v->active ? "on" : "off", drv);
}

static void plan_arfs(const struct np_state *st, struct np_plan *plan)
{
	struct np_features *f = &plan->target->dev.features;
	bool known = false;

	if (f->err)
		return;
	for (size_t i = 0; i < NP_ARRAY_SIZE(arfs_drivers); i++)
		known |= !strcmp(st->dev.driver, arfs_drivers[i]);
	if (!known && !np_driver_lookup(st->dev.driver)) {
		arfs_unknown(st, np_features_find(f, "rx-ntuple-filter"), plan);
		return;
	}
	for (unsigned i = 0; i < f->n; i++) {
		struct np_feature *v = &f->v[i];

		if (strcmp(v->name, "rx-ntuple-filter"))
			continue;
		if (!known) {
			np_plan_note(plan, "rfs", "driver %s has no accelerated RFS: RFS steers in "
				     "software", st->dev.driver);
		} else if (v->fixed) {
			if (!v->active)
				np_plan_note(plan, "rfs", "rx-ntuple-filter is off and fixed: no "
					     "accelerated RFS");
		} else {
			/* needs the IRQ affinity this plan sets: the driver maps a
			 * flow's CPU to the queue whose IRQ it serves (cpu_rmap) */
			v->wanted = v->active = true;
			np_plan_note(plan, "rfs", "accelerated RFS: rx-ntuple-filter on (the NIC "
				     "steers each flow to the queue whose IRQ is on its reader's CPU; "
				     "the driver's hardware filter table can fill up)");
		}
		return;
	}
}

void np_plan_rps(const struct np_policy *p, const struct np_state *st,
		 const struct np_cpu_order *o, unsigned nq, unsigned want, struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	unsigned nrx = nq < t->n_rxq ? nq : t->n_rxq;
	uint32_t per_queue = 0;
	struct np_cpumask quiet;

	/* A flow table per queue only steers through the global socket table:
	 * where that table cannot be read or written (every network namespace
	 * but the initial one) the per-queue tables would be memory for nothing,
	 * and a `check` run from the initial namespace would see RFS half on. */
	if (p->rfs_entries && t->n_rxq && !st->sys.flow_entries_err)
		per_queue = roundup_pow2((p->rfs_entries + t->n_rxq - 1) / t->n_rxq);
	for (unsigned q = 0; q < t->n_rxq; q++) {
		if (!t->rxq[q].rps_err)
			np_cpumask_zero(&t->rxq[q].rps_cpus);
		if (!t->rxq[q].flow_err)
			t->rxq[q].rps_flow_cnt = per_queue;
	}
	/* scaling.rst: with a hardware queue per CPU RPS is redundant; every
	 * RPS hop is a backlog enqueue and an IPI.  So only when the NIC cannot
	 * have the queues the policy wants (never when the plan chose fewer). */
	if (p->rps == NP_RPS_FEW_QUEUES && nrx && nrx < want)
		spread_rps(st, o, nrx, plan);
	if (t->n_rxq && t->rxq[0].rps_err)
		np_plan_note(plan, "rps", "rps_cpus: %s", strerror(-t->rxq[0].rps_err));

	if (!p->rfs_entries)
		return;
	if (st->sys.flow_entries_err) {
		np_plan_note(plan, "rfs", "rps_sock_flow_entries unavailable (%s; it exists only in the "
			     "initial network namespace): RFS cannot steer, the queues' rps_flow_cnt stay 0",
			     strerror(-st->sys.flow_entries_err));
		return;
	}
	plan->needs.rps_sock_flow_entries = p->rfs_entries;
	plan_arfs(st, plan);
	np_cpumask_or(&quiet, &st->topo.isolated, &st->topo.nohz_full);
	np_cpumask_and(&quiet, &quiet, &st->topo.online);
	if (!np_cpumask_empty(&quiet)) {
		char buf[128];

		np_cpumask_format_list(&quiet, buf, sizeof(buf));
		np_plan_note(plan, "rfs", "RFS processes a flow on the CPU its reader runs on, "
			     "isolated/nohz_full CPUs %s included: keep readers of busy sockets off "
			     "them", buf);
	}
}
