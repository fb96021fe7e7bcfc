/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The engine's public entry points for a device's life: apply a plan (or a
 * policy), reset to the pristine snapshot, recover an interrupted run, and
 * what the records say.  Each takes the device's lock, finishes what an
 * interrupted run left, and says in one np_commit which records change when
 * its run succeeds (np_journal.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#include "apply/np_engine.h"
#include "plan/np_policy.h"
#include "apply/np_refuse.h"

static int has_journal(struct np_store *s, void *ud, struct np_error *err)
{
	(void)ud;
	(void)err;
	return np_store_has(s, NP_FILE_JOURNAL);
}

int np_recover(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
	       struct np_error *err)
{
	struct np_engine e;
	int r;

	/* Cheap and read-only when there is nothing to recover: must not
	 * create the state directory. */
	memset(res, 0, sizeof(*res));
	r = np_store_peek(ctx, ifname, has_journal, NULL, err);
	if (r <= 0)
		return r;
	r = np_engine_begin(&e, ctx, ifname, res, false, err);
	np_engine_stop(&e);
	return r;
}

/* Records are zeroed before they are filled (np_store.h): compared whole. */
static bool same_record(const struct np_policy_record *a, const struct np_policy_record *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* A record to load: absent is none; damaged is an error. */
static int policy_current(struct np_store *s, struct np_policy_record *rec, bool *has,
			  struct np_error *err)
{
	int r = np_store_policy_load(s, rec, err);

	*has = r >= 0;
	if (r == -ENOENT) {
		memset(rec, 0, sizeof(*rec));
		return 0;
	}
	return r;
}

static int token_new(unsigned long long *ret, struct np_error *err)
{
	unsigned long long t;

	if (getrandom(&t, sizeof(t), 0) != (ssize_t)sizeof(t))
		return np_err(err, -EIO, NP_PHASE_APPLY, NULL, "getrandom: %s", strerror(errno));
	*ret = t & ((1ULL << 53) - 1);	/* exact in JSON numbers */
	return 0;
}

/*
 * The record changes of an apply: the policy record; for a tentative apply
 * a marker whose way back is the state before the FIRST pending --confirm
 * (a second one does not make the first permanent); a plain apply keeps
 * its change, so it ends a pending confirm.
 */
static int apply_commit(struct np_engine *e, const struct np_state *cur, const struct np_plan *plan,
			unsigned flags, struct np_commit *c, struct np_tentative *pending,
			struct np_error *err)
{
	struct np_policy_record rec;
	bool has_rec;
	int r;

	memset(c, 0, sizeof(*c));
	r = policy_current(&e->store, &rec, &has_rec, err);
	if (r < 0)
		return r;
	if (plan->policy) {
		/* The third field lists the knobs the driver refused, which
		 * `check` and the next `set` leave out too. */
		c->policy = NP_REC_SET;
		snprintf(c->policy_rec.policy, sizeof(c->policy_rec.policy), "%s", plan->policy->name);
		snprintf(c->policy_rec.cpus, sizeof(c->policy_rec.cpus), "%s", plan->cpus);
		snprintf(c->policy_rec.drop, sizeof(c->policy_rec.drop), "%s", e->drop);
		c->policy_rec.link_speed = plan->link_speed;
		/* the mixed policy's classes and what netpolicy makes for them:
		 * the rules and contexts it may remove later */
		c->policy_rec.has_mixed = plan->mixed != NULL;
		if (plan->mixed) {
			np_mixed_record_from_plan(plan->mixed, &c->policy_rec.mixed);
			/* rules the driver placed that are there already (a set
			 * again): the record names them where they are */
			np_mixed_record_resolve(&c->policy_rec.mixed, cur, plan->target);
		}
		if (has_rec && same_record(&rec, &c->policy_rec))
			c->policy = NP_REC_KEEP;
	}
	r = np_store_tentative_load(&e->store, pending, err);
	if (r < 0 && r != -ENOENT)
		return r;
	if (!(flags & NP_APPLY_TENTATIVE)) {
		if (r >= 0)
			c->tentative = NP_REC_REMOVE;
		return 0;
	}
	c->tentative = NP_REC_SET;
	if (r >= 0) {
		c->tentative_rec = *pending;
	} else {
		struct np_error ignored = { 0 };

		c->tentative_rec.before = (struct np_state *)cur;
		c->tentative_rec.has_policy = has_rec;
		c->tentative_rec.policy = rec;
		/* the sysctl record to return to as well (a damaged one is as
		 * good as none, apply/base.c) */
		c->tentative_rec.sysctl_known = true;
		r = np_store_sysctl_load(&e->store, &c->tentative_rec.sysctl, &ignored);
		if (r == -ENOMEM)
			return np_err(err, r, NP_PHASE_APPLY, NULL, "out of memory");
		c->tentative_rec.has_sysctl = r >= 0;
	}
	c->tentative_rec.deadline = (long long)time(NULL) + e->ctx->confirm_secs;
	return token_new(&c->tentative_rec.token, err);
}

/* Record changes without a device change: each is one atomic file write. */
static int records_only(struct np_engine *e, const struct np_commit *c, struct np_error *err)
{
	struct json_object *doc = NULL;
	int r = 0;

	if (c->policy == NP_REC_SET) {
		if (np_policy_record_to_json(&c->policy_rec, &doc) < 0)
			return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
		r = np_store_write_json(&e->store, NP_FILE_POLICY, doc, err);
		json_object_put(doc);
	}
	if (r >= 0 && c->tentative == NP_REC_REMOVE)
		r = np_store_remove(&e->store, NP_FILE_TENTATIVE, err);
	if (r >= 0 && c->sysctl == NP_REC_SET)
		r = np_store_sysctl_save(&e->store, &c->sysctl_rec, err);
	else if (r >= 0 && c->sysctl == NP_REC_REMOVE)
		r = np_store_remove(&e->store, NP_FILE_SYSCTL, err);
	if (r < 0)
		e->res->unrecorded = true;
	return r;
}

/* The rollback left e->left where the kernel put it (np_refusal_leave):
 * the knob left out says so; a failure that stands after all leaves the
 * device differing from where the run began. */
static void left_there(struct np_engine *e, enum np_refusal how)
{
	struct np_apply_result *res = e->res;
	char *reason;
	size_t n;

	if (how == NP_REFUSAL_DROPPED &&
	    strcmp(res->dropped[res->n_dropped - 1].knob, e->left)) {
		/* another knob than the one left out: the retry finds out */
	} else if (how == NP_REFUSAL_DROPPED) {
		reason = res->dropped[res->n_dropped - 1].reason;
		n = strlen(reason);
		snprintf(reason + n, sizeof(res->dropped[0].reason) - n, "%s",
			 "; refused to the rollback too, left where the kernel put it");
	} else if (!res->rollback_incomplete) {
		res->rollback_incomplete = true;
		snprintf(res->rollback_msg, sizeof(res->rollback_msg), "%s: refused both ways, left "
			 "where the kernel put it", e->left);
	}
	e->left = NULL;
}

/* Converge to the plan; when the driver refuses a knob the policy can do
 * without (refuse.c), have the planner make the plan again from the device,
 * rolled back, without it (np_plan_without) and converge to that, until it
 * applies or the failure stands.  Each try is a run of its own (journal,
 * commit), recording the knobs left out. */
static int run_plan(struct np_engine *e, struct np_state **cur, const struct np_plan *plan,
		    unsigned flags, struct np_commit *c, struct np_error *err)
{
	const char *what = plan->policy ? plan->policy->name : "plan";
	struct np_refused refused = { 0 };
	struct np_plan *again = NULL;
	enum np_refusal how;
	int r;

	e->plan = plan;
	r = np_engine_run(e, cur, plan->target, what, c, err);
	while (r < 0) {
		refused.knob = e->failed_knob;
		refused.fields = e->failed_fields;
		refused.answer = e->failed_answer;
		refused.process_caps = e->be->ops->process_caps;
		how = np_refusal_drop(e->policy, flags, &refused, e->res, e->drop, sizeof(e->drop), err);
		if (e->left)
			left_there(e, how);
		if (how == NP_REFUSAL_STANDS)
			break;
		e->split = refused.split;
		if (how == NP_REFUSAL_SPLIT)
			np_log(e->ctx, NP_LOG_INFO, "%s: %s refused; trying one field per request to "
			       "find which", e->ifname, e->failed_knob);
		else
			np_log(e->ctx, NP_LOG_INFO, "%s: %s: %s; applying the policy without it",
			       e->ifname, e->failed_knob, e->res->dropped[e->res->n_dropped - 1].reason);
		np_plan_free(again);
		again = NULL;
		e->failed_knob = NULL;
		e->failed_fields = 0;
		e->failed_answer = false;
		np_engine_answers_free(e);
		if (c->policy != NP_REC_REMOVE) {
			c->policy = NP_REC_SET;
			snprintf(c->policy_rec.drop, sizeof(c->policy_rec.drop), "%s", e->drop);
		}
		r = np_engine_read(e, cur, NP_PHASE_APPLY, err);
		if (r >= 0) {
			e->ctx->counts.refines++;
			r = np_plan_without(plan, *cur, e->drop, &again, err);
		}
		if (r >= 0) {
			e->plan = again;
			/* the mixed policy's classes as planned again: with the
			 * channel count the device kept, its contexts and rules
			 * are the new plan's, and reset must know them as such */
			if (c->policy == NP_REC_SET && c->policy_rec.has_mixed && again->mixed) {
				np_mixed_record_from_plan(again->mixed, &c->policy_rec.mixed);
				np_mixed_record_resolve(&c->policy_rec.mixed, *cur, again->target);
			}
			r = np_engine_run(e, cur, again->target, what, c, err);
		}
	}
	e->split = false;
	np_plan_free(again);
	return r;
}

int np_engine_apply(struct np_engine *e, struct np_state **cur, const struct np_plan *plan,
			unsigned flags, struct np_error *err)
{
	struct np_tentative pending = { 0 };
	struct np_state *pristine = NULL;
	struct np_ident pid;
	struct np_commit c;
	struct np_plan left;
	bool differs;
	int r;

	/* A plan made from this very read has its steps already. */
	if (e->plan_fresh) {
		differs = plan->n_steps > 0;
	} else {
		if (np_engine_remaining(e, *cur, plan->target, &left) < 0)
			return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
		differs = left.n_steps > 0;
		np_engine_steps_free(&left);
	}
	snprintf(e->drop, sizeof(e->drop), "%s", plan->drop);
	r = apply_commit(e, *cur, plan, flags, &c, &pending, err);
	if (r < 0)
		goto out;
	/* what the policy needs of the machine-wide sysctls, for the plans of
	 * the other devices (apply/base.c): a record change of the commit */
	np_plan_base_commit(&e->store, plan, &c.sysctl, &c.sysctl_rec);
	if (!differs) {
		/* Nothing to write to the device: a no-op set writes nothing
		 * anywhere, unless a record is to change. */
		if (c.tentative == NP_REC_SET)
			c.tentative = NP_REC_KEEP;	/* no change to confirm */
		r = records_only(e, &c, err);
		goto out;
	}
	/* The pristine snapshot, once per device: saved before the journal,
	 * it equals the device as it is now, so alone it is harmless. */
	r = np_store_pristine_load(&e->store, &pristine, &pid, err);
	if (r >= 0 && !np_ident_same(&pid, &e->id)) {
		np_log(e->ctx, NP_LOG_INFO, "%s: the saved pristine state is of an earlier device "
		       "of that name; saving this one's", e->ifname);
		r = -ENOENT;
	}
	if (r == -ENOENT)
		r = np_store_pristine_save(&e->store, *cur, &e->id, err);
	if (r < 0)
		goto out;
	e->policy = plan->policy;
	e->strict = flags & NP_APPLY_STRICT;
	e->tentative = flags & NP_APPLY_TENTATIVE;
	r = run_plan(e, cur, plan, flags, &c, err);
	if ((flags & NP_APPLY_TENTATIVE) && e->res->changed) {
		e->res->token = c.tentative_rec.token;
		e->res->deadline = c.tentative_rec.deadline;
	}
out:
	np_state_free(pristine);
	np_tentative_release(&pending);
	return r;
}

int np_apply(struct np_ctx *ctx, const struct np_plan *plan, unsigned flags,
	     struct np_apply_result *res, struct np_error *err)
{
	struct np_state *cur = NULL;
	struct np_engine e;
	int r;

	r = np_engine_begin(&e, ctx, plan->target->dev.ifname, res, true, err);
	/* The plan may be older than the device's state: work from a fresh
	 * read, and write nothing at all when it is already at the target. */
	if (r >= 0)
		r = np_engine_read(&e, &cur, NP_PHASE_APPLY, err);
	if (r >= 0)
		r = np_engine_apply(&e, &cur, plan, flags, err);
	np_state_free(cur);
	np_engine_stop(&e);
	return r;
}

/*
 * Reset removes what netpolicy made and nothing else: the rules and RSS
 * contexts its record names go when the device still has them as netpolicy
 * made them (content, not location: another admin may have put a rule of
 * their own where netpolicy's was), every other one stays as it is now (a
 * foreign rule made after netpolicy's first change is not netpolicy's to
 * remove, nor one deleted by hand since its to restore).  rec NULL: none.
 */
static int reset_steer(struct np_ctx *ctx, const char *ifname, struct np_state *goal,
		       const struct np_state *cur, const struct np_policy_record *rec)
{
	struct np_owned own, foreign;
	struct np_steer s;

	memset(&own, 0, sizeof(own));
	memset(&foreign, 0, sizeof(foreign));
	if (np_steer_copy(&s, &cur->dev.steer) < 0) {
		np_steer_clear(&s);
		return -ENOMEM;
	}
	if (rec && rec->has_mixed)
		np_mixed_record_owned_here(&rec->mixed, cur, &own, &foreign);
	for (unsigned i = 0; i < foreign.n_rules; i++)
		np_log(ctx, NP_LOG_WARNING, "%s: the ntuple rule at location %u is not the one "
		       "netpolicy made there: left as it is", ifname, foreign.rules[i]);
	for (unsigned i = 0; i < foreign.n_ctx; i++)
		np_log(ctx, NP_LOG_WARNING, "%s: RSS context %u is not the one netpolicy made: "
		       "left as it is", ifname, foreign.ctx[i]);
	np_steer_drop_owned(&s, &own);
	np_steer_clear(&goal->dev.steer);
	goal->dev.steer = s;
	return 0;
}

struct saved_pristine {
	struct np_state *state;
	struct np_ident id;
	bool has_rec;
	struct np_policy_record rec;
};

static int load_pristine(struct np_store *s, void *ud, struct np_error *err)
{
	struct saved_pristine *p = ud;
	int r = np_store_pristine_load(s, &p->state, &p->id, err);

	/* a record it cannot read is refused, as reset refuses it */
	if (r >= 0) {
		r = policy_current(s, &p->rec, &p->has_rec, err);
		if (r < 0) {
			np_state_free(p->state);
			p->state = NULL;
		}
	}
	return r < 0 ? r : 1;
}

int np_reset_plan(struct np_ctx *ctx, const char *ifname, struct np_plan **ret,
		  struct np_error *err)
{
	struct saved_pristine saved = { 0 };
	struct np_state *cur = NULL, *pristine;
	struct np_plan *plan = NULL;
	struct np_ident pid, id;
	int r;

	r = np_store_peek(ctx, ifname, load_pristine, &saved, err);
	if (r == 0)
		return np_err(err, -ENOENT, NP_PHASE_PLAN, NULL,
			      "netpolicy has not changed this device: nothing to reset");
	if (r < 0)
		return r;
	pristine = saved.state;
	pid = saved.id;
	r = np_discover(ctx, ifname, &cur, err);
	if (r < 0)
		goto out;
	np_ident_of(ctx, cur, &id);
	if (!np_ident_same(&id, &pid)) {
		r = np_err(err, -ENOENT, NP_PHASE_PLAN, NULL,
			   "the saved state is of an earlier device of this name: nothing to reset");
		goto out;
	}
	/* Machine-wide sysctls: what the other devices still need. */
	if (np_plan_base_reset_sys(ctx, cur, &pristine->sys) < 0 ||
	    np_plan_base_reset_pm(ctx, cur, &pristine->pm) < 0 ||
	    reset_steer(ctx, ifname, pristine, cur, saved.has_rec ? &saved.rec : NULL) < 0 ||
	    np_plan_new(&plan) < 0) {
		r = np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
		goto out;
	}
	plan->target = pristine;
	pristine = NULL;
	r = np_plan_diff(plan, cur);
	if (r < 0) {
		np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
		goto out;
	}
	*ret = plan;
	plan = NULL;
out:
	np_plan_free(plan);
	np_state_free(pristine);
	np_state_free(cur);
	return r;
}

/* The records of a device netpolicy holds nothing for any more. */
static int forget_records(struct np_store *s, struct np_error *err)
{
	int r = np_store_remove(s, NP_FILE_TENTATIVE, err);

	if (r >= 0)
		r = np_store_remove(s, NP_FILE_POLICY, err);
	if (r >= 0)
		r = np_plan_base_forget(s, err);
	return r;
}

/* Reset ends everything netpolicy holds for the device, a pending
 * --confirm included: the pristine state is where it returns. */
int np_reset(struct np_ctx *ctx, const char *ifname, unsigned flags, struct np_plan **ret_plan,
	     struct np_apply_result *res, struct np_error *err)
{
	struct np_commit c = { .policy = NP_REC_REMOVE, .tentative = NP_REC_REMOVE,
			       .pristine = NP_REC_REMOVE, .sysctl = NP_REC_REMOVE };
	struct np_state *cur = NULL, *pristine = NULL;
	struct np_plan *plan = NULL;
	struct np_policy_record rec;
	struct np_ident pid;
	struct np_engine e;
	bool has_rec = false;
	int r;

	(void)flags;
	r = np_engine_begin(&e, ctx, ifname, res, false, err);
	/* A policy record it cannot read (a newer netpolicy's, damaged) may
	 * name rules and contexts on the device that only it says are
	 * netpolicy's: refused like any other state file, kept, nothing
	 * changed, never removed as litter below. */
	if (r >= 0)
		r = policy_current(&e.store, &rec, &has_rec, err);
	if (r >= 0)
		r = np_store_pristine_load(&e.store, &pristine, &pid, err);
	if (r == -ENOENT) {
		/* Never changed (or already reset): nothing to do, like a
		 * second `set`; a record without a snapshot is litter. */
		r = forget_records(&e.store, err);
		goto out;
	}
	if (r >= 0)
		r = np_engine_read(&e, &cur, NP_PHASE_APPLY, err);
	if (r >= 0 && !np_ident_same(&pid, &e.id)) {
		/* saved for an earlier device of this name: nothing of ours here */
		r = np_store_remove(&e.store, NP_FILE_PRISTINE, err);
		if (r >= 0)
			r = forget_records(&e.store, err);
		goto out;
	}
	/* Machine-wide sysctls: what the other devices still need; rules and
	 * contexts: what netpolicy made goes, nothing else */
	if (r >= 0 && (np_plan_base_reset_sys(ctx, cur, &pristine->sys) < 0 ||
		       np_plan_base_reset_pm(ctx, cur, &pristine->pm) < 0 ||
		       reset_steer(ctx, ifname, pristine, cur, has_rec ? &rec : NULL) < 0))
		r = np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	/* What will change, for the caller to show: from the same read. */
	if (r >= 0 && ret_plan) {
		if (np_plan_new(&plan) < 0 || np_state_dup(pristine, &plan->target) < 0 ||
		    np_plan_diff(plan, cur) < 0)
			r = np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	}
	if (r >= 0)
		r = np_engine_run(&e, &cur, pristine, "reset", &c, err);
	if (r >= 0)
		np_engine_report(&e, plan);
out:
	if (plan && ret_plan && (r >= 0 || e.res->rolled_back || e.res->vanished ||
				 e.res->unrecorded))
		*ret_plan = plan;
	else
		np_plan_free(plan);
	np_state_free(pristine);
	np_state_free(cur);
	np_engine_stop(&e);
	return r;
}

/* When the device's policy record was last written (CLOCK_REALTIME
 * seconds), 0 when it is not there. */
static long long record_written(const struct np_store *s)
{
	char name[NP_STORE_STEM_MAX + 16];
	struct stat sb;

	snprintf(name, sizeof(name), "%s.%s", s->stem, np_store_file_name(NP_FILE_POLICY));
	if (s->dirfd < 0 || fstatat(s->dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	return (long long)sb.st_mtime;
}

struct active_load {
	struct np_policy_record rec;
	long long written;
};

static int load_policy(struct np_store *s, void *ud, struct np_error *err)
{
	struct active_load *l = ud;
	int r = np_store_policy_load(s, &l->rec, err);

	/* the file's own time: every set, switch and confirm rewrites it,
	 * and reset removes it */
	l->written = record_written(s);
	return r < 0 ? r : 1;
}

static int read_active(struct np_ctx *ctx, const char *ifname, struct np_active *ret,
		       struct np_error *err)
{
	struct active_load l;
	struct np_policy_record *rec = &l.rec;
	int r;

	memset(ret, 0, sizeof(*ret));
	/* Reading must not create the directory: show is read-only. */
	r = np_store_peek(ctx, ifname, load_policy, &l, err);
	if (r <= 0)
		return r;
	ret->written = l.written;
	snprintf(ret->policy, sizeof(ret->policy), "%s", rec->policy);
	snprintf(ret->cpus, sizeof(ret->cpus), "%s", rec->cpus);
	snprintf(ret->drop, sizeof(ret->drop), "%s", rec->drop);
	ret->link_speed = rec->link_speed;
	if (rec->has_mixed) {
		ret->mixed = malloc(sizeof(*ret->mixed));
		if (!ret->mixed)
			return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
		*ret->mixed = rec->mixed;
		np_mixed_record_weights(ret->mixed, ret->weights, sizeof(ret->weights));
	}
	return 0;
}

int np_active_policy(struct np_ctx *ctx, const char *ifname, struct np_active **ret,
		     struct np_error *err)
{
	struct np_active *a;
	int r;

	a = calloc(1, sizeof(*a));
	if (!a)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	r = read_active(ctx, ifname, a, err);
	if (r < 0) {
		free(a);
		return r;
	}
	*ret = a;
	return 0;
}
