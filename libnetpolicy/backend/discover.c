/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_discover: one snapshot of a device, through whichever backend the
 * context uses. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "np_private.h"

int np_discover(struct np_ctx *ctx, const char *ifname, struct np_state **ret,
		struct np_error *err)
{
	struct np_backend *be;
	struct np_state *st;
	int r;

	r = np_ifname_validate(ifname, err);
	if (r < 0)
		return r;
	r = np_ctx_backend(ctx, &be, err);
	if (r < 0)
		return r;
	ctx->counts.reads++;
	st = calloc(1, sizeof(*st));
	if (!st)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	r = be->ops->discover(be, ifname, st, err);
	if (r < 0) {
		np_state_free(st);
		return r;
	}
	*ret = st;
	return 0;
}

int np_list_devices(struct np_ctx *ctx, char ***ret, size_t *ret_n, struct np_error *err)
{
	struct np_backend *be;
	int r;

	r = np_ctx_backend(ctx, &be, err);
	if (r < 0)
		return r;
	return be->ops->list_devices(be, ret, ret_n, err);
}

