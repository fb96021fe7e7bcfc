/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* show's text of the CPUs' wake-up latency limits (the state's "pm_qos"):
 *   pm-qos:        2 us on CPUs 0-7, no limit on 8-15
 *                  idle states: POLL 0, C1 2, C1E 10, C6 133 us (CPU 0) */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Append CPU c to the cpulist in buf (ascending calls). */
static void list_add(char *buf, size_t len, unsigned c, int *last, int *start)
{
	size_t u = strlen(buf);

	if (*last >= 0 && (unsigned)*last + 1 == c) {
		*last = (int)c;
		return;
	}
	if (*last >= 0 && *last != *start && u < len)
		u += (size_t)snprintf(buf + u, len - u, "-%d", *last);
	if (u < len)
		snprintf(buf + u, len - u, "%s%u", u ? "," : "", c);
	*last = *start = (int)c;
}

static void list_end(char *buf, size_t len, int last, int start)
{
	size_t u = strlen(buf);

	if (last >= 0 && last != start && u < len)
		snprintf(buf + u, len - u, "-%d", last);
}

/* The CPUs whose file reads `val` ("0": none), as a cpulist. */
static void cpus_with(struct json_object *cpus, const char *val, bool other, char *buf, size_t len)
{
	int last = -1, start = -1;

	buf[0] = '\0';
	for (size_t i = 0; i < json_object_array_length(cpus); i++) {
		struct json_object *e = json_object_array_get_idx(cpus, i), *v, *c;

		if (!json_object_object_get_ex(e, "resume_latency_us", &v) || !v ||
		    !json_object_object_get_ex(e, "cpu", &c))
			continue;
		if (!strcmp(json_object_get_string(v), val) == other)
			continue;
		list_add(buf, len, (unsigned)json_object_get_int(c), &last, &start);
	}
	list_end(buf, len, last, start);
}

static void idle_line(FILE *out, struct json_object *cpus)
{
	struct json_object *e = json_object_array_get_idx(cpus, 0), *st;

	fprintf(out, "  %-15s", "");
	if (!e || !json_object_object_get_ex(e, "idle_states", &st) || !st) {
		fputs("no cpuidle: the limits have nothing to choose from\n", out);
		return;
	}
	fputs("idle states:", out);
	for (size_t k = 0; k < json_object_array_length(st); k++) {
		struct json_object *s = json_object_array_get_idx(st, k), *n, *l, *d;

		if (!json_object_object_get_ex(s, "name", &n) ||
		    !json_object_object_get_ex(s, "latency", &l) ||
		    !json_object_object_get_ex(s, "disable", &d))
			continue;
		fprintf(out, "%s %s %d%s", k ? "," : "", json_object_get_string(n),
			json_object_get_int(l), json_object_get_boolean(d) ? " (disabled)" : "");
	}
	fprintf(out, " us (CPU %d)\n", json_object_get_int(json_object_object_get(e, "cpu")));
}

void render_pm_qos(FILE *out, struct json_object *pm)
{
	struct json_object *cpus;
	char none[128], vals[8][16], list[128];
	unsigned n_vals = 0;

	if (!pm || !json_object_object_get_ex(pm, "cpus", &cpus) ||
	    !json_object_is_type(cpus, json_type_array) || !json_object_array_length(cpus))
		return;
	/* the distinct limits, in CPU order */
	for (size_t i = 0; i < json_object_array_length(cpus) && n_vals < 8; i++) {
		struct json_object *v = json_object_object_get(json_object_array_get_idx(cpus, i),
							       "resume_latency_us");
		const char *s = v ? json_object_get_string(v) : NULL;
		unsigned k;

		for (k = 0; s && strcmp(s, "0") && k < n_vals; k++)
			if (!strcmp(vals[k], s))
				break;
		if (s && strcmp(s, "0") && k == n_vals)
			snprintf(vals[n_vals++], sizeof(vals[0]), "%s", s);
	}
	fprintf(out, "  %-15s", "pm-qos:");
	for (unsigned k = 0; k < n_vals; k++) {
		cpus_with(cpus, vals[k], false, list, sizeof(list));
		fprintf(out, "%s%s us on CPUs %s", k ? ", " : "",
			strcmp(vals[k], "n/a") ? vals[k] : "0 (n/a)", list);
	}
	cpus_with(cpus, "0", false, none, sizeof(none));
	if (none[0])
		fprintf(out, "%sno limit on %s%s", n_vals ? ", " : "", n_vals ? "" : "CPUs ", none);
	fputc('\n', out);
	idle_line(out, cpus);
}
