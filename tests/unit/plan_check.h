/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the planner tests share: planning a policy for a state, planning
 * every policy for a machine shape, finding steps and notes in a plan, and
 * property checks that record their first failure and report it once.
 *
 * Header-only, like tap.h whose counters it uses: each test is one
 * translation unit, and a second one would number its TAP lines apart.
 */
#ifndef NP_TEST_PLAN_CHECK_H
#define NP_TEST_PLAN_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "plan/np_policy.h"
#include "shapes.h"
#include "tap.h"

/* The first failure a property check found since its last CHECK, "" when
 * none: a check goes on past a failure, so only the first is worth reading. */
static char check_why[1024];

static inline void whyf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void whyf(const char *fmt, ...)
{
	va_list ap;

	if (check_why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(check_why, sizeof(check_why), fmt, ap);
	va_end(ap);
}

/* One TAP line per property of case c under policy p, with the reason of
 * its first failure. */
#define CHECK(c, p, what) do {							\
	ok(!check_why[0], "%s / %s: %s", (c)->name, (p)->name, (what));		\
	if (check_why[0])							\
		printf("#   %s\n", check_why);					\
	check_why[0] = '\0';							\
} while (0)

/* The plan of the named policy for st (base NULL: st is pristine and no
 * other device needs anything); NULL when it does not plan, err says why. */
static inline struct np_plan *plan_for(const char *policy, const struct np_plan_opts *opts,
				       const struct np_state *st,
				       const struct np_plan_base *base, struct np_error *err)
{
	const struct np_policy *p = NULL;
	struct np_plan *plan = NULL;

	np_error_clear(err);
	if (np_policy_lookup(policy, &p, err) < 0 ||
	    np_plan_compute_base(p, opts, st, base, &plan, err) < 0)
		return NULL;
	return plan;
}

/* Shape s built into *st and the named policy planned for it with opts
 * into *plan; when either fails, one failing check "WHAT: plans", nothing
 * left to free, and false. */
static inline bool shape_plan(const struct shape *s, const char *policy,
			      const struct np_plan_opts *opts, struct np_state **st,
			      struct np_plan **plan, const char *what)
{
	struct np_error err;

	*st = NULL;
	if (shape_build(s, st) < 0 || !(*plan = plan_for(policy, opts, *st, NULL, &err))) {
		ok(0, "%s: plans", what);
		np_state_free(*st);
		return false;
	}
	return true;
}

/* Builds shape s (one check "NAME: shape builds") and plans every policy
 * for it through ctx (NULL: no state store) with opts (one check "NAME /
 * POLICY: plans" each), handing each plan to check with arg; all but the
 * mixed policy. */
typedef void plan_check_fn(const struct np_policy *p, const struct np_state *st,
			   const struct np_plan *plan, void *arg);

static inline void plan_each_policy(struct np_ctx *ctx, const char *name,
				    const struct shape *s, const struct np_plan_opts *opts,
				    plan_check_fn *check, void *arg)
{
	struct np_state *st = NULL;
	int r = shape_build(s, &st);

	ok(r == 0, "%s: shape builds", name);
	if (r < 0)
		return;
	for (size_t i = 0; i < np_policy_count(); i++) {
		const struct np_policy *p = np_policy_at(i);
		struct np_plan *plan = NULL;
		struct np_error err;

		/* one class per device here; the mixed policy's classes have
		 * properties of their own (test_mixed.c) */
		if (p->mixed)
			continue;
		np_error_clear(&err);
		r = np_plan_compute(ctx, p, opts, st, &plan, &err);
		ok(r == 0, "%s / %s: plans", name, p->name);
		if (r < 0) {
			printf("#   %s\n", err.msg);
			continue;
		}
		check(p, st, plan, arg);
		np_plan_free(plan);
	}
	np_state_free(st);
}

/* Steps of the knob named knob in the plan. */
static inline size_t steps_of(const struct np_plan *plan, const char *knob)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n_steps; i++)
		n += !strcmp(plan->steps[i].knob->name, knob);
	return n;
}

/* The first note of knob (NULL: any knob) whose text holds text (NULL: any). */
static inline const struct np_note *find_note(const struct np_plan *plan, const char *knob,
					      const char *text)
{
	for (size_t i = 0; i < plan->n_notes; i++)
		if ((!knob || !strcmp(plan->notes[i].knob, knob)) &&
		    (!text || strstr(plan->notes[i].text, text)))
			return &plan->notes[i];
	return NULL;
}

static inline bool noted(const struct np_plan *plan, const char *text)
{
	return find_note(plan, NULL, text) != NULL;
}

#endif
