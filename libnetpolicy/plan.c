/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Plans: construction, the differ that turns two states into ordered steps,
 * and their JSON form. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "np_policy.h"

int np_plan_new(struct np_plan **ret)
{
	struct np_plan *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	*ret = p;
	return 0;
}

void np_plan_free(struct np_plan *plan)
{
	if (!plan)
		return;
	np_state_free(plan->target);
	free(plan->steps);
	free(plan->changes);
	free(plan->notes);
	free(plan);
}

size_t np_plan_n_steps(const struct np_plan *plan)
{
	return plan->n_steps;
}

/* Grow an array by one element; 0 or -ENOMEM. */
static int grow(void **v, size_t *n, size_t *cap, size_t size)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		void *nv = realloc(*v, ncap * size);

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	memset((char *)*v + *n * size, 0, size);
	(*n)++;
	return 0;
}

int np_plan_add_step(struct np_plan *plan, const struct np_knob *knob, int index, uint32_t fields)
{
	struct np_step *s;

	if (grow((void **)&plan->steps, &plan->n_steps, &plan->cap_steps, sizeof(*s)) < 0)
		return -ENOMEM;
	s = &plan->steps[plan->n_steps - 1];
	s->knob = knob;
	s->index = index;
	s->fields = fields;
	s->first_change = (unsigned)plan->n_changes;
	return 0;
}

int np_plan_add_change(struct np_plan *plan, const char *what, const char *before,
		       const char *after)
{
	struct np_change *c;

	if (grow((void **)&plan->changes, &plan->n_changes, &plan->cap_changes, sizeof(*c)) < 0)
		return -ENOMEM;
	c = &plan->changes[plan->n_changes - 1];
	snprintf(c->what, sizeof(c->what), "%s", what);
	snprintf(c->before, sizeof(c->before), "%s", before);
	snprintf(c->after, sizeof(c->after), "%s", after);
	plan->steps[plan->n_steps - 1].n_changes++;
	return 0;
}

int np_plan_note(struct np_plan *plan, const char *knob, const char *fmt, ...)
{
	struct np_note *n;
	va_list ap;

	if (grow((void **)&plan->notes, &plan->n_notes, &plan->cap_notes, sizeof(*n)) < 0)
		return -ENOMEM;
	n = &plan->notes[plan->n_notes - 1];
	n->knob = knob;
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
	return 0;
}

void np_fmt_u32(char *buf, size_t len, uint32_t v)
{
	snprintf(buf, len, "%u", v);
}

void np_fmt_mask(char *buf, size_t len, const struct np_cpumask *m)
{
	if (np_cpumask_empty(m) || np_cpumask_format_list(m, buf, len) < 0)
		snprintf(buf, len, "-");
}

int np_plan_diff(struct np_plan *plan, const struct np_state *from)
{
	for (size_t i = 0; np_knobs[i]; i++) {
		int r = np_knobs[i]->diff(plan, from, plan->target);

		if (r < 0)
			return r;
	}
	return 0;
}

int np_plan_compute(struct np_ctx *ctx, const struct np_policy *policy,
		    const struct np_plan_opts *opts, const struct np_state *state,
		    struct np_plan **ret, struct np_error *err)
{
	struct np_plan *plan = NULL;
	int r;

	(void)ctx;
	if (!policy || !state)
		return np_err(err, -EINVAL, NP_PHASE_PLAN, NULL, "no policy or no state");
	if (np_plan_new(&plan) < 0 || np_state_dup(state, &plan->target) < 0) {
		np_plan_free(plan);
		return np_err(err, -ENOMEM, NP_PHASE_PLAN, NULL, "out of memory");
	}
	plan->policy = policy;
	if (opts && opts->cpus) {
		if (strlen(opts->cpus) >= sizeof(plan->cpus)) {
			np_plan_free(plan);
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "--cpus: list too long");
		}
		snprintf(plan->cpus, sizeof(plan->cpus), "%s", opts->cpus);
	}
	r = np_policy_plan(policy, opts, state, plan, err);
	if (r < 0)
		goto fail;
	r = np_plan_diff(plan, state);
	if (r < 0) {
		np_err(err, r, NP_PHASE_PLAN, NULL, "out of memory");
		goto fail;
	}
	*ret = plan;
	return 0;
fail:
	np_plan_free(plan);
	return r;
}

int np_plan_to_json(const struct np_plan *plan, struct json_object **ret)
{
	struct json_object *o = json_object_new_object(), *steps = json_object_new_array();
	struct json_object *notes = json_object_new_array();

	if (!o || !steps || !notes) {
		json_object_put(o);
		json_object_put(steps);
		json_object_put(notes);
		return -ENOMEM;
	}
	json_object_object_add(o, "ifname", json_object_new_string(plan->target->dev.ifname));
	json_object_object_add(o, "policy",
			       plan->policy ? json_object_new_string(plan->policy->name) : NULL);
	json_object_object_add(o, "n_steps", json_object_new_int64((int64_t)plan->n_steps));
	json_object_object_add(o, "n_changes", json_object_new_int64((int64_t)plan->n_changes));
	for (size_t i = 0; i < plan->n_steps; i++) {
		const struct np_step *s = &plan->steps[i];
		struct json_object *so = json_object_new_object(), *ch = json_object_new_array();

		json_object_object_add(so, "step", json_object_new_int64((int64_t)i));
		json_object_object_add(so, "knob", json_object_new_string(s->knob->name));
		for (unsigned k = 0; k < s->n_changes; k++) {
			const struct np_change *c = &plan->changes[s->first_change + k];
			struct json_object *co = json_object_new_object();

			json_object_object_add(co, "what", json_object_new_string(c->what));
			json_object_object_add(co, "before", json_object_new_string(c->before));
			json_object_object_add(co, "after", json_object_new_string(c->after));
			json_object_array_add(ch, co);
		}
		json_object_object_add(so, "changes", ch);
		json_object_array_add(steps, so);
	}
	json_object_object_add(o, "steps", steps);
	for (size_t i = 0; i < plan->n_notes; i++) {
		struct json_object *no = json_object_new_object();

		json_object_object_add(no, "knob", json_object_new_string(plan->notes[i].knob));
		json_object_object_add(no, "note", json_object_new_string(plan->notes[i].text));
		json_object_array_add(notes, no);
	}
	json_object_object_add(o, "notes", notes);
	*ret = o;
	return 0;
}
