/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a run changed that it did not write.  A channel change makes some
 * drivers change other knobs themselves: igb re-spreads its RSS table over
 * the new queues and, when the change pairs its vectors, reports tx-usecs
 * 0 from then on.  Where that is what the goal wanted, nothing is written
 * for it, so the steps as written miss it; the report adds it as steps
 * marked "by the driver", so that it lists every value the run changed.
 * Only device-wide knobs whose identity survives a channel change are
 * compared: IRQs are renumbered (their changes are written and named at
 * the write), and queue files are rewritten where the goal wants them.
 * Also: the steps as written, handed to the plan the caller reports.
 */
#include "apply/np_engine.h"

#define SWAP(a, b)                   \
	do {                         \
		__typeof__(a) t_ = (a); \
		(a) = (b);           \
		(b) = t_;            \
	} while (0)

/* The steps as written, in the plan reported (np_engine.h). */
void np_engine_report(struct np_engine *e, struct np_plan *plan)
{
	if (!plan || !e->done || !e->res->changed)
		return;
	SWAP(plan->steps, e->done->steps);
	SWAP(plan->n_steps, e->done->n_steps);
	SWAP(plan->cap_steps, e->done->cap_steps);
	SWAP(plan->changes, e->done->changes);
	SWAP(plan->n_changes, e->done->n_changes);
	SWAP(plan->cap_changes, e->done->cap_changes);
}

static const struct np_knob *const compared[] = {
	&np_knob_features, &np_knob_rss_early, &np_knob_channels, &np_knob_rings, &np_knob_rss,
	&np_knob_coalesce, NULL,
};

/* Add to e->done, as the driver's, each change from `before` to `now` of
 * the compared knobs that no written step names.  Memory running out
 * costs the report these lines, never the run. */
void np_engine_driver_changes(struct np_engine *e, const struct np_state *before,
			      const struct np_state *now)
{
	for (size_t k = 0; e->done && compared[k]; k++) {
		struct np_plan p = { .target = (struct np_state *)now, .all = true };
		bool ok = compared[k]->diff(&p, before, now) >= 0;

		for (size_t i = 0; ok && i < p.n_steps; i++) {
			const struct np_step *s = &p.steps[i];
			bool added = false;

			for (unsigned c = 0; ok && c < s->n_changes; c++) {
				const struct np_change *ch = &p.changes[s->first_change + c];

				if (np_engine_find_change(e->done, s->knob->name, ch->what))
					continue;
				if (!added) {
					ok = np_plan_add_step(e->done, s->knob, s->index, 0) >= 0;
					if (ok)
						e->done->steps[e->done->n_steps - 1].by_driver = true;
					added = true;
				}
				ok = ok && np_plan_add_change(e->done, ch->what, &ch->before,
							      &ch->after) >= 0;
			}
		}
		np_engine_steps_free(&p);
		if (!ok) {
			np_plan_free(e->done);
			e->done = NULL;
		}
	}
}
