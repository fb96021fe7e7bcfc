/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Plans: construction and their JSON form (diff.c turns two states into
 * ordered steps through the knob table; fmt.c has the number and CPU list
 * formatting the knobs and values share). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "plan/np_policy.h"

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
	np_state_free((struct np_state *)plan->base.pristine);
	free(plan->mixed);
	free(plan->steps);
	free(plan->changes);
	free(plan->notes);
	free(plan);
}

size_t np_plan_n_steps(const struct np_plan *plan)
{
	return plan->n_steps;
}

bool np_plan_changes(const struct np_plan *plan, const char *knob)
{
	for (size_t i = 0; plan && knob && i < plan->n_steps; i++)
		if (!strcmp(plan->steps[i].knob->name, knob))
			return true;
	return false;
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
	s->n_changes = 0;
	s->by_driver = false;
	return 0;
}

/* A new change in the last step, named what, its values zeroed (a
 * before of kind NP_VAL_NONE); NULL when memory ran out. */
static struct np_change *new_change(struct np_plan *plan, const char *what)
{
	struct np_change *c;

	if (grow((void **)&plan->changes, &plan->n_changes, &plan->cap_changes, sizeof(*c)) < 0)
		return NULL;
	c = &plan->changes[plan->n_changes - 1];
	np_fmt_copy(c->what, sizeof(c->what), what);
	plan->steps[plan->n_steps - 1].n_changes++;
	return c;
}

int np_plan_add_change(struct np_plan *plan, const char *what, const struct np_value *before,
		       const struct np_value *after)
{
	struct np_change *c = new_change(plan, what);

	if (!c)
		return -ENOMEM;
	c->before = *before;
	c->after = *after;
	return 0;
}

static int add_scalar(struct np_plan *plan, const char *what, enum np_value_kind kind,
		      uint64_t before, uint64_t after)
{
	struct np_change *c = new_change(plan, what);

	if (!c)
		return -ENOMEM;
	c->before.kind = c->after.kind = kind;
	c->before.u = before;
	c->after.u = after;
	return 0;
}

int np_plan_add_uint(struct np_plan *plan, const char *what, uint64_t before, uint64_t after)
{
	return add_scalar(plan, what, NP_VAL_UINT, before, after);
}

int np_plan_add_bool(struct np_plan *plan, const char *what, bool before, bool after)
{
	return add_scalar(plan, what, NP_VAL_BOOL, before, after);
}

/* Written in place: a change holds two masks of NP_CPUS_MAX bits, and a
 * plan of 1024 CPUs x 256 queues has a thousand of them. */
int np_plan_add_cpus(struct np_plan *plan, const char *what, const struct np_cpumask *before,
		     const struct np_cpumask *after)
{
	struct np_change *c = new_change(plan, what);

	if (!c)
		return -ENOMEM;
	c->before.kind = before ? NP_VAL_CPUS : NP_VAL_NONE;
	if (before)
		c->before.cpus = *before;
	c->after.kind = NP_VAL_CPUS;
	c->after.cpus = *after;
	return 0;
}

int np_plan_add_counts(struct np_plan *plan, const struct np_knob *knob,
		       const struct np_count_change *c, size_t n)
{
	bool added = false;

	for (size_t i = 0; i < n; i++) {
		if (c[i].before == c[i].after)
			continue;
		if (!added && np_plan_add_step(plan, knob, -1, 0) < 0)
			return -ENOMEM;
		added = true;
		if (np_plan_add_uint(plan, c[i].name, c[i].before, c[i].after) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int vnote(struct np_plan *plan, bool warning, const char *knob, const char *fmt,
		 va_list ap)
{
	struct np_note *n;

	if (grow((void **)&plan->notes, &plan->n_notes, &plan->cap_notes, sizeof(*n)) < 0)
		return -ENOMEM;
	n = &plan->notes[plan->n_notes - 1];
	n->knob = knob;
	n->warning = warning;
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	return 0;
}

int np_plan_note(struct np_plan *plan, const char *knob, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vnote(plan, false, knob, fmt, ap);
	va_end(ap);
	return r;
}

int np_plan_warn(struct np_plan *plan, const char *knob, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vnote(plan, true, knob, fmt, ap);
	va_end(ap);
	return r;
}

/* Add v (consumed) under key of o; false when o, v or the add failed
 * (memory ran out): the caller drops the whole document. */
static bool put(struct json_object *o, const char *key, struct json_object *v)
{
	if (o && v && json_object_object_add(o, key, v) == 0)
		return true;
	json_object_put(v);
	return false;
}

static bool push(struct json_object *arr, struct json_object *v)
{
	if (arr && v && json_object_array_add(arr, v) == 0)
		return true;
	json_object_put(v);
	return false;
}

static struct json_object *step_json(const struct np_plan *plan, const struct np_step *s, size_t i)
{
	struct json_object *so = json_object_new_object(), *ch = json_object_new_array();
	bool ok = so && put(so, "step", json_object_new_int64((int64_t)i)) &&
		  put(so, "knob", json_object_new_string(s->knob->name)) &&
		  (!s->by_driver || put(so, "by", json_object_new_string("driver")));

	for (unsigned k = 0; ok && k < s->n_changes; k++) {
		const struct np_change *c = &plan->changes[s->first_change + k];
		struct json_object *co = json_object_new_object(), *x = NULL, *y = NULL;
		/* typed values (np_value): a NULL x or y is JSON null (no value) */
		int rx = np_value_to_json(&c->before, &x), ry = np_value_to_json(&c->after, &y);

		ok = rx >= 0 && ry >= 0 && put(co, "what", json_object_new_string(c->what)) &&
		     put(co, "type", json_object_new_string(np_value_type(&c->after)));
		if (ok && json_object_object_add(co, "before", x) == 0)
			x = NULL;
		else
			ok = false;
		if (ok && json_object_object_add(co, "after", y) == 0)
			y = NULL;
		else
			ok = false;
		json_object_put(x);
		json_object_put(y);
		if (ok)
			ok = push(ch, co);	/* consumes co */
		else
			json_object_put(co);
	}
	if (ok && put(so, "changes", ch))
		return so;
	if (!ok)
		json_object_put(ch);
	json_object_put(so);
	return NULL;
}

int np_plan_to_json(const struct np_plan *plan, struct json_object **ret)
{
	struct json_object *o = json_object_new_object(), *steps = json_object_new_array();
	struct json_object *notes = json_object_new_array();
	bool ok = o && steps && notes;

	ok = ok && put(o, "ifname", json_object_new_string(plan->target->dev.ifname));
	if (ok && !plan->policy)
		ok = json_object_object_add(o, "policy", NULL) == 0;	/* null: a reset */
	else if (ok)
		ok = put(o, "policy", json_object_new_string(plan->policy->name));
	ok = ok && put(o, "n_steps", json_object_new_int64((int64_t)plan->n_steps)) &&
	     put(o, "n_changes", json_object_new_int64((int64_t)plan->n_changes));
	for (size_t i = 0; ok && i < plan->n_steps; i++)
		ok = push(steps, step_json(plan, &plan->steps[i], i));
	for (size_t i = 0; ok && i < plan->n_notes; i++) {
		struct json_object *no = json_object_new_object();

		ok = put(no, "knob", json_object_new_string(plan->notes[i].knob)) &&
		     put(no, "note", json_object_new_string(plan->notes[i].text)) &&
		     (!plan->notes[i].warning ||
		      put(no, "warning", json_object_new_boolean(true)));
		if (ok)
			ok = push(notes, no);	/* consumes no */
		else
			json_object_put(no);
	}
	if (ok) {
		ok = put(o, "steps", steps);
		steps = NULL;
	}
	if (ok) {
		ok = put(o, "notes", notes);
		notes = NULL;
	}
	json_object_put(steps);
	json_object_put(notes);
	if (!ok) {
		json_object_put(o);
		return -ENOMEM;
	}
	*ret = o;
	return 0;
}
