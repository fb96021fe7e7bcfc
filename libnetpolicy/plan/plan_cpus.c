/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which CPUs get a NIC's interrupts, in what order.  One IRQ per physical
 * core before any core gets a second one (an SMT sibling shares the core's
 * execution units, so two busy queues there halve each other), and cores on
 * the NIC's NUMA node before remote ones (DMA and the packet's first cache
 * misses stay local).
 *
 * Where the topology knows the last-level caches (np_topology.nr_llcs), each
 * of those groups goes round robin over the LLCs: the first core of every
 * LLC, then the second of every LLC, and so on.  A machine may have several
 * L3s per node (AMD EPYC: one per CCX of 4 to 8 cores; Arm clusters; Intel
 * sub-NUMA clustering).  Two busy queues in one L3 share its capacity (their
 * socket buffers, flow and protocol state) while another L3 holds none; and
 * RPS and XPS keep a CPU's work in its own L3 only when that L3 has a
 * queue, so the more L3s have one the fewer CPUs must cross to another
 * (on EPYC a line from another CCX's L3 costs a trip through the I/O die).
 * Locality still comes first: a remote L3 is across the interconnect, so
 * the local cores of every local L3 come before any remote one, and SMT
 * siblings after every core, as without LLCs.  A topology without LLCs
 * orders in CPU id order within each group, as it always did.
 *
 * Within an LLC the cores go round robin over its clusters the same way
 * (topology/cluster_cpus_list: cores sharing an L2 or the L3 tags and bus
 * of one part of the die; Kunpeng 920's clusters of 4, Intel's Atom
 * modules of 4 cores on one L2).  The kernel's cluster scheduling
 * (CONFIG_SCHED_CLUSTER) spreads busy tasks over clusters for the same
 * reason: two busy queues in one cluster share what the cluster shares.
 * Where a cluster is one core, as on most x86 servers, nothing changes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan/np_policy.h"

void np_cpu_order_clear(struct np_cpu_order *o)
{
	free(o->order);
	memset(o, 0, sizeof(*o));
}

struct domain_key {
	unsigned rank;		/* how many CPUs of its domain come before it in the group */
	unsigned dom;		/* the domain count for a CPU without one */
	unsigned cpu;
};

static int cmp_domain_key(const void *a, const void *b)
{
	const struct domain_key *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->dom != y->dom)
		return x->dom < y->dom ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* cpus[] reordered round robin over the LLCs (llc) or the clusters: every
 * domain's first CPU by domain index, then every domain's second, ...; the
 * CPUs of one domain keep their order.  -ENOMEM. */
static int by_domain(const struct np_topology *t, unsigned *cpus, unsigned n, bool llc)
{
	unsigned nr = llc ? t->nr_llcs : t->nr_clusters;
	unsigned *seen = calloc((size_t)nr + 1, sizeof(*seen));
	struct domain_key *k = malloc(sizeof(*k) * (n ? n : 1));

	if (!seen || !k) {
		free(seen);
		free(k);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		int d = np_cpu_domain(t, cpus[i], llc);
		unsigned dom = d < 0 ? nr : (unsigned)d;

		k[i] = (struct domain_key){ seen[dom]++, dom, cpus[i] };
	}
	qsort(k, n, sizeof(*k), cmp_domain_key);
	for (unsigned i = 0; i < n; i++)
		cpus[i] = k[i].cpu;
	free(seen);
	free(k);
	return 0;
}

int np_cpu_order(const struct np_topology *t, const struct np_cpumask *eligible,
		 const struct np_cpumask *local, struct np_cpu_order *ret)
{
	/* The first eligible CPU of each core represents it: when a core's
	 * thread 0 is isolated its sibling is still a whole core for us. */
	int *primary = NULL;
	unsigned *order = NULL, n = 0, ncores = 0, nlocal = 0;
	int r = 0;

	memset(ret, 0, sizeof(*ret));
	primary = malloc(sizeof(*primary) * (t->nr_cores ? t->nr_cores : 1));
	order = malloc(sizeof(*order) * (t->nr_cpus ? t->nr_cpus : 1));
	if (!primary || !order) {
		r = -ENOMEM;
		goto out;
	}
	for (unsigned c = 0; c < t->nr_cores; c++)
		primary[c] = -1;
	np_cpumask_for_each(cpu, eligible) {
		int core = t->cpus[cpu].core;

		if ((unsigned)cpu >= t->nr_cpus || core < 0 || (unsigned)core >= t->nr_cores)
			continue;
		if (primary[core] < 0) {
			primary[core] = cpu;
			ncores++;
			if (np_cpumask_test(local, (unsigned)cpu))
				nlocal++;
		}
	}
	/* Four passes: (primary, local), (primary, remote), (sibling, local),
	 * (sibling, remote); CPU id order within each, then round robin over
	 * the clusters and the LLCs where they are known. */
	for (int pass = 0; pass < 4; pass++) {
		bool want_primary = pass < 2, want_local = !(pass & 1);
		unsigned from = n;

		np_cpumask_for_each(cpu, eligible) {
			int core;
			bool is_primary;

			if ((unsigned)cpu >= t->nr_cpus)
				continue;
			core = t->cpus[cpu].core;
			is_primary = core >= 0 && (unsigned)core < t->nr_cores && primary[core] == cpu;
			if (is_primary != want_primary ||
			    np_cpumask_test(local, (unsigned)cpu) != want_local)
				continue;
			order[n++] = (unsigned)cpu;
		}
		/* clusters first: the LLC pass keeps each LLC's CPUs in the
		 * order this one leaves them */
		if ((t->nr_clusters && by_domain(t, order + from, n - from, false) < 0) ||
		    (t->nr_llcs && by_domain(t, order + from, n - from, true) < 0)) {
			r = -ENOMEM;
			goto out;
		}
	}
	ret->n = n;
	ret->order = order;
	order = NULL;
	ret->n_cores = ncores;
	ret->n_local_cores = nlocal;
	ret->eligible = *eligible;
	np_cpumask_and(&ret->local, eligible, local);
out:
	free(primary);
	free(order);
	return r;
}

int np_cpu_order_effective(const struct np_state *st, const struct np_cpu_order *o,
			   struct np_cpu_order *ret)
{
	const struct np_dev *d = &st->dev;
	unsigned n = d->n_rxq > d->n_txq ? d->n_rxq : d->n_txq;

	if (!n || !o->n)
		return 0;
	*ret = *o;
	ret->order = malloc(sizeof(*ret->order) * n);
	if (!ret->order) {
		memset(ret, 0, sizeof(*ret));
		return -ENOMEM;
	}
	ret->n = n;
	for (unsigned q = 0; q < n; q++) {
		int cpu = -1;

		/* where the kernel delivers the queue's interrupt now */
		for (unsigned i = 0; i < d->n_irq && cpu < 0; i++)
			if (d->irq[i].queue == (int)q && d->irq[i].kind != NP_IRQ_OTHER &&
			    !d->irq[i].err)
				cpu = np_cpumask_next(&d->irq[i].effective, 0);
		if (cpu < 0 || (unsigned)cpu >= st->topo.nr_cpus)
			cpu = (int)np_queue_cpu(o, q);
		ret->order[q] = (unsigned)cpu;
	}
	return 1;
}
