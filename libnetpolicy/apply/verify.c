/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Verify: after converging, what still differs from the goal, and why.
 * A driver may round what it is given (ring sizes to a power of two,
 * coalescing to its timer's resolution) and the kernel rounds some sysfs
 * values itself (rps_flow_cnt to a power of two: net/core/net-sysfs.c,
 * store_rps_dev_flow_table_cnt()).  So right after each write the engine
 * reads the device back and remembers the answer.  At the end a value still
 * equal to that answer was rounded (reported); a value that changed since
 * was changed by someone else (`ethtool -L` in another shell), and one that
 * still has its old value was ignored: both fail the run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/np_engine.h"
#include "plan/np_policy.h"

void np_engine_answers_free(struct np_engine *e)
{
	free(e->answers);
	e->answers = NULL;
	e->n_answers = 0;
}

static struct np_answer *find_answer(struct np_engine *e, const char *knob, const char *what)
{
	/* the latest: a knob written again after a re-plan answers anew */
	for (size_t i = e->n_answers; i-- > 0;)
		if (!strcmp(e->answers[i].knob, knob) && !strcmp(e->answers[i].what, what))
			return &e->answers[i];
	return NULL;
}

int np_engine_answer(struct np_engine *e, const struct np_knob *knob, const struct np_state *cur,
		     const struct np_state *goal)
{
	struct np_plan p = { .target = (struct np_state *)goal };
	int r;

	r = knob->diff(&p, cur, goal);
	for (size_t i = 0; r >= 0 && i < p.n_steps; i++) {
		const struct np_step *s = &p.steps[i];

		for (unsigned k = 0; k < s->n_changes; k++) {
			const struct np_change *c = &p.changes[s->first_change + k];
			struct np_answer *a = find_answer(e, knob->name, c->what);

			if (!a) {
				a = realloc(e->answers, (e->n_answers + 1) * sizeof(*a));
				if (!a) {
					r = -ENOMEM;
					break;
				}
				e->answers = a;
				a = &e->answers[e->n_answers++];
				a->knob = knob->name;
				snprintf(a->what, sizeof(a->what), "%s", c->what);
			}
			/* its text: answers are compared with later reads' */
			np_value_format(&c->before, a->value, sizeof(a->value));
		}
	}
	/* A field now at its goal that answered otherwise before (written
	 * twice): its earlier answer is stale. */
	for (size_t i = 0; r >= 0 && i < e->n_answers; i++) {
		bool still = false;

		if (strcmp(e->answers[i].knob, knob->name))
			continue;
		for (size_t j = 0; j < p.n_steps && !still; j++)
			for (unsigned k = 0; k < p.steps[j].n_changes && !still; k++)
				still = !strcmp(p.changes[p.steps[j].first_change + k].what,
						e->answers[i].what);
		if (!still)
			e->answers[i].what[0] = '\0';
	}
	np_engine_steps_free(&p);
	return r;
}

const struct np_change *np_engine_find_change(const struct np_plan *p, const char *knob,
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

static void note(struct np_engine *e, const char *knob, const struct np_change *c)
{
	size_t used = strlen(e->res->notes);
	char x[80], y[80];

	np_value_format(&c->before, x, sizeof(x));
	np_value_format(&c->after, y, sizeof(y));
	snprintf(e->res->notes + used, sizeof(e->res->notes) - used, "%s%s %s: driver set %s for %s",
		 used ? "; " : "", knob, c->what, x, y);
}

/* The field bit of `what` in a knob whose requests carry several (the
 * step's fields: refuse.c leaves out that field alone); 0 for the others. */
static uint32_t field_of(const char *knob, const char *what)
{
	int f = -1;

	if (!strcmp(knob, "coalesce"))
		f = np_coal_field_lookup(what);
	for (int i = 0; !strcmp(knob, "rings") && i < NP_RING__COUNT; i++)
		if (!strcmp(what, np_ring_field_name(i)))
			f = i;
	return f >= 0 ? 1u << f : 0;
}

/* A field of a policy's apply the driver answered with a value of its own
 * (clamped, set with another field): the plan leaves it as the driver has
 * it from now on (the record's drop list), so that `check` takes the
 * driver's answer for what it is, not for drift. */
static void answered(struct np_engine *e, const char *knob, const char *what, enum np_phase phase)
{
	char item[sizeof(((struct np_answer *)0)->what) + 24];
	const char *field = what;

	if (!strcmp(knob, "queue-coalesce")) {
		/* "rx-N FIELD": the field on every queue, which keeps the
		 * record's list short on a device of many queues */
		field = strchr(what, ' ');
		field = field && np_coal_field_lookup(field + 1) >= 0 ? field + 1 : NULL;
	} else if (!field_of(knob, what)) {
		field = NULL;
	}
	if (phase != NP_PHASE_VERIFY || !e->policy || !field)
		return;
	snprintf(item, sizeof(item), "%s.%s", knob, field);
	if (!np_knob_listed(e->drop, item))
		np_knob_list_add(e->drop, sizeof(e->drop), item);
}

/* The driver kept a value netpolicy wrote: its refusal, without an errno,
 * of that knob or field, for refuse.c to leave out. */
static int kept_by_driver(struct np_engine *e, const struct np_step *s, const char *what,
			  const char *x, const char *y, struct np_error *err)
{
	if (!e->failed_knob) {
		e->failed_knob = s->knob->name;
		e->failed_fields = field_of(s->knob->name, what);
		e->failed_answer = true;
	}
	return np_err(err, -EIO, NP_PHASE_VERIFY, s->knob->name, "%s: the driver kept %s, wanted %s",
		      what, x, y);
}

static bool away(uint32_t now, uint32_t before, uint32_t goal)
{
	return (goal < before && now > before) || (goal > before && now < before);
}

int np_engine_defeated(struct np_engine *e, const struct np_step *s, const struct np_state *cur,
		       const struct np_state *goal, struct np_error *err)
{
	static const int rx_delay[] = { NP_COAL_RX_USECS, NP_COAL_RX_FRAMES };
	const struct np_coalesce *now = &cur->dev.coalesce, *want = &goal->dev.coalesce;

	if (!e->before || now->err || e->before->dev.coalesce.err)
		return 0;
	for (size_t i = 0; i < NP_ARRAY_SIZE(rx_delay); i++) {
		int f = rx_delay[i];
		uint32_t b = e->before->dev.coalesce.val[f];

		if (!(now->supported & (1u << f)) || !away(now->val[f], b, want->val[f]))
			continue;
		e->failed_knob = s->knob->name;
		e->failed_fields = s->fields;
		e->failed_answer = true;
		return np_err(err, -EIO, NP_PHASE_APPLY, s->knob->name, "the driver answered %s %u "
			      "for %u (%u before): the receive delay went the other way",
			      np_coal_field_name(f), now->val[f], want->val[f], b);
	}
	return 0;
}

int np_engine_verify(struct np_engine *e, struct np_state **cur, const struct np_state *before,
		     const struct np_state *goal, enum np_phase phase, struct np_error *err)
{
	struct np_plan left, wanted;
	int r;

	/* Nothing was written since the last read: that read is the proof. */
	r = e->fresh ? 0 : np_engine_read(e, cur, phase, err);
	if (r < 0)
		return r;
	if (np_engine_remaining(e, *cur, goal, &left) < 0 ||
	    np_engine_remaining(e, before, goal, &wanted) < 0) {
		np_engine_steps_free(&left);
		return np_err(err, -ENOMEM, phase, NULL, "out of memory");
	}
	r = 0;
	for (size_t i = 0; i < left.n_steps && !r; i++) {
		const struct np_step *s = &left.steps[i];
		const char *knob = s->knob->name;

		for (unsigned k = 0; k < s->n_changes && !r; k++) {
			const struct np_change *c = &left.changes[s->first_change + k];
			const struct np_change *w = np_engine_find_change(&wanted, knob, c->what);
			const struct np_answer *a = find_answer(e, knob, c->what);
			bool kept = w && np_value_equal(&w->before, &c->before);
			char x[sizeof(a->value)], y[80];

			np_value_format(&c->before, x, sizeof(x));
			np_value_format(&c->after, y, sizeof(y));
			/* what the device said right after netpolicy's own write
			 * is the driver's answer (rounded, clamped, or set with
			 * another field), never another writer */
			if (a && !strcmp(a->value, x) && !kept) {
				note(e, knob, c);
				answered(e, knob, c->what, phase);
				continue;
			}
			if (kept && phase == NP_PHASE_VERIFY) {
				r = kept_by_driver(e, s, c->what, x, y, err);
				continue;
			}
			if (kept) {
				r = np_err(err, -EIO, NP_PHASE_VERIFY, knob,
					   "%s: the driver kept %s, wanted %s", c->what, x, y);
				continue;
			}
			e->res->other_writer = phase != NP_PHASE_ROLLBACK;
			if (a)
				r = np_err(err, -EBUSY, NP_PHASE_VERIFY, knob, "%s: changed to %s by "
					   "another writer during the run (the driver had set %s for %s)",
					   c->what, x, a->value, y);
			else
				r = np_err(err, -EBUSY, NP_PHASE_VERIFY, knob, "%s: changed to %s by "
					   "another writer during the run, wanted %s", c->what, x, y);
		}
	}
	np_engine_steps_free(&left);
	np_engine_steps_free(&wanted);
	return r;
}
