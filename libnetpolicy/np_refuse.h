/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* refuse.c: which refused knobs an apply may leave out. */
#ifndef NP_REFUSE_H
#define NP_REFUSE_H

#include "np_private.h"

struct np_policy;

/*
 * After a failed and cleanly rolled-back apply of `policy`: if the step that
 * failed (`knob`) is a refinement the driver refused, add it to the
 * comma-separated `drop` list, record it with the kernel's reason in `res`,
 * clear `err` and return true: the caller plans again without it.  False
 * when the failure stands (a core knob, another error, NP_APPLY_STRICT, an
 * incomplete rollback).
 */
bool np_refusal_drop(const struct np_policy *policy, unsigned flags, const char *knob,
		     struct np_apply_result *res, char *drop, size_t len, struct np_error *err);

#endif
