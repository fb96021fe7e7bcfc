/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Threaded NAPI's kthreads in the plan (napi.rst, "Threaded NAPI": pin each
 * thread where its interrupt is serviced): for every policy, a thread goes
 * to the CPUs of its NAPI's IRQ as napi-get names it, else of the IRQ of the
 * queue it serves (queue-get), else to the policy's queue CPUs with a note;
 * reset (a plan back to the pristine state) puts the threads back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_check.h"

/* Give st's device n NAPIs (ids 100..), each threaded with a kthread on
 * every CPU; how the kernel tells their IRQ: 0 napi-get's irq, 1 only the
 * queue (queue-get), 2 neither. */
static int add_napis(struct np_state *st, unsigned n, int how)
{
	struct np_dev *d = &st->dev;

	d->napis.v = calloc(n, sizeof(*d->napis.v));
	d->napi_thread = calloc(n, sizeof(*d->napi_thread));
	if (!d->napis.v || !d->napi_thread)
		return -ENOMEM;
	d->napis.n = d->n_napi_thread = n;
	d->napi.threaded = 1;
	for (unsigned q = 0; q < n; q++) {
		struct np_napi_inst *v = &d->napis.v[q];

		v->id = 100 + q;
		v->rxq = v->txq = how < 2 ? (int)q : -1;
		v->has = NP_NAPI_HAS_PID | NP_NAPI_HAS_THREADED;
		v->pid = 5000 + q;
		v->threaded = 1;
		/* the queue's IRQ as napi-get gives it: numbers differ from
		 * the queue index, so a match by queue would be wrong */
		for (unsigned i = 0; how == 0 && i < d->n_irq; i++)
			if (d->irq[i].queue == (int)q) {
				v->irq = d->irq[i].irq;
				v->has |= NP_NAPI_HAS_IRQ;
			}
		d->napi_thread[q].pid = v->pid;
		d->napi_thread[q].napi_id = v->id;
		d->napi_thread[q].affinity = st->topo.online;
	}
	return 0;
}

static const struct np_irq *irq_of_queue(const struct np_dev *d, int q)
{
	for (unsigned i = 0; i < d->n_irq; i++)
		if (d->irq[i].queue == q && d->irq[i].kind != NP_IRQ_TX)
			return &d->irq[i];
	return NULL;
}

static void test_with_irqs(int how, const char *what)
{
	const struct shape s = { .cpus = 16, .nodes = 2, .nic_node = 1, .speed = 25000,
				 .max_queues = 8, .queues = 8 };
	struct np_state *st = NULL;

	if (shape_build(&s, &st) < 0 || add_napis(st, 8, how) < 0) {
		ok(0, "%s: shape builds", what);
		np_state_free(st);
		return;
	}
	for (size_t i = 0; i < np_policy_count(); i++) {
		const struct np_policy *p = np_policy_at(i);
		struct np_plan *plan = NULL, *back = NULL;
		const struct np_dev *t;
		struct np_error err;
		bool with_irq = true;

		np_error_clear(&err);
		if (np_plan_compute_base(p, NULL, st, NULL, &plan, &err) < 0) {
			ok(0, "%s / %s: plans (%s)", what, p->name, err.msg);
			continue;
		}
		t = &plan->target->dev;
		for (unsigned k = 0; k < t->n_napi_thread; k++) {
			const struct np_napi_thread *th = &t->napi_thread[k];
			const struct np_irq *irq = irq_of_queue(t, (int)(th->napi_id - 100));

			/* a queue the plan closed keeps its thread where it was */
			if (irq && irq->queue < (int)(t->channels.combined + t->channels.rx))
				with_irq = with_irq && np_cpumask_equal(&th->affinity, &irq->affinity);
		}
		ok(with_irq, "%s / %s: every thread on its NAPI's IRQ CPUs", what, p->name);
		ok(steps_of(plan, "napi-threads") > 0, "%s / %s: threads moved in steps of their own",
		   what, p->name);
		ok(noted(plan, "Threaded NAPI"), "%s / %s: the plan says why (napi.rst)", what, p->name);
		/* reset: the plan from the target back to the pristine state */
		if (np_plan_compute_base(p, NULL, plan->target, NULL, &back, &err) == 0)
			ok(steps_of(back, "napi-threads") == 0, "%s / %s: a second set moves no thread",
			   what, p->name);
		np_plan_free(back);
		np_plan_free(plan);
	}
	np_state_free(st);
}

/* veth: NAPIs without IRQ or queue; the threads go to the policy's CPUs. */
static void test_no_irq(void)
{
	const struct shape s = { .cpus = 4, .driver = "veth", .nic_node = -1,
				 .chan = SHAPE_SEPARATE, .max_queues = 2, .queues = 2,
				 .irqs = SHAPE_NO_IRQS, .no_rss = true, .no_coalesce = true,
				 .no_rings = true };
	const NP_PLAN_OPTS(opts, .cpus = "3");
	struct np_state *st = NULL;
	struct np_plan *plan = NULL;
	struct np_error err;

	np_error_clear(&err);
	if (shape_build(&s, &st) < 0 || add_napis(st, 2, 2) < 0 ||
	    !(plan = plan_for("latency", &opts, st, NULL, &err))) {
		ok(0, "no IRQ: plans (%s)", err.msg);
		np_state_free(st);
		return;
	}
	for (unsigned k = 0; k < plan->target->dev.n_napi_thread; k++) {
		const struct np_cpumask *m = &plan->target->dev.napi_thread[k].affinity;

		ok(np_cpumask_test(m, 3) && np_cpumask_next(m, 0) == 3 && np_cpumask_next(m, 4) < 0,
		   "no IRQ: thread %u on the policy's CPU 3 only", k);
	}
	ok(noted(plan, "no IRQ or queue the kernel tells"), "no IRQ: the plan says so");
	np_plan_free(plan);
	np_state_free(st);
}

/* Not threaded: no thread, nothing planned. */
static void test_not_threaded(void)
{
	const struct shape s = { .cpus = 4, .speed = 10000, .max_queues = 4, .queues = 4 };
	struct np_state *st;
	struct np_plan *plan;

	if (!shape_plan(&s, "throughput", NULL, &st, &plan, "not threaded"))
		return;
	ok(steps_of(plan, "napi-threads") == 0 && !noted(plan, "Threaded NAPI"),
	   "not threaded: no thread step, no note");
	np_plan_free(plan);
	np_state_free(st);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_with_irqs(0, "napi-get IRQ");
	test_with_irqs(1, "queue-get queue");
	test_no_irq();
	test_not_threaded();
	return tap_done();
}
