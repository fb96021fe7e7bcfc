/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A plan as a diff: a head line saying whether it "would change" (dry run),
 * "changed" (applied) or "differs in" (check), then one line per change,
 * "knob: what before -> after". */
#include <string.h>

#include "cli.h"

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	const char *s = v ? json_object_get_string(v) : "";

	/* a number is formatted into memory json-c allocates: NULL when out */
	return s ? s : "?";
}

/* A typed value of a change (netpolicy-json(7)) as the text diff shows it. */
static void put_value(FILE *out, struct json_object *v, bool steer)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		/* a rule or context made or removed; else a queue a step opens */
		fputs(steer ? "(none)" : "(new queue)", out);
		break;
	case json_type_boolean:
		fputs(json_object_get_boolean(v) ? "on" : "off", out);
		break;
	case json_type_string:	/* a cpulist */
		fputs(json_object_get_string_len(v) ? json_object_get_string(v) : "none", out);
		break;
	case json_type_object:	/* the RSS table */
		if (!strcmp(str(v, "spread"), "even"))
			fprintf(out, "even over %s queues", str(v, "queues"));
		else
			fprintf(out, "custom over queues %s-%s", str(v, "min_queue"),
				str(v, "max_queue"));
		break;
	case json_type_int:	/* printed here: json-c's text of it allocates */
		fprintf(out, "%lld", (long long)json_object_get_int64(v));
		break;
	default: {
		const char *s = json_object_get_string(v);

		fputs(s ? s : "?", out);
		break;
	}
	}
}

void render_plan(FILE *out, struct json_object *plan, const char *verb)
{
	struct json_object *steps = get(plan, "steps"), *notes = get(plan, "notes");
	size_t nsteps = steps ? json_object_array_length(steps) : 0;
	size_t nnotes = notes ? json_object_array_length(notes) : 0;

	if (!nsteps)
		fprintf(out, "%s: %s: no changes\n", str(plan, "ifname"), str(plan, "policy"));
	else
		fprintf(out, "%s: %s: %s %lld values in %zu steps\n", str(plan, "ifname"),
			str(plan, "policy"), verb, (long long)json_object_get_int64(get(plan, "n_changes")),
			nsteps);
	for (size_t i = 0; i < nsteps; i++) {
		struct json_object *s = json_object_array_get_idx(steps, i);
		struct json_object *ch = get(s, "changes");

		for (size_t k = 0; ch && k < json_object_array_length(ch); k++) {
			struct json_object *c = json_object_array_get_idx(ch, k);

			bool steer = !strcmp(str(s, "knob"), "ntuple") ||
				     !strcmp(str(s, "knob"), "rss-context");

			fprintf(out, "  %s: %s ", str(s, "knob"), str(c, "what"));
			put_value(out, get(c, "before"), steer);
			fputs(" -> ", out);
			put_value(out, get(c, "after"), steer);
			/* not written: the driver's, with an earlier step */
			if (get(s, "by") && !strcmp(str(s, "by"), "driver"))
				fputs(" (by the driver)", out);
			fputc('\n', out);
		}
	}
	if (nnotes)
		fputs("notes:\n", out);
	for (size_t i = 0; i < nnotes; i++) {
		struct json_object *n = json_object_array_get_idx(notes, i);

		struct json_object *w = get(n, "warning");

		fprintf(out, "  %s%s: %s\n", w && json_object_get_boolean(w) ? "warning: " : "",
			str(n, "knob"), str(n, "note"));
	}
}
