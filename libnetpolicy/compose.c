/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * np_plan_compute and np_apply_policy: the top of the library, where reading, planning and
 * applying are put together for one command.  The engine (apply/) takes a
 * plan and never makes one; the planner (plan/) never reads.  Here the
 * device is read once under its lock, planned from that reading with what
 * the state store remembers of it, and the plan handed to the engine.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "apply/np_engine.h"
#include "plan/np_policy.h"

/* The caller's options as this library's struct (util/sized.c). */
static int plan_opts_take(const struct np_plan_opts *in, struct np_plan_opts *out,
			  struct np_error *err)
{
	int r = np_sized_in(in, out, sizeof(*out));

	if (r == -EINVAL)
		return np_err(err, r, NP_PHASE_INPUT, NULL, "planning options with sz %zu: "
			      "declare them with NP_PLAN_OPTS()", in->sz);
	if (r < 0)
		return np_err(err, r, NP_PHASE_INPUT, NULL, "planning options of %zu bytes set "
			      "members this libnetpolicy %s does not know (it knows %zu bytes)",
			      in->sz, np_version(), sizeof(*out));
	return 0;
}

/* The public entry to the pure planner: what the state store keeps of the
 * device and the machine (apply/base.c), then np_plan_compute_base. */
int np_plan_compute(struct np_ctx *ctx, const struct np_policy *policy,
		    const struct np_plan_opts *opts, const struct np_state *state,
		    struct np_plan **ret, struct np_error *err)
{
	struct np_plan_base base;
	struct np_plan_opts o;
	int r;

	if (!state)
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL, "no state");
	r = plan_opts_take(opts, &o, err);
	if (r < 0)
		return r;
	opts = &o;
	/* without a context there is no state directory: the device as it
	 * is is pristine and no other device needs anything */
	if (!ctx)
		return np_plan_compute_base(policy, opts, state, NULL, ret, err);
	ctx->counts.plans++;
	if (np_plan_base_load(ctx, state, &base) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	r = np_plan_compute_base(policy, opts, state, &base, ret, err);
	np_plan_base_clear(&base);
	return r;
}

struct np_plan_opts_buf {
	struct np_plan_opts opts;
	struct np_policy_record rec;
};

/* What the policy record adds to the caller's options.  Setting the policy
 * that is applied, with the same CPUs, leaves out what the driver refused
 * last time: a second `set` writes nothing (a reset, another policy or
 * --strict tries every knob again).  The link speed it was planned for
 * stands in for a link that is down, whatever the policy: it is the
 * device's (planner.c). */
static const struct np_plan_opts *with_record(struct np_engine *e, const struct np_policy *policy,
					      const struct np_plan_opts *opts, unsigned flags,
					      struct np_plan_opts_buf *buf)
{
	static const struct np_plan_opts none = { .sz = sizeof(none) };
	struct np_policy_record *a = &buf->rec;
	const char *cpus = opts && opts->cpus ? opts->cpus : "";

	if (np_store_policy_load(&e->store, a, NULL) < 0)
		return opts;
	buf->opts = opts ? *opts : none;
	if (!buf->opts.link_speed)
		buf->opts.link_speed = a->link_speed;
	if (!(flags & NP_APPLY_STRICT) && !buf->opts.drop && a->drop[0] &&
	    !strcmp(a->policy, policy->name) && !strcmp(a->cpus, cpus))
		buf->opts.drop = a->drop;
	return &buf->opts;
}

/*
 * A device that is up with its carrier down has no link speed.  Often that
 * is for a moment: igb resets itself on a channel change and drops carrier
 * for ~200 ms, so a `set` right after a reset, or after its own channel
 * change, would plan the speed-less defaults and `check` a second later
 * would call the difference drift.  Policies whose plan depends on the
 * speed wait for carrier, bounded (a cable that is out stays out); the plan
 * is then made for the speed recorded at the last apply, if any.
 */
#define CARRIER_WAIT_MS 3000
#define CARRIER_POLL_MS 100

static int wait_carrier(struct np_engine *e, struct np_state **cur,
			const struct np_policy *policy, struct np_error *err)
{
	const struct timespec poll = { 0, CARRIER_POLL_MS * 1000000L };
	int r = 0;

	if (policy->channels != NP_CHAN_LINK_SPEED && policy->rings != NP_RING_BURST)
		return 0;
	for (int ms = 0; r >= 0 && ms < CARRIER_WAIT_MS; ms += CARRIER_POLL_MS) {
		const struct np_dev *d = &(*cur)->dev;

		if (!d->admin_up || d->link.err || d->link.carrier)
			break;
		nanosleep(&poll, NULL);
		r = np_engine_read(e, cur, NP_PHASE_DISCOVER, err);
	}
	return r;
}

int np_apply_policy(struct np_ctx *ctx, const char *ifname, const struct np_policy *policy,
		    const struct np_plan_opts *opts, unsigned flags, struct np_plan **ret_plan,
		    struct np_apply_result *res, struct np_error *err)
{
	struct np_plan_opts_buf o;
	struct np_state *cur = NULL;
	struct np_plan *plan = NULL;
	struct np_plan_opts in;
	struct np_engine e;
	int r;

	r = plan_opts_take(opts, &in, err);
	if (r < 0)
		return r;
	opts = &in;
	/* Plan under the lock from the one read the apply starts from: no
	 * other netpolicy can change the device between plan and apply. */
	r = np_engine_begin(&e, ctx, ifname, res, true, err);
	if (r >= 0)
		r = np_engine_read(&e, &cur, NP_PHASE_DISCOVER, err);
	if (r >= 0)
		r = wait_carrier(&e, &cur, policy, err);
	if (r >= 0)
		r = np_plan_compute(ctx, policy, with_record(&e, policy, opts, flags, &o), cur,
				    &plan, err);
	e.plan_fresh = true;
	if (r >= 0)
		r = np_engine_apply(&e, &cur, plan, flags, err);
	if (r >= 0)
		np_engine_report(&e, plan);
	np_state_free(cur);
	np_engine_stop(&e);
	if (plan && ret_plan)
		*ret_plan = plan;
	else
		np_plan_free(plan);
	return r;
}

