/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* show's text of a mixed device's classes, from its JSON (netpolicy-json(7)):
 * per class its queues, CPUs, RSS context, the rules netpolicy made with
 * the flows they match (from the device's own rule table), coalescing and
 * its NAPI instances' deferral and kthread CPUs now (show_napi.c). */
#include <string.h>

#include "cli.h"

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static long long num(struct json_object *o, const char *key)
{
	return (long long)json_object_get_int64(get(o, key));
}

/* The flow the device's rule at loc matches, "gone" when it has none. */
static const char *rule_flow(struct json_object *dev, long long loc)
{
	struct json_object *rules = get(get(dev, "ntuple"), "rules");

	for (size_t i = 0; rules && i < json_object_array_length(rules); i++) {
		struct json_object *r = json_object_array_get_idx(rules, i);

		if (num(r, "location") == loc)
			return get(r, "flow") ? json_object_get_string(get(r, "flow")) : "?";
	}
	return "gone";
}

/* One queue's coalescing: "rx-usecs 0, adaptive-rx off, ..." */
static void queue_coal_text(struct json_object *q, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	json_object_object_foreach(q, field, v) {
		int n;

		if (!strcmp(field, "queue") || used >= len)
			continue;
		n = snprintf(buf + used, len - used, "%s%s %s", used ? ", " : "", field,
			     json_object_is_type(v, json_type_boolean) ?
			     (json_object_get_boolean(v) ? "on" : "off") : json_object_get_string(v));
		used += n > 0 ? (size_t)n : 0;
	}
}

/* The class's queues' own coalescing: one line when they agree, else one
 * per queue. */
static void render_queue_coal(FILE *out, struct json_object *arr)
{
	size_t n = json_object_array_length(arr);
	char a[200], b[200];
	bool same = true;

	a[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		queue_coal_text(json_object_array_get_idx(arr, i), i ? b : a, sizeof(a));
		same = same && (!i || !strcmp(a, b));
	}
	if (same) {
		fprintf(out, "coalescing per queue: %s\n", a);
		return;
	}
	fputs("coalescing per queue:\n", out);
	for (size_t i = 0; i < n; i++) {
		struct json_object *q = json_object_array_get_idx(arr, i);

		queue_coal_text(q, a, sizeof(a));
		fprintf(out, "  %-15s  rx-%lld: %s\n", "", num(q, "queue"), a);
	}
}

/* "7/0": the distinct values of arr */
static void values(FILE *out, struct json_object *arr)
{
	size_t n = arr ? json_object_array_length(arr) : 0;

	if (!n)
		fputs("-", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "/" : "",
			json_object_get_string(json_object_array_get_idx(arr, i)));
}

/* A class's NAPI instances now (show_napi.c): their deferral and kthreads */
static void render_napi(FILE *out, struct json_object *k)
{
	struct json_object *th = get(k, "thread_cpus"), *ids = get(k, "instances");
	size_t n = ids ? json_object_array_length(ids) : 0;

	if (!n)
		return;
	fprintf(out, "  %-15s  napi: %zu instance%s, defer-hard-irqs ", "", n, n == 1 ? "" : "s");
	values(out, get(k, "defer_hard_irqs"));
	fputs(", gro-flush-timeout ", out);
	values(out, get(k, "gro_flush_timeout"));
	fputs(" ns", out);
	if (th && json_object_array_length(th)) {
		fputs(", threads on cpus ", out);
		for (size_t i = 0; i < json_object_array_length(th); i++)
			fprintf(out, "%s%s", i ? " " : "",
				json_object_get_string(json_object_array_get_idx(th, i)));
	}
	fputc('\n', out);
}

void render_mixed(FILE *out, struct json_object *dev)
{
	struct json_object *m = get(dev, "mixed"), *flows = get(m, "flows");

	if (!m || !json_object_is_type(m, json_type_object))
		return;
	fprintf(out, "  %-15s", "flows:");
	for (size_t i = 0; flows && i < json_object_array_length(flows); i++)
		fprintf(out, "%s%s", i ? ", " : "",
			json_object_get_string(json_object_array_get_idx(flows, i)));
	fprintf(out, "%sdefault class %s\n", flows && json_object_array_length(flows) ? "; " : "",
		json_object_get_string(get(m, "default")));
	json_object_object_foreach(get(m, "classes"), name, k) {
		struct json_object *q = get(k, "queues"), *rules = get(k, "rules");
		long long first = num(q, "first"), count = num(q, "count");
		char label[32];

		snprintf(label, sizeof(label), "%s:", name);
		fprintf(out, "  %-15squeues %lld-%lld, cpus %s, weight %lld, ", label, first,
			first + count - 1, json_object_get_string(get(k, "cpus")), num(k, "weight"));
		if (num(k, "rss_context"))
			fprintf(out, "rss context %lld, ", num(k, "rss_context"));
		else
			fputs(strcmp(name, json_object_get_string(get(m, "default"))) ?
			      "no rss context, " : "main rss table, ", out);
		if (get(k, "coalesce"))
			render_queue_coal(out, get(k, "coalesce"));
		else
			fprintf(out, "coalescing %s-wide\n",
				json_object_get_string(get(m, "coalesce")));
		render_napi(out, get(get(m, "napi"), name));
		for (size_t i = 0; rules && i < json_object_array_length(rules); i++) {
			long long loc = json_object_get_int64(json_object_array_get_idx(rules, i));

			fprintf(out, "  %-15s  rule %lld: %s\n", "", loc, rule_flow(dev, loc));
		}
	}
}
