/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The apply engine's pieces, shared by its files (apply/engine.c: converge,
 * verify, rollback; apply/verify.c; apply/transaction.c: apply, reset,
 * recovery; apply/tentative.c: --confirm). */
#ifndef NP_ENGINE_H
#define NP_ENGINE_H

#include "apply/np_journal.h"
#include "plan/np_plan.h"
#include "apply/np_store.h"

/* What the device said right after one of our writes: a value the driver
 * answered with (rounded), to tell from a change another writer made later. */
struct np_answer {
	const char *knob;
	char what[48];
	char value[80];
};

struct np_engine {
	struct np_ctx *ctx;
	struct np_backend *be;
	struct np_store store;
	const char *ifname;
	struct np_ident id;		/* the device, as first read under the lock */
	bool have_id;
	struct np_journal *journal;
	struct np_apply_result *res;
	unsigned step;			/* steps written so far in this run */
	const struct np_policy *policy;	/* apply: plan again after queues reopened */
	const char *cpus;
	char drop[128];			/* apply: knobs left out (np_plan_opts.drop) */
	const char *failed_knob;	/* the knob of the step that failed */
	uint32_t failed_fields;		/* ... and the fields it sent (coalesce) */
	bool failed_answer;		/* ... the driver's answer failed it, not an errno */
	bool split;			/* apply: one field per coalescing request (refuse.c) */
	bool strict;			/* apply: NP_APPLY_STRICT, all or nothing */
	const char *left;		/* the knob a rollback left where the kernel
					 * put it (np_refusal_leave), else NULL */
	const struct np_plan *plan;	/* apply: the plan being run */
	struct np_plan *refined;	/* ... refined after queues reopened (np_plan_refine) */
	struct np_plan *done;		/* a run's steps as written, for the report */
	const struct np_state *before;	/* a run: the device where it started */
	bool fresh;			/* *cur was read after the last write */
	bool plan_fresh;		/* the plan was made from *cur as read under the lock */
	bool reopened;			/* a step reopened queues */
	bool tentative;			/* call the tentative hook before the first write */
	struct np_answer *answers;
	size_t n_answers;
};

/* Validate, take the device's lock through the store. */
int np_engine_start(struct np_engine *e, struct np_ctx *ctx, const char *ifname,
		    struct np_apply_result *res, struct np_error *err);
void np_engine_stop(struct np_engine *e);
/* A run that changed the device: give plan the steps as they were written
 * (after any re-plan, IRQs named as they were at the write) instead of the
 * ones planned before the first write. */
void np_engine_report(struct np_engine *e, struct np_plan *plan);
/* The change of p's steps of knob named what, or NULL (verify.c). */
const struct np_change *np_engine_find_change(const struct np_plan *p, const char *knob,
					      const char *what);
/* After a run: add to its steps as written, marked the driver's, what
 * changed from before to now that no step wrote (apply/report.c). */
void np_engine_driver_changes(struct np_engine *e, const struct np_state *before,
			      const struct np_state *now);
/* Start, then finish what an interrupted run left (recovery once, under the
 * lock) and, with expire, revert a --confirm whose deadline passed: where
 * every command that changes the device begins. */
int np_engine_begin(struct np_engine *e, struct np_ctx *ctx, const char *ifname,
		    struct np_apply_result *res, bool expire, struct np_error *err);
/* With the lock held and *cur freshly read: apply `plan` (or only its
 * records when the device is at its target already; e->plan_fresh: the plan
 * was made from *cur, so its steps say that). */
int np_engine_apply(struct np_engine *e, struct np_state **cur, const struct np_plan *plan,
		    unsigned flags, struct np_error *err);

/* read.c: the device is no longer under its name here; says what became of
 * it (-ENODEV, res->vanished, res->renamed_to). */
int np_engine_gone(struct np_engine *e, enum np_phase phase, struct np_error *err);
/* Read the device; after the first read, a device that is not the same one
 * (renamed, moved to another namespace, deleted) is -ENODEV with res->vanished
 * (and res->renamed_to) set. */
int np_engine_read(struct np_engine *e, struct np_state **cur, enum np_phase phase,
		   struct np_error *err);
/* Journal, converge to goal, verify; on failure roll back.  commit: the
 * record changes once it succeeded. */
int np_engine_run(struct np_engine *e, struct np_state **cur, const struct np_state *goal,
		  const char *what, struct np_commit *commit, struct np_error *err);
/* Converge without a journal (recovery); in an apply of a policy's plan,
 * the knobs after a queue-reopening step converge to the plan refined from
 * the device as that step left it (e->refined). */
int np_engine_converge(struct np_engine *e, struct np_state **cur, const struct np_state *goal,
		       enum np_phase phase, struct np_error *err);
/* With the lock held: finish or roll back what an interrupted run left. */
int np_engine_recover(struct np_engine *e, struct np_error *err);
/* Every difference between the device and goal, as a plan (empty = equal). */
int np_engine_remaining(struct np_engine *e, const struct np_state *cur,
			const struct np_state *goal, struct np_plan *p);
/* Free what np_engine_remaining made (the plan borrows its target). */
void np_engine_steps_free(struct np_plan *p);

/* verify.c: remember the driver's answer for what `knob` just wrote. */
int np_engine_answer(struct np_engine *e, const struct np_knob *knob, const struct np_state *cur,
		     const struct np_state *goal);
/* Re-read and check that the device is at goal (before: where the run started). */
int np_engine_verify(struct np_engine *e, struct np_state **cur, const struct np_state *before,
		     const struct np_state *goal, enum np_phase phase, struct np_error *err);
void np_engine_answers_free(struct np_engine *e);
/* Right after a coalescing step of an apply: the receive delay (rx-usecs,
 * rx-frames) the driver answered with went the other way from the one the
 * goal asked (a driver whose Rx and Tx share one timer took tx-usecs): the
 * step fails as the driver's refusal of the fields it sent (refuse.c). */
int np_engine_defeated(struct np_engine *e, const struct np_step *s, const struct np_state *cur,
		       const struct np_state *goal, struct np_error *err);

/* tentative.c: with the lock held, revert a tentative apply whose deadline
 * passed (0 when none did). */
int np_tentative_expire(struct np_engine *e, struct np_error *err);
/* With the lock held: return to the marker's state and policy record. */
int np_tentative_revert(struct np_engine *e, const struct np_tentative *t, struct np_error *err);

#endif
