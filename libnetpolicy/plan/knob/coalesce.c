/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device-wide interrupt coalescing: one request carrying only the changed
 * fields (a field the driver lacks would fail the whole request); two where
 * the driver table says turning adaptive-rx off drops the rest (bnxt). */
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

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_coalesce *a = &from->dev.coalesce, *b = &to->dev.coalesce;
	const struct np_driver *drv = np_driver_lookup(to->dev.driver);
	const uint32_t arx = NP_COAL_BIT(NP_COAL_ADAPTIVE_RX);
	uint32_t fields = 0;
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
	if (drv && drv->adaptive_off_alone && (fields & arx) && (fields & ~arx) &&
	    a->val[NP_COAL_ADAPTIVE_RX] && !b->val[NP_COAL_ADAPTIVE_RX]) {
		r = add_step(plan, a, b, arx);
		if (r < 0)
			return r;
		fields &= ~arx;
	}
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
