/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * netpolicy status: one line per device, as `tuned-adm active` gives one:
 * its policy, whether it matches or how many steps it drifted, and what is
 * pending (a --confirm, a try in progress, an interrupted run).  Reads only.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "cli.h"

/* The device's policy and drift as members of obj ("policy", "drift"):
 * drift null without a plan to compare (no policy, its file gone, a try in
 * progress).  Returns 0, or the exit status of a failure (said). */
static int add_state(struct cli *c, const struct np_pending *p, struct json_object *obj)
{
	const struct np_policy *policy;
	struct np_plan *plan = NULL;
	CLI_ACTIVE(active);
	CLI_ERROR(err);
	int rc = 0;

	np_error_clear(err);
	if (np_active_policy(c->ctx, c->device, &active, err) < 0)
		return cli_fail(c, err);
	if (!np_active_name(active)[0]) {
		cli_jnull(c, obj, "policy");
		cli_jnull(c, obj, "drift");
		return 0;
	}
	cli_jadd(c, obj, "policy", json_object_new_string(np_active_name(active)));
	if (p->try_pid || np_policy_find(c->ctx, np_active_name(active), &policy, err) < 0)
		cli_jnull(c, obj, "drift");
	else if (cli_check_plan(c, active, np_active_name(active), true, &plan, err) < 0)
		rc = cli_fail(c, err);
	else
		cli_jadd(c, obj, "drift", json_object_new_int64((int64_t)np_plan_n_steps(plan)));
	np_plan_free(plan);
	return rc;
}

/* "eno1  throughput  matches; --confirm pending (20 s left)" */
static void print_line(struct json_object *o, const struct np_pending *p)
{
	struct json_object *policy, *drift;
	long long now = (long long)time(NULL);
	const char *ifname = json_object_get_string(json_object_object_get(o, "ifname"));

	policy = json_object_object_get(o, "policy");
	drift = json_object_object_get(o, "drift");
	printf("%-15s %-12s ", ifname, policy ? json_object_get_string(policy) : "none");
	if (p->try_pid)
		printf("try in progress (pid %ld, %s, round %u)", p->try_pid, p->try_condition,
		       p->try_round);
	else if (!policy)
		printf("-");
	else if (!drift)
		printf("missing (no such policy any more)");
	else if (json_object_get_int64(drift))
		printf("drift: %lld step%s", (long long)json_object_get_int64(drift),
		       json_object_get_int64(drift) == 1 ? "" : "s");
	else
		printf("matches");
	if (p->tentative && now < p->deadline)
		printf("; --confirm pending (%lld s left)", p->deadline - now);
	else if (p->tentative)
		printf("; --confirm expired, being reverted");
	if (p->journal)
		printf("; interrupted run");
	putchar('\n');
}

int cmd_status(struct cli *c)
{
	struct json_object *all = json_object_new_array(), *doc;
	CLI_ERROR(err);
	char **names = NULL;
	size_t n = 0;
	int rc = NP_EXIT_OK;

	if (c->argc > 0 || c->device)
		return cli_usage_error("status: no device or argument: it lists every device");
	np_error_clear(err);
	if (np_list_devices(c->ctx, &names, &n, err) < 0) {
		json_object_put(all);
		return cli_fail(c, err);
	}
	for (size_t i = 0; i < n; i++) {
		struct np_pending p = { .sz = sizeof(p) };
		struct json_object *o = json_object_new_object();
		struct cli one = *c;
		int r;

		one.device = names[i];
		one.quiet = true;	/* the pending state is in the line, not on stderr */
		np_error_clear(err);
		cli_jadd(c, o, "ifname", json_object_new_string(names[i]));
		if (np_pending_state(c->ctx, names[i], &p, err) < 0) {
			rc = cli_fail(&one, err);
			json_object_put(o);
			continue;
		}
		r = add_state(&one, &p, o);
		if (r) {
			rc = r;
			json_object_put(o);
			continue;
		}
		cli_note_pending(&one, o);
		if (!c->json && !c->quiet)
			print_line(o, &p);
		cli_jpush(c, all, o);
	}
	np_list_free(names, n);
	if (c->json) {
		doc = json_object_new_object();
		cli_jadd(c, doc, "devices", all);
		cli_print_json(c, doc);
		json_object_put(doc);
	} else {
		json_object_put(all);
	}
	return rc;
}
