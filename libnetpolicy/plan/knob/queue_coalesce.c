/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-queue interrupt coalescing (ETHTOOL_PERQUEUE, the ioctl: ethtool
 * netlink has no per-queue coalescing): one request per queue whose values
 * differ, carrying only the changed fields.  After the device-wide
 * coalescing (which the drivers that have per-queue values write to every
 * queue: ice_set_coalesce() -> __ice_set_coalesce() with q_num -1,
 * drivers/net/ethernet/intel/ice/ice_ethtool.c) and after channels (a
 * channel change rebuilds the vectors: ice_vsi_rebuild_set_coalesce() in
 * ice_lib.c), so the engine diffs it against the device as re-read then.
 */
#include "plan/np_plan.h"

static bool is_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_RX ||
	       f == NP_COAL_CQE_MODE_TX;
}

static int add_step(struct np_plan *plan, unsigned q, const uint32_t *a, const uint32_t *b,
		    uint32_t fields)
{
	char what[48];

	if (np_plan_add_step(plan, &np_knob_queue_coalesce, (int)q, fields) < 0)
		return -ENOMEM;
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		int r;

		if (!(fields & (1u << f)))
			continue;
		snprintf(what, sizeof(what), "rx-%u %s", q, np_coal_field_name(f));
		r = is_bool(f) ? np_plan_add_bool(plan, what, a[f], b[f]) :
				 np_plan_add_uint(plan, what, a[f], b[f]);
		if (r < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Whether the device-wide step (np_knob_coalesce, just before) writes. */
static bool device_wide_writes(const struct np_coalesce *a, const struct np_coalesce *b)
{
	for (int f = 0; f < NP_COAL__COUNT; f++)
		if ((a->supported & b->supported & (1u << f)) && a->val[f] != b->val[f])
			return true;
	return false;
}

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_coalesce *a = &from->dev.coalesce, *b = &to->dev.coalesce;
	uint32_t pq = a->per_queue & b->per_queue;
	bool wide;

	if (a->err || b->err || !pq)
		return 0;
	/* a device-wide write gives every queue the device's values (the
	 * driver passes the whole request to each vector), so the queues
	 * start from those after it */
	wide = device_wide_writes(a, b);
	/* a queue the channel step creates is diffed after it, from the
	 * device as re-read (np_engine_converge) */
	for (unsigned q = 0; q < to->dev.n_rxq && q < from->dev.n_rxq; q++) {
		const uint32_t *was = wide ? b->val : from->dev.rxq[q].coal;
		uint32_t fields = 0;

		for (int f = 0; f < NP_COAL__COUNT; f++)
			if ((pq & (1u << f)) && was[f] != to->dev.rxq[q].coal[f])
				fields |= 1u << f;
		if (fields && add_step(plan, q, was, to->dev.rxq[q].coal, fields) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	if (!be->ops->set_queue_coalesce)
		return np_err(err, -EOPNOTSUPP, NP_PHASE_APPLY, "queue-coalesce",
			      "backend %s has no per-queue coalescing", be->ops->name);
	return be->ops->set_queue_coalesce(be, &cur->dev, (unsigned)step->index,
					   to->dev.rxq[step->index].coal, step->fields, err);
}

const struct np_knob np_knob_queue_coalesce = {
	.name = "queue-coalesce",
	.diff = diff,
	.apply = apply,
	.per_queue = true,
	/* per queue the drivers run their device-wide checks and storage
	 * (ice: __ice_set_coalesce() with q_num), so they round as
	 * np_knob_coalesce says */
	.driver_rounds = true,
	.rereads = NP_READ_COALESCE,
};
