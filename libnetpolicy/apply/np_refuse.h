/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refuse.c: which refused knobs (or fields of one) an apply may leave out. */
#ifndef NP_REFUSE_H
#define NP_REFUSE_H

#include "np_private.h"

struct np_policy;
struct np_engine;

/* The step the driver refused, and how the engine is to try again. */
struct np_refused {
	const char *knob;
	uint32_t fields;	/* coalesce: the fields the refused request carried */
	bool split;		/* in and out: one coalescing request per field */
	bool answer;		/* the driver's answer (a value kept, a delay made
				 * worse), not an errno, refused it */
	bool process_caps;	/* the backend writes with this process's
				 * capabilities (np_backend_ops) */
};

enum np_refusal {
	NP_REFUSAL_STANDS,	/* the failure stands */
	NP_REFUSAL_SPLIT,	/* try again, one coalescing request per field */
	NP_REFUSAL_DROPPED,	/* try again without what was refused */
};

/*
 * After a failed and cleanly rolled-back apply of `policy`: if the refused
 * step is a refinement, either ask for the same plan with one coalescing
 * request per field (a request of several fields, not yet split), or add
 * what was refused (the field "coalesce.FIELD" when the request had one
 * field and no field of the knob was left out yet, else the knob) to the
 * comma-separated `drop` list and record it with the kernel's reason in
 * `res`; either way clear `err`.  NP_REFUSAL_STANDS for a core knob, another
 * error, NP_APPLY_STRICT, an incomplete rollback.
 */
enum np_refusal np_refusal_drop(const struct np_policy *policy, unsigned flags,
				struct np_refused *what, struct np_apply_result *res, char *drop,
				size_t len, struct np_error *err);

/*
 * A rollback whose write of a knob (again->knob: `knob`, the one the run
 * failed on as `why`, or another) was refused too (`again`): the kernel
 * moved that knob itself as a side effect of another step (a channel change
 * spreads the new queues' XPS maps and IRQ affinities anew), and the driver
 * refuses it.  When the run's failure is a refusal or a driver's answer the
 * policy can do without (never NP_APPLY_STRICT), put in *kept a plan whose
 * target is `goal` but for that knob, as in `cur`: the rollback converges to
 * that, the next try leaves the knob out (the run's own knob at once,
 * another when the driver refuses it again) and says where it was left
 * (e->left).  Else false: the rollback's failure stands.
 */
bool np_refusal_leave(struct np_engine *e, const char *knob, const struct np_error *why,
		      struct np_error *again, const struct np_state *cur,
		      const struct np_state *goal, struct np_plan **kept);

#endif
