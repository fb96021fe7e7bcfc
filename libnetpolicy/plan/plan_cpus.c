/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which CPUs get a NIC's interrupts, in what order.  One IRQ per physical
 * core before any core gets a second one (an SMT sibling shares the core's
 * execution units, so two busy queues there halve each other), and cores on
 * the NIC's NUMA node before remote ones (DMA and the packet's first cache
 * misses stay local).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "np_policy.h"

void np_cpu_order_clear(struct np_cpu_order *o)
{
	free(o->order);
	memset(o, 0, sizeof(*o));
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
	 * (sibling, remote); CPU id order within each. */
	for (int pass = 0; pass < 4; pass++) {
		bool want_primary = pass < 2, want_local = !(pass & 1);

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
