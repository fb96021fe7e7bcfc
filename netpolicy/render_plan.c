/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A plan as a diff: a head line saying whether it "would change" (dry run),
 * "changed" (applied) or "differs in" (check), then one line per change,
 * "knob: what before -> after". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* One change's line after "  knob: ": "what before -> after". */
static char *change_text(struct json_object *s, struct json_object *c)
{
	bool steer = !strcmp(str(s, "knob"), "ntuple") || !strcmp(str(s, "knob"), "rss-context");
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	put_value(m, get(c, "before"), steer);
	fputs(" -> ", m);
	put_value(m, get(c, "after"), steer);
	/* not written: the driver's, with an earlier step */
	if (get(s, "by") && !strcmp(str(s, "by"), "driver"))
		fputs(" (by the driver)", m);
	if (fclose(m) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* "tx-12 flow-cnt" -> queue 12, prefix "tx-", rest " flow-cnt"; false when
 * the change is not a queue's. */
static bool queue_of(const char *what, long *q, size_t *plen, const char **rest)
{
	const char *dash = strchr(what, '-');
	char *end;

	if (!dash || dash == what || dash[1] < '0' || dash[1] > '9' ||
	    strcspn(what, " ") < (size_t)(dash - what))
		return false;
	*q = strtol(dash + 1, &end, 10);
	if (*end && *end != ' ')
		return false;
	*plen = (size_t)(dash - what) + 1;
	*rest = end;
	return true;
}

struct change_line {
	const char *knob, *what;
	char *text;
};

/* Runs of a knob's changes to consecutive queues (4 or more) in one line:
 * "rfs: rx-0..31 flow-cnt 0 -> 1024" where each changes alike, else the
 * first and the last ("xps: tx-0..31 32 -> 0,32,64,96 ... 63 -> 31,63,95,127
 * (32 queues)").  all (-v): one line each; --json always has each. */
static void print_lines(FILE *out, const struct change_line *l, size_t n, bool all)
{
	for (size_t i = 0; i < n;) {
		size_t j = i + 1, pl, pl2;
		const char *rest, *rest2;
		long q, q2;
		bool same = true;

		if (!all && queue_of(l[i].what, &q, &pl, &rest))
			while (j < n && !strcmp(l[j].knob, l[i].knob) &&
			       queue_of(l[j].what, &q2, &pl2, &rest2) && q2 == q + (long)(j - i) &&
			       pl2 == pl && !strncmp(l[j].what, l[i].what, pl) && !strcmp(rest2, rest)) {
				same &= !strcmp(l[j].text, l[i].text);
				j++;
			}
		if (j - i < 4) {
			for (; i < j; i++)
				fprintf(out, "  %s: %s %s\n", l[i].knob, l[i].what, l[i].text);
			continue;
		}
		fprintf(out, "  %s: %.*s%ld..%ld%s ", l[i].knob, (int)pl, l[i].what, q,
			q + (long)(j - i) - 1, rest);
		if (same)
			fprintf(out, "%s\n", l[i].text);
		else
			fprintf(out, "%s ... %s (%zu queues)\n", l[i].text, l[j - 1].text, j - i);
		i = j;
	}
}

static void render_changes(FILE *out, struct json_object *steps, bool all)
{
	size_t nsteps = steps ? json_object_array_length(steps) : 0, n = 0, cap = 0;
	struct change_line *l = NULL;

	for (size_t i = 0; i < nsteps; i++) {
		struct json_object *s = json_object_array_get_idx(steps, i), *ch = get(s, "changes");

		for (size_t k = 0; ch && k < json_object_array_length(ch); k++) {
			struct json_object *c = json_object_array_get_idx(ch, k);

			if (n == cap) {
				struct change_line *nl = realloc(l, (cap = cap ? 2 * cap : 64) * sizeof(*l));

				if (!nl)
					break;
				l = nl;
			}
			l[n].knob = str(s, "knob");
			l[n].what = str(c, "what");
			l[n].text = change_text(s, c);
			if (l[n].text)
				n++;
		}
	}
	print_lines(out, l, n, all);
	for (size_t i = 0; i < n; i++)
		free(l[i].text);
	free(l);
}

void render_plan(FILE *out, struct json_object *plan, const char *verb, bool all)
{
	struct json_object *steps = get(plan, "steps"), *notes = get(plan, "notes");
	size_t nsteps = steps ? json_object_array_length(steps) : 0;
	size_t nnotes = notes ? json_object_array_length(notes) : 0;

	if (!nsteps)
		fprintf(out, "%s: %s: no changes\n", str(plan, "ifname"), str(plan, "policy"));
	else
		fprintf(out, "%s: %s: %s %lld value%s in %zu step%s\n", str(plan, "ifname"),
			str(plan, "policy"), verb, (long long)json_object_get_int64(get(plan, "n_changes")),
			json_object_get_int64(get(plan, "n_changes")) == 1 ? "" : "s", nsteps,
			nsteps == 1 ? "" : "s");
	render_changes(out, steps, all);
	bool tty = isatty(fileno(out));

	if (nnotes)
		fputs("notes:\n", out);
	for (size_t i = 0; i < nnotes; i++) {
		struct json_object *n = json_object_array_get_idx(notes, i);

		struct json_object *w = get(n, "warning");
		char line[2048];
		int len;

		/* On a terminal a note goes on over lines of 80 columns; into a
		 * pipe or file each stays one line, for grep (and --json holds
		 * the same notes as data). */
		len = snprintf(line, sizeof(line), "  %s%s: %s",
			       w && json_object_get_boolean(w) ? "warning: " : "", str(n, "knob"),
			       str(n, "note"));
		if (tty && len > 0 && (size_t)len < sizeof(line))
			cli_print_prose(out, line, 4);
		else
			fprintf(out, "  %s%s: %s\n", w && json_object_get_boolean(w) ? "warning: " : "",
				str(n, "knob"), str(n, "note"));
	}
}
