/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-queue coalescing of the simulated drivers (ETHTOOL_PERQUEUE with
 * ETHTOOL_SCOALESCE), as net/ethtool/ioctl.c ethtool_set_per_queue_coalesce()
 * and the drivers' set_per_queue_coalesce do it: the kernel refuses a
 * field the driver does not support (ethtool_set_coalesce_supported(),
 * -EOPNOTSUPP) and a queue beyond the device's (the drivers: ice_set_per_q_coalesce()
 * -EINVAL for q_num at or beyond both ring counts); the driver checks the
 * values as its device-wide set does (ice: __ice_set_coalesce() with q_num
 * calls the same ice_set_q_coalesce() / ice_set_rc_coalesce() checks).
 */
#include <errno.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "np_sim.h"

static bool coal_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_RX ||
	       f == NP_COAL_CQE_MODE_TX;
}

void np_sim_queue_coal_all(struct np_dev *d)
{
	/* ice_set_coalesce() -> __ice_set_coalesce(netdev, ec, -1): every
	 * q_vector gets the device-wide values
	 * (drivers/net/ethernet/intel/ice/ice_ethtool.c) */
	for (unsigned q = 0; d->coalesce.per_queue && q < d->n_rxq; q++)
		for (int f = 0; f < NP_COAL__COUNT; f++)
			if (d->coalesce.per_queue & (1u << f))
				d->rxq[q].coal[f] = d->coalesce.val[f];
}

static int queue_coal(struct np_sim *s, struct np_sim_call *c, unsigned queue, const uint32_t *want,
		      uint32_t fields, struct np_error *err)
{
	struct np_dev *d = c->dev;
	struct np_coalesce all = d->coalesce;
	uint32_t val[NP_COAL__COUNT];
	char why[200];
	int r;

	if (d->coalesce.err || !d->coalesce.per_queue)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	if (queue >= d->n_rxq)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL, NULL);
	if (fields & ~d->coalesce.per_queue)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	memcpy(val, d->rxq[queue].coal, sizeof(val));
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		if (!(fields & (1u << f)))
			continue;
		val[f] = coal_bool(f) ? !!want[f] : want[f];
		if (np_sim_fault_is(c, NP_SIM_MODE_ROUND) && !coal_bool(f))
			val[f] &= ~3u;
	}
	if (!s->m.no_driver_rules) {
		memcpy(all.val, val, sizeof(val));
		r = np_driver_coal_check(np_driver_lookup(d->driver), d, &all, d->coalesce.per_queue,
					 why, sizeof(why));
		if (r < 0)
			return np_sim_fail(err, c->phase, c->knob, r, why);
	}
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	memcpy(d->rxq[queue].coal, val, sizeof(val));
	s->dirty = true;
	return 0;
}

int np_sim_set_queue_coalesce(struct np_backend *be, const struct np_dev *dev, unsigned queue,
			      const uint32_t *val, uint32_t fields, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_SET_QUEUE_COALESCE, .phase = NP_PHASE_APPLY,
				 .knob = "queue-coalesce" };
	int r = np_sim_begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = queue_coal(s, &c, queue, val, fields, err);
	return np_sim_finish(s, r, err);
}
