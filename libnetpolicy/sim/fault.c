/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fault injection for the apply engine's tests: a model's "faults" make the
 * N-th call of an operation fail, be ignored, round or lose its device, and
 * "calls" counts the calls across commands.  Every simulated operation
 * starts with np_sim_begin() and ends with np_sim_finish(); the model's
 * "faults" and "calls" members are read and written by faults_json.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_sim.h"

int np_sim_fail(struct np_error *err, enum np_phase phase, const char *knob, int code,
		const char *extack)
{
	bool first = err && !err->code;

	np_err(err, code, phase, knob, "%s", extack ? extack : strerror(-code));
	if (first && extack)
		np_err_extack(err, extack);
	return code;
}

bool np_sim_irq_managed(const struct np_sim_model *m, unsigned irq)
{
	for (size_t i = 0; i < m->n_managed; i++)
		if (m->managed[i] == irq)
			return true;
	return false;
}

struct np_dev *np_sim_find_dev(struct np_sim_model *m, const char *ifname)
{
	for (size_t i = 0; i < m->n_devs; i++)
		if (!strcmp(m->devs[i].ifname, ifname))
			return &m->devs[i];
	return NULL;
}

static void remove_dev(struct np_sim_model *m, struct np_dev *d)
{
	size_t i = (size_t)(d - m->devs);

	np_dev_clear(d);
	memmove(d, d + 1, (m->n_devs - i - 1) * sizeof(*d));
	m->n_devs--;
}

/*
 * Start an operation: the current model, the call counted, the device
 * looked up, a fault fired.  "fail" and "vanish" end the call here; the
 * others are left to the operation, which validates first (a driver that
 * rounds still refuses what it cannot do).
 */
int np_sim_begin(struct np_sim *s, struct np_sim_call *c, const char *ifname, bool need_dev,
		 struct np_error *err)
{
	const struct np_sim_fault *hit = NULL;
	bool counted = false;
	int r;

	r = np_sim_sync(s, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < s->m.n_faults; i++) {
		const struct np_sim_fault *f = &s->m.faults[i];

		if (f->op != c->op)
			continue;
		counted = true;
		if (hit || (f->device[0] && strcmp(f->device, ifname)) ||
		    (f->knob[0] && (!c->knob || strcmp(f->knob, c->knob))))
			continue;
		if (f->mode >= NP_SIM_MODE_KEEP)
			hit = s->m.calls[c->op] >= f->after ? f : NULL;
		else if (f->fields ? (f->fields & c->fields) && s->m.calls[c->op] >= f->after :
			 f->every ? s->m.calls[c->op] >= f->after : f->after == s->m.calls[c->op])
			hit = f;
	}
	if (counted) {
		s->m.calls[c->op]++;
		s->dirty = true;
	}
	c->dev = np_sim_find_dev(&s->m, ifname);
	if (!c->dev && need_dev)
		return np_err(err, -ENODEV, c->phase, NULL, "no such device");
	if (hit && hit->mode == NP_SIM_MODE_FAIL)
		return np_sim_fail(err, c->phase, c->knob, hit->code, hit->extack[0] ? hit->extack : NULL);
	if (hit && hit->mode == NP_SIM_MODE_VANISH) {
		if (c->dev) {
			remove_dev(&s->m, c->dev);
			c->dev = NULL;
			s->dirty = true;
		}
		return np_err(err, -ENODEV, c->phase, NULL, "no such device");
	}
	c->fault = hit;
	return 0;
}

int np_sim_finish(struct np_sim *s, int r, struct np_error *err)
{
	if (s->dirty) {
		int q;

		s->dirty = false;
		q = np_sim_save(s, r < 0 ? NULL : err);
		if (r >= 0)
			r = q;
	}
	return r;
}

/* The call counters, saved so that a fault's "after" counts across commands. */
