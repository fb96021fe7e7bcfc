/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * show's NAPI per class of a mixed device (netpolicy-json(7), "mixed"."napi"):
 * for each class, its NAPI instances as the kernel reports them now (napis:
 * napi-get and queue-get), the distinct defer-hard-irqs and gro-flush-timeout
 * values they have and the distinct CPU lists of their kthreads, so that a
 * class whose NAPIs drifted shows two values.  A NAPI's class is the one the
 * planner gives it (libnetpolicy/plan/plan_mixed_napi.c): its rx queue's
 * class, else its tx queue's, else the default class.
 */
#include <string.h>

#include "cli.h"

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* The class whose queue range holds q (from the record's classes), or NULL. */
static const char *class_of(struct json_object *classes, struct json_object *q)
{
	long long n;

	if (!q || !json_object_is_type(q, json_type_int))
		return NULL;
	n = json_object_get_int64(q);
	json_object_object_foreach(classes, name, k) {
		struct json_object *r = get(k, "queues");
		long long first = json_object_get_int64(get(r, "first"));

		if (n >= first && n < first + json_object_get_int64(get(r, "count")))
			return name;
	}
	return NULL;
}

/* v into arr unless an equal value is there (values are ints or strings) */
static void add_distinct(struct cli *c, struct json_object *arr, struct json_object *v)
{
	for (size_t i = 0; v && i < json_object_array_length(arr); i++)
		if (!strcmp(json_object_to_json_string(json_object_array_get_idx(arr, i)),
			    json_object_to_json_string(v)))
			return;
	if (v)
		cli_jpush(c, arr, json_object_get(v));
}

static struct json_object *class_obj(struct cli *c, struct json_object *out, const char *name)
{
	struct json_object *k = get(out, name);

	if (k)
		return k;
	k = json_object_new_object();
	cli_jadd(c, k, "instances", json_object_new_array());
	cli_jadd(c, k, "defer_hard_irqs", json_object_new_array());
	cli_jadd(c, k, "gro_flush_timeout", json_object_new_array());
	cli_jadd(c, k, "thread_cpus", json_object_new_array());
	cli_jadd(c, out, name, k);
	return get(out, name);
}

void cli_mixed_napi(struct cli *c, struct json_object *dev)
{
	struct json_object *m = get(dev, "mixed"), *classes = get(m, "classes");
	struct json_object *napis = get(dev, "napis"), *threads = get(dev, "napi_threads"), *out;
	const char *deflt = json_object_get_string(get(m, "default"));

	if (!m || !classes || !deflt)
		return;
	if (!napis || !json_object_is_type(napis, json_type_array)) {
		cli_jnull(c, m, "napi");	/* no napi-get in this kernel */
		return;
	}
	out = json_object_new_object();
	for (size_t i = 0; out && i < json_object_array_length(napis); i++) {
		struct json_object *n = json_object_array_get_idx(napis, i), *k;
		const char *cls = class_of(classes, get(n, "rx_queue"));

		if (!cls)
			cls = class_of(classes, get(n, "tx_queue"));
		if (!cls)
			cls = deflt;
		k = class_obj(c, out, cls);
		if (!k)
			continue;
		cli_jpush(c, get(k, "instances"), json_object_get(get(n, "id")));
		add_distinct(c, get(k, "defer_hard_irqs"), get(n, "defer_hard_irqs"));
		add_distinct(c, get(k, "gro_flush_timeout"), get(n, "gro_flush_timeout"));
		for (size_t j = 0; threads && j < json_object_array_length(threads); j++) {
			struct json_object *t = json_object_array_get_idx(threads, j);

			if (json_object_get_int64(get(t, "napi_id")) ==
			    json_object_get_int64(get(n, "id")))
				add_distinct(c, get(k, "thread_cpus"), get(t, "affinity"));
		}
	}
	cli_jadd(c, m, "napi", out);
}
