/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plan properties of the mixed policy (np_plan_mixed) on the ice-like and
 * mlx5-like models: classes disjoint in queues and CPUs, the latency class
 * on whole cores, every rule pointing at a context or queue that exists,
 * the main table over the default class only, foreign rules and contexts
 * kept, planning again with what it made owned gives the same target, and
 * the specific error for a driver without ntuple filters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "plan/np_mixed.h"
#include "tap.h"

static const char *srcdir = ".";

static void add_flow(struct np_mixed_opts *o, const char *text)
{
	if (np_flow_parse(text, &o->flows[o->n_flows++], NULL, NULL) < 0) {
		printf("Bail out! flow %s\n", text);
		exit(99);
	}
}

static struct np_plan *plan_for(const struct np_state *st, const struct np_mixed_opts *o,
				struct np_mixed *m, int *ret, struct np_error *err)
{
	struct np_plan *p = NULL;

	if (np_plan_new(&p) < 0 || np_state_dup(st, &p->target) < 0)
		exit(99);
	memset(err, 0, sizeof(*err));
	*ret = np_plan_mixed(st, o, p, m, err);
	return p;
}

static bool in_class(const struct np_mixed_class *k, uint32_t q)
{
	return q >= k->q_first && q < k->q_first + k->n_q;
}

static void properties(const char *name, const struct np_state *st, const struct np_mixed_opts *o)
{
	const struct np_topology *topo = &st->topo;
	struct np_mixed m;
	struct np_error err;
	int r;
	struct np_plan *p = plan_for(st, o, &m, &r, &err);
	const struct np_dev *t = &p->target->dev;
	bool disjoint = true, whole = true, rules_ok = true, irq_ok = true, main_ok = true;
	bool foreign_kept = true, ctx_ok = true, xps_ok = true;

	is_int(r, 0, "%s: planned (%s)", name, err.msg);
	if (r < 0) {
		np_plan_free(p);
		return;
	}
	/* queues: disjoint ranges covering the open queues; CPUs disjoint */
	for (int a = 0; a < NP_CLASS__COUNT; a++)
		for (int b = a + 1; b < NP_CLASS__COUNT; b++) {
			const struct np_mixed_class *x = &m.cls[a], *y = &m.cls[b];
			struct np_cpumask both;

			if (!x->used || !y->used)
				continue;
			if (x->q_first < y->q_first + y->n_q && y->q_first < x->q_first + x->n_q)
				disjoint = false;
			np_cpumask_and(&both, &x->cpus, &y->cpus);
			if (!np_cpumask_empty(&both))
				disjoint = false;
		}
	ok(disjoint, "%s: classes have disjoint queues and CPUs", name);
	/* a latency CPU's SMT siblings carry no other class */
	np_cpumask_for_each(c, &m.cls[NP_CLASS_LATENCY].cpus)
		for (unsigned s = 0; s < topo->nr_cpus; s++)
			if (topo->cpus[s].core == topo->cpus[c].core && topo->cpus[s].online &&
			    !np_cpumask_test(&m.cls[NP_CLASS_LATENCY].cpus, s))
				whole = false;
	ok(whole, "%s: the latency class has whole cores (siblings carry no bulk work)", name);
	/* IRQs of a class's queues on the class's CPUs */
	for (unsigned i = 0; i < t->n_irq; i++)
		for (int c = 0; c < NP_CLASS__COUNT; c++)
			if (m.cls[c].used && t->irq[i].queue >= 0 &&
			    in_class(&m.cls[c], (uint32_t)t->irq[i].queue)) {
				struct np_cpumask out;

				np_cpumask_andnot(&out, &t->irq[i].affinity, &m.cls[c].cpus);
				if (!np_cpumask_empty(&out) || np_cpumask_empty(&t->irq[i].affinity))
					irq_ok = false;
			}
	ok(irq_ok, "%s: every queue's IRQ is on a CPU of its class", name);
	for (unsigned q = 0; q < t->n_txq; q++)
		for (int c = 0; c < NP_CLASS__COUNT; c++)
			if (m.cls[c].used && in_class(&m.cls[c], q)) {
				struct np_cpumask out;

				np_cpumask_andnot(&out, &t->txq[q].xps_cpus, &m.cls[c].cpus);
				if (!np_cpumask_empty(&out))
					xps_ok = false;
				if (c == NP_CLASS_LATENCY && !np_cpumask_test(&t->txq[q].xps_rxqs, q))
					xps_ok = false;
			}
	ok(xps_ok, "%s: XPS per class, xps_rxqs pairs latency queues", name);
	/* the main table: the default class only */
	for (uint32_t i = 0; i < t->rss.indir_size; i++)
		main_ok = main_ok && in_class(&m.cls[m.deflt], t->rss.indir[i]);
	ok(main_ok, "%s: the main RSS table covers only the default class", name);
	/* every rule targets a context that exists, or a queue */
	for (unsigned i = 0; i < t->steer.n_rules; i++) {
		const struct np_rule *rl = &t->steer.rules[i];

		if (rl->fs.flow_type & FLOW_RSS)
			rules_ok = rules_ok && np_steer_ctx(&t->steer, rl->rss_context);
		else
			rules_ok = rules_ok && (rl->fs.ring_cookie < t->n_rxq ||
						rl->fs.ring_cookie == RX_CLS_FLOW_DISC);
	}
	ok(rules_ok, "%s: every rule points at an existing context or queue", name);
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		const struct np_rss_ctx *x = m.cls[c].ctx ? np_steer_ctx(&t->steer, m.cls[c].ctx) : NULL;

		if (m.cls[c].ctx && !x)
			ctx_ok = false;
		for (uint32_t i = 0; x && i < x->n_indir; i++)
			ctx_ok = ctx_ok && in_class(&m.cls[c], x->indir[i]);
	}
	ok(ctx_ok, "%s: each class's context spreads over its queues only", name);
	/* the foreign rules and contexts, unchanged and where they were */
	for (unsigned i = 0; i < st->dev.steer.n_rules; i++) {
		const struct np_rule *f = &st->dev.steer.rules[i];
		const struct np_rule *g = np_steer_rule(&t->steer, f->fs.location);

		foreign_kept = foreign_kept && g && !memcmp(g, f, sizeof(*f));
	}
	for (unsigned i = 0; i < st->dev.steer.n_ctx; i++) {
		const struct np_rss_ctx *f = &st->dev.steer.ctx[i];
		const struct np_rss_ctx *g = np_steer_ctx(&t->steer, f->id);

		foreign_kept = foreign_kept && g && g->n_indir == f->n_indir &&
			       !memcmp(g->indir, f->indir, sizeof(uint32_t) * f->n_indir);
	}
	ok(foreign_kept, "%s: foreign rules and contexts kept as they were", name);
	{
		bool uniq = true;

		for (unsigned i = 0; i < t->steer.n_rules; i++)
			for (unsigned j = i + 1; j < t->steer.n_rules; j++)
				uniq = uniq && t->steer.rules[i].fs.location !=
						       t->steer.rules[j].fs.location;
		ok(uniq, "%s: no two rules share a location", name);
	}

	/* planning again with what it made owned is the same target (set twice) */
	{
		struct np_mixed_opts o2 = *o;
		struct np_state *after = NULL;
		struct np_plan *p2;
		struct np_mixed m2;
		bool same;

		np_state_dup(p->target, &after);
		for (unsigned i = 0; i < t->steer.n_rules; i++)
			if (!np_steer_rule(&st->dev.steer, t->steer.rules[i].fs.location))
				o2.owned_rules[o2.n_owned_rules++] = t->steer.rules[i].fs.location;
		for (int c = 0; c < NP_CLASS__COUNT; c++)
			if (m.cls[c].ctx)
				o2.owned_ctx[o2.n_owned_ctx++] = m.cls[c].ctx;
		p2 = plan_for(after, &o2, &m2, &r, &err);
		same = !r && p2->target->dev.steer.n_rules == t->steer.n_rules &&
		       p2->target->dev.steer.n_ctx == t->steer.n_ctx;
		for (unsigned i = 0; same && i < t->steer.n_rules; i++) {
			const struct np_rule *g = np_steer_rule(&p2->target->dev.steer,
								t->steer.rules[i].fs.location);

			same = g && !memcmp(g, &t->steer.rules[i], sizeof(*g));
		}
		for (unsigned i = 0; same && i < t->rss.indir_size; i++)
			same = p2->target->dev.rss.indir[i] == t->rss.indir[i];
		ok(same, "%s: planned again from its own result (owned ids), the same target", name);
		np_plan_free(p2);
		np_state_free(after);
	}
	np_plan_free(p);
}

static void ice(void)
{
	struct np_state *st = model_state("ice-mixed", "ens801f0");
	struct np_mixed_opts o = { .deflt = NP_CLASS_THROUGHPUT };
	struct np_mixed m;
	struct np_error err;
	struct np_plan *p;
	int r;

	add_flow(&o, "latency:tcp:6379");
	add_flow(&o, "throughput:tcp:5201");
	properties("ice", st, &o);
	p = plan_for(st, &o, &m, &r, &err);
	is_int(m.cls[NP_CLASS_LATENCY].ctx, 0, "ice: no contexts: latency rules go to queues");
	is_int(m.cls[NP_CLASS_LATENCY].n_q + m.cls[NP_CLASS_THROUGHPUT].n_q, 16,
	       "ice: the 16 queues split between two classes");
	is_int(m.cls[NP_CLASS_LATENCY].n_q, 5, "ice: latency weight 1 of 3: 5 queues of 16");
	is_int(m.cls[NP_CLASS_LATENCY].n_rules, 2, "ice: tcp:6379 is two rules (IPv4, IPv6)");
	is_int(p->target->dev.steer.rules[1].fs.location, 127,
	       "ice: our first rule at the highest free location");
	np_plan_free(p);

	/* an ETHER_FLOW the driver cannot match: an error naming the flow */
	o.n_flows = 0;
	add_flow(&o, "latency:vlan=100");
	p = plan_for(st, &o, &m, &r, &err);
	is_int(r, -EINVAL, "ice: a vlan flow is refused (ice_ethtool_fdir.c)");
	ok(strstr(err.msg, "ether:vlan=100") != NULL, "ice: ... naming it (%s)", err.msg);
	np_plan_free(p);

	/* a flow with exactly the foreign VXLAN rule's match is refused */
	o.n_flows = 0;
	add_flow(&o, "latency:udp4:4789");
	p = plan_for(st, &o, &m, &r, &err);
	ok(r == -EEXIST && strstr(err.msg, "location 0 has the same match"),
	   "ice: the foreign rule at 0's very match is an error: %s", err.msg);
	np_plan_free(p);
	/* one on other fields of udp4 is one ice cannot hold beside it (one
	 * input set per flow type): an error naming the rule */
	o.n_flows = 0;
	add_flow(&o, "latency:udp4:src-port=5000");
	p = plan_for(st, &o, &m, &r, &err);
	ok(r == -EINVAL && strstr(err.msg, "other fields than the foreign rule at location 0"),
	   "ice: a udp4 flow on other fields than the foreign udp4 rule is an error: %s", err.msg);
	np_plan_free(p);
	/* on a driver without that rule, overlapping it is a warning */
	snprintf(st->dev.driver, sizeof(st->dev.driver), "unknown0");
	p = plan_for(st, &o, &m, &r, &err);
	{
		bool noted = false;

		for (size_t i = 0; i < p->n_notes; i++)
			noted |= strstr(p->notes[i].text, "conflict") &&
				 strstr(p->notes[i].text, "location 0") && p->notes[i].warning;
		ok(!r && noted, "an overlap with the foreign rule at 0 is a warning");
	}
	np_plan_free(p);

	/* e1000e: the specific error, nothing planned */
	snprintf(st->dev.driver, sizeof(st->dev.driver), "e1000e");
	st->dev.steer.err = -EOPNOTSUPP;
	p = plan_for(st, &o, &m, &r, &err);
	is_int(r, -EOPNOTSUPP, "e1000e: mixed refused");
	is_str(err.msg, "mixed needs ntuple filters: driver e1000e has none",
	       "e1000e: the specific error");
	np_plan_free(p);
	np_state_free(st);
}

static void mlx5(void)
{
	struct np_state *st = model_state("mlx5-mixed", "ens1f0np0");
	struct np_mixed_opts o = { .deflt = NP_CLASS_THROUGHPUT };
	struct np_mixed m;
	struct np_error err;
	struct np_plan *p;
	int r;

	add_flow(&o, "latency:tcp:6379");
	add_flow(&o, "cpu:udp4:53");
	properties("mlx5", st, &o);
	p = plan_for(st, &o, &m, &r, &err);
	is_int(m.cls[NP_CLASS_LATENCY].ctx, 2, "mlx5: latency gets context 2 (1 is foreign)");
	is_int(m.cls[NP_CLASS_CPU].ctx, 3, "mlx5: cpu gets context 3");
	is_int(m.cls[NP_CLASS_THROUGHPUT].ctx, 0, "mlx5: the default class uses the main table");
	{
		struct np_cpumask off;

		np_cpumask_andnot(&off, &m.cls[NP_CLASS_LATENCY].cpus, &st->topo.node_cpus[1]);
		ok(np_cpumask_empty(&off), "mlx5: latency CPUs on the NIC's node 1");
	}
	{
		const struct np_feature *f = np_features_find(&p->target->dev.features,
							      "rx-ntuple-filter");

		ok(f && f->active, "mlx5: rx-ntuple-filter planned on");
	}
	np_plan_free(p);

	o.weight[NP_CLASS_LATENCY] = 2;
	p = plan_for(st, &o, &m, &r, &err);
	is_int(m.cls[NP_CLASS_LATENCY].n_q, 7, "mlx5: weights 2:2:1 over 16 queues: latency 7 (largest remainder first)");
	np_plan_free(p);
	{
		struct np_mixed_opts w = { 0 };

		is_int(np_mixed_weight_parse("throughput=3", &w, &err), 0, "weight parses");
		is_int(np_mixed_weight(&w, NP_CLASS_THROUGHPUT), 3, "... into the class");
		is_int(np_mixed_weight(&w, NP_CLASS_LATENCY), 1, "default latency weight 1");
		is_int(np_mixed_weight_parse("bulk=3", &w, &err), -EINVAL, "unknown class refused");
		is_int(np_mixed_weight_parse("cpu=0", &w, &err), -EINVAL, "weight 0 refused");
	}
	np_state_free(st);
}

/* Run every step of a diff from `from` to `to` through the knobs on the
 * sim backend; the device read back. */
static struct np_state *converge(struct np_backend *be, const struct np_state *from,
				 const struct np_state *to, size_t *ret_steps, int *ret)
{
	struct np_plan *p = NULL;
	struct np_state *now = calloc(1, sizeof(*now));
	struct np_error err = { 0 };

	*ret = 0;
	if (np_plan_new(&p) < 0 || np_state_dup(to, &p->target) < 0 || np_plan_diff(p, from) < 0)
		exit(99);
	*ret_steps = p->n_steps;
	for (size_t i = 0; i < p->n_steps && !*ret; i++) {
		struct np_state *cur = calloc(1, sizeof(*cur));

		be->ops->discover(be, from->dev.ifname, cur, &err);
		*ret = p->steps[i].knob->apply(be, cur, p->target, &p->steps[i], &err);
		if (*ret)
			printf("# step %zu (%s): %s\n", i, p->steps[i].knob->name, err.msg);
		np_state_free(cur);
	}
	be->ops->discover(be, from->dev.ifname, now, &err);
	np_plan_free(p);
	return now;
}

static bool same_steer(const struct np_steer *a, const struct np_steer *b)
{
	if (a->n_rules != b->n_rules || a->n_ctx != b->n_ctx)
		return false;
	for (unsigned i = 0; i < a->n_rules; i++) {
		const struct np_rule *r = np_steer_rule(b, a->rules[i].fs.location);

		if (!r || memcmp(&r->fs, &a->rules[i].fs, sizeof(r->fs)) ||
		    r->rss_context != a->rules[i].rss_context)
			return false;
	}
	for (unsigned i = 0; i < a->n_ctx; i++) {
		const struct np_rss_ctx *c = np_steer_ctx(b, a->ctx[i].id);

		if (!c || c->n_indir != a->ctx[i].n_indir ||
		    memcmp(c->indir, a->ctx[i].indir, sizeof(uint32_t) * c->n_indir))
			return false;
	}
	return true;
}

static void apply_and_back(const char *model, const char *ifname)
{
	struct np_ctx *ctx = NULL;
	struct np_backend *be = NULL;
	struct np_error err = { 0 };
	struct np_mixed_opts o = { .deflt = NP_CLASS_THROUGHPUT };
	struct np_state *st, *now, *back;
	char path[1200], tmp[] = "/tmp/np-mixed-XXXXXX", copy[1300], cmd[2600];
	struct np_plan *p;
	struct np_mixed m;
	size_t steps;
	int r;

	snprintf(path, sizeof(path), "%s/tests/fixtures/models/%s.json", srcdir, model);
	if (!mkdtemp(tmp))
		exit(99);
	snprintf(copy, sizeof(copy), "%s/m.json", tmp);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", path, copy);
	if (system(cmd) != 0 || np_ctx_new(&ctx, &err) < 0 ||
	    np_ctx_set_state_dir(ctx, tmp, &err) < 0 || np_ctx_set_model(ctx, copy, &err) < 0 ||
	    np_ctx_backend(ctx, &be, &err) < 0)
		exit(99);
	st = calloc(1, sizeof(*st));
	be->ops->discover(be, ifname, st, &err);
	add_flow(&o, "latency:tcp:6379");
	add_flow(&o, "cpu:udp4:53");
	p = plan_for(st, &o, &m, &r, &err);
	now = converge(be, st, p->target, &steps, &r);
	is_int(r, 0, "%s: the steering steps apply on the simulated NIC", model);
	ok(steps > 0 && same_steer(&p->target->dev.steer, &now->dev.steer),
	   "%s: the device holds the planned rules and contexts (%zu steps)", model, steps);
	np_state_free(converge(be, now, p->target, &steps, &r));
	is_int(steps, 0, "%s: planned again from there: nothing to do", model);
	back = converge(be, now, st, &steps, &r);
	is_int(r, 0, "%s: back to the state before", model);
	ok(same_steer(&st->dev.steer, &back->dev.steer),
	   "%s: rollback removed what it made; the foreign rule and context survive", model);
	np_state_free(back);
	np_state_free(now);
	np_plan_free(p);
	np_state_free(st);
	np_ctx_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
}

int main(void)
{
	if (getenv("NP_SRCDIR"))
		srcdir = getenv("NP_SRCDIR");
	ice();
	mlx5();
	apply_and_back("ice-mixed", "ens801f0");
	apply_and_back("mlx5-mixed", "ens1f0np0");
	return tap_done();
}
