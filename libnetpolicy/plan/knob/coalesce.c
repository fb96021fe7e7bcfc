/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device-wide interrupt coalescing: one request carrying only the changed
 * fields (a field the driver lacks would fail the whole request), adaptive
 * moderation turned off or on in a request of its own (diff()). */
#include "drivers/np_drivers.h"
#include "plan/np_plan.h"

static bool is_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_RX ||
	       f == NP_COAL_CQE_MODE_TX;
}

static int add_step(struct np_plan *plan, const struct np_coalesce *a,
		    const struct np_coalesce *b, uint32_t fields)
{
	if (np_plan_add_step(plan, &np_knob_coalesce, -1, fields) < 0)
		return -ENOMEM;
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		if (!(fields & (1u << f)))
			continue;
		int r = is_bool(f) ?
			np_plan_add_bool(plan, np_coal_field_name(f), a->val[f], b->val[f]) :
			np_plan_add_uint(plan, np_coal_field_name(f), a->val[f], b->val[f]);

		if (r < 0)
			return -ENOMEM;
	}
	return 0;
}

static int diff_fields(struct np_plan *plan, const struct np_coalesce *a,
		       const struct np_coalesce *b, uint32_t fields);

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_coalesce *a = &from->dev.coalesce, *b = &to->dev.coalesce;
	const struct np_driver *drv = np_driver_lookup(to->dev.driver);
	uint32_t fields = 0, off, on;
	int r;

	if (a->err || b->err)
		return 0;
	for (int f = 0; f < NP_COAL__COUNT; f++)
		if ((a->supported & b->supported & (1u << f)) && a->val[f] != b->val[f])
			fields |= 1u << f;
	/* igc with queue pairs: Tx follows rx-usecs, and a tx-usecs of ours
	 * would be refused */
	if (drv && drv->paired_tx_follows_rx && np_driver_paired(&to->dev))
		fields &= ~NP_COAL_BIT(NP_COAL_TX_USECS);
	/* igb, ixgbe: a channel change that pairs the vectors zeroes what
	 * they refuse; the driver does that, and a write of ours would come
	 * too early (before the change) or be the same (after it) */
	if (drv && drv->paired_reads_zero && !plan->all && !np_driver_paired(&from->dev)) {
		bool predicted, paired = np_driver_paired_after(drv, &from->dev, &to->dev.channels,
								&predicted);

		for (int f = 0; paired && predicted && f < NP_COAL__COUNT; f++)
			if ((drv->paired_refuses & NP_COAL_BIT(f)) && !b->val[f])
				fields &= ~NP_COAL_BIT(f);
	}
	if (!fields)
		return 0;
	/* Drivers validate the request's fields together ("cannot set usecs
	 * if adaptive enabled"; bnxt turns DIM off and drops the rest): adaptive
	 * moderation turned off goes first in a request of its own, and turned
	 * on goes last in one of its own, so that usecs are never sent with
	 * adaptive on.  Rollback and reset diff with this too. */
	off = on = 0;
	for (int f = NP_COAL_ADAPTIVE_RX; f <= NP_COAL_ADAPTIVE_TX; f++)
		if (fields & (1u << f))
			*(b->val[f] ? &on : &off) |= 1u << f;
	if (off && (fields & ~off)) {
		r = add_step(plan, a, b, off);
		if (r < 0)
			return r;
		fields &= ~off;
	}
	if (on && (fields & ~on)) {
		fields &= ~on;
		r = diff_fields(plan, a, b, fields);
		return r < 0 ? r : add_step(plan, a, b, on);
	}
	return diff_fields(plan, a, b, fields);
}

/* The rest of a request: one per field when the engine asks which one the
 * driver refuses (refuse.c). */
static int diff_fields(struct np_plan *plan, const struct np_coalesce *a,
		       const struct np_coalesce *b, uint32_t fields)
{
	int r;

	/* one request per field: which one the driver refuses (refuse.c) */
	for (int f = 0; plan->split && f < NP_COAL__COUNT; f++)
		if (fields & (1u << f)) {
			fields &= ~(1u << f);
			r = add_step(plan, a, b, 1u << f);
			if (r < 0 || !fields)
				return r;
		}
	return add_step(plan, a, b, fields);
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	return be->ops->set_coalesce(be, &cur->dev, &to->dev.coalesce, step->fields, err);
}

const struct np_knob np_knob_coalesce = {
	.name = "coalesce",
	.diff = diff,
	.apply = apply,
	/* e1000e keeps rx-usecs as interrupts per second and reports back
	 * 1000000 / that (drivers/net/ethernet/intel/e1000e/ethtool.c,
	 * e1000_set_coalesce() and e1000_get_coalesce()) */
	.driver_rounds = true,
	.rereads = NP_READ_COALESCE,
};
