/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Graceful refusal.  Drivers refuse things discovery cannot foresee (a
 * coalescing value outside a range only the driver knows, an operation a
 * device variant lacks, a PF with VFs refusing a queue change with EPERM,
 * kernel-managed IRQ vectors refusing an affinity with EIO).  Outside
 * NP_APPLY_STRICT, a knob the driver or kernel refuses, with whatever
 * errno, is left out: the apply is rolled back as usual, planned again from
 * the live device without what was refused (the steps that depended on it
 * planned again too) and applied again, all of it or nothing, and the
 * result says what was left out and the kernel's reason.  Only a failure
 * that leaves the device's state unknown stands (unknown_state() below).
 *
 * A coalescing or ring request carries several fields and the kernel does
 * not say which one the driver refused (the driver sees the whole
 * structure), so a refused request of several fields is tried again with
 * one request per field: the one refused then names itself, and only that
 * field is left out.  A knob refused again after that is left out whole.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "plan/np_policy.h"
#include "apply/np_engine.h"
#include "apply/np_refuse.h"

/*
 * The failures after which netpolicy cannot say what the device holds, or
 * whose cause is not the device's answer to the request: these stand
 * (netpolicy(8), "What degrades").  ENODEV/ENXIO: the device went away;
 * ENOMEM/ENOBUFS: memory or a netlink socket's buffer ran out (the request
 * may or may not have reached the driver); EINTR: a signal; EPROTO,
 * EBADMSG, EMSGSIZE: a netlink reply netpolicy could not parse.  Every
 * other errno from a knob's write is the driver's or kernel's answer to
 * that request: a refusal.
 */
static bool unknown_state(int code)
{
	switch (-code) {
	case ENODEV:
	case ENXIO:
	case ENOMEM:
	case ENOBUFS:
	case EINTR:
	case EPROTO:
	case EBADMSG:
	case EMSGSIZE:
		return true;
	default:
		return code >= 0;
	}
}

/* Whether this process may administer network devices: without
 * CAP_NET_ADMIN every write answers EPERM (or EACCES), which is the
 * caller's lack, not the driver's answer (a PF with VFs refusing channels
 * to a process that has it is). */
static bool may_net_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) < 0)
		return true;	/* cannot tell: leave it to the errno */
	return d[CAP_NET_ADMIN / 32].effective & (1u << (CAP_NET_ADMIN % 32));
}

/* An errno that is the driver's answer to the request, not the caller's
 * lack of CAP_NET_ADMIN nor a state netpolicy cannot tell. */
static bool answered(int code, bool process_caps)
{
	if (unknown_state(code))
		return false;
	return !((code == -EPERM || code == -EACCES) && process_caps && !may_net_admin());
}

/* The knobs whose requests carry several fields, split one per request. */
static bool multi_field(const char *knob)
{
	return !strcmp(knob, "coalesce") || !strcmp(knob, "rings");
}

static const char *field_name(const char *knob, int field)
{
	if (!strcmp(knob, "rings"))
		return np_ring_field_name(field);
	return np_coal_field_name(field);
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
	bool coal = knob && multi_field(knob);
	int field = coal ? one_field(what->fields) : -1;
	struct np_dropped *d;
	char item[40];

	if (!policy || !knob || (flags & NP_APPLY_STRICT) || !err ||
	    (err->phase != NP_PHASE_APPLY && !(what->answer && err->phase == NP_PHASE_VERIFY)))
		return NP_REFUSAL_STANDS;
	/* only from a device back where it was: else the failure stands.  A
	 * device renamed during the run failed the write by its rename (its
	 * sysfs path went), not by the driver's answer: rolled back under its
	 * new name, the run ends there */
	if (!res->rolled_back || res->rollback_incomplete || res->vanished || res->renamed_to[0])
		return NP_REFUSAL_STANDS;
	if ((!what->answer && unknown_state(err->code)) || np_knob_listed(drop, knob) ||
	    ((err->code == -EPERM || err->code == -EACCES) && what->process_caps && !may_net_admin()) ||
	    res->n_dropped >= NP_DROPPED_MAX)
		return NP_REFUSAL_STANDS;
	if (coal && !field_dropped(drop, knob) && field < 0 && !what->split) {
		/* several fields: which one?  One request each, next time */
		what->split = true;
		np_error_clear(err);
		res->rolled_back = false;
		return NP_REFUSAL_SPLIT;
	}
	if (coal && !field_dropped(drop, knob) && field >= 0)
		snprintf(item, sizeof(item), "%s.%s", knob, field_name(knob, field));
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
	snprintf(d->field, sizeof(d->field), "%s", field >= 0 ? field_name(knob, field) : "");
	d->code = what->answer ? 0 : err->code;
	np_error_format(err, d->reason, sizeof(d->reason));
	np_error_clear(err);
	/* the rolled-back attempt is history: what counts is the next one */
	res->rolled_back = false;
	return NP_REFUSAL_DROPPED;
}

bool np_refusal_leave(struct np_engine *e, const char *knob, const struct np_error *why,
		      struct np_error *again, const struct np_state *cur,
		      const struct np_state *goal, struct np_plan **kept)
{
	bool caps = e->be->ops->process_caps;

	/* The run failed on a driver's refusal (knob) and will go on without
	 * it; the rollback's refused write is of that knob or of another one
	 * the channel change moved (xps refused on every write): either is
	 * left where the kernel put it, the retry leaving it out in turn when
	 * the driver refuses it again.  A multi-field knob is split first;
	 * channels are the planner's. */
	if (!knob || !e->policy || e->strict || !why ||
	    !(why->phase == NP_PHASE_APPLY || (why->phase == NP_PHASE_VERIFY && e->failed_answer)) ||
	    !why->knob || strcmp(why->knob, knob) || !again->knob)
		return false;
	knob = again->knob;
	if (multi_field(knob) || !strcmp(knob, "channels") || np_knob_listed(e->drop, knob) ||
	    e->res->n_dropped >= NP_DROPPED_MAX || !answered(why->code, caps) ||
	    !answered(again->code, caps))
		return false;
	if (np_plan_new(kept) < 0)
		return false;
	if (np_state_dup(goal, &(*kept)->target) < 0 || np_plan_keep(*kept, cur, knob) < 0) {
		np_plan_free(*kept);
		*kept = NULL;
		return false;
	}
	np_log(e->ctx, NP_LOG_INFO, "%s: %s: %s; left where the kernel put it", e->ifname, knob,
	       again->msg);
	e->left = knob;
	np_error_clear(again);
	return true;
}
