/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Threaded NAPI's kthreads go where the policy puts the interrupts.
 * Documentation/networking/napi.rst, "Threaded NAPI": each NAPI instance
 * then polls in its own kthread, "It is recommended to pin each kernel
 * thread to a single CPU, the same CPU as the CPU which services the
 * interrupt"; moving only the IRQ would leave the receive work where the
 * scheduler happens to run the thread.  Every policy places IRQs, so every
 * policy places the threads the same way: the CPUs of the NAPI's own IRQ
 * (napi-get), else of the IRQ of the queue it serves (queue-get), else --
 * the kernel tells no IRQ or queue (veth, or a kernel without napi-get) --
 * the CPUs the policy gives its queues, which is where the IRQs would be.
 */
#include <errno.h>
#include <string.h>

#include "plan/np_policy.h"

/* The planned IRQ of n: its own number, else the one serving its rx queue. */
const struct np_irq *np_napi_planned_irq(const struct np_dev *t, const struct np_napi_inst *n)
{
	for (unsigned i = 0; n && (n->has & NP_NAPI_HAS_IRQ) && i < t->n_irq; i++)
		if (t->irq[i].irq == n->irq && t->irq[i].queue >= 0 && !t->irq[i].err)
			return &t->irq[i];
	for (unsigned i = 0; n && n->rxq >= 0 && i < t->n_irq; i++)
		if (t->irq[i].queue == n->rxq && t->irq[i].kind != NP_IRQ_TX && !t->irq[i].err)
			return &t->irq[i];
	return NULL;
}

void np_plan_napi_threads(const struct np_state *st, const struct np_cpu_order *o, unsigned nq,
			  struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	struct np_cpumask queues;
	unsigned by_irq = 0, by_queue = 0, unknown = 0;
	char list[80];

	if (!t->n_napi_thread)
		return;
	np_cpumask_zero(&queues);
	for (unsigned q = 0; q < (nq ? nq : 1) && o->n; q++)
		np_cpumask_set(&queues, np_queue_cpu(o, q));
	for (unsigned i = 0; i < t->n_napi_thread; i++) {
		struct np_napi_thread *th = &t->napi_thread[i];
		const struct np_napi_inst *n = np_napi_find(&st->dev, th->napi_id);
		const struct np_irq *irq = np_napi_planned_irq(t, n);

		if (th->err) {
			np_plan_note(plan, "napi-threads", "napi/%s-%u: CPU affinity unreadable (%s), "
				     "left alone", st->dev.ifname, th->napi_id, strerror(-th->err));
			continue;
		}
		if (irq) {
			th->affinity = irq->affinity;
			by_irq++;
		} else if (n && n->rxq >= 0 && (unsigned)n->rxq < nq) {
			np_cpumask_zero(&th->affinity);
			np_cpumask_set(&th->affinity, np_queue_cpu(o, (unsigned)n->rxq));
			by_queue++;
		} else {
			th->affinity = queues;
			unknown++;
		}
	}
	np_plan_note(plan, "napi-threads", "threaded NAPI: %u kthread%s run the receive work, "
		     "not the IRQs: each placed with its NAPI's IRQ (napi.rst, \"Threaded NAPI\")",
		     t->n_napi_thread, t->n_napi_thread == 1 ? "" : "s");
	if (unknown) {
		np_fmt_mask(list, sizeof(list), &queues);
		np_plan_note(plan, "napi-threads", "%u NAPI%s with no IRQ or queue the kernel tells "
			     "(%s): %s threads may run on the policy's queue CPUs %s", unknown,
			     unknown == 1 ? "" : "s", st->dev.napis.err ? "no napi-get in this kernel" :
			     "napi-get and queue-get give none", unknown == 1 ? "its" : "their", list);
	}
	(void)by_irq;
	(void)by_queue;
}
