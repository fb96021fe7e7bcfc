/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * try: bring a device to one condition after another (its baseline, then
 * policies) under one lock, for the caller to measure its workload in each,
 * and return it to the baseline exactly at the end.
 *
 * One journal covers the whole run: its header's state to return to is the
 * baseline and its commit changes no record, so a process killed in any
 * condition (or while the workload runs) leaves the device for the next
 * command's recovery to roll back to the baseline (doc/kernel.md, "Order of
 * an apply").  Each condition converges through the engine as an apply does
 * (step marks, queue-reopening refinement, verification); a failure
 * converges back to the baseline at once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apply/np_engine.h"
#include "plan/np_policy.h"
#include "np_try.h"

/* A link that renegotiates after a queue change comes up in well under this
 * on every NIC we know (ixgbe and i40e about 2-4 s); a link that stays down
 * longer would make the workload measure nothing. */
#define LINK_WAIT_MS 10000
#define LINK_POLL_MS 100

int np_try_link(struct np_try *t, struct np_link_stats *ret, struct np_error *err)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	if (!t->e.be->ops->link_stats) {
		ret->up = true;
		return 0;
	}
	r = t->e.be->ops->link_stats(t->e.be, t->e.ifname, ret, err);
	/* gone from its name during the run: say whether it was renamed (the
	 * end of the run returns it to the baseline under its new name) */
	if (r == -ENODEV && t->e.have_id && t->e.res) {
		np_error_clear(err);
		r = np_engine_gone(&t->e, NP_PHASE_APPLY, err);
	}
	return r;
}

int np_try_begin(struct np_ctx *ctx, const char *ifname, struct np_try **ret, struct np_error *err)
{
	static const struct np_commit nothing;
	struct np_tentative pending;
	struct np_link_stats ls = { 0 };
	struct np_try *t;
	int r;

	t = calloc(1, sizeof(*t));
	if (!t)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	t->ctx = ctx;
	r = np_engine_begin(&t->e, ctx, ifname, &t->res, true, err);
	t->begun = r >= 0;
	if (r >= 0) {
		/* its way back is recorded as the state before it, not this
		 * run's baseline: measuring on top of it would confuse both */
		r = np_store_tentative_load(&t->e.store, &pending, err);
		if (r >= 0) {
			np_tentative_release(&pending);
			r = np_err(err, -EBUSY, NP_PHASE_NONE, NULL, "a --confirm is pending: confirm "
				   "it or let it expire before trying policies");
		} else if (r == -ENOENT) {
			r = 0;
		}
	}
	if (r >= 0)
		r = np_engine_read(&t->e, &t->cur, NP_PHASE_DISCOVER, err);
	if (r >= 0 && np_state_dup(t->cur, &t->baseline) < 0)
		r = np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	if (r >= 0)
		r = np_try_link(t, &ls, err);
	t->link_was_up = ls.up;
	/* before the journal: readers tell this live run from an interrupted
	 * one by it (try_marker.c) */
	if (r >= 0)
		r = np_store_try_mark(&t->e.store, "baseline", 0, err);
	if (r >= 0)
		r = np_journal_begin(&t->e.store, &t->e.id, t->baseline, "try", &nothing, NULL,
				     &t->e.journal, err);
	if (r < 0) {
		if (t->begun)
			np_store_try_unmark(&t->e.store);
		t->ended = true;	/* nothing was changed: nothing to restore */
		np_try_free(t);
		return r;
	}
	*ret = t;
	return 0;
}

/* The link back up, when it was up at the start (a channel or ring change
 * restarts it on most drivers). */
static int wait_link(struct np_try *t, struct np_error *err)
{
	struct timespec pause = { 0, LINK_POLL_MS * 1000000L };
	struct np_link_stats ls;

	if (!t->link_was_up)
		return 0;
	for (int waited = 0;; waited += LINK_POLL_MS) {
		int r = np_try_link(t, &ls, err);

		if (r < 0 || ls.up)
			return r;
		if (waited >= LINK_WAIT_MS)
			return np_err(err, -ETIMEDOUT, NP_PHASE_VERIFY, NULL, "the link did not come "
				      "up again within %d s", LINK_WAIT_MS / 1000);
		if (t->ctx->cancel_fn && t->ctx->cancel_fn(t->ctx->cancel_ud))
			return np_err(err, -EINTR, NP_PHASE_APPLY, NULL, "interrupted by a signal");
		nanosleep(&pause, NULL);
	}
}

/* Converge to the baseline and prove it; not cancellable (a second signal
 * must not leave the device half-way), as the engine's rollback. */
static int restore(struct np_try *t, struct np_error *err)
{
	struct np_state *before = NULL;
	struct np_error rerr;
	int r;

	np_error_clear(&rerr);
	np_engine_answers_free(&t->e);
	r = np_engine_read(&t->e, &t->cur, NP_PHASE_ROLLBACK, &rerr);
	if (r == -ENODEV && t->e.res->renamed_to[0]) {
		/* Renamed during the run: the same device (its ifindex, checked
		 * on every read) goes back to the baseline under its new name,
		 * as an apply's rollback does. */
		np_log(t->ctx, NP_LOG_NOTICE, "%s: renamed to %s during the run; returning it to "
		       "the baseline there", t->e.ifname, t->e.res->renamed_to);
		snprintf(t->ifname, sizeof(t->ifname), "%s", t->e.res->renamed_to);
		t->e.ifname = t->ifname;
		t->e.res->vanished = false;
		np_error_clear(&rerr);
		r = np_engine_read(&t->e, &t->cur, NP_PHASE_ROLLBACK, &rerr);
	}
	if (r >= 0 && np_state_dup(t->cur, &before) < 0)
		r = np_err(&rerr, -ENOMEM, NP_PHASE_ROLLBACK, NULL, "out of memory");
	if (r >= 0)
		r = np_engine_converge(&t->e, &t->cur, t->baseline, NP_PHASE_ROLLBACK, &rerr);
	if (r >= 0)
		r = np_engine_verify(&t->e, &t->cur, before, t->baseline, NP_PHASE_ROLLBACK, &rerr);
	np_state_free(before);
	if (r < 0) {
		t->e.res->rollback_incomplete = true;
		np_error_format(&rerr, t->e.res->rollback_msg, sizeof(t->e.res->rollback_msg));
		if (err && !err->code)
			*err = rerr;
	}
	return r;
}

/* The policy's plan, refused for the mixed policy: the run's journal names
 * no rules it may insert. */
static int condition_plan(struct np_try *t, const struct np_policy *policy,
			  const struct np_plan_opts *opts, struct np_plan **ret,
			  struct np_error *err)
{
	struct np_plan *plan = NULL;
	int r;

	r = np_plan_compute(t->ctx, policy, opts, t->cur, &plan, err);
	if (r >= 0 && plan->mixed)
		r = np_err(err, -EOPNOTSUPP, NP_PHASE_INPUT, NULL, "the mixed policy cannot be "
			   "tried: its rules are not journaled for a run of conditions");
	if (r < 0) {
		np_plan_free(plan);
		return r;
	}
	*ret = plan;
	return 0;
}

/* Converge from a fresh read to goal (the plan's target when plan is
 * given: refined after a queue change, as an apply does) and verify. */
static int converge(struct np_try *t, const struct np_state *goal, struct np_plan *plan,
		    struct np_error *err)
{
	struct np_state *before = NULL;
	int r;

	np_engine_answers_free(&t->e);
	r = np_engine_read(&t->e, &t->cur, NP_PHASE_APPLY, err);
	if (r >= 0 && np_state_dup(t->cur, &before) < 0)
		r = np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	t->e.before = before;
	t->e.plan = plan;
	t->e.policy = plan ? plan->policy : NULL;
	if (r >= 0)
		r = np_engine_converge(&t->e, &t->cur, goal, NP_PHASE_APPLY, err);
	if (r >= 0)
		r = np_engine_verify(&t->e, &t->cur, before,
				     t->e.refined ? t->e.refined->target : goal, NP_PHASE_VERIFY,
				     err);
	np_plan_free(t->e.refined);
	t->e.refined = NULL;
	t->e.before = NULL;
	t->e.plan = NULL;
	t->e.policy = NULL;
	np_state_free(before);
	return r;
}

/*
 * A policy's condition is reached the way `set` reaches it from the
 * baseline: the device goes back to the baseline first (no writes when it
 * is there), then the policy is planned from that reading and applied.  A
 * plan made from the baseline but applied from another condition's state
 * would meet what that condition's queue change made (a refinement planned
 * from the wrong start).
 */
int np_try_apply(struct np_try *t, const struct np_policy *policy,
		 const struct np_plan_opts *opts, struct np_apply_result *res, struct np_error *err)
{
	struct np_plan *plan = NULL;
	int r;

	memset(res, 0, sizeof(*res));
	if (t->ended || !t->e.journal)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "the run has ended");
	t->e.res = res;
	r = converge(t, t->baseline, NULL, err);
	if (r >= 0 && policy) {
		r = condition_plan(t, policy, opts, &plan, err);
		if (r >= 0)
			r = converge(t, plan->target, plan, err);
	}
	if (r >= 0)
		r = wait_link(t, err);
	if (r == -EINTR)
		res->interrupted = true;
	/* renamed since the last condition: that condition's changes are
	 * undone under the new name, though this one wrote nothing */
	if (r < 0 && (res->n_writes || res->renamed_to[0])) {
		res->rolled_back = true;
		restore(t, NULL);
	}
	res->changed = r >= 0 && res->n_writes > 0;
	t->e.res = &t->res;
	np_plan_free(plan);
	return r;
}

int np_try_end(struct np_try *t, const struct np_policy *keep, const struct np_plan_opts *opts,
	       unsigned flags, struct np_plan **ret_plan, struct np_apply_result *res,
	       struct np_error *err)
{
	struct np_plan *plan = NULL;
	struct np_error jerr;
	int r = 0;

	memset(res, 0, sizeof(*res));
	t->e.res = res;
	if (!t->ended && t->e.journal) {
		r = restore(t, err);
		if (r < 0) {
			/* kept: the next command rolls back to the baseline */
			np_journal_keep(t->e.journal);
		} else {
			np_error_clear(&jerr);
			if (np_journal_drop(t->e.journal, &jerr) < 0)
				np_log(t->ctx, NP_LOG_WARNING, "%s: %s (the next command removes it)",
				       t->e.ifname, jerr.msg);
		}
		t->e.journal = NULL;
		np_store_try_unmark(&t->e.store);
	}
	t->ended = true;
	res->changed = false;
	if (r >= 0 && keep && t->ifname[0])
		r = np_err(err, -ENODEV, NP_PHASE_APPLY, NULL, "the device was renamed to %s "
			   "during the run: nothing is kept", t->ifname);
	if (r >= 0 && keep) {
		/* a plain apply from the baseline, under the lock still held */
		r = np_engine_read(&t->e, &t->cur, NP_PHASE_DISCOVER, err);
		if (r >= 0)
			r = np_plan_compute(t->ctx, keep, opts, t->cur, &plan, err);
		t->e.plan_fresh = true;
		if (r >= 0)
			r = np_engine_apply(&t->e, &t->cur, plan, flags, err);
	}
	t->e.res = &t->res;
	if (plan && ret_plan)
		*ret_plan = plan;
	else
		np_plan_free(plan);
	return r;
}

void np_try_free(struct np_try *t)
{
	struct np_apply_result res;

	if (!t)
		return;
	if (!t->ended)
		np_try_end(t, NULL, NULL, 0, NULL, &res, NULL);
	if (t->e.journal)
		np_journal_keep(t->e.journal);
	t->e.journal = NULL;
	np_engine_stop(&t->e);
	np_state_free(t->baseline);
	np_state_free(t->cur);
	free(t);
}
