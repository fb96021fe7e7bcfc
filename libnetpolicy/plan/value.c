/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The typed values of a plan's changes: compared by value, printed whole in
 * JSON (netpolicy-json(7)), shortened only in one-line messages. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "plan/np_plan.h"

bool np_value_equal(const struct np_value *a, const struct np_value *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case NP_VAL_NONE:
		return true;
	case NP_VAL_CPUS:
		return np_cpumask_equal(&a->cpus, &b->cpus);
	case NP_VAL_INDIR:
		return a->even == b->even && a->u == b->u && (a->even || a->lo == b->lo);
	case NP_VAL_BOOL:
	case NP_VAL_UINT:
		break;
	}
	return a->u == b->u;
}

const char *np_value_type(const struct np_value *v)
{
	switch (v->kind) {
	case NP_VAL_NONE: return "none";
	case NP_VAL_UINT: return "uint";
	case NP_VAL_BOOL: return "bool";
	case NP_VAL_CPUS: return "cpus";
	case NP_VAL_INDIR: return "indir";
	}
	return "none";
}

void np_value_format(const struct np_value *v, char *buf, size_t len)
{
	if (!len)
		return;
	switch (v->kind) {
	case NP_VAL_NONE:
		snprintf(buf, len, "(new queue)");
		return;
	case NP_VAL_UINT:
		snprintf(buf, len, "%" PRIu64, v->u);
		return;
	case NP_VAL_BOOL:
		snprintf(buf, len, "%s", v->u ? "on" : "off");
		return;
	case NP_VAL_INDIR:
		if (v->even)
			snprintf(buf, len, "even over %" PRIu64 " queues", v->u);
		else
			snprintf(buf, len, "custom over queues %" PRIu64 "-%" PRIu64, v->lo, v->u);
		return;
	case NP_VAL_CPUS:
		break;
	}
	if (np_cpumask_empty(&v->cpus)) {
		snprintf(buf, len, "none");
		return;
	}
	if (np_fmt_mask(buf, len, &v->cpus) < 0 && len >= 4)
		memcpy(buf + len - 4, "...", 4);
}

int np_value_to_json(const struct np_value *v, struct json_object **ret)
{
	struct json_object *o = NULL;
	char list[NP_CPULIST_MAX];

	switch (v->kind) {
	case NP_VAL_NONE:
		*ret = NULL;
		return 0;
	case NP_VAL_UINT:
		o = json_object_new_uint64(v->u);
		break;
	case NP_VAL_BOOL:
		o = json_object_new_boolean(v->u != 0);
		break;
	case NP_VAL_CPUS:
		if (np_fmt_mask(list, sizeof(list), &v->cpus) < 0)
			return -ENOSPC;
		o = json_object_new_string(list);
		break;
	case NP_VAL_INDIR:
		o = json_object_new_object();
		if (!o)
			return -ENOMEM;
		{
			/* a failed json_object_new_*() is no JSON null; a custom
			 * table names its lowest queue, then its highest */
			struct json_object *sp = json_object_new_string(v->even ? "even" : "custom");
			struct json_object *lo = v->even ? NULL : json_object_new_uint64(v->lo);
			struct json_object *q = json_object_new_uint64(v->u);
			bool ok = sp && q && (v->even || lo);

			ok = ok && !json_object_object_add(o, "spread", sp);
			if (!ok)
				json_object_put(sp);
			ok = ok && (v->even || !json_object_object_add(o, "min_queue", lo));
			if (!ok && !v->even)
				json_object_put(lo);
			ok = ok && !json_object_object_add(o, v->even ? "queues" : "max_queue", q);
			if (!ok) {
				json_object_put(q);
				json_object_put(o);
				return -ENOMEM;
			}
		}
		break;
	}
	if (!o)
		return -ENOMEM;
	*ret = o;
	return 0;
}
