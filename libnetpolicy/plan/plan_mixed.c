/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mixed policy's classes (np_mixed.h).  How the plan is made, and why:
 *
 * - Queues: the open channels are split into one contiguous range per used
 *   class (a class with flows, and the default class) by weight, latency
 *   first, each at least one queue: ADQ's "queue groups" (one traffic class
 *   per range of queue pairs).
 * - CPUs: whole physical cores, local node first (np_cpu_order), split by
 *   the same weights; a class gets every thread of its cores, so a latency
 *   core's SMT sibling carries no bulk work whenever there are at least as
 *   many cores as classes.  Each queue's IRQ goes to the first thread of one
 *   of its class's cores (scaling.rst: "the IRQ of the queue on the CPU
 *   that processes its packets").
 * - XPS per class: a class's CPUs send on its own queues; the latency class
 *   also gets xps_rxqs (tx-N on rx-N), as ADQ does, so a socket transmits on
 *   the queue pair it receives on (scaling.rst, "XPS using receive queues").
 * - RSS: the main indirection table spreads over the default class's
 *   queues only (unclassified traffic); each other class gets an RSS
 *   context over its queues where the driver has contexts, and its flows'
 *   ntuple rules use it (FLOW_RSS, offset 0).  Without contexts a rule
 *   names one queue of its class (round robin over the class's queues).
 * - Rule locations: RX_CLS_LOC_ANY only where the driver places rules
 *   itself (RX_CLS_LOC_SPECIAL); elsewhere the highest free location, as
 *   ethtool(8) does, so that rules already there keep precedence.
 * - Foreign rules and contexts (not in opts' owned lists) stay as they are;
 *   a flow that overlaps a foreign rule is a warning, one with the same
 *   match an error (conflicts()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "plan/np_mixed.h"
#include "plan/np_policy.h"

/* Split n items over the used classes by weight, each at least one (n is
 * at least the number of used classes); largest remainders get the rest. */
static void split(unsigned n, const struct np_mixed *m, unsigned *out)
{
	unsigned wsum = 0, given = 0, rem[NP_CLASS__COUNT] = { 0 };

	for (int c = 0; c < NP_CLASS__COUNT; c++)
		wsum += m->cls[c].used ? m->cls[c].weight : 0;
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		out[c] = 0;
		if (!m->cls[c].used)
			continue;
		out[c] = (unsigned)((uint64_t)n * m->cls[c].weight / wsum);
		rem[c] = (unsigned)((uint64_t)n * m->cls[c].weight % wsum);
		if (!out[c])
			out[c] = 1, rem[c] = 0;
		given += out[c];
	}
	while (given > n) {	/* the minimum of one took too much: take from the largest */
		int big = -1;

		for (int c = 0; c < NP_CLASS__COUNT; c++)
			if (out[c] > 1 && (big < 0 || out[c] > out[big]))
				big = c;
		out[big]--;
		given--;
	}
	while (given < n) {
		int best = -1;

		for (int c = 0; c < NP_CLASS__COUNT; c++)
			if (m->cls[c].used && (best < 0 || rem[c] > rem[best]))
				best = c;
		out[best]++;
		rem[best] = 0;
		given++;
	}
}

static int cmp_cpu(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* The eligible CPUs of each core as lists: head[core], then next[cpu], -1
 * ends.  Scanning every eligible CPU for each core was cores x CPUs, 9 ms
 * at 1024 CPUs.  One allocation, head first; NULL when out of memory. */
static int *core_lists(const struct np_topology *topo, const struct np_cpumask *eligible,
		       int **next)
{
	int *head = malloc(sizeof(int) * ((size_t)topo->nr_cores + topo->nr_cpus + 1));

	if (!head)
		return NULL;
	*next = head + topo->nr_cores;
	for (unsigned i = 0; i < topo->nr_cores; i++)
		head[i] = -1;
	np_cpumask_for_each(cpu, eligible) {
		int core;

		if ((unsigned)cpu >= topo->nr_cpus)
			break;
		core = topo->cpus[cpu].core;
		if (core < 0 || (unsigned)core >= topo->nr_cores)
			continue;
		(*next)[cpu] = head[core];
		head[core] = cpu;
	}
	return head;
}

/* The class's CPUs of core (those on the lists) into m. */
static void add_core(const struct np_mixed_class *k, const int *head, const int *next, int core,
		     struct np_cpumask *m)
{
	for (int x = head[core]; x >= 0; x = next[x])
		if (np_cpumask_test(&k->cpus, (unsigned)x))
			np_cpumask_set(m, (unsigned)x);
}

/* Class k takes n cores from core_cpu[first...] (wrapping over n_cores):
 * their CPUs, its queue j's IRQ on its (j mod n)-th core and that core's
 * CPUs sending on queue j; cores without a queue of their own send on the
 * class's queues. */
static void place_class(const struct np_topology *topo, struct np_dev *t,
			struct np_mixed_class *k, const unsigned *core_cpu, unsigned first,
			unsigned n, unsigned n_cores, const int *head, const int *next)
{
	np_cpumask_zero(&k->cpus);
	for (unsigned i = 0; i < n; i++) {
		int core = topo->cpus[core_cpu[(first + i) % n_cores]].core;

		for (int x = head[core]; x >= 0; x = next[x])
			np_cpumask_set(&k->cpus, (unsigned)x);
	}
	for (unsigned j = 0; j < k->n_q; j++) {
		unsigned cpu = core_cpu[(first + j % n) % n_cores], q = k->q_first + j;

		for (unsigned i = 0; i < t->n_irq; i++) {
			if (t->irq[i].queue != (int)q || t->irq[i].err)
				continue;
			np_cpumask_zero(&t->irq[i].affinity);
			np_cpumask_set(&t->irq[i].affinity, cpu);
		}
		if (q < t->n_txq && !t->txq[q].xps_err)
			add_core(k, head, next, topo->cpus[cpu].core, &t->txq[q].xps_cpus);
	}
	for (unsigned i = k->n_q; i < n; i++) {
		unsigned q = k->q_first + i % k->n_q;

		if (q < t->n_txq && !t->txq[q].xps_err)
			add_core(k, head, next, topo->cpus[core_cpu[(first + i) % n_cores]].core,
				 &t->txq[q].xps_cpus);
	}
}

/* CPUs and IRQs: whole cores per class, local first. */
static int plan_cpus(const struct np_state *st, const struct np_mixed_opts *opts,
		     struct np_mixed *m, struct np_plan *plan)
{
	const struct np_topology *topo = &st->topo;
	struct np_cpumask eligible, local;
	struct np_cpu_order o;
	unsigned ncores[NP_CLASS__COUNT], first = 0, nused = 0;
	unsigned *core_cpu;
	int *core_head, *cpu_next = NULL, r;

	eligible = opts->eligible;
	if (np_cpumask_empty(&eligible))
		np_cpumask_andnot(&eligible, &topo->online, &topo->isolated);
	if (np_cpumask_empty(&eligible))
		eligible = topo->online;
	np_cpumask_and(&local, &st->dev.local_cpus, &eligible);
	r = np_cpu_order(topo, &eligible, &local, &o);
	if (r < 0)
		return r;
	if (!o.n_cores) {
		np_cpu_order_clear(&o);
		return -EINVAL;
	}
	for (int c = 0; c < NP_CLASS__COUNT; c++)
		nused += m->cls[c].used;
	core_cpu = calloc(o.n_cores ? o.n_cores : 1, sizeof(*core_cpu));
	core_head = core_lists(topo, &eligible, &cpu_next);
	if (!core_cpu || !core_head) {
		free(core_cpu);
		free(core_head);
		np_cpu_order_clear(&o);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < o.n_cores; i++)
		core_cpu[i] = o.order[i];
	/* A class's cores side by side in CPU id order, local ones first, not
	 * round robin over the LLCs as np_cpu_order gives them for one policy's
	 * queues: a class is better kept in as few LLCs as it needs, where the
	 * other classes' bulk work does not evict its lines. */
	qsort(core_cpu, o.n_local_cores, sizeof(*core_cpu), cmp_cpu);
	qsort(core_cpu + o.n_local_cores, o.n_cores - o.n_local_cores, sizeof(*core_cpu), cmp_cpu);
	if (o.n_cores >= nused) {
		split(o.n_cores, m, ncores);
	} else {
		for (int c = 0; c < NP_CLASS__COUNT; c++)
			ncores[c] = m->cls[c].used ? 1 : 0;
		np_plan_note(plan, "mixed", "%u cores for %u classes: classes share cores "
			     "(latency flows may wait behind bulk work)", o.n_cores, nused);
	}
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		if (!m->cls[c].used)
			continue;
		place_class(topo, &plan->target->dev, &m->cls[c], core_cpu, first, ncores[c],
			    o.n_cores, core_head, cpu_next);
		first += ncores[c];
	}
	free(core_cpu);
	free(core_head);
	np_cpu_order_clear(&o);
	return 0;
}

static int steer_add_rule(struct np_steer *s, const struct np_rule *r)
{
	struct np_rule *v = realloc(s->rules, sizeof(*v) * (s->n_rules + 1));

	if (!v)
		return -ENOMEM;
	s->rules = v;
	s->rules[s->n_rules++] = *r;
	return 0;
}

static int steer_add_ctx(struct np_steer *s, uint32_t id, const struct np_mixed_class *k,
			 uint32_t n_indir)
{
	struct np_rss_ctx *v = realloc(s->ctx, sizeof(*v) * (s->n_ctx + 1));
	uint32_t *t;

	if (!v)
		return -ENOMEM;
	s->ctx = v;
	t = malloc(sizeof(*t) * n_indir);
	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; i < n_indir; i++)
		t[i] = k->q_first + i % k->n_q;
	s->ctx[s->n_ctx++] = (struct np_rss_ctx){ .id = id, .n_indir = n_indir, .indir = t };
	return 0;
}

/* The target's steering without what netpolicy made before. */
static void drop_owned(struct np_steer *s, const struct np_mixed_opts *o)
{
	struct np_owned own = { .n_ctx = o->n_owned_ctx, .n_rules = o->n_owned_rules };

	memcpy(own.ctx, o->owned_ctx, sizeof(own.ctx[0]) * o->n_owned_ctx);
	memcpy(own.rules, o->owned_rules, sizeof(own.rules[0]) * o->n_owned_rules);
	np_steer_drop_owned(s, &own);
}

static int free_location(const struct np_steer *s, uint32_t *ret)
{
	for (uint32_t loc = s->size; loc-- > 0;)
		if (!np_steer_rule(s, loc)) {
			*ret = loc;
			return 0;
		}
	return -ENOSPC;
}

/* One of netpolicy's rules on the device with r's content: r is in place
 * already.  The target's first n_foreign rules are the device's without
 * netpolicy's (the planner dropped those the record names), so netpolicy's
 * are the device's rules at a location none of those has. */
static bool in_place(const struct np_state *st, const struct np_steer *foreign,
		     unsigned n_foreign, const struct np_rule *r)
{
	const struct np_steer *d = &st->dev.steer;

	for (unsigned i = 0; i < d->n_rules; i++) {
		bool theirs = false;

		for (unsigned k = 0; k < n_foreign && !theirs; k++)
			theirs = foreign->rules[k].fs.location == d->rules[i].fs.location;
		if (!theirs && np_rule_same_content(&d->rules[i], r))
			return true;
	}
	return false;
}

/*
 * A foreign rule whose match overlaps one of ours is a warning (set says it
 * on stderr, plan and --dry-run list it): some of the flow's packets go
 * where its owner said, which may be deliberate, and the rest of the plan
 * stands.  One with exactly our match is an error, nothing changed, unless
 * ours is in place already (check and a set again keep working): every
 * packet of the flow is the foreign rule's, and inserting ours is harmful
 * on every driver here - sfc replaces a filter of equal match
 * (efx_ethtool_set_class_rule() calls efx_filter_insert_filter() with
 * replace_equal true), so netpolicy would destroy a rule it does not own;
 * ice refuses a duplicate (ice_ethtool_fdir.c ice_add_fdir_ethtool():
 * ice_fdir_is_dup_fltr(), -EINVAL), a rollback.  What mlx5 makes of two
 * equal matches (en_fs_ethtool.c) was not checked here; the error does not
 * rest on it: the packets are the foreign rule's owner's to steer.
 */
static int conflicts(struct np_plan *plan, const struct np_state *st,
		     const struct np_steer *foreign,
		     unsigned n_foreign, const struct np_rule *r, const char *flow,
		     struct np_error *err)
{
	for (unsigned i = 0; i < n_foreign; i++) {
		const struct np_rule *f = &foreign->rules[i];
		char text[NP_FLOW_TEXT_MAX], order[200];

		if (!np_flow_overlaps(&f->fs, &r->fs))
			continue;
		if (np_flow_rule_format(&f->fs, text, sizeof(text)) < 0)
			snprintf(text, sizeof(text), "flow type %u", f->fs.flow_type);
		if (np_flow_same_match(&f->fs, &r->fs) && !in_place(st, foreign, n_foreign, r))
			return np_err(err, -EEXIST, NP_PHASE_PLAN, "ntuple", "flow %s: the foreign "
				      "rule at location %u has the same match (%s): its packets are "
				      "that rule's, and netpolicy does not touch it; delete it "
				      "(ethtool -N %s delete %u) or leave this flow out", flow,
				      f->fs.location, text, st->dev.ifname, f->fs.location);
		np_driver_rule_precedence(np_driver_lookup(st->dev.driver), st->dev.driver,
					  &f->fs, &r->fs, order, sizeof(order));
		if (np_plan_warn(plan, "ntuple", "conflict: flow %s overlaps the foreign rule at "
				 "location %u (%s), %s; netpolicy leaves it as it is", flow,
				 f->fs.location, text, order) < 0)
			return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	}
	return 0;
}

/* Can the driver hold the rule beside the foreign rules kept and the rules
 * planned before it?  Named by the one it cannot. */
static int held_together(const struct np_state *st, const struct np_steer *s,
			 unsigned n_foreign, const struct np_rule *r, const char *flow,
			 struct np_error *err)
{
	const struct np_driver *drv = np_driver_lookup(st->dev.driver);
	char why[200], text[NP_FLOW_TEXT_MAX];

	for (unsigned i = 0; i < s->n_rules; i++) {
		const struct ethtool_rx_flow_spec *o = &s->rules[i].fs;

		if (np_driver_rules_together(drv, o, &r->fs, why, sizeof(why)) == 0)
			continue;
		if (np_flow_rule_format(o, text, sizeof(text)) < 0)
			snprintf(text, sizeof(text), "flow type %u", o->flow_type);
		if (i < n_foreign)
			return np_err(err, -EINVAL, NP_PHASE_PLAN, "ntuple", "flow %s matches other "
				      "fields than the foreign rule at location %u (%s): %s; leave "
				      "this flow out or match the same fields", flow, o->location,
				      text, why);
		return np_err(err, -EINVAL, NP_PHASE_PLAN, "ntuple", "flows %s and %s match "
			      "different fields: %s; give both the same fields", text, flow, why);
	}
	return 0;
}

/* One RSS context per class other than the default one, lowest free ids. */
static int class_contexts(const struct np_state *st, struct np_steer *s, struct np_mixed *m,
			  uint32_t indir_size, struct np_error *err)
{
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		struct np_mixed_class *k = &m->cls[c];
		uint32_t id = 1;

		if (!k->used || (enum np_class)c == m->deflt)
			continue;
		while (id < s->ctx_max && np_steer_ctx(s, id))
			id++;
		if (id >= s->ctx_max)
			return np_err(err, -ENOSPC, NP_PHASE_PLAN, "rss-context",
				      "no free RSS context for class %s (driver %s: ids below %u)",
				      np_class_name((enum np_class)c), st->dev.driver, s->ctx_max);
		if (steer_add_ctx(s, id, k, indir_size) < 0)
			return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
		k->ctx = id;
	}
	return 0;
}

/* A class's rule into the table: what the driver takes (its flow types,
 * fields, masks, one input set per type), a free location, no conflict
 * with a rule already there, and the class's own count. */
static int place_rule(const struct np_state *st, struct np_plan *plan, unsigned n_foreign,
		      enum np_class cls, struct np_mixed_class *k, struct np_rule *rule,
		      const char *text, struct np_error *err)
{
	const struct np_driver *drv = np_driver_lookup(st->dev.driver);
	struct np_steer *s = &plan->target->dev.steer;
	char why[200];
	int r;

	r = np_driver_rule_check(drv, &rule->fs, why, sizeof(why));
	if (r < 0)
		return np_err(err, r, NP_PHASE_PLAN, "ntuple", "flow %s: %s", text, why);
	r = held_together(st, s, n_foreign, rule, text, err);
	if (r < 0)
		return r;
	if (s->special)
		rule->fs.location = RX_CLS_LOC_ANY;
	else if (free_location(s, &rule->fs.location) < 0)
		return np_err(err, -ENOSPC, NP_PHASE_PLAN, "ntuple",
			      "flow %s: the %u-rule ntuple table is full", text, s->size);
	r = conflicts(plan, st, s, n_foreign, rule, text, err);
	if (r < 0)
		return r;
	if (k->n_rules >= NP_MIXED_OWNED_MAX)
		return np_err(err, -ENOSPC, NP_PHASE_PLAN, "ntuple", "class %s: more than %d rules",
			      np_class_name(cls), NP_MIXED_OWNED_MAX);
	if (steer_add_rule(s, rule) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	k->rule[k->n_rules++] = rule->fs.location;
	return 0;
}

static int plan_steering(const struct np_state *st, const struct np_mixed_opts *o,
			 struct np_mixed *m, struct np_plan *plan, struct np_error *err)
{
	struct np_dev *t = &plan->target->dev;
	struct np_steer *s = &t->steer;
	bool contexts = !s->ctx_err && s->ctx_max > 1 && t->rss.indir_size;
	unsigned n_foreign, rr[NP_CLASS__COUNT] = { 0 };
	bool noted_queue = false;
	int r;

	drop_owned(s, o);
	n_foreign = s->n_rules;
	r = contexts ? class_contexts(st, s, m, t->rss.indir_size, err) : 0;
	if (r < 0)
		return r;
	if (!contexts)
		np_plan_note(plan, "rss-context", "%s %s%s: each ntuple rule steers to one "
			     "queue of its class (round robin), without spreading",
			     np_driver_lookup(st->dev.driver) ? "driver" : "the device reports no "
			     "RSS contexts (driver", st->dev.driver,
			     np_driver_lookup(st->dev.driver) ? " has no RSS contexts" :
			     ", not in the driver table)");
	for (unsigned f = 0; f < o->n_flows; f++) {
		const struct np_flow *fl = &o->flows[f];
		struct np_mixed_class *k = &m->cls[fl->cls];

		if (fl->cls == m->deflt) {
			np_plan_note(plan, "ntuple", "a %s flow is in the default class: the main RSS "
				     "table already sends it there, no rule", np_class_name(fl->cls));
			continue;
		}
		for (unsigned i = 0; i < fl->n_rules; i++) {
			struct np_rule rule = { .fs = fl->rule[i] };
			char text[NP_FLOW_TEXT_MAX];

			if (np_flow_rule_format(&rule.fs, text, sizeof(text)) < 0)
				snprintf(text, sizeof(text), "#%u", f + 1);
			if (k->ctx) {
				rule.fs.flow_type |= FLOW_RSS;
				rule.fs.ring_cookie = 0;
				rule.rss_context = k->ctx;
			} else {
				rule.fs.ring_cookie = k->q_first + rr[fl->cls]++ % k->n_q;
				if (k->n_q > 1 && !noted_queue)
					np_plan_note(plan, "ntuple", "a rule sends a flow to one queue: "
						     "flows of one rule do not spread over the class");
				noted_queue = true;
			}
			r = place_rule(st, plan, n_foreign, fl->cls, k, &rule, text, err);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int ntuple_feature(const struct np_state *st, struct np_plan *plan, struct np_error *err)
{
	struct np_features *f = &plan->target->dev.features;

	for (unsigned i = 0; !f->err && i < f->n; i++) {
		if (strcmp(f->v[i].name, "rx-ntuple-filter"))
			continue;
		if (f->v[i].fixed && !f->v[i].active)
			return np_err(err, -EOPNOTSUPP, NP_PHASE_PLAN, "features",
				      "mixed needs ntuple filters: rx-ntuple-filter is off and fixed "
				      "on %s", st->dev.ifname);
		f->v[i].wanted = f->v[i].active = true;
	}
	return 0;
}

int np_plan_mixed(const struct np_state *st, const struct np_mixed_opts *opts,
		  struct np_plan *plan, struct np_mixed *ret, struct np_error *err)
{
	const struct np_driver *drv = np_driver_lookup(st->dev.driver);
	struct np_dev *t = &plan->target->dev;
	unsigned nused = 0, nq[NP_CLASS__COUNT], first = 0;
	struct np_mixed m;
	int r;

	if (st->dev.steer.err && !drv)
		return np_err(err, -EOPNOTSUPP, NP_PHASE_PLAN, "ntuple",
			      "mixed needs ntuple filters: reading them answered \"%s\" (driver "
			      "%s, not in the driver table)", strerror(-st->dev.steer.err),
			      st->dev.driver[0] ? st->dev.driver : "(unknown)");
	if (st->dev.steer.err || (drv && drv->no_ntuple))
		return np_err(err, -EOPNOTSUPP, NP_PHASE_PLAN, "ntuple",
			      "mixed needs ntuple filters: driver %s has none",
			      st->dev.driver[0] ? st->dev.driver : "(unknown)");
	memset(&m, 0, sizeof(m));
	m.deflt = opts->deflt;
	for (int c = 0; c < NP_CLASS__COUNT; c++)
		m.cls[c].weight = np_mixed_weight(opts, (enum np_class)c);
	m.cls[m.deflt].used = true;
	for (unsigned f = 0; f < opts->n_flows; f++)
		m.cls[opts->flows[f].cls].used = true;
	for (int c = 0; c < NP_CLASS__COUNT; c++)
		nused += m.cls[c].used;
	m.nq = t->n_rxq < t->n_txq || !t->n_txq ? t->n_rxq : t->n_txq;
	if (m.nq < nused)
		return np_err(err, -EINVAL, NP_PHASE_PLAN, "channels", "mixed needs a queue per "
			      "class: %u classes, %u queues on %s", nused, m.nq, st->dev.ifname);
	split(m.nq, &m, nq);
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		if (!m.cls[c].used)
			continue;
		m.cls[c].q_first = first;
		m.cls[c].n_q = nq[c];
		first += nq[c];
	}
	/* XPS and xps_rxqs start empty: every queue is given to its class */
	for (unsigned q = 0; q < t->n_txq; q++) {
		if (!t->txq[q].xps_err)
			np_cpumask_zero(&t->txq[q].xps_cpus);
		if (!t->txq[q].xps_rxqs_err) {
			np_cpumask_zero(&t->txq[q].xps_rxqs);
			if (m.cls[NP_CLASS_LATENCY].used && q >= m.cls[NP_CLASS_LATENCY].q_first &&
			    q < m.cls[NP_CLASS_LATENCY].q_first + m.cls[NP_CLASS_LATENCY].n_q)
				np_cpumask_set(&t->txq[q].xps_rxqs, q);
		}
	}
	r = plan_cpus(st, opts, &m, plan);
	if (r < 0)
		return np_err(err, r, NP_PHASE_PLAN, NULL, r == -ENOMEM ? "out of memory" :
			      "no CPU to run the classes on");
	/* the main table: the default class only */
	if (!t->rss.err && t->rss.indir_size) {
		const struct np_mixed_class *d = &m.cls[m.deflt];

		for (uint32_t i = 0; i < t->rss.indir_size; i++)
			t->rss.indir[i] = d->q_first + i % d->n_q;
	} else {
		np_plan_note(plan, "rss", "no RSS table: unclassified traffic is not kept off the "
			     "other classes' queues");
	}
	if ((r = ntuple_feature(st, plan, err)) < 0 ||
	    (r = plan_steering(st, opts, &m, plan, err)) < 0)
		return r;
	r = np_plan_mixed_coalesce(st, &m, plan);
	if (r < 0)
		return np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
	if (ret)
		*ret = m;
	return 0;
}
