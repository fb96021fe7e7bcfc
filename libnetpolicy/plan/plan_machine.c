/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a policy does not own and what the machine shares.
 *
 * A policy owns the knobs it sets; every knob some other policy sets goes
 * back to the device's pristine value, so `set X` ends in the same state
 * whatever ran before.  The net.core sysctls are one per machine: each
 * device's plan takes the most any device still needs, at least their value
 * before any device needed them, so one device's reset or switch never takes
 * away what another device's policy needs.
 */
#include <errno.h>
#include <string.h>

#include "plan/np_mixed.h"
#include "plan/np_policy.h"

/* Coalescing fields some policy sets: the ones a switch must put back. */
static const enum np_coal_field policy_coal_fields[] = {
	NP_COAL_ADAPTIVE_RX, NP_COAL_ADAPTIVE_TX, NP_COAL_RX_USECS, NP_COAL_RX_FRAMES,
	NP_COAL_TX_USECS, NP_COAL_TX_FRAMES,
};

static void restore_coalesce(const struct np_state *pr, struct np_plan *plan)
{
	struct np_coalesce *c = &plan->target->dev.coalesce;
	const struct np_coalesce *o = &pr->dev.coalesce;

	if (c->err || o->err)
		return;
	for (size_t i = 0; i < NP_ARRAY_SIZE(policy_coal_fields); i++) {
		enum np_coal_field f = policy_coal_fields[i];

		if ((c->supported & ~c->fixed & o->supported) & (1u << f))
			c->val[f] = o->val[f];
	}
}

/* The features a policy may set (np_policy_features: rx-ntuple-filter for
 * accelerated RFS in plan_steer.c, the rest in custom policies) go back to
 * their pristine value; rx-hashing every policy sets again. */
static void restore_features(const struct np_state *pr, struct np_plan *plan)
{
	struct np_features *f = &plan->target->dev.features;

	if (f->err || pr->dev.features.err)
		return;
	for (size_t k = 0; k < np_policy_n_features; k++) {
		const struct np_feature *o = np_features_find(&pr->dev.features,
							      np_policy_features[k].name);

		for (unsigned i = 0; o && i < f->n; i++)
			if (!strcmp(f->v[i].name, o->name) && !f->v[i].fixed) {
				f->v[i].wanted = o->wanted;
				f->v[i].active = o->active;
			}
	}
}

void np_plan_restore(const struct np_policy *p, const struct np_state *st,
		     const struct np_plan_base *base, struct np_plan *plan)
{
	const struct np_state *pr = base ? base->pristine : NULL;

	(void)p;
	(void)st;
	if (!pr)
		return;		/* the device as it is is pristine */
	restore_coalesce(pr, plan);
	restore_features(pr, plan);
	/* rings: plan_rings starts from the pristine size; NAPI: np_plan_napi */
}

void np_plan_napi(const struct np_policy *p, const struct np_state *st,
		  const struct np_plan_base *base, struct np_plan *plan)
{
	struct np_napi *t = &plan->target->dev.napi;
	const struct np_state *pr = base ? base->pristine : NULL;

	if (st->dev.napi.err) {
		if (p->napi)
			np_plan_note(plan, "napi", "napi_defer_hard_irqs/gro_flush_timeout: %s",
				     strerror(-st->dev.napi.err));
	} else if (p->napi) {
		t->defer_hard_irqs = p->napi_defer_hard_irqs;
		t->gro_flush_timeout = p->gro_flush_timeout;
	} else if (pr && !pr->dev.napi.err) {
		t->defer_hard_irqs = pr->dev.napi.defer_hard_irqs;
		t->gro_flush_timeout = pr->dev.napi.gro_flush_timeout;
	}
}

static uint32_t max3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t m = a > b ? a : b;

	return m > c ? m : c;
}

/* Bytes one flow's socket needs at the link speed over the policy's RTT:
 * twice the bandwidth-delay product, since TCP advertises about half its
 * buffer space as window (ip-sysctl.rst, tcp_adv_win_scale; the default
 * skb->len/truesize ratio TCP starts from is 50%), in whole pages, at most
 * INT_MAX (the sysctls are ints).  0: nothing to raise. */
static uint32_t sockbuf_need(const struct np_policy *p, const struct np_plan *plan)
{
	uint64_t rtt = p->rtt_us ? p->rtt_us : NP_DEFAULT_RTT_US, bytes;

	if (p->sockbuf == NP_CEIL_COUNT)
		return p->sockbuf_n > INT32_MAX ? INT32_MAX : p->sockbuf_n;
	/* Mb/s x us / 8 = bytes; twice that */
	bytes = (uint64_t)plan->link_speed * rtt / 4;
	bytes = (bytes + 4095) / 4096 * 4096;
	return bytes > INT32_MAX ? INT32_MAX : (uint32_t)bytes;
}

/* Packets of the per-CPU backlog RPS fills: one rx queue's share of the link
 * in full-size frames (MTU + 38 bytes of Ethernet header, FCS, preamble and
 * gap) over 2 ms, the longest one softirq round runs before the CPU drains
 * its backlog (netdev_budget_usecs' default); one flow's packets go to one
 * CPU, so a queue's share is what one backlog may get. */
static uint32_t backlog_need(const struct np_policy *p, const struct np_state *st,
			     const struct np_plan *plan)
{
	const struct np_dev *t = &plan->target->dev;
	uint64_t frame = (st->dev.mtu ? st->dev.mtu : 1500) + 38, pps;
	unsigned n = 0;

	if (p->backlog == NP_CEIL_COUNT)
		return p->backlog_n > INT32_MAX ? INT32_MAX : p->backlog_n;
	for (unsigned q = 0; q < t->n_rxq; q++)
		if (!t->rxq[q].rps_err && !np_cpumask_empty(&t->rxq[q].rps_cpus))
			n++;
	if (!n || !plan->link_speed)
		return 0;
	pps = (uint64_t)plan->link_speed * 1000000 / (8 * frame) / n;
	return (uint32_t)((pps * 2000 + 999999) / 1000000);
}

/* Why a machine-wide value cannot be planned here. */
static const char *unavailable(int e)
{
	if (e == -EACCES)
		return "read-only in this network namespace: it is set in the initial one";
	if (e == -ENOENT)
		return "not in this network namespace (the initial namespace only) or kernel";
	return strerror(-e);
}

/* The mixed policy sizes the ceilings for its bulk class: a plan with no
 * throughput class (no flow of it, another default class) has none. */
static bool no_bulk_class(const struct np_plan *plan)
{
	const struct np_mixed_opts *o;

	if (!plan->mixed)
		return false;
	o = &plan->mixed->opts;
	if (o->deflt == NP_CLASS_THROUGHPUT)
		return false;
	for (unsigned i = 0; i < o->n_flows; i++)
		if (o->flows[i].cls == NP_CLASS_THROUGHPUT)
			return false;
	return true;
}

static void plan_ceilings(const struct np_policy *p, const struct np_state *st,
			  struct np_plan *plan)
{
	struct np_sysctl *need = &plan->needs;
	uint32_t b;

	if (p->sockbuf != NP_CEIL_OFF && no_bulk_class(plan)) {
		np_plan_note(plan, "buffers", "no throughput class: socket buffer ceilings stay as "
			     "they are");
	} else if (p->sockbuf == NP_CEIL_AUTO && !plan->link_speed) {
		np_plan_note(plan, "buffers", "link speed unknown: socket buffer ceilings stay as "
			     "they are");
	} else if (p->sockbuf != NP_CEIL_OFF && (b = sockbuf_need(p, plan))) {
		if (st->sys.core_mem_err)
			np_plan_note(plan, "buffers", "net.core.rmem_max/wmem_max: %s",
				     unavailable(st->sys.core_mem_err));
		else
			need->rmem_max = need->wmem_max = b;
		if (st->sys.tcp_mem_err)
			np_plan_note(plan, "buffers", "net.ipv4.tcp_rmem/tcp_wmem: %s",
				     unavailable(st->sys.tcp_mem_err));
		else
			need->tcp_rmem[2] = need->tcp_wmem[2] = b;
	}
	if (p->backlog == NP_CEIL_OFF || !(b = backlog_need(p, st, plan)))
		return;
	if (st->sys.backlog_err)
		np_plan_note(plan, "buffers", "net.core.netdev_max_backlog: %s",
			     unavailable(st->sys.backlog_err));
	else
		need->netdev_max_backlog = b;
}

void np_plan_sysctls(const struct np_policy *p, const struct np_state *st,
		     const struct np_plan_base *base, struct np_plan *plan)
{
	static const struct np_sysctl none;
	struct np_sysctl *t = &plan->target->sys, *need = &plan->needs;
	/* Without any device's record netpolicy has raised nothing: the live
	 * values are the ones to come back to. */
	const struct np_sysctl *pr = base && base->shared ? &base->shared_pristine : &st->sys;
	const struct np_sysctl *others = base ? &base->others : &none;

	if (p->busy_poll || p->busy_read) {
		if (st->sys.busy_err) {
			np_plan_note(plan, "busy-poll", "busy_poll/busy_read unavailable (%s)",
				     strerror(-st->sys.busy_err));
		} else if (np_cpumask_weight(&st->topo.online) < 2) {
			/* napi.rst: the busy-polling task spins on its CPU;
			 * with one CPU it spins against the work it waits for. */
			np_plan_note(plan, "busy-poll", "not on a machine with one CPU: the "
				     "poller would spin against the softirq it waits for");
		} else {
			need->busy_poll = p->busy_poll;
			need->busy_read = p->busy_read;
		}
	}
	plan_ceilings(p, st, plan);
	plan->shared_pristine = *pr;
	plan->shared_pristine.flow_entries_err = st->sys.flow_entries_err;
	plan->shared_pristine.busy_err = st->sys.busy_err;
	plan->shared_pristine.core_mem_err = st->sys.core_mem_err;
	plan->shared_pristine.tcp_mem_err = st->sys.tcp_mem_err;
	plan->shared_pristine.backlog_err = st->sys.backlog_err;
	if (!st->sys.flow_entries_err)
		t->rps_sock_flow_entries = max3(pr->rps_sock_flow_entries,
						need->rps_sock_flow_entries,
						others->rps_sock_flow_entries);
	if (!st->sys.busy_err) {
		t->busy_poll = max3(pr->busy_poll, need->busy_poll, others->busy_poll);
		t->busy_read = max3(pr->busy_read, need->busy_read, others->busy_read);
	}
	if (!st->sys.core_mem_err) {
		t->rmem_max = max3(pr->rmem_max, need->rmem_max, others->rmem_max);
		t->wmem_max = max3(pr->wmem_max, need->wmem_max, others->wmem_max);
	}
	if (!st->sys.tcp_mem_err) {
		t->tcp_rmem[2] = max3(pr->tcp_rmem[2], need->tcp_rmem[2], others->tcp_rmem[2]);
		t->tcp_wmem[2] = max3(pr->tcp_wmem[2], need->tcp_wmem[2], others->tcp_wmem[2]);
	}
	if (!st->sys.backlog_err)
		t->netdev_max_backlog = max3(pr->netdev_max_backlog, need->netdev_max_backlog,
					     others->netdev_max_backlog);
}
