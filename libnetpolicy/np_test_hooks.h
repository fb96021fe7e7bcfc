/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hooks for tests, not API: they are not in the public header, so no
 * program outside this tree can come to depend on them.  The unit tests,
 * the CLI's test build (step hook) and its --root option (fixture trees)
 * include this header.
 */
#ifndef NP_TEST_HOOKS_H
#define NP_TEST_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

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

/* The process's allocator never returns NULL: it aborts instead (ASan's
 * default allocator_may_return_null=0, as in the fuzz targets).  json-c
 * before 0.17 hides a failed allocation as a syntax error, a dropped member
 * or a cut string, so np_json_parse parses each text a second time to tell
 * (json_parse.c); with no allocation that can fail, that second parse of the
 * same text can find nothing and is skipped. */
void np_json_set_alloc_never_fails(bool on);

/* A simulated backend whose model is text (not copied: it must outlive the
 * context), checked and parsed by the same code as a model file; name is
 * what messages call it.  Changes stay in memory.  For tests/fuzz/fuzz_model.c. */
int np_ctx_set_model_text(struct np_ctx *ctx, const char *name, const char *text, size_t len,
			  struct np_error *err);

#endif
