/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy [DEVICE] show: read-only, so safe for any user the kernel lets read. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Each class's queues' own coalescing, from the device as read
 * (obj.queues.rx[].coalesce, where the device has per-queue coalescing):
 * "coalesce": [{"queue": N, FIELD: VALUE...}...] in each class. */
static bool add_queue_coal(struct cli *c, struct json_object *obj, struct json_object *cls)
{
	struct json_object *co, *qs, *rx, *first, *count;

	if (!json_object_object_get_ex(obj, "coalesce", &co) ||
	    !json_object_object_get_ex(co, "per_queue", NULL) ||
	    !json_object_object_get_ex(obj, "queues", &qs) ||
	    !json_object_object_get_ex(qs, "rx", &rx) || !cls)
		return false;
	json_object_object_foreach(cls, name, k) {
		struct json_object *q, *arr = json_object_new_array();
		int64_t f = 0, n = 0;

		(void)name;
		if (json_object_object_get_ex(k, "queues", &q) &&
		    json_object_object_get_ex(q, "first", &first) &&
		    json_object_object_get_ex(q, "count", &count)) {
			f = json_object_get_int64(first);
			n = json_object_get_int64(count);
		}
		for (int64_t i = f; i < f + n && i < (int64_t)json_object_array_length(rx); i++) {
			struct json_object *e = json_object_array_get_idx(rx, (size_t)i), *v;
			struct json_object *one = json_object_new_object();

			cli_jadd(c, one, "queue", json_object_new_int64(i));
			if (json_object_object_get_ex(e, "coalesce", &v)) {
				json_object_object_foreach(v, field, val)
					cli_jadd(c, one, field, json_object_get(val));
			}
			cli_jpush(c, arr, one);
		}
		cli_jadd(c, k, "coalesce", arr);
	}
	return true;
}

/* A mixed device's classes as its record says (netpolicy-json(7)): the
 * flows, the default class, each class's queues, CPUs, RSS context and the
 * rules netpolicy made, and where the classes' coalescing comes from. */
static void add_mixed(struct cli *c, const struct np_active *active, struct json_object *obj)
{
	struct json_object *m, *flows, *cls = NULL;

	if (!np_active_default_class(active)) {
		cli_jnull(c, obj, "mixed");
		return;
	}
	m = json_object_new_object();
	flows = json_object_new_array();
	for (size_t i = 0; i < np_active_n_flows(active); i++)
		cli_jpush(c, flows, json_object_new_string(np_active_flow(active, i)));
	cli_jadd(c, m, "flows", flows);
	cli_jadd(c, m, "default", json_object_new_string(np_active_default_class(active)));
	if (np_active_classes_json(active, &cls) < 0)
		c->out_failed = true;
	/* "queue": each class's queues have their own (plan_queue_coal.c),
	 * "device": every class has the device's */
	cli_jadd(c, m, "coalesce", json_object_new_string(add_queue_coal(c, obj, cls) ?
							     "queue" : "device"));
	cli_jadd(c, m, "classes", cls);
	cli_jadd(c, obj, "mixed", m);
}

/* The policy netpolicy applied and whether the device still matches it;
 * a record that cannot be read (damaged, or of a newer version) is refused
 * naming it, as set and check refuse it: "policy": null would say there is
 * none.  Returns that error, else 0. */
static int add_policy(struct cli *c, const struct np_state *st, struct json_object *obj,
		      struct np_error *rerr)
{
	const struct np_policy *policy;
	struct np_plan *plan = NULL;
	CLI_ACTIVE(active);
	NP_PLAN_OPTS(opts);
	const char *flows[CLI_FLOWS_MAX];
	CLI_ERROR(err);
	const char *name, *cpus;

	bool missing = false;

	if (np_active_policy(c->ctx, np_state_ifname(st), &active, rerr) < 0)
		return np_error_code(rerr) ? np_error_code(rerr) : -ENOMEM;
	if (!err || !np_active_name(active)[0]) {
		if (!err)
			c->out_failed = true;	/* not "no policy": memory ran out */
		/* the members and their order as with a policy */
		cli_jnull(c, obj, "policy");
		cli_jnull(c, obj, "policy_cpus");
		cli_jadd(c, obj, "policy_missing", json_object_new_boolean(false));
		cli_jnull(c, obj, "mixed");
		cli_jnull(c, obj, "drift");
		return 0;
	}
	/* A custom policy whose file is gone since it was applied: the device
	 * still has it (reset undoes it), but no plan can be made to compare. */
	if (np_policy_find(c->ctx, np_active_name(active), &policy, err) < 0) {
		if (np_error_code(err) == -ENOMEM)
			c->out_failed = true;
		missing = true;
	}
	name = np_active_name(active);
	cpus = np_active_cpus(active);
	cli_jadd(c, obj, "policy", json_object_new_string(name));
	if (cpus[0])
		cli_jadd(c, obj, "policy_cpus", json_object_new_string(cpus));
	else
		cli_jnull(c, obj, "policy_cpus");
	cli_jadd(c, obj, "policy_missing", json_object_new_boolean(missing));
	if (missing) {
		add_mixed(c, active, obj);
		cli_jnull(c, obj, "drift");
		return 0;
	}
	opts.cpus = cpus[0] ? cpus : NULL;
	opts.link_speed = np_active_link_speed(active);
	cli_active_mixed_opts(active, &opts, flows);
	add_mixed(c, active, obj);
	cli_mixed_napi(c, obj);
	/* drift null: no plan can be made for the device as it is; out of
	 * memory is no such answer */
	if (np_plan_compute(c->ctx, policy, &opts, st, &plan, err) < 0 &&
	    np_error_code(err) == -ENOMEM)
		c->out_failed = true;
	else if (!plan)
		cli_jnull(c, obj, "drift");
	else
		cli_jadd(c, obj, "drift", json_object_new_int64((int64_t)np_plan_n_steps(plan)));
	np_plan_free(plan);
	return 0;
}

/* What a later change would find first; a try's condition is not drift:
 * "drift" null while a try is in progress. */
static void note_pending(struct cli *c, struct json_object *obj)
{
	if (cli_note_pending(c, obj) && json_object_object_get_ex(obj, "drift", NULL))
		cli_jnull(c, obj, "drift");
}

/* Who else sets the device's knobs (owners.c): [{"owner", "source", "knobs"}] */
static void add_owners(struct cli *c, const char *ifname, struct json_object *obj)
{
	struct json_object *arr = json_object_new_array();
	struct cli_owners o;

	cli_owners_find(c, ifname, &o);
	for (size_t i = 0; arr && i < o.n; i++) {
		struct json_object *one = json_object_new_object(), *knobs = json_object_new_array();
		char list[CLI_OWNER_KNOBS], *save = NULL;

		snprintf(list, sizeof(list), "%s", o.list[i].knobs);
		for (char *w = strtok_r(list, ", ", &save); w; w = strtok_r(NULL, ", ", &save))
			cli_jpush(c, knobs, json_object_new_string(w));
		cli_jadd(c, one, "owner", json_object_new_string(o.list[i].name));
		cli_jadd(c, one, "source", json_object_new_string(o.list[i].source));
		cli_jadd(c, one, "knobs", knobs);
		cli_jpush(c, arr, one);
	}
	cli_jadd(c, obj, "other_owners", arr);
}

static int show_one(struct cli *c, const char *ifname, struct json_object **ret,
		    struct np_error *err)
{
	struct np_state *st = NULL;
	int r;

	r = np_discover(c->ctx, ifname, &st, err);
	if (r < 0)
		return r;
	r = np_state_to_json(st, ret);
	if (r >= 0)
		r = add_policy(c, st, *ret, err);
	if (r >= 0) {
		add_owners(c, ifname, *ret);
	} else {
		json_object_put(*ret);
		*ret = NULL;
	}
	np_state_free(st);
	return r;
}

int cmd_show(struct cli *c)
{
	struct json_object *obj = NULL, *all;
	CLI_ERROR(err);
	char **names = NULL;
	size_t n = 0;
	int r, rc = NP_EXIT_OK;

	if (c->argc > 0)
		return cli_usage_error("show: unexpected argument '%s'", c->argv[0]);
	np_error_clear(err);
	if (c->device) {
		r = show_one(c, c->device, &obj, err);
		if (r < 0)
			return np_error_code(err) ? cli_fail(c, err) : cli_out_of_memory();
		note_pending(c, obj);
		if (c->json)
			cli_print_json(c, obj);
		else if (!c->quiet)
			render_state(stdout, obj);
		json_object_put(obj);
		return NP_EXIT_OK;
	}

	r = np_list_devices(c->ctx, &names, &n, err);
	if (r < 0)
		return cli_fail(c, err);
	all = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		struct cli one = *c;

		np_error_clear(err);
		one.device = names[i];
		/* A device can go away between the listing and the read: report
		 * it and go on with the others. */
		if (show_one(c, names[i], &obj, err) < 0) {
			rc = cli_fail(&one, err);
			continue;
		}
		/* each device's interrupted_run and confirm_deadline, as show
		 * DEVICE has them */
		note_pending(&one, obj);
		if (c->json) {
			cli_jpush(c, all, obj);
		} else {
			if (!c->quiet) {
				if (i)
					putchar('\n');
				render_state(stdout, obj);
			}
			json_object_put(obj);
		}
	}
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		cli_jadd(c, doc, "devices", all);
		cli_print_json(c, doc);
		json_object_put(doc);
	} else {
		json_object_put(all);
	}
	np_list_free(names, n);
	return rc;
}
