/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* show's text of a mixed device's classes, from its JSON (netpolicy-json(7)):
 * per class its queues, CPUs, RSS context, the rules netpolicy made with
 * the flows they match (from the device's own rule table) and coalescing. */
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
		fprintf(out, "coalescing %s-wide\n", json_object_get_string(get(m, "coalesce")));
		for (size_t i = 0; rules && i < json_object_array_length(rules); i++) {
			long long loc = json_object_get_int64(json_object_array_get_idx(rules, i));

			fprintf(out, "  %-15s  rule %lld: %s\n", "", loc, rule_flow(dev, loc));
		}
	}
}
