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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "np_journal.h"
#include "np_serialize.h"
#include "np_policy.h"
#include "np_refuse.h"

struct engine {
	struct np_ctx *ctx;
	struct np_backend *be;
	const char *ifname;
	struct np_journal *journal;
	struct np_apply_result *res;
	unsigned step;			/* steps written so far in this run */
	const struct np_policy *policy;	/* apply: plan again after queues reopened */
	const char *cpus;
	char drop[128];			/* apply: knobs left out (np_plan_opts.drop) */
	const char *failed_knob;	/* the knob of the step that failed */
	const struct np_plan *plan;	/* apply: the plan being run, refined after queues reopen */
	bool fresh;			/* *cur was read after the last write */
	bool plan_fresh;		/* the plan was made from *cur as read under the lock */
	bool reopened;			/* a step reopened queues */
};

void np_ctx_set_step_hook(struct np_ctx *ctx, np_step_fn fn, void *userdata)
{
	ctx->step_fn = fn;
	ctx->step_ud = userdata;
}

static int rediscover(struct engine *e, struct np_state **cur, enum np_phase phase,
		      struct np_error *err)
{
	struct np_state *st = NULL;
	int r;

	r = np_discover(e->ctx, e->ifname, &st, err);
	if (r < 0) {
		if (err)
			err->phase = phase;
		return r;
	}
	np_state_free(*cur);
	*cur = st;
	e->fresh = true;
	return 0;
}

/* A plan that borrows its target: only the steps are ours to free. */
static void steps_free(struct np_plan *p)
{
	free(p->steps);
	free(p->changes);
	free(p->notes);
}

static int converge_knobs(struct engine *e, struct np_state **cur, const struct np_state *goal,
			  bool per_queue_only, enum np_phase phase, struct np_error *err)
{
	for (size_t k = 0; np_knobs[k]; k++) {
		const struct np_knob *knob = np_knobs[k];
		struct np_plan p = { .target = (struct np_state *)goal };
		int r;

		if (per_queue_only && !knob->per_queue)
			continue;
		r = knob->diff(&p, *cur, goal);
		for (size_t i = 0; r >= 0 && i < p.n_steps; i++) {
			const struct np_step *s = &p.steps[i];
			const char *what = s->n_changes ? p.changes[s->first_change].what : "";

			if (e->journal)
				np_journal_mark(e->journal, "start", e->step, knob->name, what);
			e->res->n_writes++;
			e->fresh = false;
			r = knob->apply(e->be, *cur, goal, s, err);
			if (r < 0) {
				e->failed_knob = knob->name;
				if (err) {
					err->phase = phase;
					err->step = (int)e->step;
					if (!err->knob)
						err->knob = knob->name;
				}
				break;
			}
			if (e->journal)
				np_journal_mark(e->journal, "done", e->step, knob->name, what);
			if (e->ctx->step_fn)
				e->ctx->step_fn(e->ctx->step_ud, e->step, knob->name, what);
			e->step++;
		}
		if (r >= 0 && p.n_steps && knob->reopens_queues) {
			e->reopened = true;
			r = rediscover(e, cur, phase, err);
		}
		steps_free(&p);
		if (r < 0)
			return r;
	}
	return 0;
}

static int converge(struct engine *e, struct np_state **cur, const struct np_state *goal,
		    enum np_phase phase, struct np_error *err)
{
	return converge_knobs(e, cur, goal, false, phase, err);
}

/* Every difference between the device and `goal`, as a plan (empty = equal). */
static int remaining(const struct np_state *cur, const struct np_state *goal, struct np_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->target = (struct np_state *)goal;
	return np_plan_diff(p, cur);
}

static void describe_diff(const struct np_plan *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n_steps && used < len; i++) {
		const struct np_step *s = &p->steps[i];

		for (unsigned k = 0; k < s->n_changes && used < len; k++) {
			const struct np_change *c = &p->changes[s->first_change + k];
			int n = snprintf(buf + used, len - used, "%s%s %s is %s, want %s",
					 used ? "; " : "", s->knob->name, c->what, c->before, c->after);

			if (n < 0)
				return;
			used += (size_t)n;
		}
	}
}

static const struct np_change *find_change(const struct np_plan *p, const char *knob,
					   const char *what)
{
	for (size_t i = 0; i < p->n_steps; i++) {
		const struct np_step *s = &p->steps[i];

		if (strcmp(s->knob->name, knob))
			continue;
		for (unsigned k = 0; k < s->n_changes; k++)
			if (!strcmp(p->changes[s->first_change + k].what, what))
				return &p->changes[s->first_change + k];
	}
	return NULL;
}

/*
 * After converging: what still differs from the goal.  A value that moved
 * but not exactly to the goal was rounded by the driver (reported); one
 * that still has its old value was ignored, and one we did not plan to
 * touch changed under us: both are failures.
 */
static int verify(struct engine *e, struct np_state **cur, const struct np_state *before,
		  const struct np_state *goal, enum np_phase phase, struct np_error *err)
{
	struct np_plan left, wanted;
	int r;

	/* Nothing was written since the last read: that read is the proof. */
	r = e->fresh ? 0 : rediscover(e, cur, phase, err);
	if (r < 0)
		return r;
	if (remaining(*cur, goal, &left) < 0 || remaining(before, goal, &wanted) < 0) {
		steps_free(&left);
		return np_err(err, -ENOMEM, phase, NULL, "out of memory");
	}
	r = 0;
	for (size_t i = 0; i < left.n_steps && !r; i++) {
		const struct np_step *s = &left.steps[i];

		for (unsigned k = 0; k < s->n_changes && !r; k++) {
			const struct np_change *c = &left.changes[s->first_change + k];
			const struct np_change *w = find_change(&wanted, s->knob->name, c->what);

			if (w && strcmp(w->before, c->before)) {
				size_t used = strlen(e->res->notes);

				snprintf(e->res->notes + used, sizeof(e->res->notes) - used,
					 "%s%s %s: driver set %s for %s", used ? "; " : "",
					 s->knob->name, c->what, c->before, c->after);
				continue;
			}
			r = np_err(err, -EIO, NP_PHASE_VERIFY, s->knob->name,
				   w ? "%s: the driver kept %s, wanted %s" :
				       "%s: changed to %s behind our back, wanted %s",
				   c->what, c->before, c->after);
		}
	}
	steps_free(&left);
	steps_free(&wanted);
	return r;
}

static bool same_file_text(int dirfd, const char *file, const char *text)
{
	char buf[400];
	size_t n = strlen(text);

	/* np_read_file_at strips trailing white space: compare without it */
	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		n--;
	if (np_read_file_at(dirfd, file, buf, sizeof(buf)) < 0)
		return false;
	return strlen(buf) == n && !strncmp(buf, text, n);
}

/* Return the device to `before`; say in res whether that worked. */
static void rollback(struct engine *e, struct np_state **cur, const struct np_state *before)
{
	struct np_error rerr;
	struct np_plan left;
	int r;

	np_error_clear(&rerr);
	e->res->rolled_back = true;
	np_log(e->ctx, NP_LOG_INFO, "%s: rolling back", e->ifname);
	r = rediscover(e, cur, NP_PHASE_ROLLBACK, &rerr);
	if (r == -ENODEV) {
		/* Gone: there is nothing to restore, and a journal kept for a
		 * later device of the same name would be applied to the wrong
		 * device. */
		e->res->vanished = true;
		e->res->rolled_back = false;
		return;
	}
	if (r >= 0)
		r = converge(e, cur, before, NP_PHASE_ROLLBACK, &rerr);
	if (r >= 0)
		r = rediscover(e, cur, NP_PHASE_ROLLBACK, &rerr);
	if (r >= 0 && remaining(*cur, before, &left) >= 0) {
		if (left.n_steps) {
			e->res->rollback_incomplete = true;
			describe_diff(&left, e->res->rollback_msg, sizeof(e->res->rollback_msg));
		}
		steps_free(&left);
		return;
	}
	e->res->rollback_incomplete = true;
	np_error_format(&rerr, e->res->rollback_msg, sizeof(e->res->rollback_msg));
}

/*
 * A plan is made from the device as it was; a channel change can bring
 * things the plan could not know (drivers that request one IRQ per queue at
 * open: the new queues' IRQs exist only now).  The planner refines the
 * plan from the changed device (np_plan_refine), a fixed point for
 * everything the first plan set that covers the rest; converge to that
 * too.  Only when something reopened queues: otherwise the first plan saw
 * everything.
 */
static int replan(struct engine *e, struct np_state **cur, struct np_plan **ret,
		  struct np_error *err)
{
	struct np_plan *p = NULL;
	int r;

	if (!e->reopened)
		return 0;
	/* from the device as it is now, not as the last re-read saw it; when
	 * nothing follows this read, verify needs no other */
	r = e->fresh ? 0 : rediscover(e, cur, NP_PHASE_APPLY, err);
	if (r < 0)
		return r;
	r = np_plan_refine(e->plan, *cur, &p, err);
	if (r < 0)
		return r;
	/* Only what follows the queues: a knob the driver ignored or
	 * rounded must fail or be reported by verify, not be written twice. */
	if (p->n_steps)
		r = converge_knobs(e, cur, p->target, true, NP_PHASE_APPLY, err);
	*ret = p;
	return r;
}

/* Converge to `goal` with journal and rollback; the caller holds the lock. */
static int run(struct engine *e, int dirfd, struct np_state **cur, const struct np_state *goal,
	       const char *what, struct np_error *err)
{
	struct np_state *before = NULL;
	struct np_plan *replanned = NULL;
	int r;

	r = np_state_dup(*cur, &before);
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, NULL, "out of memory");
	r = np_journal_begin(dirfd, e->ifname, before, what, &e->journal, err);
	if (r < 0)
		goto out;
	r = converge(e, cur, goal, NP_PHASE_APPLY, err);
	if (r >= 0 && e->plan && e->plan->policy)
		r = replan(e, cur, &replanned, err);
	if (r >= 0)
		r = verify(e, cur, before, replanned ? replanned->target : goal, NP_PHASE_VERIFY, err);
	if (r < 0)
		rollback(e, cur, before);
	else
		e->res->changed = e->res->n_writes > 0;
	/* An incomplete rollback keeps the journal: the next run retries it. */
	np_journal_end(e->journal, e->res->rollback_incomplete && !e->res->vanished);
	e->journal = NULL;
out:
	np_plan_free(replanned);
	np_state_free(before);
	return r;
}

static int engine_start(struct engine *e, struct np_ctx *ctx, const char *ifname,
			struct np_apply_result *res, int *dirfd, int *lockfd, struct np_error *err)
{
	int r;

	memset(res, 0, sizeof(*res));
	memset(e, 0, sizeof(*e));
	e->ctx = ctx;
	e->ifname = ifname;
	e->res = res;
	*dirfd = *lockfd = -1;
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
	r = np_statedir_open(ctx, dirfd, err);
	if (r < 0)
		return r;
	return np_device_lock(ctx, *dirfd, ifname, lockfd, err);
}

static void engine_stop(int dirfd, int lockfd)
{
	if (lockfd >= 0)
		close(lockfd);
	if (dirfd >= 0)
		close(dirfd);
}

/* With the lock held: roll back what a crashed run left. */
static int recover_locked(struct engine *e, int dirfd, struct np_error *err)
{
	struct np_state *before = NULL, *cur = NULL;
	char last[96];
	int r;

	r = np_journal_load(dirfd, e->ifname, &before, last, sizeof(last), err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	np_log(e->ctx, NP_LOG_WARNING,
	       "%s: an earlier netpolicy run was interrupted %s; rolling it back", e->ifname, last);
	e->res->recovered = true;
	r = rediscover(e, &cur, NP_PHASE_ROLLBACK, err);
	if (r == -ENODEV || (r >= 0 && cur->dev.ifindex != before->dev.ifindex)) {
		/* The device the journal was written for is gone (a device
		 * with its name now may be another one): drop the journal. */
		char file[IFNAMSIZ + 16];

		np_log(e->ctx, NP_LOG_WARNING, "%s: the interrupted run's device is gone; "
		       "dropping its journal", e->ifname);
		snprintf(file, sizeof(file), "%s.journal", e->ifname);
		np_file_remove(dirfd, file);
		np_error_clear(err);
		e->res->recovered = false;
		r = r == -ENODEV ? np_err(err, -ENODEV, NP_PHASE_DISCOVER, NULL, "no such device") : 0;
		goto out;
	}
	if (r >= 0)
		r = converge(e, &cur, before, NP_PHASE_ROLLBACK, err);
	if (r >= 0)
		r = verify(e, &cur, before, before, NP_PHASE_ROLLBACK, err);
	if (r >= 0) {
		char file[IFNAMSIZ + 16];

		snprintf(file, sizeof(file), "%s.journal", e->ifname);
		np_file_remove(dirfd, file);
	} else {
		e->res->rollback_incomplete = true;
		np_error_format(err, e->res->rollback_msg, sizeof(e->res->rollback_msg));
	}
out:
	np_state_free(before);
	np_state_free(cur);
	return r;
}

int np_recover(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
	       struct np_error *err)
{
	struct engine e;
	int dirfd, lockfd, r;

	char path[PATH_MAX];

	/* Cheap and read-only when there is nothing to recover: show and check
	 * call this, and must not create the state directory. */
	memset(res, 0, sizeof(*res));
	if (np_ifname_validate(ifname, err) < 0)
		return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%.*s.journal", ctx->state_dir, IFNAMSIZ,
			     ifname) >= sizeof(path) || access(path, F_OK) < 0)
		return 0;
	r = engine_start(&e, ctx, ifname, res, &dirfd, &lockfd, err);
	if (r >= 0)
		r = recover_locked(&e, dirfd, err);
	engine_stop(dirfd, lockfd);
	return r;
}

/* A saved pristine state belongs to this device only if the ifindex still
 * matches: a device deleted and re-created under the same name is another
 * device, whose own state is the pristine one. */
static bool pristine_is_current(struct np_ctx *ctx, int dirfd, const char *file,
				const struct np_state *cur)
{
	struct np_state *saved = NULL;
	bool ok;

	if (np_state_load(dirfd, file, &saved, NULL) < 0)
		return false;
	ok = saved->dev.ifindex == cur->dev.ifindex;
	if (!ok)
		np_log(ctx, NP_LOG_INFO, "%s: the saved pristine state is of an earlier device of "
		       "that name; saving this one's", cur->dev.ifname);
	np_state_free(saved);
	return ok;
}

/* IFNAME.tentative: {"token":N,"policy":"previous record","before":state} */
static int tentative_save(int dirfd, const char *ifname, const struct np_state *before,
			  struct np_apply_result *res, struct np_error *err)
{
	struct json_object *obj, *st;
	char file[IFNAMSIZ + 16], prev[460] = "";
	unsigned long long token = 0;
	int fd, r;

	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &token, sizeof(token)) != (ssize_t)sizeof(token)) {
		if (fd >= 0)
			close(fd);
		return np_err(err, -EIO, NP_PHASE_APPLY, NULL, "cannot read /dev/urandom");
	}
	close(fd);
	token &= (1ULL << 53) - 1;	/* exact in JSON numbers */
	snprintf(file, sizeof(file), "%s.policy", ifname);
	if (np_read_file_at(dirfd, file, prev, sizeof(prev)) < 0)
		prev[0] = '\0';
	if (np_state_to_json(before, &st) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	obj = json_object_new_object();
	json_object_object_add(obj, "token", json_object_new_int64((int64_t)token));
	json_object_object_add(obj, "policy", json_object_new_string(prev));
	json_object_object_add(obj, "before", st);
	snprintf(file, sizeof(file), "%s.tentative", ifname);
	r = np_text_save(dirfd, file, json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN), err);
	json_object_put(obj);
	if (r >= 0)
		res->token = token;
	return r;
}

/* Converge to the plan; when the driver refuses a knob the policy can do
 * without (refuse.c), plan again from the device, rolled back, without it
 * and converge to that, until it applies or the failure stands. */
static int run_plan(struct engine *e, int dirfd, struct np_state **cur,
		    const struct np_plan *plan, unsigned flags, struct np_error *err)
{
	const char *what = plan->policy ? plan->policy->name : "plan";
	struct np_plan *again = NULL;
	int r;

	e->policy = plan->policy;
	e->cpus = plan->cpus;
	e->plan = plan;
	snprintf(e->drop, sizeof(e->drop), "%s", plan->drop);
	r = run(e, dirfd, cur, plan->target, what, err);
	while (r < 0 && np_refusal_drop(e->policy, flags, e->failed_knob, e->res, e->drop,
					sizeof(e->drop), err)) {
		struct np_plan_opts opts = { .cpus = *e->cpus ? e->cpus : NULL, .drop = e->drop };

		np_log(e->ctx, NP_LOG_INFO, "%s: %s: %s; applying the policy without it", e->ifname,
		       e->failed_knob, e->res->dropped[e->res->n_dropped - 1].reason);
		np_plan_free(again);
		again = NULL;
		e->reopened = false;
		e->failed_knob = NULL;
		r = rediscover(e, cur, NP_PHASE_APPLY, err);
		if (r >= 0)
			r = np_plan_compute(e->ctx, e->policy, &opts, *cur, &again, err);
		if (r >= 0) {
			e->plan = again;
			r = run(e, dirfd, cur, again->target, what, err);
		}
	}
	np_plan_free(again);
	return r;
}

/* With the lock held and `cur` freshly read: apply `plan` (or nothing when
 * the device is already at its target). */
static int apply_locked(struct engine *e, int dirfd, struct np_state **cur,
			const struct np_plan *plan, unsigned flags, struct np_error *err)
{
	const char *ifname = e->ifname;
	struct np_plan left;
	char file[IFNAMSIZ + 16];
	int r = 0;

	snprintf(e->drop, sizeof(e->drop), "%s", plan->drop);
	/* A plan made from this very read has its steps already. */
	if (e->plan_fresh) {
		if (!plan->n_steps)
			goto record;
	} else {
		if (remaining(*cur, plan->target, &left) < 0)
			return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
		steps_free(&left);
		if (!left.n_steps)
			goto record;
	}
	snprintf(file, sizeof(file), "%s.pristine", ifname);
	if (!pristine_is_current(e->ctx, dirfd, file, *cur)) {
		r = np_state_save(dirfd, file, *cur, err);
		if (r < 0)
			return r;
	}
	if (flags & NP_APPLY_TENTATIVE) {
		r = tentative_save(dirfd, ifname, *cur, e->res, err);
		if (r < 0)
			return r;
	} else {
		/* A plain apply supersedes a pending tentative one. */
		snprintf(file, sizeof(file), "%s.tentative", ifname);
		np_file_remove(dirfd, file);
	}
	r = run_plan(e, dirfd, cur, plan, flags, err);
	if (r < 0) {
		if (flags & NP_APPLY_TENTATIVE) {
			snprintf(file, sizeof(file), "%s.tentative", ifname);
			np_file_remove(dirfd, file);
		}
		return r;
	}
record:
	if (plan->policy) {
		char text[sizeof(plan->cpus) + sizeof(e->drop) + 40];

		/* Only when it differs: a no-op set writes nothing anywhere.
		 * A third line lists the knobs the driver refused, which
		 * `check` and the next `set` leave out too. */
		snprintf(text, sizeof(text), "%s\n%s\n%s%s", plan->policy->name, plan->cpus, e->drop,
			 e->drop[0] ? "\n" : "");
		snprintf(file, sizeof(file), "%s.policy", ifname);
		if (!same_file_text(dirfd, file, text))
			r = np_text_save(dirfd, file, text, err);
	}
	return r;
}

int np_apply(struct np_ctx *ctx, const struct np_plan *plan, unsigned flags,
	     struct np_apply_result *res, struct np_error *err)
{
	struct np_state *cur = NULL;
	struct engine e;
	int dirfd, lockfd, r;

	r = engine_start(&e, ctx, plan->target->dev.ifname, res, &dirfd, &lockfd, err);
	if (r >= 0)
		r = recover_locked(&e, dirfd, err);
	/* The plan may be older than the device's state: work from a fresh
	 * read, and write nothing at all when it is already at the target. */
	if (r >= 0)
		r = rediscover(&e, &cur, NP_PHASE_APPLY, err);
	if (r >= 0)
		r = apply_locked(&e, dirfd, &cur, plan, flags, err);
	np_state_free(cur);
	engine_stop(dirfd, lockfd);
	return r;
}

static int read_active(struct np_ctx *ctx, const char *ifname, struct np_active *ret,
		       struct np_error *err);

struct np_plan_opts_buf {
	struct np_plan_opts opts;
	struct np_active active;
};

/* Setting the policy that is applied, with the same CPUs, leaves out what
 * the driver refused last time: a second `set` writes nothing.  A reset,
 * another policy or --strict tries every knob again. */
static const struct np_plan_opts *with_recorded_drops(struct np_ctx *ctx, const char *ifname,
						      const struct np_policy *policy,
						      const struct np_plan_opts *opts,
						      unsigned flags, struct np_plan_opts_buf *buf)
{
	static const struct np_plan_opts none;
	struct np_active *a = &buf->active;
	const char *cpus = opts && opts->cpus ? opts->cpus : "";

	if ((flags & NP_APPLY_STRICT) || (opts && opts->drop) ||
	    read_active(ctx, ifname, a, NULL) < 0 || !a->drop[0] ||
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
	struct engine e;
	int dirfd, lockfd, r;

	/* Plan under the lock from the one read the apply starts from: no
	 * other netpolicy can change the device between plan and apply. */
	r = engine_start(&e, ctx, ifname, res, &dirfd, &lockfd, err);
	if (r >= 0)
		r = recover_locked(&e, dirfd, err);
	if (r >= 0)
		r = rediscover(&e, &cur, NP_PHASE_DISCOVER, err);
	if (r >= 0)
		r = np_plan_compute(ctx, policy, with_recorded_drops(ctx, ifname, policy, opts, flags,
								     &o), cur, &plan, err);
	e.plan_fresh = true;
	if (r >= 0)
		r = apply_locked(&e, dirfd, &cur, plan, flags, err);
	np_state_free(cur);
	engine_stop(dirfd, lockfd);
	if (plan && ret_plan)
		*ret_plan = plan;
	else
		np_plan_free(plan);
	return r;
}

int np_confirm(struct np_ctx *ctx, const char *ifname, struct np_error *err)
{
	struct np_apply_result res;
	struct engine e;
	char file[IFNAMSIZ + 16];
	int dirfd, lockfd, r;

	r = engine_start(&e, ctx, ifname, &res, &dirfd, &lockfd, err);
	if (r >= 0) {
		snprintf(file, sizeof(file), "%s.tentative", ifname);
		if (faccessat(dirfd, file, F_OK, AT_SYMLINK_NOFOLLOW) < 0)
			r = np_err(err, -ENOENT, NP_PHASE_INPUT, NULL, "no tentative change to confirm");
		else
			r = np_file_remove(dirfd, file);
	}
	engine_stop(dirfd, lockfd);
	return r;
}

int np_revert_tentative(struct np_ctx *ctx, const char *ifname, unsigned long long token,
			struct np_apply_result *res, struct np_error *err)
{
	struct json_object *obj = NULL, *v;
	struct np_state *before = NULL, *cur = NULL;
	char file[IFNAMSIZ + 16], *text = NULL;
	struct engine e;
	int dirfd, lockfd, r;

	r = engine_start(&e, ctx, ifname, res, &dirfd, &lockfd, err);
	if (r < 0)
		goto out;
	snprintf(file, sizeof(file), "%s.tentative", ifname);
	if (np_slurp_file(dirfd, file, &text) < 0)
		goto out;		/* confirmed, or superseded: nothing to do */
	obj = json_tokener_parse(text);
	if (!obj || !json_object_object_get_ex(obj, "token", &v) ||
	    (unsigned long long)json_object_get_int64(v) != token)
		goto out;		/* another tentative apply's: not ours to undo */
	if (!json_object_object_get_ex(obj, "before", &v)) {
		r = np_err(err, -EINVAL, NP_PHASE_ROLLBACK, NULL, "%s is damaged", file);
		goto out;
	}
	r = np_state_from_json_full(v, &before, err);
	if (r >= 0)
		r = recover_locked(&e, dirfd, err);
	if (r >= 0)
		r = rediscover(&e, &cur, NP_PHASE_ROLLBACK, err);
	if (r >= 0)
		r = run(&e, dirfd, &cur, before, "revert", err);
	if (r >= 0) {
		np_file_remove(dirfd, file);
		snprintf(file, sizeof(file), "%s.policy", ifname);
		if (json_object_object_get_ex(obj, "policy", &v) && json_object_get_string_len(v))
			r = np_text_save(dirfd, file, json_object_get_string(v), err);
		else
			np_file_remove(dirfd, file);
	}
out:
	json_object_put(obj);
	free(text);
	np_state_free(before);
	np_state_free(cur);
	engine_stop(dirfd, lockfd);
	return r;
}

int np_reset_plan(struct np_ctx *ctx, const char *ifname, struct np_plan **ret,
		  struct np_error *err)
{
	struct np_state *cur = NULL, *pristine = NULL;
	struct np_plan *plan = NULL;
	char file[IFNAMSIZ + 16];
	int dirfd = -1, r;

	r = np_ifname_validate(ifname, err);
	if (r < 0)
		return r;
	r = np_statedir_open(ctx, &dirfd, err);
	if (r < 0)
		return r;
	snprintf(file, sizeof(file), "%s.pristine", ifname);
	r = np_state_load(dirfd, file, &pristine, err);
	close(dirfd);
	if (r == -ENOENT)
		return np_err(err, r, NP_PHASE_PLAN, NULL,
			      "netpolicy has not changed this device: nothing to reset");
	if (r < 0)
		return r;
	r = np_discover(ctx, ifname, &cur, err);
	if (r < 0)
		goto out;
	if (cur->dev.ifindex != pristine->dev.ifindex) {
		r = np_err(err, -ENOENT, NP_PHASE_PLAN, NULL,
			   "the saved state is of an earlier device of this name: nothing to reset");
		goto out;
	}
	if (np_plan_new(&plan) < 0) {
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

int np_reset(struct np_ctx *ctx, const char *ifname, unsigned flags, struct np_plan **ret_plan,
	     struct np_apply_result *res, struct np_error *err)
{
	struct np_state *cur = NULL, *pristine = NULL;
	struct np_plan *plan = NULL;
	struct engine e;
	char file[IFNAMSIZ + 16];
	int dirfd, lockfd, r;

	(void)flags;
	r = engine_start(&e, ctx, ifname, res, &dirfd, &lockfd, err);
	if (r < 0)
		goto out;
	r = recover_locked(&e, dirfd, err);
	if (r < 0)
		goto out;
	snprintf(file, sizeof(file), "%s.pristine", ifname);
	r = np_state_load(dirfd, file, &pristine, err);
	if (r == -ENOENT) {
		/* Never changed (or already reset): nothing to do, like a
		 * second `set`. */
		r = 0;
		goto out;
	}
	if (r < 0)
		goto out;
	r = rediscover(&e, &cur, NP_PHASE_APPLY, err);
	if (r >= 0 && cur->dev.ifindex != pristine->dev.ifindex) {
		/* saved for an earlier device of this name: nothing of ours here */
		np_file_remove(dirfd, file);
		snprintf(file, sizeof(file), "%s.policy", ifname);
		np_file_remove(dirfd, file);
		goto out;
	}
	/* What will change, for the caller to show: from the same read. */
	if (r >= 0 && ret_plan) {
		if (np_plan_new(&plan) < 0 || np_state_dup(pristine, &plan->target) < 0 ||
		    np_plan_diff(plan, cur) < 0)
			r = np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	}
	if (r >= 0)
		r = run(&e, dirfd, &cur, pristine, "reset", err);
	if (r >= 0) {
		np_file_remove(dirfd, file);
		snprintf(file, sizeof(file), "%s.policy", ifname);
		np_file_remove(dirfd, file);
	}
out:
	if (plan && ret_plan && (r >= 0 || e.res->rolled_back || e.res->vanished))
		*ret_plan = plan;
	else
		np_plan_free(plan);
	np_state_free(pristine);
	np_state_free(cur);
	engine_stop(dirfd, lockfd);
	return r;
}

static int read_active(struct np_ctx *ctx, const char *ifname, struct np_active *ret,
		       struct np_error *err)
{
	char file[IFNAMSIZ + 16], text[460], *nl, *drop;
	int dirfd, r;

	memset(ret, 0, sizeof(*ret));
	r = np_ifname_validate(ifname, err);
	if (r < 0)
		return r;
	/* Reading must not create the directory: show is read-only. */
	dirfd = open(ctx->state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return 0;
	snprintf(file, sizeof(file), "%s.policy", ifname);
	r = np_read_file_at(dirfd, file, text, sizeof(text));
	close(dirfd);
	if (r < 0)
		return 0;
	nl = strchr(text, '\n');
	if (nl)
		*nl++ = '\0';
	drop = nl ? strchr(nl, '\n') : NULL;
	if (drop)
		*drop++ = '\0';
	if (strlen(text) >= sizeof(ret->policy) || (nl && strlen(nl) >= sizeof(ret->cpus)) ||
	    (drop && strlen(drop) >= sizeof(ret->drop)))
		return 0;	/* not ours: ignore rather than act on a truncated name */
	memcpy(ret->policy, text, strlen(text) + 1);
	if (nl)
		memcpy(ret->cpus, nl, strlen(nl) + 1);
	if (drop)
		memcpy(ret->drop, drop, strlen(drop) + 1);
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
