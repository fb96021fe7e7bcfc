/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ring sizes and offload features: what a policy's rule (keep, burst, max)
 * or a custom policy's own value (rings = 4096, features.gro = off) comes
 * to on this device, each clamped to what the driver takes, with a note.
 */
#include <errno.h>
#include <string.h>

#include "plan/np_policy.h"

/* Bytes a full-size Ethernet frame takes on the wire: 1500 MTU + 14 header +
 * 4 FCS + 8 preamble + 12 inter-frame gap. */
#define WIRE_FRAME_BYTES 1538

/* How long a queue's packets wait for their interrupt under policy p: its
 * fixed rx-usecs plus the NAPI deferral timer when it defers. */
static uint32_t held_back_usecs(const struct np_policy *p)
{
	uint32_t us = 0;

	for (size_t i = 0; i < p->n_coal; i++)
		if (p->coal[i].field == NP_COAL_RX_USECS && p->coal[i].value > us)
			us = p->coal[i].value;
	if (p->napi && p->napi_defer_hard_irqs)
		us += (uint32_t)(p->gro_flush_timeout / 1000);
	return us;
}

static uint32_t ring_size(uint32_t burst, uint32_t own, uint32_t max)
{
	uint32_t n = 1;

	/* a maximum of 0: the device has no such ring (a USB NIC's tx) */
	if (!max)
		return own;
	while (n < burst && n < (1u << 30))
		n <<= 1;
	if (n < own)
		n = own;
	return max && n > max ? max : n;
}

/* One side's rule: the rings key's, or its own (rings.rx, rings.tx). */
static enum np_ring_rule side_rule(const struct np_policy *p, int side, uint32_t side_n,
				   uint32_t *n)
{
	if (side == NP_RING_SIDE_AS_RINGS) {
		*n = p->rings_n;
		return p->rings;
	}
	*n = side_n;
	return (enum np_ring_rule)(side - 1);
}

/* One side's size under rule r: own is the driver's, max its maximum (0
 * unknown). */
static uint32_t side_size(enum np_ring_rule r, uint32_t n, uint32_t burst, uint32_t own,
			  uint32_t max, const char *side, struct np_plan *plan)
{
	switch (r) {
	case NP_RING_KEEP:
		return own;
	case NP_RING_MAX:
		if (!max)
			np_plan_note(plan, "rings", "%s = max: the driver reports no maximum; "
				     "the size stays", side);
		return max ? max : own;
	case NP_RING_COUNT:
		if (!max) {
			np_plan_note(plan, "rings", "%s ring %u asked, the driver reports no maximum "
				     "for it: the size stays", side, n);
			return own;
		}
		if (n > max) {
			np_plan_note(plan, "rings", "%s ring %u asked, the driver's maximum is %u: "
				     "%u used", side, n, max, max);
			return max;
		}
		return n;
	case NP_RING_BURST:
	default:
		return ring_size(burst, own, max);
	}
}

/*
 * Rings are the driver's own size unless the policy holds interrupts back
 * long enough to overflow it: then twice the full-size frames the queue's
 * share of the link brings in while it waits.  Never the maximum for its
 * own sake: the NIC writes received data into the part of the LLC that
 * DDIO may use (a few of its ways), and buffers beyond it are evicted to
 * memory before the CPU reads them (Farshin et al., "Reexamining Direct
 * Cache Access to Optimize I/O Intensive Applications for Multi-hundred-
 * gigabit Networks", USENIX ATC 2020); vendors advise raising rings when
 * the NIC counts drops (Intel Ethernet 800 Series Linux Performance Tuning
 * Guide, "Ring size"; Red Hat's network performance tuning guide).  A custom
 * policy may still ask for the maximum or a size of its own.
 */
void np_plan_rings(const struct np_policy *p, const struct np_state *st,
		   const struct np_plan_base *base, unsigned nq, struct np_plan *plan)
{
	struct np_rings *r = &plan->target->dev.rings;
	const struct np_rings *own = &st->dev.rings;
	uint32_t rx_n, tx_n;
	enum np_ring_rule rx = side_rule(p, p->rings_rx, p->rings_rx_n, &rx_n);
	enum np_ring_rule tx = side_rule(p, p->rings_tx, p->rings_tx_n, &tx_n);
	uint64_t burst = 0;

	if (base && base->pristine && !base->pristine->dev.rings.err)
		own = &base->pristine->dev.rings;
	if (r->err) {
		if (rx != NP_RING_KEEP || tx != NP_RING_KEEP)
			np_plan_note(plan, "rings", "%s %s", np_unsupported(r->err), st->dev.driver);
		return;
	}
	if (r->fixed) {
		if (rx != NP_RING_KEEP || tx != NP_RING_KEEP)
			np_plan_note(plan, "rings", "no ring setter in driver %s: sizes stay",
				     st->dev.driver);
		return;
	}
	if ((rx == NP_RING_BURST || tx == NP_RING_BURST) && plan->link_speed && nq)
		burst = 2 * (uint64_t)plan->link_speed * held_back_usecs(p) /
			(8ull * WIRE_FRAME_BYTES) / nq;
	if (burst > UINT32_MAX)
		burst = UINT32_MAX;
	r->rx = side_size(rx, rx_n, (uint32_t)burst, own->rx, r->max_rx, "rx", plan);
	r->tx = side_size(tx, tx_n, (uint32_t)burst, own->tx, r->max_tx, "tx", plan);
	if (rx == NP_RING_BURST && r->max_rx && r->rx < r->max_rx)
		np_plan_note(plan, "rings", "rx ring %u of at most %u: raise it if the NIC counts "
			     "drops (ethtool -S)", r->rx, r->max_rx);
}

void np_plan_features(const struct np_policy *p, const struct np_state *st, struct np_plan *plan)
{
	struct np_features *f = &plan->target->dev.features;

	(void)p;
	if (f->err)
		return;
	for (unsigned i = 0; i < f->n; i++) {
		/* The NIC's hash in skb->hash spares RPS/RFS and XPS a software
		 * hash per packet. */
		if (strcmp(f->v[i].name, "rx-hashing"))
			continue;
		if (f->v[i].fixed && !f->v[i].active)
			np_plan_note(plan, "features", "rx-hashing is off and fixed by driver %s",
				     st->dev.driver);
		else if (!f->v[i].fixed)
			f->v[i].wanted = f->v[i].active = true;
	}
}


void np_plan_policy_features(const struct np_policy *p, const struct np_state *st,
			     struct np_plan *plan)
{
	struct np_features *t = &plan->target->dev.features;

	if (p->n_features && t->err) {
		np_plan_note(plan, "features", "%s %s: the policy's features stay as they are",
			     np_unsupported(t->err), st->dev.driver);
		return;
	}
	for (size_t i = 0; i < p->n_features; i++) {
		const struct np_policy_feature *pf = p->features[i].f;
		struct np_feature *f = NULL;

		for (unsigned k = 0; k < t->n && !f; k++)
			if (!strcmp(t->v[k].name, pf->name))
				f = &t->v[k];
		if (!f)
			np_plan_note(plan, "features", "%s (%s): driver %s has no such feature",
				     pf->key, pf->name, st->dev.driver);
		else if (f->fixed && f->active != p->features[i].on)
			np_plan_note(plan, "features", "%s (%s) is %s and fixed by driver %s",
				     pf->key, pf->name, f->active ? "on" : "off", st->dev.driver);
		else if (!f->fixed)
			f->wanted = f->active = p->features[i].on;
	}
}
