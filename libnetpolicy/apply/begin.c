/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where every command on a device begins (np_engine_begin): above the
 * engine (engine.c) and the --confirm marker (tentative.c), which uses the
 * engine to revert. */
#include "apply/np_engine.h"

/* What every command does first: take the lock, finish or roll back an
 * interrupted run, and (for commands that change the device) revert a
 * --confirm whose deadline passed (tentative.c). */
int np_engine_begin(struct np_engine *e, struct np_ctx *ctx, const char *ifname,
		    struct np_apply_result *res, bool expire, struct np_error *err)
{
	int r = np_engine_start(e, ctx, ifname, res, err);

	if (r >= 0)
		r = np_engine_recover(e, err);
	if (r >= 0 && expire)
		r = np_tentative_expire(e, err);
	return r;
}
