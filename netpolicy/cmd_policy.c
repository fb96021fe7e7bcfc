/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy policies: each policy (built-in and custom), what it sets and
 * why, and where each value comes from. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v ? json_object_get_string(v) : NULL;
}

/* A line of prose within 80 columns, continued under column `indent`. */
static void wrapped(size_t indent, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(buf))
		cli_print_prose(stdout, buf, indent);
	else if (n >= 0)
		printf("%s\n", buf);	/* cut: never, the texts are ours */
}

static void print_policy(struct json_object *p, bool first)
{
	struct json_object *sets = NULL, *vals = NULL, *origin = NULL;

	printf("%s%s\n", first ? "" : "\n", str(p, "name"));
	wrapped(4, "  %s", str(p, "summary"));
	if (str(p, "file"))
		printf("  from %s, based on %s\n", str(p, "file"), str(p, "base"));
	json_object_object_get_ex(p, "sets", &sets);
	json_object_object_foreach(sets, knob, why)
		wrapped(16, "  %-13s %s", knob, json_object_get_string(why));
	wrapped(16, "  %-13s %s (a driver refusing one of these fails the apply; any other "
		"refused knob is left out and reported)", "core", str(p, "core"));
	/* the values as a policy file would set them (netpolicy-policy(5)) */
	printf("  values:\n");
	json_object_object_get_ex(p, "values", &vals);
	json_object_object_get_ex(p, "origin", &origin);
	json_object_object_foreach(vals, key, v) {
		const char *word = json_object_is_type(v, json_type_boolean) ?
			(json_object_get_boolean(v) ? "yes" : "no") : json_object_get_string(v);

		/* whole (mixed's core list is 51 characters), continued under
		 * the value */
		wrapped(31, "    %-24s = %-12s (%s)", key, word, str(origin, key));
	}
}

int cmd_policies(struct cli *c)
{
	struct json_object *arr;
	CLI_ERROR(err);
	size_t n;

	if (c->argc > 0)
		return cli_usage_error("policies: unexpected argument '%s'", c->argv[0]);
	np_error_clear(err);
	if (np_policies_list_json(c->ctx, &arr, err) < 0)
		return cli_fail(c, err);
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		cli_jadd(c, doc, "policy_dir", json_object_new_string(np_ctx_policy_dir(c->ctx)));
		cli_jadd(c, doc, "policies", arr);
		cli_print_json(c, doc);
		json_object_put(doc);
		return NP_EXIT_OK;
	}
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++)
		print_policy(json_object_array_get_idx(arr, i), i == 0);
	json_object_put(arr);
	return NP_EXIT_OK;
}
