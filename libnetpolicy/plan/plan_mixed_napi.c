/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NAPI in the mixed policy: each NAPI instance gets its class's treatment.
 *
 * - Deferral.  Where the kernel has per-NAPI config (napi-get reports
 *   defer-hard-irqs and gro-flush-timeout, 6.13; netdev.yaml napi-set;
 *   doc/kernel.md, per-NAPI deferral) each NAPI gets the values of its class's
 *   policy (policy.c): the latency class the latency policy's (no
 *   deferral), the cpu class the cpu policy's (defer 2, 200 us), the
 *   throughput class what the throughput policy does, which is to leave
 *   the device's own (pristine) values.  The device-wide sysfs files stay
 *   as they are, as in plan_napi_config.c: writing them sets every NAPI.
 *   Without per-NAPI config there is one device-wide value: the default
 *   class's policy's (it carries all unclassified traffic), with a note.
 * - Threaded NAPI kthreads (napi.rst, "Threaded NAPI": pin each thread
 *   with the IRQ of its NAPI): on the CPUs of the NAPI's IRQ as the mixed
 *   plan placed it (one of its class's cores), else on its class's CPUs.
 *
 * A NAPI's class is the class of the queue it serves.  The device model
 * keeps the lowest rx and the lowest tx queue of each NAPI (np_napi_inst,
 * from queue-get's napi-id): the rx queue decides, since deferral and the
 * GRO flush hold back received packets and the class's flows arrive on its
 * rx queues; a NAPI with only a tx queue takes that queue's class.  A NAPI
 * whose rx and tx queues are in different classes follows the rx queue,
 * noted.  A NAPI that serves no queue (or a queue beyond the classes' ranges)
 * carries no classified flow: it gets the default class, noted.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "plan/np_mixed.h"
#include "plan/np_policy.h"

#define PER_NAPI (NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH)

static int class_of_queue(const struct np_mixed *m, int q)
{
	for (int c = 0; q >= 0 && c < NP_CLASS__COUNT; c++)
		if (m->cls[c].used && (unsigned)q >= m->cls[c].q_first &&
		    (unsigned)q < m->cls[c].q_first + m->cls[c].n_q)
			return c;
	return -1;
}

enum np_class np_mixed_napi_class(const struct np_mixed *m, const struct np_napi_inst *n,
				  bool *split, bool *orphan)
{
	int rx = n ? class_of_queue(m, n->rxq) : -1, tx = n ? class_of_queue(m, n->txq) : -1;

	*split = rx >= 0 && tx >= 0 && rx != tx;
	*orphan = rx < 0 && tx < 0;
	if (rx >= 0)
		return (enum np_class)rx;
	if (tx >= 0)
		return (enum np_class)tx;
	return m->deflt;
}

/* The policy whose NAPI values a class takes (policy.c, by name). */
static const struct np_policy *class_policy(enum np_class c)
{
	const struct np_policy *p = NULL;

	if (np_policy_lookup(np_class_name(c), &p, NULL) < 0)
		return NULL;
	return p;
}

static void note_classes(const struct np_mixed *m, const struct np_policy *const *pol,
			 const unsigned *count, struct np_plan *plan)
{
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		if (!m->cls[c].used || !count[c])
			continue;
		if (pol[c] && pol[c]->napi)
			np_plan_note(plan, "napi-config", "class %s: defer-hard-irqs %u and "
				     "gro-flush-timeout %" PRIu64 " ns on its %u NAPI instance%s "
				     "(the %s policy's; napi-set, netdev.yaml)",
				     np_class_name((enum np_class)c), pol[c]->napi_defer_hard_irqs,
				     pol[c]->gro_flush_timeout, count[c], count[c] == 1 ? "" : "s",
				     pol[c]->name);
		else
			np_plan_note(plan, "napi-config", "class %s: its %u NAPI instance%s keep "
				     "the device's own deferral (the %s policy's: %s)",
				     np_class_name((enum np_class)c), count[c],
				     count[c] == 1 ? "" : "s", np_class_name((enum np_class)c),
				     pol[c] ? pol[c]->why_napi : "unknown policy");
	}
}

static void plan_config(const struct np_state *st, const struct np_plan_base *base,
			const struct np_mixed *m, struct np_plan *plan)
{
	const struct np_policy *pol[NP_CLASS__COUNT];
	const struct np_dev *pr = base && base->pristine ? &base->pristine->dev : NULL;
	struct np_dev *t = &plan->target->dev;
	unsigned count[NP_CLASS__COUNT] = { 0 }, per = 0, split = 0, orphan = 0;

	for (int c = 0; c < NP_CLASS__COUNT; c++)
		pol[c] = class_policy((enum np_class)c);
	for (unsigned i = 0; !st->dev.napis.err && i < t->napis.n; i++)
		if ((t->napis.v[i].has & PER_NAPI) == PER_NAPI)
			per++;
	if (!per) {
		/* one device-wide value: the default class's */
		if (pol[m->deflt])
			np_plan_napi(pol[m->deflt], st, base, plan);
		if (!st->dev.napi.err)
			np_plan_note(plan, "napi", "per-NAPI config %s: one device-wide NAPI "
				     "deferral, the default class's (%s), which favours it",
				     st->dev.napis.err ? "not supported by kernel (no napi-get, 6.8)" :
				     "not supported by kernel (napi-get reports no defer-hard-irqs, "
				     "6.13) or no NAPI instance", np_class_name(m->deflt));
		return;
	}
	/* the sysfs files stay as they are (plan_napi_config.c) */
	if (!st->dev.napi.err) {
		t->napi.defer_hard_irqs = st->dev.napi.defer_hard_irqs;
		t->napi.gro_flush_timeout = st->dev.napi.gro_flush_timeout;
	}
	for (unsigned i = 0; i < t->napis.n; i++) {
		struct np_napi_inst *n = &t->napis.v[i];
		const struct np_napi_inst *was = pr ? np_napi_find(pr, n->id) : NULL;
		bool sp, orph;
		enum np_class c = np_mixed_napi_class(m, n, &sp, &orph);

		if ((n->has & PER_NAPI) != PER_NAPI)
			continue;
		split += sp;
		orphan += orph;
		count[c]++;
		if (pol[c] && pol[c]->napi) {
			n->defer_hard_irqs = pol[c]->napi_defer_hard_irqs;
			n->gro_flush_timeout = pol[c]->gro_flush_timeout;
		} else if (was && (was->has & PER_NAPI) == PER_NAPI) {
			n->defer_hard_irqs = was->defer_hard_irqs;
			n->gro_flush_timeout = was->gro_flush_timeout;
		} else {
			/* no pristine record (a first set): as it is now */
			const struct np_napi_inst *now = np_napi_find(&st->dev, n->id);

			if (now) {
				n->defer_hard_irqs = now->defer_hard_irqs;
				n->gro_flush_timeout = now->gro_flush_timeout;
			}
		}
	}
	note_classes(m, pol, count, plan);
	if (split)
		np_plan_note(plan, "napi-config", "%u NAPI instance%s serve rx and tx queues of "
			     "different classes: each follows its rx queue's class", split,
			     split == 1 ? "" : "s");
	if (orphan)
		np_plan_note(plan, "napi-config", "%u NAPI instance%s serve no queue of a class: "
			     "the default class's (%s) values", orphan, orphan == 1 ? "" : "s",
			     np_class_name(m->deflt));
}

static void plan_threads(const struct np_state *st, const struct np_mixed *m,
			 struct np_plan *plan)
{
	struct np_dev *t = &plan->target->dev;
	unsigned on_irq = 0, on_class = 0, orphan = 0;

	for (unsigned i = 0; i < t->n_napi_thread; i++) {
		struct np_napi_thread *th = &t->napi_thread[i];
		const struct np_napi_inst *n = np_napi_find(&st->dev, th->napi_id);
		const struct np_irq *irq = np_napi_planned_irq(t, n);
		bool sp, orph;
		enum np_class c = np_mixed_napi_class(m, n, &sp, &orph);
		const struct np_cpumask *cpus = &m->cls[c].cpus;
		struct np_cpumask with_irq;

		if (th->err) {
			np_plan_note(plan, "napi-threads", "napi/%s-%u: CPU affinity unreadable (%s), "
				     "left alone", st->dev.ifname, th->napi_id, strerror(-th->err));
			continue;
		}
		orphan += orph;
		np_cpumask_zero(&with_irq);
		if (irq)
			np_cpumask_and(&with_irq, &irq->affinity, cpus);
		if (!np_cpumask_empty(&with_irq)) {
			th->affinity = with_irq;
			on_irq++;
		} else {
			th->affinity = *cpus;
			on_class++;
		}
	}
	if (!t->n_napi_thread)
		return;
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		char list[80];

		if (!m->cls[c].used)
			continue;
		np_fmt_mask(list, sizeof(list), &m->cls[c].cpus);
		np_plan_note(plan, "napi-threads", "class %s: the kthreads of its NAPIs on its CPUs "
			     "%s", np_class_name((enum np_class)c), list);
	}
	np_plan_note(plan, "napi-threads", "threaded NAPI: %u kthread%s with their NAPI's IRQ "
		     "(napi.rst, \"Threaded NAPI\"), %u on their class's CPUs (no IRQ the kernel "
		     "tells)", on_irq, on_irq == 1 ? "" : "s", on_class);
	if (orphan)
		np_plan_note(plan, "napi-threads", "%u NAPI%s serve no queue of a class: %s "
			     "threads on the default class's (%s) CPUs", orphan,
			     orphan == 1 ? "" : "s", orphan == 1 ? "its" : "their",
			     np_class_name(m->deflt));
}

void np_plan_mixed_napi(const struct np_state *st, const struct np_plan_base *base,
			const struct np_mixed *m, struct np_plan *plan)
{
	plan_config(st, base, m, plan);
	plan_threads(st, m, plan);
}
