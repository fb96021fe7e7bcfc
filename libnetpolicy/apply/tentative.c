/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * set --confirm as a transaction.  The apply's journal carries the marker
 * to write at commit (token, deadline, the state and policy record to
 * return to), and the watchdog is started before the first write
 * (np_engine_run).  After that the marker is the truth: `confirm` removes
 * it; the watchdog, or any later command that changes the device and finds
 * its deadline passed, reverts to its state; `reset` removes it with the
 * rest; a plain `set` keeps its own change and so ends it.  The marker
 * keeps the policy and sysctl records as they were before the first
 * pending --confirm, and the revert puts both back.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "np_engine.h"

/* With the lock held: return to the marker's state and policy record. */
static int revert_locked(struct np_engine *e, const struct np_tentative *t, struct np_error *err)
{
	struct np_commit c = { .tentative = NP_REC_REMOVE };
	struct np_state *cur = NULL;
	struct np_ident tid;
	int r;

	r = np_engine_read(e, &cur, NP_PHASE_ROLLBACK, err);
	if (r < 0)
		return r;
	np_ident_of(e->ctx, t->before, &tid);
	tid.netns = 0;	/* the marker keeps no namespace: the lock's device is it */
	if (!np_ident_same(&tid, &e->id)) {
		/* for an earlier device of that name: nothing of it to revert */
		np_log(e->ctx, NP_LOG_WARNING, "%s: the pending --confirm is of an earlier device "
		       "of that name; dropping it", e->ifname);
		np_state_free(cur);
		return np_store_remove(&e->store, NP_FILE_TENTATIVE, err);
	}
	c.policy = t->has_policy ? NP_REC_SET : NP_REC_REMOVE;
	if (t->has_policy)
		c.policy_rec = t->policy;
	/* the machine-wide needs recorded before the tentative set: its own
	 * would keep other devices' plans raising what nothing needs */
	if (t->sysctl_known) {
		c.sysctl = t->has_sysctl ? NP_REC_SET : NP_REC_REMOVE;
		c.sysctl_rec = t->sysctl;
	}
	r = np_engine_run(e, &cur, t->before, "revert", &c, err);
	np_state_free(cur);
	return r;
}

int np_tentative_expire(struct np_engine *e, struct np_error *err)
{
	struct np_tentative t;
	int r;

	r = np_store_tentative_load(&e->store, &t, err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if ((long long)time(NULL) >= t.deadline) {
		np_log(e->ctx, NP_LOG_WARNING, "%s: a 'set --confirm' was not confirmed in time; "
		       "reverting it first", e->ifname);
		r = revert_locked(e, &t, err);
		e->res->recovered = r >= 0;
		/* what follows starts from here: its own counts and steps */
		e->res->n_writes = 0;
		e->res->changed = false;
		e->step = 0;
	}
	np_tentative_release(&t);
	return r;
}

int np_confirm(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
	       struct np_error *err)
{
	struct np_tentative t;
	struct np_engine e;
	int r;

	r = np_engine_begin(&e, ctx, ifname, res, false, err);
	if (r >= 0)
		r = np_store_tentative_load(&e.store, &t, err);
	if (r == -ENOENT)
		r = np_err(err, -ENOENT, NP_PHASE_INPUT, NULL, "no tentative change to confirm");
	if (r < 0)
		goto out;
	if ((long long)time(NULL) >= t.deadline) {
		/* Too late: the promise was to revert, whoever comes first. */
		r = revert_locked(&e, &t, err);
		if (r >= 0)
			r = np_err(err, -ETIME, NP_PHASE_APPLY, NULL, "too late: the deadline passed; "
				   "the change was rolled back");
		e.res->rolled_back = e.res->rolled_back || e.res->changed;
		e.res->changed = false;
	} else {
		r = np_store_remove(&e.store, NP_FILE_TENTATIVE, err);
	}
	np_tentative_release(&t);
out:
	np_engine_stop(&e);
	return r;
}

int np_revert_tentative(struct np_ctx *ctx, const char *ifname, unsigned long long token,
			struct np_apply_result *res, struct np_error *err)
{
	struct np_tentative t;
	struct np_engine e;
	int r;

	r = np_engine_begin(&e, ctx, ifname, res, false, err);
	if (r >= 0) {
		r = np_store_tentative_load(&e.store, &t, err);
		if (r == -ENOENT) {
			r = 0;		/* confirmed, reset or superseded: nothing to do */
		} else if (r >= 0) {
			if (t.token == token)
				r = revert_locked(&e, &t, err);
			np_tentative_release(&t);
		}
	}
	np_engine_stop(&e);
	return r;
}

static int load_pending(struct np_store *s, void *ud, struct np_error *err)
{
	struct np_pending *ret = ud;
	struct np_tentative t;
	int r;

	ret->journal = np_store_has(s, NP_FILE_JOURNAL);
	r = np_store_tentative_load(s, &t, err);
	if (r < 0)
		return r;
	ret->tentative = true;
	ret->deadline = t.deadline;
	ret->token = t.token;
	np_tentative_release(&t);
	return 0;
}

int np_pending_state(struct np_ctx *ctx, const char *ifname, struct np_pending *ret,
		     struct np_error *err)
{
	memset(ret, 0, sizeof(*ret));
	return np_store_peek(ctx, ifname, load_pending, ret, err);
}
