/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the plan says of the IRQs it could not use: the device's vectors
 * that neither the kernel's NAPI map nor a name pattern ties to a queue
 * (their source "none"), and the queues in use that no IRQ was found for.
 * Nothing is placed for either; the notes say so instead of staying silent.
 */
#include <stdio.h>
#include <string.h>

#include "plan/np_policy.h"

#define LIST_MAX 8	/* IRQs named in the note; the rest are counted */

static void untied(const struct np_dev *t, struct np_plan *plan)
{
	char list[LIST_MAX * 80] = "";
	unsigned n = 0;
	size_t used = 0;

	for (unsigned i = 0; i < t->n_irq; i++) {
		const struct np_irq *q = &t->irq[i];

		if (q->source != NP_IRQ_SRC_NONE)
			continue;
		if (n++ < LIST_MAX && used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%u (%s)",
						 used ? ", " : "", q->irq, q->name[0] ? q->name : "no name");
	}
	if (!n)
		return;
	if (n > LIST_MAX)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), " and %u more",
			 n - LIST_MAX);
	np_plan_note(plan, "irq-affinity", "IRQ%s %s: the device's, but no NAPI the kernel "
		     "reports and no name pattern of driver %s ties %s to a queue: left alone",
		     n == 1 ? "" : "s", list, t->driver[0] ? t->driver : "(unknown)",
		     n == 1 ? "it" : "them");
}

/* Whether an IRQ serves rx queue q (an Rx or a TxRx vector). */
static bool rx_irq(const struct np_dev *t, unsigned q)
{
	for (unsigned i = 0; i < t->n_irq; i++)
		if (t->irq[i].queue == (int)q && t->irq[i].kind != NP_IRQ_TX &&
		    t->irq[i].kind != NP_IRQ_OTHER)
			return true;
	return false;
}

/* "2-3, 6" of the rx queues below n without an IRQ; how many. */
static unsigned missing(const struct np_dev *t, unsigned n, char *buf, size_t len)
{
	unsigned count = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned q = 0; q < n; q++) {
		unsigned end = q;

		if (rx_irq(t, q))
			continue;
		while (end + 1 < n && !rx_irq(t, end + 1))
			end++;
		count += end - q + 1;
		if (used < len)
			used += (size_t)(end > q ? snprintf(buf + used, len - used, "%s%u-%u",
							    used ? ", " : "", q, end) :
					 snprintf(buf + used, len - used, "%s%u", used ? ", " : "", q));
		q = end;
	}
	return count;
}

void np_plan_irq_notes(const struct np_state *st, unsigned nq, bool queues_change,
		       struct np_plan *plan)
{
	const struct np_dev *t = &plan->target->dev;
	unsigned n = nq < st->dev.n_rxq ? nq : st->dev.n_rxq, count;
	bool any = false;
	char list[256];

	untied(t, plan);
	for (unsigned i = 0; i < t->n_irq; i++)
		any |= t->irq[i].queue >= 0;
	/* Only where some queue has an IRQ (a device with none has its own
	 * note) and the queues stay: the vectors of queues a channel change
	 * opens are read after it. */
	if (!any || queues_change)
		return;
	count = missing(t, n, list, sizeof(list));
	if (count)
		np_plan_note(plan, "irq-affinity", "no IRQ found for rx queue%s %s (neither the "
			     "kernel's NAPI map nor the names tie one): %s interrupts are not "
			     "placed", count == 1 ? "" : "s", list, count == 1 ? "its" : "their");
}
