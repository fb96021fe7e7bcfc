/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which queue an IRQ serves, as the kernel says it: netdev napi-get reports
 * the IRQ of each NAPI instance whose driver called netif_napi_set_irq(),
 * queue-get the NAPI of each queue whose driver called
 * netif_queue_set_napi() (doc/kernel.md, "Queue IRQs from the kernel").
 * Where both are reported that is the queue's IRQ, whatever the driver
 * named it; the names (backend/irq_match.c) are the fallback.  Both the
 * kernel backend and the simulator tie their IRQs here, so a model says
 * what the kernel reports and the simulator finds what discovery would.
 */
#include <string.h>

#include "drivers/np_drivers.h"

/* A NAPI's queue: rx and tx N together are a TxRx vector; a NAPI serving
 * rx M and tx N (M != N) is placed by its rx queue. */
static bool napi_queue(const struct np_napi_inst *n, enum np_irq_kind *kind, int *queue)
{
	if (n->rxq >= 0 && n->txq >= 0) {
		*kind = n->rxq == n->txq ? NP_IRQ_TXRX : NP_IRQ_RX;
		*queue = n->rxq;
	} else if (n->rxq >= 0) {
		*kind = NP_IRQ_RX;
		*queue = n->rxq;
	} else if (n->txq >= 0) {
		*kind = NP_IRQ_TX;
		*queue = n->txq;
	} else {
		return false;
	}
	return true;
}

bool np_irq_napi_tie(const struct np_dev *d, unsigned irq, enum np_irq_kind *kind, int *queue,
		     uint32_t *napi_id)
{
	const struct np_driver *drv = np_driver_lookup(d->driver);
	bool found = false;

	/* mlx4_en's completion EQs serve rings of both ports: a NAPI's IRQ
	 * there is no queue's alone (np_drivers.h NP_IRQN_MLX4_EQ) */
	if (drv && drv->irq_naming == NP_IRQN_MLX4_EQ)
		return false;
	for (unsigned i = 0; !d->napis.err && i < d->napis.n; i++) {
		const struct np_napi_inst *n = &d->napis.v[i];
		enum np_irq_kind k;
		int q;

		if (!(n->has & NP_NAPI_HAS_IRQ) || n->irq != irq || !napi_queue(n, &k, &q))
			continue;
		if (!found) {
			*kind = k;
			*queue = q;
			*napi_id = n->id;
			found = true;
		} else if (q != *queue) {
			return false;	/* one vector for several queues: none of them */
		} else if (k != *kind) {
			*kind = NP_IRQ_TXRX;	/* an Rx and a Tx NAPI of one queue */
		}
	}
	return found;
}

void np_irq_tie_napis(struct np_dev *d)
{
	for (unsigned i = 0; i < d->n_irq; i++) {
		struct np_irq *q = &d->irq[i];
		enum np_irq_kind kind;
		uint32_t id;
		int queue;

		if (!np_irq_napi_tie(d, q->irq, &kind, &queue, &id))
			continue;
		q->kind = kind;
		q->queue = queue;
		q->napi_id = id;
		q->source = NP_IRQ_SRC_KERNEL;
	}
}
