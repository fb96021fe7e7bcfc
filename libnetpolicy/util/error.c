/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Errors are data: code, phase, knob, step and two texts, filled once. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "np_private.h"

void np_error_clear(struct np_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->step = -1;
}

int np_err(struct np_error *err, int code, enum np_phase phase, const char *knob,
	   const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	/* Keep the first (innermost) error: callers up the stack add no detail
	 * the user needs, and overwriting would lose the kernel's extack. */
	if (err->code)
		return code;
	err->code = code;
	err->phase = phase;
	err->knob = knob;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void np_err_extack(struct np_error *err, const char *text)
{
	if (!err || !text)
		return;
	snprintf(err->extack, sizeof(err->extack), "%s", text);
}

const char *np_phase_name(enum np_phase phase)
{
	static const char *const names[] = {
		[NP_PHASE_NONE] = "none",
		[NP_PHASE_INPUT] = "input",
		[NP_PHASE_DISCOVER] = "discover",
		[NP_PHASE_PLAN] = "plan",
		[NP_PHASE_APPLY] = "apply",
		[NP_PHASE_VERIFY] = "verify",
		[NP_PHASE_ROLLBACK] = "rollback",
	};

	if ((unsigned)phase >= NP_ARRAY_SIZE(names))
		return "unknown";
	return names[phase];
}

const char *np_error_format(const struct np_error *err, char *buf, size_t len)
{
	const char *msg;

	if (!buf || !len)
		return "";
	if (!err || !err->code) {
		snprintf(buf, len, "no error");
		return buf;
	}
	msg = err->msg[0] ? err->msg : strerror(-err->code);
	/* The kernel's own words are the most precise reason: prefer them, and
	 * keep ours in front as context when they differ. */
	if (err->extack[0] && strcmp(err->extack, msg) != 0)
		snprintf(buf, len, "%s%s%s: %s", err->knob ? err->knob : "", err->knob ? ": " : "",
			 msg, err->extack);
	else
		snprintf(buf, len, "%s%s%s", err->knob ? err->knob : "", err->knob ? ": " : "", msg);
	return buf;
}
