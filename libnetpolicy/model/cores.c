/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Core and thread numbers a hand-written model may leave out. */
#include <errno.h>
#include <stdlib.h>

#include "model/np_serialize.h"

/* Dense machine-wide core numbers and SMT thread numbers, as discovery
 * assigns them: in CPU order, among online CPUs. */
int np_topology_derive_cores(struct np_topology *t, const bool *given)
{
	struct { int package, core_id; unsigned threads; } *seen;
	unsigned n = 0;

	seen = calloc(t->nr_cpus ? t->nr_cpus : 1, sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		struct np_cpu *cpu = &t->cpus[c];
		unsigned i;

		if (!cpu->online)
			continue;
		for (i = 0; i < n; i++)
			if (seen[i].package == cpu->package_id && seen[i].core_id == cpu->core_id)
				break;
		if (i == n) {
			seen[n].package = cpu->package_id;
			seen[n].core_id = cpu->core_id;
			n++;
		}
		if (!given[c]) {
			cpu->core = (int)i;
			cpu->thread = (int)seen[i].threads;
		}
		seen[i].threads++;
	}
	free(seen);
	return 0;
}
