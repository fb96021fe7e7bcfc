/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The apply engine.  One algorithm, "converge": walk the knobs in apply
 * order, diff the live device against a goal state, write what differs,
 * and re-read the device after any step that reopens queues (drivers reset
 * IRQ affinity and XPS then, so those are diffed again from what is really
 * there).  Apply converges towards the plan's target; rollback converges
 * towards the state saved before the first write; reset converges towards
 * the pristine snapshot.  Each is verified by re-reading everything.
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drivers/np_drivers.h"
#include "apply/np_engine.h"
#include "apply/np_refuse.h"
#include "plan/np_policy.h"
#include "np_test_hooks.h"

int np_engine_start(struct np_engine *e, struct np_ctx *ctx, const char *ifname,
		    struct np_apply_result *res, struct np_error *err)
{
	int r;

	memset(res, 0, sizeof(*res));
	memset(e, 0, sizeof(*e));
	e->ctx = ctx;
	e->ifname = ifname;
	e->res = res;
	e->store.dirfd = e->store.lockfd = -1;
	r = np_ifname_validate(ifname, err);
	if (r < 0)
		return r;
	r = np_ctx_backend(ctx, &e->be, err);
	if (r < 0)
		return r;
	/* Say so at once, rather than fail at the first write and roll back:
	 * sysfs and procfs tuning files are root's, whatever the capabilities. */
	if (!ctx->model && geteuid() != 0)
		return np_err(err, -EPERM, NP_PHASE_APPLY, NULL,
			      "changing a device needs root (nothing was changed)");
	return np_store_open(ctx, ifname, &e->store, err);
}

void np_engine_stop(struct np_engine *e)
{
	/* A lock file for a device that does not exist and has nothing
	 * recorded is litter: `set` on a typo must leave nothing behind. */
	bool forget = e->store.lockfd >= 0 && !e->have_id && !e->res->vanished;

	for (int f = 0; forget && f < NP_FILE__COUNT; f++)
		if (np_store_has(&e->store, (enum np_file)f))
			forget = false;
	if (forget) {
		struct np_state *st = NULL;

		forget = np_discover(e->ctx, e->ifname, &st, NULL) == -ENODEV;
		np_state_free(st);
	}
	np_store_close(&e->store, forget);
	np_engine_answers_free(e);
	np_plan_free(e->done);
	e->done = NULL;
}

/* Keep step s of p as written.  Memory running out costs the report its
 * exactness, never the apply: the planned steps are reported then. */
static void written(struct np_engine *e, const struct np_plan *p, const struct np_step *s)
{
	bool ok = e->done || np_plan_new(&e->done) >= 0;

	ok = ok && np_plan_add_step(e->done, s->knob, s->index, s->fields) >= 0;
	for (unsigned k = 0; ok && k < s->n_changes; k++) {
		const struct np_change *c = &p->changes[s->first_change + k];

		ok = np_plan_add_change(e->done, c->what, &c->before, &c->after) >= 0;
	}
	if (!ok) {
		np_plan_free(e->done);
		e->done = NULL;
	}
}

/* Only what a step may have changed besides what it wrote (knob->rereads):
 * the engine reads the whole device once before and once to verify. */
static int refresh(struct np_engine *e, struct np_state **cur, unsigned parts,
		   enum np_phase phase, struct np_error *err)
{
	int r;

	if (!e->be->ops->refresh)
		return np_engine_read(e, cur, phase, err);
	e->ctx->counts.refreshes++;
	r = e->be->ops->refresh(e->be, *cur, parts, err);
	if (r == -ENODEV && e->have_id)
		return np_engine_gone(e, phase, err);
	if (r < 0 && err)
		err->phase = phase;
	return r;
}

static bool cancelled(struct np_engine *e)
{
	return e->ctx->cancel_fn && e->ctx->cancel_fn(e->ctx->cancel_ud);
}

/* One step: journal it, write it, and where the driver decides what it
 * keeps (a queue change, coalescing it rounds to its timer) read back at
 * once what it made of it, before anyone else can change it.  The other
 * knobs are sysfs and procfs files the kernel stores as written, or
 * refuses: verify's read is theirs. */
static int step(struct np_engine *e, struct np_state **cur, const struct np_state *goal,
		const struct np_plan *p, size_t i, enum np_phase phase, struct np_error *err)
{
	const struct np_step *s = &p->steps[i];
	const struct np_knob *knob = s->knob;
	const char *what = s->n_changes ? p->changes[s->first_change].what : "";
	bool last = i + 1 == p->n_steps;
	int r;

	if (phase == NP_PHASE_APPLY && cancelled(e)) {
		e->res->interrupted = true;
		return np_err(err, -EINTR, phase, NULL, "interrupted by a signal");
	}
	/* A rollback needs no marks: recovery returns to the header's state. */
	if (e->journal && phase != NP_PHASE_ROLLBACK) {
		r = np_journal_mark(e->journal, "start", e->step, knob->name, what, err);
		if (r < 0)
			return r;
	}
	e->res->n_writes++;
	e->fresh = false;
	r = knob->apply(e->be, *cur, goal, s, err);
	if (r < 0) {
		e->failed_knob = knob->name;
		e->failed_fields = s->fields;
		if (err) {
			err->phase = phase;
			err->step = (int)e->step;
			if (!err->knob)
				err->knob = knob->name;
		}
		return r;
	}
	if (e->journal && phase != NP_PHASE_ROLLBACK) {
		r = np_journal_mark(e->journal, "done", e->step, knob->name, what, err);
		if (r < 0)
			return r;
	}
	if (phase == NP_PHASE_APPLY)
		written(e, p, s);
	/* each coalescing request read back: which one moved what (verify.c) */
	if (phase == NP_PHASE_APPLY && (last || knob == &np_knob_coalesce) && knob->rereads) {
		r = refresh(e, cur, knob->rereads, phase, err);
		if (r >= 0)
			r = np_engine_answer(e, knob, *cur, goal);
		if (r >= 0 && knob == &np_knob_coalesce && e->policy)
			r = np_engine_defeated(e, s, *cur, goal, err);
		if (r < 0)
			return r == -ENOMEM ? np_err(err, r, phase, NULL, "out of memory") : r;
	}
	if (e->ctx->step_fn)
		e->ctx->step_fn(e->ctx->step_ud, e->step, knob->name, what);
	e->step++;
	return 0;
}

/*
 * A plan is made from the device as it was; a queue change can bring what
 * the plan could not know (drivers that request one IRQ per queue at open:
 * the new queues' IRQs exist only now).  Right after it, the planner refines
 * the plan from what was read again (np_plan_refine: a fixed point for what
 * the plan set, covering the rest), and the knobs after it converge to that.
 */
static int refine(struct np_engine *e, const struct np_state *cur, struct np_error *err)
{
	struct np_plan *p = NULL;
	int r;

	e->ctx->counts.refines++;
	r = np_plan_refine(e->plan, cur, e->before, &p, err);
	if (r < 0)
		return r;
	np_plan_free(e->refined);
	e->refined = p;
	return 0;
}

static bool rules_made_way(const struct np_state *cur)
{
	const struct np_driver *drv = np_driver_lookup(cur->dev.driver);

	return drv && drv->rules_block_channels && cur->dev.steer.n_rules;
}

int np_engine_converge(struct np_engine *e, struct np_state **cur, const struct np_state *goal,
		       enum np_phase phase, struct np_error *err)
{
	e->ctx->counts.diffs++;
	for (size_t k = 0; np_knobs[k]; k++) {
		const struct np_knob *knob = np_knobs[k];
		struct np_plan p = { .target = (struct np_state *)goal,
				     .split = e->split && phase == NP_PHASE_APPLY };
		bool reread = false;
		int r;

		r = knob->diff(&p, *cur, goal);
		if (r < 0)
			r = np_err(err, r, phase, knob->name, "out of memory");
		for (size_t i = 0; r >= 0 && i < p.n_steps; i++) {
			r = step(e, cur, goal, &p, i, phase, err);
			reread = phase == NP_PHASE_APPLY && knob->rereads;
		}
		if (r >= 0 && p.n_steps && knob->reopens_queues) {
			e->reopened = true;
			if (!reread)
				r = refresh(e, cur, knob->rereads, phase, err);
			/* the rules deleted to make way (knob/steer.c) are still
			 * in the reading: a driver that took the change has none */
			if (r >= 0 && knob == &np_knob_channels && rules_made_way(*cur))
				r = np_engine_read(e, cur, phase, err);
			if (r >= 0 && phase == NP_PHASE_APPLY && e->plan && e->plan->policy) {
				r = refine(e, *cur, err);
				if (r >= 0)
					goal = e->refined->target;
			}
		}
		np_engine_steps_free(&p);
		if (r < 0)
			return r;
	}
	return 0;
}

static void describe_diff(const struct np_plan *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n_steps && used < len; i++) {
		const struct np_step *s = &p->steps[i];

		for (unsigned k = 0; k < s->n_changes && used < len; k++) {
			const struct np_change *c = &p->changes[s->first_change + k];
			char x[80], y[80];
			int n;

			np_value_format(&c->before, x, sizeof(x));
			np_value_format(&c->after, y, sizeof(y));
			n = snprintf(buf + used, len - used, "%s%s %s is %s, want %s",
				     used ? "; " : "", s->knob->name, c->what, x, y);

			if (n < 0)
				return;
			used += (size_t)n;
		}
	}
}

/* Rules put back where the driver chose (np_goal_placeable): the policy
 * record names where they are now, before the journal goes. */
static void relocated(struct np_engine *e, const struct np_state *before,
		      const struct np_state *cur)
{
	struct np_error rerr;

	np_error_clear(&rerr);
	if (np_store_policy_relocate(&e->store, before, cur, &rerr) < 0)
		np_log(e->ctx, NP_LOG_WARNING, "%s: %s", e->ifname, rerr.msg);
}

/* Return the device to `before` after the run failed with `why`; say in
 * res whether that worked.  Not cancellable: a second signal must not
 * leave the device half-way. */
static void rollback(struct np_engine *e, struct np_state **cur, const struct np_state *before,
		     const struct np_error *why)
{
	const char *refused = e->failed_knob;
	struct np_state *placed = NULL;
	struct np_plan *kept = NULL;
	const struct np_state *goal = before;
	const char *ifname = e->ifname;
	struct np_error rerr;
	struct np_plan left;
	int r;

	np_error_clear(&rerr);
	e->res->rolled_back = true;
	np_log(e->ctx, NP_LOG_INFO, "%s: rolling back", e->ifname);
	r = np_engine_read(e, cur, NP_PHASE_ROLLBACK, &rerr);
	if (r == -ENODEV && e->res->renamed_to[0]) {
		/* Renamed during the run: the same device (its ifindex in
		 * this namespace, known since the run's first read, checked
		 * on every read) is rolled back under its new name. */
		np_log(e->ctx, NP_LOG_NOTICE, "%s: renamed to %s during the run; rolling it back "
		       "there", e->ifname, e->res->renamed_to);
		e->ifname = e->res->renamed_to;
		e->res->vanished = false;
		np_error_clear(&rerr);
		r = np_engine_read(e, cur, NP_PHASE_ROLLBACK, &rerr);
	}
	if (r == -ENODEV) {
		/* Not here any more: nothing to restore here, and the journal
		 * is kept in case it comes back (renamed back, moved back). */
		e->res->vanished = true;
		e->res->rolled_back = false;
		goto out;
	}
	if (r >= 0 && np_goal_placeable(*cur, before, &placed) < 0)
		r = np_err(&rerr, -ENOMEM, NP_PHASE_ROLLBACK, NULL, "out of memory");
	if (placed)
		goal = placed;
	if (r >= 0)
		r = np_engine_converge(e, cur, goal, NP_PHASE_ROLLBACK, &rerr);
	/* a knob refused both ways, moved by the kernel: left there */
	if (r < 0 && np_refusal_leave(e, refused, why, &rerr, *cur, goal, &kept)) {
		goal = kept->target;
		/* what the rollback wrote before the refusal, read */
		r = np_engine_read(e, cur, NP_PHASE_ROLLBACK, &rerr);
		if (r >= 0)
			r = np_engine_converge(e, cur, goal, NP_PHASE_ROLLBACK, &rerr);
	}
	if (r >= 0)
		r = np_engine_read(e, cur, NP_PHASE_ROLLBACK, &rerr);
	if (r >= 0 && np_engine_remaining(e, *cur, goal, &left) >= 0) {
		if (left.n_steps) {
			e->res->rollback_incomplete = true;
			describe_diff(&left, e->res->rollback_msg, sizeof(e->res->rollback_msg));
		} else if (placed) {
			relocated(e, before, *cur);
		}
		np_engine_steps_free(&left);
		goto out;
	}
	if (r == -ENODEV) {
		e->res->vanished = true;
		e->res->rolled_back = false;
		goto out;
	}
	e->res->rollback_incomplete = true;
	np_error_format(&rerr, e->res->rollback_msg, sizeof(e->res->rollback_msg));
out:
	e->ifname = ifname;	/* the records stay under the name the run began with */
	np_state_free(placed);
	np_plan_free(kept);
}

/* --confirm: the deadline and the way back are on disk now; the watchdog
 * starts before the first write, or nothing is written (the journal is
 * dropped). */
static int start_watchdog(struct np_engine *e, struct np_commit *commit, struct np_error *err)
{
	struct np_error jerr;
	int r;

	if (!e->tentative || !e->ctx->tentative_fn)
		return 0;
	/* once: an apply planned again after a refusal keeps the token */
	e->tentative = false;
	r = e->ctx->tentative_fn(e->ctx->tentative_ud, commit->tentative_rec.token,
				 commit->tentative_rec.deadline);
	if (r < 0) {
		np_err(err, r, NP_PHASE_APPLY, NULL, "cannot start the --confirm watchdog");
		np_error_clear(&jerr);
		np_journal_drop(e->journal, &jerr);
		e->journal = NULL;
	}
	return r;
}

/* The run counts once "commit" is on disk; if it cannot be (or r already
 * failed), the device is rolled back and the journal dropped, or kept when
 * the rollback could not finish.  Returns the run's result. */
static int end_run(struct np_engine *e, struct np_state **cur, const struct np_state *before,
		   int r, struct np_error *err)
{
	struct np_error jerr;

	if (r >= 0)
		r = np_journal_commit(e->journal, err);
	if (r < 0) {
		rollback(e, cur, before, err);
		if (e->res->rollback_incomplete || e->res->vanished) {
			/* kept: the next run retries (or finds the device again) */
			np_journal_keep(e->journal);
		} else {
			np_error_clear(&jerr);
			if (np_journal_drop(e->journal, &jerr) < 0)
				np_log(e->ctx, NP_LOG_WARNING, "%s: %s (the next command removes it)",
				       e->ifname, jerr.msg);
		}
	} else {
		e->res->changed = e->res->n_writes > 0;
		/* The records, then the journal's removal; a failure here leaves
		 * a committed journal that the next command completes. */
		r = np_journal_finish(e->journal, err);
		if (r < 0)
			e->res->unrecorded = true;
	}
	e->journal = NULL;
	return r;
}

int np_engine_run(struct np_engine *e, struct np_state **cur, const struct np_state *goal,
		  const char *what, struct np_commit *commit, struct np_error *err)
{
	struct np_state *before = NULL, *placed = NULL;
	const struct np_state *asked = goal;
	struct np_steer intent = { 0 };
	int r;

	/* a run planned again after a refusal reports its own steps */
	if (e->done)
		e->done->n_steps = e->done->n_changes = 0;
	r = np_state_dup(*cur, &before);
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, NULL, "out of memory");
	e->before = before;
	/* a snapshot's rules (a revert's) go back where the driver says */
	r = np_goal_placeable(before, goal, &placed);
	if (placed)
		goal = placed;
	if (r >= 0)
		r = np_intent(before, goal, &intent);
	if (r < 0) {
		r = np_err(err, r, NP_PHASE_APPLY, NULL, "out of memory");
		goto out;
	}
	r = np_journal_begin(&e->store, &e->id, before, what, commit, &intent, &e->journal, err);
	np_steer_clear(&intent);
	if (r < 0)
		goto out;
	r = start_watchdog(e, commit, err);
	if (r < 0)
		goto out;
	r = np_engine_converge(e, cur, goal, NP_PHASE_APPLY, err);
	if (r >= 0)
		r = np_engine_verify(e, cur, before, e->refined ? e->refined->target : goal,
				     NP_PHASE_VERIFY, err);
	if (r >= 0 && e->reopened)
		np_engine_driver_changes(e, before, *cur);
	/* fields the driver answered with values of its own (verify.c) */
	if (r >= 0 && e->policy && commit->policy != NP_REC_REMOVE &&
	    strcmp(commit->policy_rec.drop, e->drop)) {
		commit->policy = NP_REC_SET;
		snprintf(commit->policy_rec.drop, sizeof(commit->policy_rec.drop), "%s", e->drop);
		r = np_journal_policy(e->journal, &commit->policy_rec, err);
	}
	/* Rules the driver placed (RX_CLS_LOC_ANY): the record names where
	 * they went, on disk before "commit" (apply/owned_rules.c); a kill
	 * before it rolls back to the header's state, which has none of them */
	if (r >= 0 && commit->policy == NP_REC_SET && commit->policy_rec.has_mixed &&
	    np_mixed_record_resolve(&commit->policy_rec.mixed, *cur,
				    e->refined ? e->refined->target : asked) +
	    (placed ? np_mixed_record_relocate(&commit->policy_rec.mixed, asked, *cur) : 0))
		r = np_journal_policy(e->journal, &commit->policy_rec, err);
	r = end_run(e, cur, before, r, err);
out:
	np_plan_free(e->refined);
	e->refined = NULL;
	e->before = NULL;
	np_state_free(before);
	np_state_free(placed);
	return r;
}

/* The journal names a device other than the one under this name now: in
 * another namespace or renamed (the user acts), or gone (the journal goes:
 * it must not be applied to whatever has the name now). */
static int journal_of_another(struct np_engine *e, const struct np_journal_info *info,
			      const struct np_ident *id, struct np_error *err)
{
	char name[IF_NAMESIZE];

	if (info->id.netns && id->netns && info->id.netns != id->netns)
		return np_err(err, -EBUSY, NP_PHASE_ROLLBACK, NULL, "the journal of an interrupted "
			      "run is for %s in another network namespace: run netpolicy there",
			      e->ifname);
	if (!e->ctx->model && if_indextoname((unsigned)info->id.ifindex, name))
		return np_err(err, -EBUSY, NP_PHASE_ROLLBACK, NULL, "the journal of an interrupted "
			      "run is for the device now named %s (ifindex %d): rename it back to "
			      "%s to roll it back", name, info->id.ifindex, e->ifname);
	np_log(e->ctx, NP_LOG_WARNING, "%s: the interrupted run's device is gone; "
	       "dropping its journal", e->ifname);
	return np_store_remove(&e->store, NP_FILE_JOURNAL, err);
}

/* An uncommitted journal's device back to the journal's "before". */
static int roll_back_journal(struct np_engine *e, const struct np_journal_info *info,
			     struct np_state **cur, struct np_error *err)
{
	struct np_state *goal = NULL, *placed = NULL;
	struct np_error jerr;
	int r;

	r = np_recovery_goal(info, *cur, &goal);
	if (r >= 0)
		r = np_goal_placeable(*cur, goal, &placed);
	if (placed) {
		np_state_free(goal);
		goal = placed;
	}
	if (r < 0) {
		r = np_err(err, r, NP_PHASE_ROLLBACK, NULL, "out of memory");
		goto out;
	}
	r = np_engine_converge(e, cur, goal, NP_PHASE_ROLLBACK, err);
	/* the interrupted run's changes undone change the device, whatever
	 * the command does next (an empty plan, a failure rolled back) */
	if (e->res->n_writes)
		e->res->recovery_wrote = true;
	if (r >= 0)
		r = np_engine_verify(e, cur, info->before, goal, NP_PHASE_ROLLBACK, err);
	if (r >= 0) {
		/* The device is back; a journal we cannot remove (a read-only
		 * state directory) only makes the next command repeat this
		 * rollback, which then writes nothing. */
		relocated(e, info->before, *cur);
		np_error_clear(&jerr);
		if (np_store_remove(&e->store, NP_FILE_JOURNAL, &jerr) < 0)
			np_log(e->ctx, NP_LOG_WARNING, "%s: %s", e->ifname, jerr.msg);
	} else if (r != -ENODEV) {
		e->res->rollback_incomplete = true;
		np_error_format(err, e->res->rollback_msg, sizeof(e->res->rollback_msg));
	}
out:
	np_state_free(goal);
	return r;
}

/* An uncommitted run is rolled back; a committed one's records are made. */
int np_engine_recover(struct np_engine *e, struct np_error *err)
{
	struct np_journal_info info;
	struct np_state *cur = NULL;
	struct np_ident id;
	int r;

	r = np_journal_load(&e->store, &info, err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	/* Acting on a journal ends in removing it: in a directory that cannot
	 * be written (read-only mount, immutable) a rollback could not be
	 * recorded, so the next command would roll back again and this one
	 * could not say "nothing was changed".  Refused before any write. */
	if (faccessat(e->store.dirfd, ".", W_OK, AT_EACCESS) < 0) {
		r = -errno;
		r = np_err(err, r, NP_PHASE_STATE, NULL, "state directory %s cannot be written (%s): "
			   "an interrupted run's journal there is kept and the device left as it "
			   "is; make it writable and run netpolicy again", e->ctx->state_dir,
			   strerror(-r));
		goto out;
	}
	if (info.committed) {
		np_log(e->ctx, NP_LOG_INFO, "%s: completing the records of an earlier run", e->ifname);
		r = np_journal_complete(&e->store, &info, err);
		goto out;
	}
	np_log(e->ctx, NP_LOG_WARNING,
	       "%s: an earlier netpolicy run was interrupted %s; rolling it back", e->ifname,
	       info.last);
	r = np_discover(e->ctx, e->ifname, &cur, err);
	if (r == -ENODEV) {
		r = np_err(err, -ENODEV, NP_PHASE_DISCOVER, NULL, "no such device (an interrupted "
			   "run's journal is kept for it in %s)", e->ctx->state_dir);
		goto out;
	}
	if (r < 0)
		goto out;
	np_ident_of(e->ctx, cur, &id);
	if (!np_ident_same(&id, &info.id)) {
		r = journal_of_another(e, &info, &id, err);
		goto out;
	}
	e->res->recovered = true;
	e->id = info.id;
	e->have_id = true;
	r = roll_back_journal(e, &info, &cur, err);
out:
	/* a killed try's marker (try_marker.c) goes with its journal */
	if (r >= 0)
		np_store_try_unmark(&e->store);
	np_journal_info_release(&info);
	np_state_free(cur);
	return r;
}
