/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the engine knows of the device: a whole reading (np_engine_read,
 * which also tells a renamed or departed device from one that failed) and
 * the difference between a reading and a goal (np_engine_remaining).  Below
 * both the converging loop (engine.c) and verification (verify.c), which
 * use them and each other's results, so that neither imports the other.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/np_engine.h"

/* The device we were changing is no longer under its name in this
 * namespace.  Say what became of it when we can tell. */
int np_engine_gone(struct np_engine *e, enum np_phase phase, struct np_error *err)
{
	char name[IF_NAMESIZE];

	e->res->vanished = true;
	if (!e->ctx->model && if_indextoname((unsigned)e->id.ifindex, name) &&
	    strcmp(name, e->ifname)) {
		snprintf(e->res->renamed_to, sizeof(e->res->renamed_to), "%s", name);
		return np_err(err, -ENODEV, phase, NULL,
			      "the device was renamed to %s during the run", name);
	}
	return np_err(err, -ENODEV, phase, NULL, "the device left this network namespace during "
		      "the run (deleted, or moved to another namespace)");
}

int np_engine_read(struct np_engine *e, struct np_state **cur, enum np_phase phase,
		   struct np_error *err)
{
	struct np_state *st = NULL;
	struct np_ident id;
	int r;

	r = np_discover(e->ctx, e->ifname, &st, err);
	if (r >= 0 && e->have_id) {
		np_ident_of(e->ctx, st, &id);
		if (!np_ident_same(&id, &e->id)) {
			np_state_free(st);
			r = -ENODEV;
		}
	}
	if (r == -ENODEV && e->have_id)
		return np_engine_gone(e, phase, err);
	if (r < 0) {
		if (err)
			err->phase = phase;
		return r;
	}
	if (!e->have_id) {
		np_ident_of(e->ctx, st, &e->id);
		e->have_id = true;
	}
	np_state_free(*cur);
	*cur = st;
	e->fresh = true;
	return 0;
}

void np_engine_steps_free(struct np_plan *p)
{
	free(p->steps);
	free(p->changes);
	free(p->notes);
}

int np_engine_remaining(struct np_engine *e, const struct np_state *cur, const struct np_state *goal,
			struct np_plan *p)
{
	e->ctx->counts.diffs++;
	memset(p, 0, sizeof(*p));
	p->target = (struct np_state *)goal;
	return np_plan_diff(p, cur);
}
