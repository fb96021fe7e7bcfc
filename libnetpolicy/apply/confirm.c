/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ending a pending `set --confirm` (tentative.c has the transaction itself):
 * `confirm` removes the marker while its deadline has not passed, the
 * watchdog's revert returns to the marker's state when its token still
 * names the pending change, and np_pending_state tells show and check what
 * is pending without taking the lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "apply/np_engine.h"
#include "apply/np_journal.h"

int np_confirm(struct np_ctx *ctx, const char *ifname, struct np_apply_result *res,
	       struct np_error *err)
{
	struct np_tentative t;
	struct np_engine e;
	int r;

	r = np_engine_begin(&e, ctx, ifname, res, false, err);
	if (r >= 0)
		r = np_store_tentative_load(&e.store, &t, err);
	if (r == -ENOENT && np_store_has(&e.store, NP_FILE_EXPIRED)) {
		/* the watchdog came first: said once, as the deadline's revert */
		r = np_store_remove(&e.store, NP_FILE_EXPIRED, err);
		if (r >= 0)
			r = np_err(err, -ETIME, NP_PHASE_APPLY, NULL, "too late: the deadline "
				   "passed; the change was rolled back by its watchdog");
		goto out;
	}
	if (r == -ENOENT)
		r = np_err(err, -ENOENT, NP_PHASE_INPUT, NULL, "no tentative change to confirm");
	if (r < 0)
		goto out;
	if ((long long)time(NULL) >= t.deadline) {
		/* Too late: the promise was to revert, whoever comes first. */
		r = np_tentative_revert(&e, &t, err);
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

/*
 * Revert the tentative apply `token` when its marker still names it.  No
 * marker: confirmed, reset or superseded, nothing to do; unless the caller
 * holds a copy (the watchdog, h) and the lock file is no longer the one the
 * copy was taken under: the state directory was emptied, the change is
 * still unconfirmed, and the copy reverts it.
 */
struct np_revert_hold;
static int revert_pending(struct np_ctx *ctx, const char *ifname, unsigned long long token,
			  const struct np_revert_hold *h, struct np_apply_result *res,
			  struct np_error *err);

int np_revert_tentative(struct np_ctx *ctx, const char *ifname, unsigned long long token,
			struct np_apply_result *res, struct np_error *err)
{
	return revert_pending(ctx, ifname, token, NULL, res, err);
}

/*
 * The watchdog's own copy of what it must restore, read before the apply's
 * first write (the apply waits for it: cli_spawn_watchdog): the marker the
 * running apply's journal will commit, or the one on disk (a second
 * --confirm keeps the first one's state).  With it the revert does not
 * depend on the state directory keeping the marker: emptied under a pending
 * --confirm (a new lock file, or none), the watchdog reverts from its copy.
 */
struct np_revert_hold {
	struct np_tentative t;
	unsigned long long lock_id[2];
};

static int hold_marker(struct np_store *s, void *ud, struct np_error *err)
{
	struct np_revert_hold *h = ud;
	struct np_journal_info info;
	struct json_object *v;
	unsigned long long token = h->t.token;
	char what[64];
	int r;

	snprintf(what, sizeof(what), "%s.journal: commit: tentative", s->ifname);
	r = np_journal_load(s, &info, err);
	if (r >= 0) {
		memset(&h->t, 0, sizeof(h->t));
		r = info.commit && json_object_object_get_ex(info.commit, "tentative", &v) && v ?
		    np_tentative_from_json(v, what, &h->t, err) : -ENOENT;
		np_journal_info_release(&info);
		if (r >= 0 && h->t.token != token) {
			np_tentative_release(&h->t);
			r = -ENOENT;
		}
	}
	if (r == -ENOENT) {
		r = np_store_tentative_load(s, &h->t, err);
		if (r >= 0 && h->t.token != token) {
			np_tentative_release(&h->t);
			r = -ENOENT;
		}
	}
	if (r >= 0 && np_store_lock_id(s, h->lock_id) < 0)
		h->lock_id[0] = h->lock_id[1] = 0;
	return r < 0 ? r : 1;
}

int np_revert_hold(struct np_ctx *ctx, const char *ifname, unsigned long long token,
		   struct np_revert_hold **ret, struct np_error *err)
{
	struct np_revert_hold *h = calloc(1, sizeof(*h));
	int r;

	if (!h)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	h->t.token = token;
	r = np_store_peek(ctx, ifname, hold_marker, h, err);
	if (r == 0)
		r = np_err(err, -ENOENT, NP_PHASE_APPLY, NULL, "no pending --confirm %llu of %s "
			   "to guard", token, ifname);
	if (r < 0) {
		free(h);
		return r;
	}
	*ret = h;
	return 0;
}

void np_revert_hold_free(struct np_revert_hold *h)
{
	if (!h)
		return;
	np_tentative_release(&h->t);
	free(h);
}

static int lock_id_of(struct np_store *s, void *ud, struct np_error *err)
{
	(void)err;
	return np_store_lock_id(s, ud) < 0 ? 0 : 1;
}

bool np_revert_hold_orphaned(struct np_ctx *ctx, const char *ifname,
			     const struct np_revert_hold *h)
{
	unsigned long long now[2] = { 0, 0 };
	struct np_error ignored;

	np_error_clear(&ignored);
	if (np_store_peek(ctx, ifname, lock_id_of, now, &ignored) <= 0)
		now[0] = now[1] = 0;
	return now[0] != h->lock_id[0] || now[1] != h->lock_id[1];
}

/* Best effort: without it a late confirm says "nothing to confirm" (exit 1),
 * and the device is as the deadline promised either way. */
static void expired_note(struct np_store *s, unsigned long long token)
{
	struct np_error ignored;
	char text[96];

	np_error_clear(&ignored);
	snprintf(text, sizeof(text), "{ \"token\": %llu, \"reverted\": %lld }\n", token,
		 (long long)time(NULL));
	np_store_write(s, NP_FILE_EXPIRED, text, &ignored);
}

static int revert_pending(struct np_ctx *ctx, const char *ifname, unsigned long long token,
			  const struct np_revert_hold *h, struct np_apply_result *res,
			  struct np_error *err)
{
	unsigned long long now[2] = { 0, 0 };
	struct np_tentative t;
	struct np_engine e;
	bool reverted = false;
	int r;

	r = np_engine_begin(&e, ctx, ifname, res, false, err);
	if (r >= 0) {
		r = np_store_tentative_load(&e.store, &t, err);
		if (r >= 0) {
			if (t.token == token) {
				r = np_tentative_revert(&e, &t, err);
				reverted = true;
			}
			np_tentative_release(&t);
		} else if (r == -ENOENT) {
			r = 0;
			if (h)
				np_store_lock_id(&e.store, now);
			if (h && (now[0] != h->lock_id[0] || now[1] != h->lock_id[1])) {
				np_log(ctx, NP_LOG_WARNING, "%s: the deadline of a 'set --confirm' "
				       "passed and the state directory %s lost its records; reverting "
				       "the change from the watchdog's copy", ifname, ctx->state_dir);
				r = np_tentative_revert(&e, &h->t, err);
				reverted = true;
			}
		}
		if (r >= 0 && reverted)
			expired_note(&e.store, token);
	}
	np_engine_stop(&e);
	return r;
}

int np_revert_held(struct np_ctx *ctx, const char *ifname, const struct np_revert_hold *h,
		   struct np_apply_result *res, struct np_error *err)
{
	return revert_pending(ctx, ifname, h->t.token, h, res, err);
}

/* Whether the tentative apply `token` may still come to its deadline: its
 * marker names it, or a run is in progress (the marker of a set --confirm
 * is written at its commit, after its watchdog started). */
static bool still_pending(struct np_ctx *ctx, const char *ifname, unsigned long long token)
{
	struct np_pending p = { .sz = sizeof(p) };
	struct np_error ignored;

	np_error_clear(&ignored);
	/* a marker it cannot read: the deadline's revert says why */
	if (np_pending_state(ctx, ifname, &p, &ignored) < 0)
		return true;
	return p.journal || p.try_pid || (p.tentative && p.token == token);
}

int np_tentative_wait(struct np_ctx *ctx, const char *ifname, unsigned long long token,
		      long long deadline, struct np_error *err)
{
	struct np_store s;
	int fd = -1, r;

	r = np_store_open_readonly(ctx, ifname, &s, err);
	if (r >= 0) {
		r = np_store_watch(&s, &fd, err);
		np_store_close(&s, false);
	}
	if (r < 0)
		return r;
	/* checked after the watch is set: a change between the two wakes us */
	while (still_pending(ctx, ifname, token)) {
		long long left = deadline - (long long)time(NULL);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		char buf[4096];

		if (left <= 0) {
			close(fd);
			return 1;
		}
		/* at least once a minute: a clock set forward, a lost event */
		if (poll(&pfd, 1, (int)(left < 60 ? left : 60) * 1000) > 0)
			while (read(fd, buf, sizeof(buf)) > 0)
				;
	}
	close(fd);
	return 0;
}

static int load_pending(struct np_store *s, void *ud, struct np_error *err)
{
	struct np_pending *ret = ud;
	struct np_tentative t;
	struct np_try_live live;
	int r;

	ret->journal = np_store_has(s, NP_FILE_JOURNAL);
	if (ret->journal && np_store_try_live(s, &live)) {
		ret->journal = false;
		ret->try_pid = live.pid;
		ret->try_round = live.round;
		snprintf(ret->try_condition, sizeof(ret->try_condition), "%s", live.condition);
	}
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
	struct np_pending p = { .sz = sizeof(p) };
	int r;

	if (ret->sz < sizeof(ret->sz))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "struct np_pending with sz %zu: set it to its size", ret->sz);
	r = np_store_peek(ctx, ifname, load_pending, &p, err);
	if (r >= 0)
		np_sized_out(ret, &p, sizeof(p));
	return r;
}
