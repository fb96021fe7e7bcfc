/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Driver behaviours of set_coalesce that no error code announces, for the
 * apply engine's tests and the driver-behaviour sweep (tests/cli/sweep.bats):
 *   keep            the request is taken, the fault's fields keep their
 *                   values (a driver that stores rx-usecs and ignores
 *                   tx-usecs without a word);
 *   couple          Rx and Tx share one completion timer: the usecs value
 *                   the driver reads last of the ones the request changed
 *                   (tx-usecs after rx-usecs) is both fields' from then on;
 *   adaptive_usecs  a usecs change is refused with EINVAL in a request that
 *                   leaves adaptive moderation on ("cannot set usecs if
 *                   adaptive enabled"), as drivers that validate the whole
 *                   structure do; sent apart, each request is accepted.
 */
#include <errno.h>

#include "np_sim.h"

int np_sim_coal_refuses(const struct np_sim_call *c, const uint32_t *cur, const uint32_t *val,
			uint32_t fields, struct np_error *err)
{
	(void)fields;
	if (!np_sim_fault_is(c, NP_SIM_MODE_ADAPTIVE_USECS))
		return 0;
	if ((val[NP_COAL_ADAPTIVE_RX] && val[NP_COAL_RX_USECS] != cur[NP_COAL_RX_USECS]) ||
	    (val[NP_COAL_ADAPTIVE_TX] && val[NP_COAL_TX_USECS] != cur[NP_COAL_TX_USECS]))
		return np_sim_fail(err, c->phase, c->knob, -EINVAL,
				   "cannot set usecs if adaptive enabled");
	return 0;
}

void np_sim_coal_stores(const struct np_sim_call *c, const uint32_t *cur, uint32_t *val,
			uint32_t fields)
{
	const uint32_t rx = 1u << NP_COAL_RX_USECS, tx = 1u << NP_COAL_TX_USECS;

	if (np_sim_fault_is(c, NP_SIM_MODE_KEEP)) {
		for (int f = 0; f < NP_COAL__COUNT; f++)
			if (c->fault->fields & (1u << f))
				val[f] = cur[f];
	} else if (np_sim_fault_is(c, NP_SIM_MODE_COUPLE)) {
		if ((fields & tx) && val[NP_COAL_TX_USECS] != cur[NP_COAL_TX_USECS])
			val[NP_COAL_RX_USECS] = val[NP_COAL_TX_USECS];
		else if ((fields & rx) && val[NP_COAL_RX_USECS] != cur[NP_COAL_RX_USECS])
			val[NP_COAL_TX_USECS] = val[NP_COAL_RX_USECS];
	}
}
