/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Errors are data: code, phase, knob, step and two texts, filled once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_private.h"

struct np_error *np_error_new(void)
{
	struct np_error *err = malloc(sizeof(*err));

	np_error_clear(err);
	return err;
}

void np_error_free(struct np_error *err)
{
	free(err);
}

int np_error_code(const struct np_error *err)
{
	return err ? err->code : 0;
}

enum np_phase np_error_phase(const struct np_error *err)
{
	return err ? err->phase : NP_PHASE_NONE;
}

const char *np_error_knob(const struct np_error *err)
{
	return err ? err->knob : NULL;
}

int np_error_step(const struct np_error *err)
{
	return err ? err->step : -1;
}

const char *np_error_message(const struct np_error *err)
{
	return err ? err->msg : "";
}

const char *np_error_extack(const struct np_error *err)
{
	return err ? err->extack : "";
}

void np_error_clear(struct np_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->step = -1;
}

size_t np_escape(const char *in, char *out, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!len)
		return 0;
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		char e[5];
		size_t n;

		/* control characters (an escape sequence, a newline forging a
		 * second message) and DEL; UTF-8 stays readable */
		if (*p < 0x20 || *p == 0x7f) {
			e[0] = '\\';
			e[1] = *p == '\n' ? 'n' : *p == '\t' ? 't' : *p == '\r' ? 'r' : 'x';
			n = 2;
			if (e[1] == 'x') {
				e[2] = hex[*p >> 4];
				e[3] = hex[*p & 15];
				n = 4;
			}
		} else {
			e[0] = (char)*p;
			n = 1;
		}
		if (o + n >= len)
			break;
		memcpy(out + o, e, n);
		o += n;
	}
	out[o] = '\0';
	return o;
}

int np_err(struct np_error *err, int code, enum np_phase phase, const char *knob,
	   const char *fmt, ...)
{
	char raw[sizeof(err->msg)];
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
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* Messages quote names and lines from users, files and the kernel:
	 * never hand a terminal or a log their control characters. */
	np_escape(raw, err->msg, sizeof(err->msg));
	return code;
}

void np_err_extack(struct np_error *err, const char *text)
{
	if (!err || !text)
		return;
	np_escape(text, err->extack, sizeof(err->extack));
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
		[NP_PHASE_LOCK] = "lock",
		[NP_PHASE_STATE] = "state",
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
