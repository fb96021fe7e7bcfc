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
 *
 * This file is the expired marker's revert every changing command runs
 * under the lock before its own work (np_engine_begin in engine.c, after
 * crash recovery); confirm.c is the API that ends a pending change.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "apply/np_engine.h"

/* With the lock held: return to the marker's state and policy record. */
int np_tentative_revert(struct np_engine *e, const struct np_tentative *t, struct np_error *err)
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

	/* a late confirm after this set or reset has nothing to be late for */
	r = np_store_remove(&e->store, NP_FILE_EXPIRED, err);
	if (r < 0)
		return r;
	r = np_store_tentative_load(&e->store, &t, err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if ((long long)time(NULL) >= t.deadline) {
		np_log(e->ctx, NP_LOG_WARNING, "%s: a 'set --confirm' was not confirmed in time; "
		       "reverting it first", e->ifname);
		r = np_tentative_revert(e, &t, err);
		e->res->recovered = r >= 0;
		/* what follows starts from here: its own counts and steps */
		e->res->n_writes = 0;
		e->res->changed = false;
		e->step = 0;
	}
	np_tentative_release(&t);
	return r;
}
