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

#include "np_engine.h"
#include "np_policy.h"

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

/* Setting the policy that is applied, with the same CPUs, leaves out what
 * the driver refused last time: a second `set` writes nothing.  A reset,
 * another policy or --strict tries every knob again. */
static const struct np_plan_opts *with_recorded_drops(struct np_engine *e,
						      const struct np_policy *policy,
						      const struct np_plan_opts *opts,
						      unsigned flags, struct np_plan_opts_buf *buf)
{
	static const struct np_plan_opts none = { .sz = sizeof(none) };
	struct np_policy_record *a = &buf->rec;
	const char *cpus = opts && opts->cpus ? opts->cpus : "";

	if ((flags & NP_APPLY_STRICT) || (opts && opts->drop) ||
	    np_store_policy_load(&e->store, a, NULL) < 0 || !a->drop[0] ||
	    strcmp(a->policy, policy->name) || strcmp(a->cpus, cpus))
		return opts;
	buf->opts = opts ? *opts : none;
	buf->opts.drop = a->drop;
	return &buf->opts;
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
		r = np_plan_compute(ctx, policy, with_recorded_drops(&e, policy, opts, flags, &o), cur,
				    &plan, err);
	e.plan_fresh = true;
	if (r >= 0)
		r = np_engine_apply(&e, &cur, plan, flags, err);
	np_state_free(cur);
	np_engine_stop(&e);
	if (plan && ret_plan)
		*ret_plan = plan;
	else
		np_plan_free(plan);
	return r;
}

