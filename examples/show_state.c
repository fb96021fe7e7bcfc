/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Using libnetpolicy from a program: discover a device, plan the throughput
 * policy for it and say how many steps the plan has.  Nothing is changed.
 *
 *	show_state [--model FILE] DEVICE
 *
 * Build it against an installed library:
 *	cc show_state.c $(pkg-config --cflags --libs libnetpolicy)
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <netpolicy/netpolicy.h>

static const char *member(struct json_object *obj, const char *path0, const char *path1)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(obj, path0, &v))
		return "?";
	if (path1 && !json_object_object_get_ex(v, path1, &v))
		return "?";
	return json_object_get_string(v);
}

int main(int argc, char **argv)
{
	const char *model = NULL, *ifname;
	const struct np_policy *policy;
	struct np_ctx *ctx = NULL;
	struct np_state *state = NULL;
	struct np_plan *plan = NULL;
	struct json_object *json = NULL;
	struct np_error *err = NULL;
	char buf[600];
	int rc = 1;

	if (argc == 4 && !strcmp(argv[1], "--model")) {
		model = argv[2];
		ifname = argv[3];
	} else if (argc == 2 && argv[1][0] != '-') {
		ifname = argv[1];
	} else {
		fprintf(stderr, "usage: %s [--model FILE] DEVICE\n", argv[0]);
		return 2;
	}

	/* The error object is made first, while memory is there: every call
	 * fills it on failure without allocating; np_error_format makes it one
	 * line, and np_error_code() and friends take it apart. */
	err = np_error_new();
	if (!err) {
		fprintf(stderr, "%s: out of memory\n", ifname);
		return 1;
	}
	if (np_ctx_new(&ctx, err) < 0 ||
	    (model && np_ctx_set_model(ctx, model, err) < 0) ||
	    np_discover(ctx, ifname, &state, err) < 0 ||
	    np_policy_lookup("throughput", &policy, err) < 0 ||
	    np_plan_compute(ctx, policy, NULL, state, &plan, err) < 0) {
		fprintf(stderr, "%s: %s\n", ifname, np_error_format(err, buf, sizeof(buf)));
		goto out;
	}
	if (np_state_to_json(state, &json) < 0) {
		fprintf(stderr, "%s: out of memory\n", ifname);
		goto out;
	}

	/* The state is read through its JSON form: the one serializer, and a
	 * stable schema (netpolicy-model(5)), rather than private structs. */
	printf("%s: driver %s, %s combined channels (max %s)\n", np_state_ifname(state),
	       member(json, "driver", NULL), member(json, "channels", "combined"),
	       member(json, "channels", "max_combined"));
	printf("%s plan: %zu steps\n", np_policy_name(policy), np_plan_n_steps(plan));
	rc = 0;
out:
	json_object_put(json);
	np_plan_free(plan);
	np_state_free(state);
	np_ctx_free(ctx);
	np_error_free(err);
	return rc;
}
