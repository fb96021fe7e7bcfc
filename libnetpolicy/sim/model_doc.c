/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The two helpers every part of the model document's reader and writer
 * uses: an input error naming where in the model it is, and a member added
 * (or -ENOMEM).  Below the model's loader (model_io.c) and its faults and
 * calls members (faults_json.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "np_sim.h"

int np_sim_bad(struct np_error *err, const char *path, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "%s: %s", path, what);
}

int np_sim_json_add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}
