/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Graceful refusal.  Drivers refuse things discovery cannot foresee (a
 * coalescing value outside a range only the driver knows, an operation a
 * device variant lacks).  A policy names the knobs it cannot do without;
 * when the driver refuses any other (a refinement), the apply is rolled
 * back as usual, planned again from the live device without that knob and
 * applied again, all of it or nothing, and the result says what was left
 * out and the kernel's reason.  NP_APPLY_STRICT keeps all-or-nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "np_policy.h"
#include "np_refuse.h"

/* "Not supported" from any knob means the driver lacks the operation or the
 * field; "invalid argument" (or mlx5's "out of range") from coalescing means
 * a value outside what the driver takes (np_drivers.h: ixgbe and igb refuse
 * tx-usecs while Rx and Tx share vectors, igb usecs 4-9).  Other errors
 * (EIO, EBUSY, ENOMEM...) are failures. */
static bool refusal(const char *knob, int code)
{
	return code == -EOPNOTSUPP ||
	       ((code == -EINVAL || code == -ERANGE) && !strcmp(knob, "coalesce"));
}

bool np_refusal_drop(const struct np_policy *policy, unsigned flags, const char *knob,
		     struct np_apply_result *res, char *drop, size_t len, struct np_error *err)
{
	struct np_dropped *d;

	if (!policy || !knob || (flags & NP_APPLY_STRICT) || !err || err->phase != NP_PHASE_APPLY)
		return false;
	/* only from a device back where it was: else the failure stands */
	if (!res->rolled_back || res->rollback_incomplete || res->vanished)
		return false;
	if (!refusal(knob, err->code) || np_knob_listed(policy->core, knob) ||
	    np_knob_listed(drop, knob) || res->n_dropped >= NP_DROPPED_MAX ||
	    np_knob_list_add(drop, len, knob) < 0)
		return false;
	d = &res->dropped[res->n_dropped++];
	snprintf(d->knob, sizeof(d->knob), "%s", knob);
	np_error_format(err, d->reason, sizeof(d->reason));
	np_error_clear(err);
	/* the rolled-back attempt is history: what counts is the next one */
	res->rolled_back = false;
	return true;
}
