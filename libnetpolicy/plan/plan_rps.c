/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RPS masks built outward from each queue's interrupting CPU: every local
 * CPU that takes no queue's interrupt joins the queue whose IRQ is nearest
 * (its core, then its last-level cache, then package, then node; the least
 * loaded among equals, the lowest queue among those).  The LLC is where a
 * CPU that takes over a packet finds the lines the interrupting CPU just
 * touched: a CPU in another L3 of the same node (another CCX on AMD EPYC)
 * misses them all.  A topology without LLCs skips that level and groups by
 * package, as the one L3 most packages had.  scaling.rst (RPS Configuration): rps_cpus are
 * "the CPUs in the same memory domain of the interrupting CPU"; "at high
 * interrupt rate, it might be wise to exclude the interrupting CPU from the
 * map", so the IRQ CPUs are not in any mask.  A CPU on a node without a
 * queue gets no RPS work: crossing nodes costs more than the protocol work
 * saves.
 *
 * Asking every queue for every CPU costs CPUs x queues distance checks
 * (1024 CPUs x 256 queues: most of a 1 ms plan).  The queues are grouped
 * instead by their IRQ CPU's core, (LLC, node), (package, node) and node,
 * and each group keeps its queues in a heap by (load, queue); a CPU looks at
 * its own four groups only.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/np_policy.h"

/* How far CPU b is from CPU a: 0 the same core (an SMT sibling), 1 the same
 * LLC and node (never where the topology has no LLCs), 2 the same package
 * and node, 3 the same NUMA node, 4 farther.  The node is part of the LLC
 * and package levels so that each level lies within the next. */
int np_cpu_distance(const struct np_topology *t, unsigned a, unsigned b)
{
	const struct np_cpu *x = &t->cpus[a], *y = &t->cpus[b];
	int la = np_cpu_llc(t, a);

	if (x->core == y->core)
		return 0;
	if (la >= 0 && la == np_cpu_llc(t, b) && x->node == y->node)
		return 1;
	if (x->package_id == y->package_id && x->node == y->node)
		return 2;
	return x->node == y->node ? 3 : 4;
}

/* The nearest queue by asking each one: for topologies whose core or node
 * numbers are outside the ranges the groups index (a hand-written model). */
static int nearest_by_scan(const struct np_topology *topo, const struct np_dev *t,
			   const unsigned *qcpu, unsigned nrx, const unsigned *load, unsigned cpu)
{
	int best = -1, best_d = 4;

	for (unsigned q = 0; q < nrx; q++) {
		int d = np_cpu_distance(topo, qcpu[q], cpu);

		if (t->rxq[q].rps_err || d > 3)
			continue;
		if (best < 0 || d < best_d || (d == best_d && load[q] < load[best])) {
			best = (int)q;
			best_d = d;
		}
	}
	return best;
}

/* One heap entry: a queue and its load when last looked at.  Loads only
 * grow, so a stale entry is never above its queue's real place: when the
 * top is current it is the least loaded queue of its group. */
struct entry {
	unsigned load, q;
};

struct group {
	unsigned start, n;	/* entries[start .. start + n) */
	int key, node;		/* BY_LLC, BY_PKG only: (LLC or package, node) */
};

enum { BY_CORE, BY_LLC, BY_PKG, BY_NODE, LEVELS };

struct groups {
	struct entry *e;		/* LEVELS x nrx */
	struct group *g[LEVELS];	/* per level, in key order */
	unsigned n[LEVELS];
	int *core_g, *node_g;		/* core, node -> group, -1 none */
};

static bool before(const struct entry *a, const struct entry *b)
{
	return a->load < b->load || (a->load == b->load && a->q < b->q);
}

static void sift_down(struct entry *h, unsigned n, unsigned i)
{
	for (;;) {
		unsigned l = 2 * i + 1, m = i;
		struct entry tmp;

		if (l < n && before(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && before(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

/* The least loaded queue of a group (lowest number among equals), its
 * entry brought up to date; -1 for no group. */
static int group_best(struct groups *gs, const struct group *g, const unsigned *load)
{
	struct entry *h;

	if (!g || !g->n)
		return -1;
	h = gs->e + g->start;
	while (h[0].load != load[h[0].q]) {
		h[0].load = load[h[0].q];
		sift_down(h, g->n, 0);
	}
	return (int)h[0].q;
}

static int cmp_key_node(int ka, int na, int kb, int nb)
{
	if (ka != kb)
		return ka < kb ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

/* The BY_LLC or BY_PKG group of (key, node), by binary search. */
static const struct group *find_keyed(const struct groups *gs, int lv, int key, int node)
{
	unsigned lo = 0, hi = gs->n[lv];

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		const struct group *g = &gs->g[lv][mid];
		int c = cmp_key_node(g->key, g->node, key, node);

		if (!c)
			return g;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct node_key {
	int key, node;
	unsigned q;
};

static int cmp_node_key(const void *a, const void *b)
{
	const struct node_key *x = a, *y = b;
	int c = cmp_key_node(x->key, x->node, y->key, y->node);

	return c ? c : (x->q > y->q) - (x->q < y->q);
}

/* Level BY_LLC or BY_PKG: the queues sorted by (LLC or package, node), then
 * queue number, from entry *k on; a queue whose CPU has no LLC is in no
 * BY_LLC group. */
static void build_keyed(const struct np_topology *topo, const struct np_dev *t,
			const unsigned *qcpu, unsigned nrx, int lv, struct node_key *keys,
			struct groups *gs, unsigned *k)
{
	unsigned n = 0;

	for (unsigned q = 0; q < nrx; q++) {
		const struct np_cpu *c = &topo->cpus[qcpu[q]];
		int key = lv == BY_LLC ? np_cpu_llc(topo, qcpu[q]) : c->package_id;

		if (!t->rxq[q].rps_err && key >= 0)
			keys[n++] = (struct node_key){ key, c->node, q };
	}
	qsort(keys, n, sizeof(*keys), cmp_node_key);
	for (unsigned i = 0; i < n; i++) {
		struct group *g = gs->n[lv] ? &gs->g[lv][gs->n[lv] - 1] : NULL;

		if (!g || g->key != keys[i].key || g->node != keys[i].node) {
			g = &gs->g[lv][gs->n[lv]++];
			*g = (struct group){ .start = *k, .key = keys[i].key, .node = keys[i].node };
		}
		gs->e[(*k)++] = (struct entry){ 0, keys[i].q };
		g->n++;
	}
}

/* Groups by core and by node are indexed directly; (LLC, node) and
 * (package, node) keys are arbitrary numbers, sorted.  Every heap starts in
 * queue order with load 0, which is a valid heap.  -1: out of memory (no
 * RPS is then planned). */
static int build_groups(const struct np_topology *topo, const struct np_dev *t,
			const unsigned *qcpu, unsigned nrx, struct groups *gs)
{
	static const int levels[] = { BY_CORE, BY_NODE };
	unsigned nc = topo->nr_cores, nn = topo->nr_nodes, k = 0;
	struct node_key *keys;

	memset(gs, 0, sizeof(*gs));
	gs->e = malloc(sizeof(*gs->e) * LEVELS * nrx);
	gs->g[BY_CORE] = calloc(nc + nn + 3 * (size_t)nrx + 3, sizeof(struct group));
	gs->core_g = malloc(sizeof(int) * (nc + nn + 1));
	keys = malloc(sizeof(*keys) * (nrx ? nrx : 1));
	if (!gs->e || !gs->g[BY_CORE] || !gs->core_g || !keys) {
		free(keys);
		return -1;
	}
	gs->g[BY_LLC] = gs->g[BY_CORE] + nc + 1;
	gs->g[BY_PKG] = gs->g[BY_LLC] + nrx + 1;
	gs->g[BY_NODE] = gs->g[BY_PKG] + nrx + 1;
	gs->node_g = gs->core_g + nc;
	/* level 0 and 2: count per key, then place in queue order */
	for (size_t l = 0; l < NP_ARRAY_SIZE(levels); l++) {
		int lv = levels[l];
		unsigned nkeys = lv == BY_CORE ? nc : nn;
		int *idx = lv == BY_CORE ? gs->core_g : gs->node_g;
		struct group *g = gs->g[lv];

		for (unsigned i = 0; i < nkeys; i++)
			idx[i] = -1;
		for (unsigned q = 0; q < nrx; q++) {
			const struct np_cpu *c = &topo->cpus[qcpu[q]];
			unsigned key = (unsigned)(lv == BY_CORE ? c->core : c->node);

			if (t->rxq[q].rps_err)
				continue;
			if (idx[key] < 0) {
				idx[key] = (int)gs->n[lv]++;
				g[idx[key]].n = 0;
			}
			g[idx[key]].n++;
		}
		for (unsigned i = 0; i < gs->n[lv]; i++) {
			g[i].start = k;
			k += g[i].n;
			g[i].n = 0;
		}
		for (unsigned q = 0; q < nrx; q++) {
			const struct np_cpu *c = &topo->cpus[qcpu[q]];
			struct group *gr;

			if (t->rxq[q].rps_err)
				continue;
			gr = &g[idx[(unsigned)(lv == BY_CORE ? c->core : c->node)]];
			gs->e[gr->start + gr->n++] = (struct entry){ 0, q };
		}
	}
	build_keyed(topo, t, qcpu, nrx, BY_LLC, keys, gs, &k);
	build_keyed(topo, t, qcpu, nrx, BY_PKG, keys, gs, &k);
	free(keys);
	return 0;
}

static void free_groups(struct groups *gs)
{
	free(gs->e);
	free(gs->g[BY_CORE]);
	free(gs->core_g);
}

/* Can the groups index every CPU involved (the queues' and the local ones)? */
static bool indexable(const struct np_topology *topo, const struct np_cpumask *local,
		      const unsigned *qcpu, unsigned nrx)
{
	np_cpumask_for_each(cpu, local) {
		const struct np_cpu *c;

		if ((unsigned)cpu >= topo->nr_cpus)
			break;
		c = &topo->cpus[cpu];
		if (c->core < 0 || (unsigned)c->core >= topo->nr_cores || c->node < 0 ||
		    (unsigned)c->node >= topo->nr_nodes)
			return false;
	}
	for (unsigned q = 0; q < nrx; q++) {
		const struct np_cpu *c = &topo->cpus[qcpu[q]];

		if (c->core < 0 || (unsigned)c->core >= topo->nr_cores || c->node < 0 ||
		    (unsigned)c->node >= topo->nr_nodes)
			return false;
	}
	return true;
}

/* The nearest queue by the groups: the CPU's core, (LLC, node), (package,
 * node), node. */
static int nearest_by_groups(struct groups *gs, const struct np_topology *topo, unsigned cpu,
			     const unsigned *load)
{
	const struct np_cpu *c = &topo->cpus[cpu];
	int best = gs->core_g[c->core], llc = np_cpu_llc(topo, cpu);

	if (best >= 0)
		return group_best(gs, &gs->g[BY_CORE][best], load);
	best = llc < 0 ? -1 : group_best(gs, find_keyed(gs, BY_LLC, llc, c->node), load);
	if (best >= 0)
		return best;
	best = group_best(gs, find_keyed(gs, BY_PKG, c->package_id, c->node), load);
	if (best >= 0)
		return best;
	best = gs->node_g[c->node];
	return best >= 0 ? group_best(gs, &gs->g[BY_NODE][best], load) : -1;
}

unsigned np_spread_rps(const struct np_state *st, const struct np_cpu_order *o, unsigned nrx,
		       struct np_plan *plan)
{
	const struct np_topology *topo = &st->topo;
	struct np_dev *t = &plan->target->dev;
	struct np_cpumask irq_cpus;
	unsigned *load = calloc(2 * (size_t)nrx + 1, sizeof(*load)), *qcpu, spread = 0;
	struct groups gs = { 0 };
	bool fast;

	if (!load)
		return 0;	/* no RPS is a valid plan */
	qcpu = load + nrx;
	np_cpumask_zero(&irq_cpus);
	for (unsigned q = 0; q < nrx; q++) {
		qcpu[q] = np_queue_cpu(o, q);
		np_cpumask_set(&irq_cpus, qcpu[q]);
	}
	fast = indexable(topo, &o->local, qcpu, nrx);
	if (fast && build_groups(topo, t, qcpu, nrx, &gs) < 0) {
		free_groups(&gs);
		free(load);
		return 0;
	}
	np_cpumask_for_each(cpu, &o->local) {
		int best;

		if ((unsigned)cpu >= topo->nr_cpus || np_cpumask_test(&irq_cpus, (unsigned)cpu))
			continue;
		if (fast)
			best = nearest_by_groups(&gs, topo, (unsigned)cpu, load);
		else
			best = nearest_by_scan(topo, t, qcpu, nrx, load, (unsigned)cpu);
		if (best < 0)
			continue;
		np_cpumask_set(&t->rxq[best].rps_cpus, (unsigned)cpu);
		load[best]++;
		spread++;
	}
	if (fast)
		free_groups(&gs);
	free(load);
	return spread;
}
