/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Graceful refusal.  Drivers refuse things discovery cannot foresee (a
 * coalescing value outside a range only the driver knows, an operation a
 * device variant lacks).  A policy names the knobs it cannot do without;
 * when the driver refuses any other (a refinement), the apply is rolled
 * back as usual, planned again from the live device without what was
 * refused and applied again, all of it or nothing, and the result says what
 * was left out and the kernel's reason.  NP_APPLY_STRICT keeps
 * all-or-nothing.
 *
 * A coalescing request carries several fields and the kernel does not say
 * which one the driver refused (the driver sees the whole structure), so a
 * refused request of several fields is tried again with one request per
 * field: the one refused then names itself, and only that field is left
 * out.  A knob refused again after that is left out whole.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan/np_policy.h"
#include "apply/np_refuse.h"

/* "Not supported" from any knob means the driver lacks the operation or the
 * field; "invalid argument" or "out of range" from coalescing or rings means
 * a value outside what the driver takes (np_drivers.h: ixgbe and igb refuse
 * tx-usecs while Rx and Tx share vectors, igb usecs 4-9, r8169 more than 60
 * frames).  Other errors (EIO, EBUSY, ENOMEM...) are failures. */
static bool refusal(const char *knob, int code)
{
	return code == -EOPNOTSUPP ||
	       ((code == -EINVAL || code == -ERANGE) &&
		(!strcmp(knob, "coalesce") || !strcmp(knob, "rings")));
}

static int one_field(uint32_t fields)
{
	if (!fields || (fields & (fields - 1)))
		return -1;
	return __builtin_ctz(fields);
}

/* A field of `knob` left out already: "coalesce.rx-usecs" */
static bool field_dropped(const char *drop, const char *knob)
{
	size_t n = strlen(knob);

	for (const char *p = drop; p && (p = strstr(p, knob)); p += n)
		if ((p == drop || p[-1] == ',') && p[n] == '.')
			return true;
	return false;
}

enum np_refusal np_refusal_drop(const struct np_policy *policy, unsigned flags,
				struct np_refused *what, struct np_apply_result *res, char *drop,
				size_t len, struct np_error *err)
{
	const char *knob = what->knob;
	bool coal = knob && !strcmp(knob, "coalesce");
	int field = coal ? one_field(what->fields) : -1;
	struct np_dropped *d;
	char item[40];

	if (!policy || !knob || (flags & NP_APPLY_STRICT) || !err || err->phase != NP_PHASE_APPLY)
		return NP_REFUSAL_STANDS;
	/* only from a device back where it was: else the failure stands */
	if (!res->rolled_back || res->rollback_incomplete || res->vanished)
		return NP_REFUSAL_STANDS;
	if (!refusal(knob, err->code) || np_knob_listed(policy->core, knob) ||
	    np_knob_listed(drop, knob) || res->n_dropped >= NP_DROPPED_MAX)
		return NP_REFUSAL_STANDS;
	if (coal && !field_dropped(drop, knob) && field < 0 && !what->split) {
		/* several fields: which one?  One request each, next time */
		what->split = true;
		np_error_clear(err);
		res->rolled_back = false;
		return NP_REFUSAL_SPLIT;
	}
	if (coal && !field_dropped(drop, knob) && field >= 0)
		snprintf(item, sizeof(item), "%s.%s", knob, np_coal_field_name(field));
	else
		snprintf(item, sizeof(item), "%s", knob), field = -1;
	if (np_knob_list_add(drop, len, item) < 0)
		return NP_REFUSAL_STANDS;
	what->split = false;
	/* the knob whole: its fields left out before are part of it now */
	for (unsigned i = res->n_dropped; field < 0 && i-- > 0;)
		if (!strcmp(res->dropped[i].knob, knob))
			memmove(&res->dropped[i], &res->dropped[i + 1],
				(--res->n_dropped - i) * sizeof(*res->dropped));
	d = &res->dropped[res->n_dropped++];
	snprintf(d->knob, sizeof(d->knob), "%s", knob);
	snprintf(d->field, sizeof(d->field), "%s", field >= 0 ? np_coal_field_name(field) : "");
	d->code = err->code;
	np_error_format(err, d->reason, sizeof(d->reason));
	np_error_clear(err);
	/* the rolled-back attempt is history: what counts is the next one */
	res->rolled_back = false;
	return NP_REFUSAL_DROPPED;
}
