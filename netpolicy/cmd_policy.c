/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy policies: what each policy sets, and why. */
#include "cli.h"

int cmd_policies(struct cli *c)
{
	struct json_object *arr;
	size_t n;

	if (c->argc > 0)
		return cli_usage_error("policies: unexpected argument '%s'", c->argv[0]);
	if (np_policies_to_json(&arr) < 0) {
		fprintf(stderr, "netpolicy: out of memory\n");
		return NP_EXIT_ERROR;
	}
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		json_object_object_add(doc, "policies", arr);
		cli_print_json(doc);
		json_object_put(doc);
		return NP_EXIT_OK;
	}
	n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(arr, i), *v, *sets;

		json_object_object_get_ex(p, "name", &v);
		printf("%s%s\n", i ? "\n" : "", json_object_get_string(v));
		json_object_object_get_ex(p, "summary", &v);
		printf("  %s\n", json_object_get_string(v));
		json_object_object_get_ex(p, "sets", &sets);
		json_object_object_foreach(sets, knob, why)
			printf("  %-13s %s\n", knob, json_object_get_string(why));
		json_object_object_get_ex(p, "core", &v);
		printf("  %-13s %s (a driver refusing one of these fails the apply; any other "
		       "refused knob is left out and reported)\n", "core", json_object_get_string(v));
	}
	json_object_put(arr);
	return NP_EXIT_OK;
}
