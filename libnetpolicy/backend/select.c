/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_ctx_backend: the context's backend, opened on first use: the simulated
 * machine when the context has a model, else the kernel.  Below the engine,
 * which only ever reaches a backend through this and its ops. */
#include "np_private.h"

int np_ctx_backend(struct np_ctx *ctx, struct np_backend **ret, struct np_error *err)
{
	int r;

	if (!ctx->be) {
		if (ctx->model)
			r = np_backend_sim_new(ctx, ctx->model, &ctx->be, err);
		else
			r = np_backend_kernel_new(ctx, &ctx->be, err);
		if (r < 0)
			return r;
	}
	*ret = ctx->be;
	return 0;
}
