/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-CPU wake-up needs in a device's sysctl record (IFNAME.sysctl):
 *   "pm_qos": [{"cpu": 3, "need": 2, "pristine": "0"}, ...]
 * need in microseconds, pristine the resume-latency file's text before any
 * device limited the CPU ("0" no limit, "n/a" 0 us).  Absent: none (a
 * record from before, or a device that limits no CPU).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "apply/np_store.h"

int np_pm_record_add(struct json_object *doc, const struct np_pm_share *pm)
{
	struct json_object *a;

	if (np_cpumask_empty(&pm->need_cpus))
		return 0;
	a = json_object_new_array();
	for (unsigned c = 0; a && c < NP_CPUS_MAX; c++) {
		struct json_object *e;
		char v[16];

		if (!np_cpumask_test(&pm->need_cpus, c))
			continue;
		np_pm_format(pm->pristine[c], v, sizeof(v));
		e = json_object_new_object();
		if (!np_doc_add(&e, "cpu", json_object_new_int64(c)) ||
		    !np_doc_add(&e, "need", json_object_new_int64(pm->need[c])) ||
		    !np_doc_add(&e, "pristine", json_object_new_string(v))) {
			json_object_put(a);
			return -ENOMEM;
		}
		if (!np_doc_push(&a, e))
			return -ENOMEM;
	}
	if (!a || json_object_object_add(doc, "pm_qos", a) < 0) {
		json_object_put(a);
		return -ENOMEM;
	}
	return 0;
}

static int bad(struct np_error *err, const char *what, size_t i, const char *fmt)
{
	return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: pm_qos[%zu]: %s", what, i, fmt);
}

int np_pm_record_read(struct json_object *doc, const char *what, struct np_pm_share *ret,
		      struct np_error *err)
{
	struct json_object *a;
	size_t n;

	memset(ret, 0, sizeof(*ret));
	if (!json_object_object_get_ex(doc, "pm_qos", &a))
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: pm_qos: expected an array",
			      what);
	n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i), *c, *nd, *pr;
		int64_t cpu, need;
		uint32_t p;

		if (!json_object_is_type(e, json_type_object) || json_object_object_length(e) != 3 ||
		    !json_object_object_get_ex(e, "cpu", &c) || !json_object_is_type(c, json_type_int) ||
		    !json_object_object_get_ex(e, "need", &nd) ||
		    !json_object_is_type(nd, json_type_int) ||
		    !json_object_object_get_ex(e, "pristine", &pr) ||
		    !json_object_is_type(pr, json_type_string))
			return bad(err, what, i, "expected cpu, need and pristine");
		cpu = json_object_get_int64(c);
		need = json_object_get_int64(nd);
		if (cpu < 0 || cpu >= NP_CPUS_MAX || np_cpumask_test(&ret->need_cpus, (unsigned)cpu) ||
		    need < 0 || need > NP_PM_MAX || np_pm_parse(json_object_get_string(pr), &p) < 0)
			return bad(err, what, i, "a CPU twice, or a value out of range");
		np_cpumask_set(&ret->need_cpus, (unsigned)cpu);
		np_cpumask_set(&ret->known, (unsigned)cpu);
		ret->need[cpu] = (uint32_t)need;
		ret->pristine[cpu] = p;
	}
	return 0;
}
