/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* netpolicy DEVICE set POLICY: plan, then apply (or only print with --dry-run);
 * plan does the same for each configured device. */
#include <string.h>
#include <unistd.h>

#include "cli.h"

void cli_mixed_opts(const struct cli *c, struct np_plan_opts *opts)
{
	opts->flags |= NP_PLAN_OPTS_MIXED;
	opts->flows = c->flows;
	opts->n_flows = c->n_flows;
	opts->default_class = c->default_class;
	opts->weights = c->weights[0] ? c->weights : NULL;
}

void cli_active_mixed_opts(const struct np_active *a, struct np_plan_opts *opts,
			   const char **flows)
{
	size_t n = np_active_n_flows(a);

	if (!np_active_default_class(a))
		return;
	for (size_t i = 0; i < n && i < CLI_FLOWS_MAX; i++)
		flows[i] = np_active_flow(a, i);
	opts->flags |= NP_PLAN_OPTS_MIXED;
	opts->flows = flows;
	opts->n_flows = n < CLI_FLOWS_MAX ? n : CLI_FLOWS_MAX;
	opts->default_class = np_active_default_class(a);
	opts->weights = np_active_weights(a);
}

int cli_set_device(struct cli *c, const struct np_policy *policy, const struct np_plan_opts *o)
{
	struct np_plan_opts opts = *o;
	struct np_state *st = NULL;
	struct np_plan *plan = NULL;
	struct json_object *obj = NULL;
	CLI_ERROR(err);
	int rc;

	np_error_clear(err);
	if (c->strict)
		opts.flags |= NP_PLAN_STRICT;
	/* A real set recovers under the device's lock; a dry run writes
	 * nothing and says what the real one would do first. */
	if (!c->dry_run) {
		rc = cli_apply(c, policy, &opts);
		/* irqbalance would undo the IRQ placement: keep it away when
		 * asked, else say so (the exit status is the apply's) */
		if (rc == NP_EXIT_OK && c->irqbalance_ban)
			cli_irqbalance_ban(c);
		else if (rc == NP_EXIT_OK)
			cli_irqbalance_note(c, false);
		if (rc == NP_EXIT_OK)
			cli_owners_note(c, false);
		return rc;
	}
	if (np_discover(c->ctx, c->device, &st, err) < 0 ||
	    np_plan_compute(c->ctx, policy, &opts, st, &plan, err) < 0) {
		char buf[600];

		cli_note_pending(c, NULL);
		rc = cli_device_failed(c, policy, cli_fail(c, err),
				   np_error_format(err, buf, sizeof(buf)));
		goto out;
	}
	if (np_plan_to_json(plan, &obj) < 0) {
		cli_note_pending(c, NULL);
		fprintf(stderr, "netpolicy: out of memory\n");
		rc = cli_device_failed(c, policy, NP_EXIT_ERROR, "out of memory");
		goto out;
	}
	/* what the real set would find first: netpolicy-json(7) */
	cli_note_pending(c, obj);
	rc = cli_print_dry_run(c, obj);
	cli_irqbalance_note(c, false);
	cli_owners_note(c, false);
out:
	json_object_put(obj);
	np_plan_free(plan);
	np_state_free(st);
	return rc;
}

int cmd_set(struct cli *c)
{
	NP_PLAN_OPTS(opts, .cpus = c->cpus);
	const struct np_policy *policy;
	CLI_ERROR(err);
	int rc;

	if (c->argc < 1)
		return cli_usage_error("set: which policy? 'netpolicy policies' lists them");
	if (c->argc > 1)
		return cli_usage_error("set: unexpected argument '%s'", c->argv[1]);
	np_error_clear(err);
	if (np_policy_find(c->ctx, c->argv[0], &policy, err) < 0)
		return cli_fail(c, err);
	cli_mixed_opts(c, &opts);
	rc = cli_set_device(c, policy, &opts);
	/* once, to a person at a terminal (not a script, not -q or --json, not
	 * a --confirm still to be confirmed): a set lasts until reboot */
	if (rc == NP_EXIT_OK && !c->dry_run && !c->confirm && !c->quiet && !c->json &&
	    isatty(STDOUT_FILENO))
		printf("%s: kept until reboot; to keep it, add '[%s] policy = %s' to\n"
		       "  %s and run 'systemctl enable netpolicy.service'\n", c->device,
		       c->device, np_policy_name(policy), NP_CONFIG_PATH);
	return rc;
}

/* The plan that brings c->device to policy `name` as check plans it: with
 * the flows and link speed it was applied with when it is the applied
 * policy (its --cpus too when record_cpus: the policy was not named), and
 * what the driver refused then left out.  No steps: the device matches. */
int cli_check_plan(struct cli *c, const struct np_active *active, const char *name,
		   bool record_cpus, struct np_plan **ret, struct np_error *err)
{
	const struct np_policy *policy;
	NP_PLAN_OPTS(opts, .cpus = c->cpus);
	const char *flows[CLI_FLOWS_MAX];
	struct np_state *st = NULL;
	bool applied = !strcmp(name, np_active_name(active));
	int r;

	if (!opts.cpus && record_cpus && applied && np_active_cpus(active)[0])
		opts.cpus = np_active_cpus(active);
	/* a link down for a moment (igb after a channel change) is checked
	 * at the speed the policy was applied for */
	opts.link_speed = np_active_link_speed(active);
	/* a mixed device is checked against the flows it was set with */
	if (applied)
		cli_active_mixed_opts(active, &opts, flows);
	/* What the driver refused when this policy was applied was left out
	 * on purpose: not drift. */
	if (np_active_drop(active)[0] && applied &&
	    !strcmp(opts.cpus ? opts.cpus : "", np_active_cpus(active)))
		opts.drop = np_active_drop(active);
	r = np_policy_find(c->ctx, name, &policy, err);
	if (r >= 0)
		r = np_discover(c->ctx, c->device, &st, err);
	if (r >= 0)
		r = np_plan_compute(c->ctx, policy, &opts, st, ret, err);
	np_state_free(st);
	return r;
}

/* netpolicy DEVICE check [POLICY]: does the device match its plan? */
int cmd_check(struct cli *c)
{
	struct np_plan *plan = NULL;
	struct json_object *obj = NULL;
	CLI_ERROR(err);
	CLI_ACTIVE(active);
	const char *name;
	bool trying;
	int rc;

	if (c->argc > 1)
		return cli_usage_error("check: unexpected argument '%s'", c->argv[1]);
	np_error_clear(err);
	if (np_active_policy(c->ctx, c->device, &active, err) < 0)
		return cli_fail(c, err);
	if (c->argc == 1) {
		name = c->argv[0];
	} else {
		if (!np_active_name(active)[0]) {
			fprintf(stderr, "netpolicy: %s: no policy applied by netpolicy; name one: "
				"'netpolicy %s check POLICY'\n", c->device, c->device);
			return NP_EXIT_USAGE;
		}
		name = np_active_name(active);
	}
	if (cli_check_plan(c, active, name, c->argc == 0, &plan, err) < 0) {
		rc = cli_fail(c, err);
		goto out;
	}
	rc = np_plan_n_steps(plan) ? NP_EXIT_DRIFT : NP_EXIT_OK;
	if (np_plan_to_json(plan, &obj) < 0) {
		rc = cli_out_of_memory();
		goto out;
	}
	cli_jadd(c, obj, "drift", json_object_new_boolean(rc == NP_EXIT_DRIFT));
	/* a try's condition is not drift: checked when the try has ended */
	trying = cli_note_pending(c, obj);
	if (trying) {
		rc = NP_EXIT_OK;
		cli_jadd(c, obj, "drift", json_object_new_boolean(false));
	}
	if (rc == NP_EXIT_DRIFT && np_plan_changes(plan, "irq-affinity"))
		cli_irqbalance_note(c, true);
	if (rc == NP_EXIT_DRIFT)
		cli_owners_note(c, true);
	if (c->json)
		cli_print_json(c, obj);
	else if (!c->quiet && rc == NP_EXIT_DRIFT && !c->out_failed)
		render_plan(stdout, obj, "differs in", c->verbose);
	else if (!c->quiet && rc == NP_EXIT_DRIFT)
		rc = NP_EXIT_ERROR;	/* drift that cannot be shown: main says why */
	else if (!c->quiet && trying)
		printf("%s: not checked while a try is in progress\n", c->device);
	else if (!c->quiet)
		printf("%s: matches policy %s\n", c->device, name);
out:
	json_object_put(obj);
	np_plan_free(plan);
	return rc;
}
