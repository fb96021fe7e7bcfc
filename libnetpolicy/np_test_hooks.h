/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hooks for tests, not API: they are not in the public header, so no
 * program outside this tree can come to depend on them.  The unit tests,
 * the CLI's test build (step hook) and its --root option (fixture trees)
 * include this header.
 */
#ifndef NP_TEST_HOOKS_H
#define NP_TEST_HOOKS_H

#include "netpolicy/netpolicy.h"

/* Read sysfs and procfs below DIR instead of "/" (fixture trees). */
int np_ctx_set_root(struct np_ctx *ctx, const char *dir, struct np_error *err);

/* Called after each step that wrote to the device (stopping an apply
 * half-way to test recovery). */
typedef void (*np_step_fn)(void *userdata, unsigned step, const char *knob, const char *what);
void np_ctx_set_step_hook(struct np_ctx *ctx, np_step_fn fn, void *userdata);

/* What the library did since the context was made: whole-device reads
 * (np_discover), partial re-reads after a step, plans made (np_plan_compute),
 * plans refined after queues reopened or a knob was refused, and whole-device
 * diffs the engine ran (a converge pass, a verify). */
struct np_work_counts {
	unsigned reads, refreshes, plans, refines, diffs;
};
void np_ctx_work_counts(const struct np_ctx *ctx, struct np_work_counts *ret);

#endif
