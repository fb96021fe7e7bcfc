/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-queue steering files: xps_cpus (tx), rps_cpus and rps_flow_cnt (rx).
 * One write per changed file.  Queues the target has and the current state
 * lacks are being created by a channel step earlier in the plan.
 */
#include "plan/np_plan.h"

/* step->fields of an xps step: which file it writes */
enum { XPS_CPUS, XPS_RXQS };

/* before NULL: the queue is being created */
static int add_fields(struct np_plan *plan, const struct np_knob *knob, unsigned q,
		      uint32_t fields, const char *what, const struct np_cpumask *before,
		      const struct np_cpumask *after)
{
	if (np_plan_add_step(plan, knob, (int)q, fields) < 0 ||
	    np_plan_add_cpus(plan, what, before, after) < 0)
		return -ENOMEM;
	return 0;
}

static int add(struct np_plan *plan, const struct np_knob *knob, unsigned q, const char *what,
	       const struct np_cpumask *before, const struct np_cpumask *after)
{
	return add_fields(plan, knob, q, XPS_CPUS, what, before, after);
}

/* One queue's CPU mask, a (NULL for a queue the channel step creates: it
 * starts with an empty mask) against b: a step when they differ, named
 * dir ("rx-", "tx-") and the queue. */
static int diff_mask(struct np_plan *plan, const struct np_knob *knob, const char *dir, unsigned q,
		     const struct np_cpumask *a, const struct np_cpumask *b)
{
	char what[32];

	if (a ? np_cpumask_equal(a, b) : np_cpumask_empty(b))
		return 0;
	np_fmt_what(what, sizeof(what), dir, q, "");
	return add(plan, knob, q, what, a, b);
}

/* xps_rxqs (a map of rx queues) takes precedence over xps_cpus: cleared
 * before xps_cpus is written so the new map is the one that applies. */
static int diff_rxqs(struct np_plan *plan, const struct np_txq *a, const struct np_txq *b,
		     unsigned q)
{
	char what[32];

	if (!a || a->xps_rxqs_err || b->xps_rxqs_err || np_cpumask_equal(&a->xps_rxqs, &b->xps_rxqs))
		return 0;
	np_fmt_what(what, sizeof(what), "tx-", q, " rxqs");
	return add_fields(plan, &np_knob_xps, q, XPS_RXQS, what, &a->xps_rxqs, &b->xps_rxqs);
}

static int diff_xps(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	for (unsigned q = 0; q < to->dev.n_txq; q++) {
		const struct np_txq *b = &to->dev.txq[q];
		const struct np_txq *a = q < from->dev.n_txq ? &from->dev.txq[q] : NULL;

		if (diff_rxqs(plan, a, b, q) < 0)
			return -ENOMEM;
		if (b->xps_err || (a && a->xps_err))
			continue;
		/* a new queue starts without XPS; the engine re-reads after
		 * the channel step and writes what the driver did set */
		if (diff_mask(plan, &np_knob_xps, "tx-", q, a ? &a->xps_cpus : NULL, &b->xps_cpus) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int diff_rps(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	for (unsigned q = 0; q < to->dev.n_rxq; q++) {
		const struct np_rxq *b = &to->dev.rxq[q];
		const struct np_rxq *a = q < from->dev.n_rxq ? &from->dev.rxq[q] : NULL;

		if (b->rps_err || (a && a->rps_err))
			continue;
		if (diff_mask(plan, &np_knob_rps, "rx-", q, a ? &a->rps_cpus : NULL, &b->rps_cpus) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int diff_rfs(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	char what[32];

	for (unsigned q = 0; q < to->dev.n_rxq; q++) {
		const struct np_rxq *b = &to->dev.rxq[q];
		const struct np_rxq *a = q < from->dev.n_rxq ? &from->dev.rxq[q] : NULL;
		uint32_t before = a ? a->rps_flow_cnt : 0;

		if (b->flow_err || (a && a->flow_err) || before == b->rps_flow_cnt)
			continue;
		np_fmt_what(what, sizeof(what), "rx-", q, " flow-cnt");
		if (np_plan_add_step(plan, &np_knob_rfs, (int)q, 0) < 0 ||
		    np_plan_add_uint(plan, what, before, b->rps_flow_cnt) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int write_mask(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		      enum np_attr attr, unsigned q, const struct np_cpumask *m, struct np_error *err)
{
	char v[NP_CPUS_MAX / 4 + NP_CPUS_MAX / 32 + 2];

	if (np_cpumask_format_hex(m, to->topo.nr_cpus ? to->topo.nr_cpus : 1, v, sizeof(v)) < 0)
		return np_err(err, -ENOSPC, NP_PHASE_APPLY, NULL, "mask too long");
	return be->ops->write_attr(be, &cur->dev, attr, q, v, err);
}

static int apply_xps(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		     const struct np_step *step, struct np_error *err)
{
	if (step->fields == XPS_RXQS) {
		char v[NP_CPUS_MAX / 4 + NP_CPUS_MAX / 32 + 2];
		unsigned nbits = to->dev.num_rx_queues ? to->dev.num_rx_queues : 1;

		if (np_cpumask_format_hex(&to->dev.txq[step->index].xps_rxqs, nbits, v, sizeof(v)) < 0)
			return np_err(err, -ENOSPC, NP_PHASE_APPLY, NULL, "mask too long");
		return be->ops->write_attr(be, &cur->dev, NP_ATTR_XPS_RXQS, (unsigned)step->index, v,
					   err);
	}
	return write_mask(be, cur, to, NP_ATTR_XPS_CPUS, (unsigned)step->index,
			  &to->dev.txq[step->index].xps_cpus, err);
}

static int apply_rps(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		     const struct np_step *step, struct np_error *err)
{
	return write_mask(be, cur, to, NP_ATTR_RPS_CPUS, (unsigned)step->index,
			  &to->dev.rxq[step->index].rps_cpus, err);
}

static int apply_rfs(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		     const struct np_step *step, struct np_error *err)
{
	char v[16];

	np_fmt_u32(v, sizeof(v), to->dev.rxq[step->index].rps_flow_cnt);
	return be->ops->write_attr(be, &cur->dev, NP_ATTR_RPS_FLOW_CNT, (unsigned)step->index, v, err);
}

const struct np_knob np_knob_xps = {
	.name = "xps", .diff = diff_xps, .apply = apply_xps, .per_queue = true,
};
const struct np_knob np_knob_rps = {
	.name = "rps", .diff = diff_rps, .apply = apply_rps, .per_queue = true,
};
const struct np_knob np_knob_rfs = {
	.name = "rfs", .diff = diff_rfs, .apply = apply_rfs, .per_queue = true,
};
