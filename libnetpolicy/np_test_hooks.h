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

#endif
