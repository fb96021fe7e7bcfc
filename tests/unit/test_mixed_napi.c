/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mixed policy's NAPI per class and its plan under --cpus, through the
 * whole planner (np_plan_compute_base) on the ice-like and mlx5-like models:
 * - per-NAPI config (6.13): each NAPI gets its class's policy's deferral
 *   (latency 0/0, cpu 2/200 us, throughput the pristine values), a NAPI of
 *   no class's queue the default class's; planning again changes nothing;
 * - no per-NAPI config: one device-wide value, the default class's, noted;
 * - threaded NAPI: each kthread inside its class's CPUs, with its IRQ;
 * - --cpus: classes disjoint and inside the list, every IRQ, XPS and RPS
 *   mask and every kthread inside it, every rule at a context or queue that
 *   exists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "plan/np_mixed.h"
#include "plan_check.h"

#define PERNAPI (NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH)
/* pristine deferral no policy uses, so a value says where it came from */
#define OWN_DEFER 7
#define OWN_GRO 12345

/* One NAPI per rx queue (id 200 + q, the queue's IRQ, rx-q and tx-q), one
 * NAPI serving no queue (id 999), each with `has`, the device's own
 * deferral, and threaded: a kthread each, on every CPU. */
static void add_napis(struct np_state *st, uint32_t has)
{
	struct np_dev *d = &st->dev;
	unsigned n = d->n_rxq + 1;

	d->napis.v = calloc(n, sizeof(*d->napis.v));
	d->napi_thread = calloc(n, sizeof(*d->napi_thread));
	if (!d->napis.v || !d->napi_thread)
		exit(99);
	d->napis.err = 0;
	d->napis.n = d->n_napi_thread = n;
	d->napi.err = 0;
	d->napi.defer_hard_irqs = OWN_DEFER;
	d->napi.gro_flush_timeout = OWN_GRO;
	for (unsigned i = 0; i < n; i++) {
		struct np_napi_inst *v = &d->napis.v[i];
		bool q = i < d->n_rxq;

		*v = (struct np_napi_inst){ .id = q ? 200 + i : 999, .has = has | NP_NAPI_HAS_PID,
					    .pid = 5000 + i, .rxq = q ? (int)i : -1,
					    .txq = q ? (int)i : -1, .defer_hard_irqs = OWN_DEFER,
					    .gro_flush_timeout = OWN_GRO };
		for (unsigned k = 0; q && k < d->n_irq; k++)
			if (d->irq[k].queue == (int)i) {
				v->irq = d->irq[k].irq;
				v->has |= NP_NAPI_HAS_IRQ;
			}
		d->napi_thread[i] = (struct np_napi_thread){ .pid = v->pid, .napi_id = v->id,
							     .affinity = st->topo.online };
	}
}

static const char *const flows[] = { "latency:tcp:6379", "cpu:udp4:53", "throughput:tcp:5201" };

static struct np_plan *plan_mixed(const struct np_state *st, const struct np_plan_base *base,
				  const char *cpus, const char *deflt)
{
	NP_PLAN_OPTS(o, .flags = NP_PLAN_OPTS_MIXED, .flows = flows,
				  .n_flows = NP_ARRAY_SIZE(flows), .cpus = cpus,
				  .default_class = deflt);
	struct np_error err;
	struct np_plan *p = plan_for("mixed", &o, st, base, &err);

	if (!p)
		printf("# mixed does not plan: %s\n", err.msg);
	return p;
}

static int class_of(const struct np_mixed *m, int q)
{
	for (int c = 0; q >= 0 && c < NP_CLASS__COUNT; c++)
		if (m->cls[c].used && (unsigned)q >= m->cls[c].q_first &&
		    (unsigned)q < m->cls[c].q_first + m->cls[c].n_q)
			return c;
	return m->deflt;
}

static void want_values(int c, uint32_t *defer, uint64_t *gro)
{
	*defer = c == NP_CLASS_LATENCY ? 0 : c == NP_CLASS_CPU ? 2 : OWN_DEFER;
	*gro = c == NP_CLASS_LATENCY ? 0 : c == NP_CLASS_CPU ? 200000 : OWN_GRO;
}

static bool subset(const struct np_cpumask *a, const struct np_cpumask *b)
{
	struct np_cpumask x;

	np_cpumask_andnot(&x, a, b);
	return np_cpumask_empty(&x);
}

static void per_class(const char *model, const char *ifname)
{
	struct np_state *st = model_state(model, ifname);
	struct np_plan *p, *again;
	struct np_plan_base base = { 0 };
	const struct np_mixed *m;
	const struct np_dev *t;
	unsigned seen[NP_CLASS__COUNT] = { 0 }, bad = 0, bad_thread = 0;

	add_napis(st, PERNAPI);
	p = plan_mixed(st, NULL, NULL, NULL);
	if (!p) {
		ok(0, "%s: mixed plans with per-NAPI config", model);
		np_state_free(st);
		return;
	}
	m = &p->mixed->m;
	t = &p->target->dev;
	for (unsigned i = 0; i < t->napis.n; i++) {
		const struct np_napi_inst *n = &t->napis.v[i];
		int c = class_of(m, n->rxq);
		uint32_t d;
		uint64_t g;

		want_values(c, &d, &g);
		seen[c]++;
		if (n->defer_hard_irqs != d || n->gro_flush_timeout != g) {
			if (!bad++)
				printf("# napi %u (rx %d, class %s): %u/%llu, want %u/%llu\n", n->id,
				       n->rxq, np_class_name((enum np_class)c), n->defer_hard_irqs,
				       (unsigned long long)n->gro_flush_timeout, d,
				       (unsigned long long)g);
		}
	}
	is_int(bad, 0, "%s: every NAPI has its class's policy's deferral", model);
	ok(seen[NP_CLASS_LATENCY] && seen[NP_CLASS_CPU] && seen[NP_CLASS_THROUGHPUT],
	   "%s: NAPIs in every class (%u latency, %u cpu, %u throughput)", model,
	   seen[NP_CLASS_LATENCY], seen[NP_CLASS_CPU], seen[NP_CLASS_THROUGHPUT]);
	ok(steps_of(p, "napi-config") > 0 && steps_of(p, "napi") == 0,
	   "%s: napi-set per NAPI, the device-wide sysfs files untouched", model);
	ok(noted(p, "class latency: defer-hard-irqs 0") && noted(p, "class cpu: defer-hard-irqs 2"),
	   "%s: the plan notes each class's NAPI values", model);
	ok(noted(p, "serve no queue of a class: the default class's (throughput)"),
	   "%s: the NAPI of no queue gets the default class, noted", model);
	/* threads: inside the class, with the IRQ where the NAPI has one */
	for (unsigned i = 0; i < t->n_napi_thread; i++) {
		const struct np_napi_thread *th = &t->napi_thread[i];
		const struct np_napi_inst *n = &t->napis.v[i];
		int c = class_of(m, n->rxq);
		bool good = !np_cpumask_empty(&th->affinity) &&
			    subset(&th->affinity, &m->cls[c].cpus);

		for (unsigned k = 0; good && (n->has & NP_NAPI_HAS_IRQ) && k < t->n_irq; k++)
			if (t->irq[k].irq == n->irq && subset(&t->irq[k].affinity, &m->cls[c].cpus))
				good = np_cpumask_equal(&th->affinity, &t->irq[k].affinity);
		if (!good && !bad_thread++)
			printf("# thread of napi %u (class %s) not on its class's CPUs\n", n->id,
			       np_class_name((enum np_class)c));
	}
	is_int(bad_thread, 0, "%s: every NAPI kthread on its class's CPUs (its IRQ's)", model);
	ok(steps_of(p, "napi-threads") == t->n_napi_thread,
	   "%s: one sched_setaffinity step per kthread", model);
	/* set twice: nothing for NAPI to do.  The rules and contexts the plan
	 * made are owned then (the policy record says so), as `set` does: not
	 * owned, one with the same match as a flow is a foreign rule, which the
	 * planner refuses to shadow. */
	base.pristine = st;
	for (unsigned i = 0; i < t->steer.n_rules && base.owned.n_rules < NP_OWNED_MAX; i++)
		if (!np_steer_rule(&st->dev.steer, t->steer.rules[i].fs.location))
			base.owned.rules[base.owned.n_rules++] = t->steer.rules[i].fs.location;
	for (unsigned i = 0; i < t->steer.n_ctx && base.owned.n_ctx < NP_OWNED_MAX; i++)
		if (!np_steer_ctx(&st->dev.steer, t->steer.ctx[i].id))
			base.owned.ctx[base.owned.n_ctx++] = t->steer.ctx[i].id;
	again = plan_mixed(p->target, &base, NULL, NULL);
	ok(again && steps_of(again, "napi-config") == 0 && steps_of(again, "napi-threads") == 0,
	   "%s: planned again from the target: no NAPI step", model);
	np_plan_free(again);
	/* a latency default class: the orphan NAPI takes latency's values */
	np_plan_free(p);
	p = plan_mixed(st, NULL, NULL, "latency");
	ok(p && p->target->dev.napis.v[p->target->dev.napis.n - 1].defer_hard_irqs == 0 &&
	   noted(p, "default class's (latency)"), "%s: --default latency: the orphan NAPI "
	   "gets latency's values", model);
	np_plan_free(p);
	np_state_free(st);
}

/* 6.8-6.12 (napi-get without deferral): one device-wide value, noted */
static void device_wide(const char *model, const char *ifname)
{
	struct np_state *st = model_state(model, ifname);
	struct np_plan *p;

	add_napis(st, 0);
	p = plan_mixed(st, NULL, NULL, "cpu");
	ok(p && p->target->dev.napi.defer_hard_irqs == 2 &&
	   p->target->dev.napi.gro_flush_timeout == 200000 && steps_of(p, "napi") > 0 &&
	   steps_of(p, "napi-config") == 0,
	   "%s: no per-NAPI config: the default class's (cpu) deferral device-wide", model);
	ok(p && noted(p, "one device-wide NAPI deferral, the default class's (cpu), which "
		      "favours it"), "%s: the plan says which class it favours", model);
	np_plan_free(p);
	np_state_free(st);
}

/* Properties of a mixed plan restricted to cpus. */
static void restricted(const char *model, const char *ifname, const char *cpus)
{
	struct np_state *st = model_state(model, ifname);
	struct np_cpumask allowed, seen;
	struct np_plan *p;
	const struct np_dev *t;
	const struct np_mixed *m;
	unsigned bad = 0;

	add_napis(st, PERNAPI);
	if (np_cpumask_parse_list(cpus, &allowed) < 0 || !(p = plan_mixed(st, NULL, cpus, NULL))) {
		ok(0, "%s --cpus %s: plans", model, cpus);
		np_state_free(st);
		return;
	}
	t = &p->target->dev;
	m = &p->mixed->m;
	np_cpumask_zero(&seen);
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		struct np_cpumask both;

		if (!m->cls[c].used)
			continue;
		np_cpumask_and(&both, &seen, &m->cls[c].cpus);
		if (np_cpumask_empty(&m->cls[c].cpus) || !subset(&m->cls[c].cpus, &allowed) ||
		    !np_cpumask_empty(&both))
			bad++;
		np_cpumask_or(&seen, &seen, &m->cls[c].cpus);
	}
	is_int(bad, 0, "%s --cpus %s: classes non-empty, disjoint and inside the list", model, cpus);
	bad = 0;
	for (unsigned i = 0; i < t->n_irq; i++) {
		int c = class_of(m, t->irq[i].queue);

		if (t->irq[i].err || t->irq[i].queue < 0 || (unsigned)t->irq[i].queue >= m->nq)
			continue;
		if (!subset(&t->irq[i].affinity, &allowed) ||
		    !subset(&t->irq[i].affinity, &m->cls[c].cpus))
			bad++;
	}
	is_int(bad, 0, "%s --cpus %s: every queue IRQ inside the list and its class", model, cpus);
	bad = 0;
	for (unsigned q = 0; q < t->n_txq; q++)
		bad += !t->txq[q].xps_err && !subset(&t->txq[q].xps_cpus, &allowed);
	for (unsigned q = 0; q < t->n_rxq; q++)
		bad += !t->rxq[q].rps_err && !subset(&t->rxq[q].rps_cpus, &allowed);
	for (unsigned i = 0; i < t->n_napi_thread; i++)
		bad += !subset(&t->napi_thread[i].affinity, &allowed);
	is_int(bad, 0, "%s --cpus %s: every XPS, RPS and NAPI kthread mask inside the list",
	       model, cpus);
	bad = 0;
	for (unsigned i = 0; i < t->steer.n_rules; i++) {
		const struct np_rule *r = &t->steer.rules[i];

		if (r->fs.flow_type & FLOW_RSS)
			bad += !np_steer_ctx(&t->steer, r->rss_context);
		else if (r->fs.ring_cookie != RX_CLS_FLOW_DISC)
			bad += r->fs.ring_cookie >= m->nq;
	}
	ok(t->steer.n_rules > 0 && !bad, "%s --cpus %s: %u rules, each at an existing context "
	   "or queue", model, cpus, t->steer.n_rules);
	np_plan_free(p);
	np_state_free(st);
}

int main(void)
{
	per_class("ice-mixed", "ens801f0");
	per_class("mlx5-mixed", "ens1f0np0");
	device_wide("ice-mixed", "ens801f0");
	device_wide("mlx5-mixed", "ens1f0np0");
	restricted("ice-mixed", "ens801f0", "2-5,10-13");
	restricted("ice-mixed", "ens801f0", "1,3,5,7");
	restricted("mlx5-mixed", "ens1f0np0", "8-11,24-27");
	restricted("mlx5-mixed", "ens1f0np0", "0-3,16-19");
	return tap_done();
}
