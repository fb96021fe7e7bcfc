/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The caller's hooks into the apply engine (netpolicy/context.h): a step
 * callback, a cancel check between steps, and the --confirm watchdog. */
#include "apply/np_engine.h"

void np_ctx_set_step_hook(struct np_ctx *ctx, np_step_fn fn, void *userdata)
{
	ctx->step_fn = fn;
	ctx->step_ud = userdata;
}

void np_ctx_set_cancel(struct np_ctx *ctx, np_cancel_fn fn, void *userdata)
{
	ctx->cancel_fn = fn;
	ctx->cancel_ud = userdata;
}

void np_ctx_set_tentative(struct np_ctx *ctx, unsigned seconds, np_tentative_fn fn, void *userdata)
{
	ctx->confirm_secs = seconds;
	ctx->tentative_fn = fn;
	ctx->tentative_ud = userdata;
}
