/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* np_log: the library's one way to say something, through the caller's
 * callback (it never prints).  Here, below every layer that logs, rather
 * than in ctx.c, which sits above them all. */
#include <stdarg.h>
#include <stdio.h>

#include "np_private.h"

void np_log(struct np_ctx *ctx, enum np_log_level level, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!ctx || !ctx->log_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ctx->log_fn(ctx->log_ud, level, buf);
}
