/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Applying a plan and reporting it: shared by set and reset. */
#include <errno.h>
#include <string.h>

#include "cli.h"

/* plan collects one JSON document per device: a device that failed before
 * it had a plan gets one too, saying why. */
int cli_device_failed(struct cli *c, const struct np_policy *policy, int rc, const char *why)
{
	struct json_object *obj;

	if (!c->json_out)
		return rc;
	obj = json_object_new_object();
	json_object_object_add(obj, "ifname", json_object_new_string(c->device));
	json_object_object_add(obj, "policy", json_object_new_string(np_policy_name(policy)));
	json_object_object_add(obj, "dry_run", json_object_new_boolean(c->dry_run));
	json_object_object_add(obj, "changed", json_object_new_boolean(0));
	json_object_object_add(obj, "error", json_object_new_string(why));
	json_object_array_add(c->json_out, obj);
	return rc;
}

void cli_emit_json(struct cli *c, struct json_object *obj)
{
	if (c->json_out)
		json_object_array_add(c->json_out, json_object_get(obj));
	else
		cli_print_json(obj);
}

static struct json_object *dropped_json(const struct np_apply_result *res)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < np_apply_result_n_dropped(res); i++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "knob",
				       json_object_new_string(np_apply_result_dropped_knob(res, i)));
		json_object_object_add(o, "reason",
				       json_object_new_string(np_apply_result_dropped_reason(res, i)));
		json_object_array_add(arr, o);
	}
	return arr;
}

int cli_apply_report(struct cli *c, struct json_object *plan_json, int r,
		     const struct np_apply_result *res, const struct np_error *err)
{
	int rc = NP_EXIT_OK;

	if (np_apply_result_recovered(res) && !c->quiet)
		fprintf(stderr, "netpolicy: %s: rolled back an interrupted earlier run first\n",
			c->device);
	if (r < 0) {
		char buf[600], step[32] = "";
		const char *outcome;

		/* One line: what failed, where, and what became of the device. */
		np_error_format(err, buf, sizeof(buf));
		if (np_error_step(err) >= 0)
			snprintf(step, sizeof(step), "step %d: ", np_error_step(err));
		if (np_apply_result_vanished(res)) {
			outcome = "the device disappeared; nothing is left to roll back";
			rc = NP_EXIT_ERROR;
		} else if (np_apply_result_rollback_incomplete(res)) {
			outcome = "rollback INCOMPLETE";
			rc = NP_EXIT_ROLLBACK_FAILED;
		} else if (np_apply_result_rolled_back(res)) {
			outcome = "rolled back, the device is as it was";
			rc = NP_EXIT_ROLLED_BACK;
		} else {
			outcome = NULL;
			rc = np_error_phase(err) == NP_PHASE_INPUT ? NP_EXIT_USAGE : NP_EXIT_ERROR;
		}
		if (np_apply_result_rollback_incomplete(res))
			fprintf(stderr, "netpolicy: %s: %s%s; %s: %s; the journal is kept, "
				"'netpolicy %s reset' retries\n", c->device, step, buf, outcome,
				np_apply_result_rollback_msg(res), c->device);
		else
			fprintf(stderr, "netpolicy: %s: %s%s%s%s\n", c->device, step, buf,
				outcome ? "; " : "", outcome ? outcome : "");
	}
	if (c->json) {
		json_object_object_add(plan_json, "dry_run", json_object_new_boolean(0));
		json_object_object_add(plan_json, "changed",
				       json_object_new_boolean(np_apply_result_changed(res)));
		json_object_object_add(plan_json, "writes",
				       json_object_new_int64(np_apply_result_writes(res)));
		json_object_object_add(plan_json, "rolled_back",
				       json_object_new_boolean(np_apply_result_rolled_back(res)));
		if (np_apply_result_notes(res)[0])
			json_object_object_add(plan_json, "rounded",
					       json_object_new_string(np_apply_result_notes(res)));
		json_object_object_add(plan_json, "dropped", dropped_json(res));
		if (r < 0) {
			char buf[600];

			np_error_format(err, buf, sizeof(buf));
			json_object_object_add(plan_json, "error", json_object_new_string(buf));
		}
		cli_emit_json(c, plan_json);
	} else if (!c->quiet && r >= 0) {
		if (!np_apply_result_changed(res))
			printf("%s: no changes\n", c->device);
		else
			render_plan(stdout, plan_json);
		if (np_apply_result_notes(res)[0])
			printf("note: %s\n", np_apply_result_notes(res));
	}
	/* what the driver refused and the apply left out: said even with
	 * --quiet, since the device is not quite at the policy */
	for (unsigned i = 0; !c->json && i < np_apply_result_n_dropped(res); i++)
		fprintf(r >= 0 ? stdout : stderr, "%s: dropped %s (the driver refused it: %s)\n",
			c->device, np_apply_result_dropped_knob(res, i),
			np_apply_result_dropped_reason(res, i));
	return rc;
}

int cli_print_dry_run(struct cli *c, struct json_object *plan_json)
{
	json_object_object_add(plan_json, "dry_run", json_object_new_boolean(1));
	json_object_object_add(plan_json, "changed", json_object_new_boolean(0));
	if (c->json)
		cli_emit_json(c, plan_json);
	else if (!c->quiet)
		render_plan(stdout, plan_json);
	return NP_EXIT_OK;
}

int cli_apply(struct cli *c, const struct np_policy *policy, const struct np_plan_opts *opts)
{
	CLI_RESULT(res);
	/* made before the apply: a revert must not depend on memory */
	CLI_RESULT(undo);
	struct json_object *obj = NULL;
	struct np_plan *plan = NULL;
	CLI_ERROR(err);
	int r, rc;

	if (!res || !undo)
		return cli_out_of_memory();
	np_error_clear(err);
	r = np_apply_policy(c->ctx, c->device, policy, opts,
			    (c->confirm ? NP_APPLY_TENTATIVE : 0) | (c->strict ? NP_APPLY_STRICT : 0),
			    &plan, res, err);
	if (!plan) {	/* failed before there was a plan: nothing was touched */
		char buf[600];

		rc = cli_fail(c, err);
		return cli_device_failed(c, policy, rc, np_error_format(err, buf, sizeof(buf)));
	}
	if (np_plan_to_json(plan, &obj) < 0) {
		np_plan_free(plan);
		fprintf(stderr, "netpolicy: out of memory\n");
		return NP_EXIT_ERROR;
	}
	np_plan_free(plan);
	if (r >= 0 && c->confirm && np_apply_result_changed(res)) {
		if (cli_spawn_watchdog(c, np_apply_result_token(res)) < 0) {
			/* Without a watchdog the promise cannot be kept: undo now. */
			np_revert_tentative(c->ctx, c->device, np_apply_result_token(res), undo, err);
			fprintf(stderr, "netpolicy: %s: cannot start the --confirm watchdog; "
				"change rolled back\n", c->device);
			json_object_put(obj);
			return NP_EXIT_ROLLED_BACK;
		}
		json_object_object_add(obj, "confirm_within", json_object_new_int(c->confirm));
		if (!c->json && !c->quiet)
			fprintf(stderr, "netpolicy: %s: tentative: run 'netpolicy %s confirm' within %d s "
				"or it is rolled back\n", c->device, c->device, c->confirm);
	}
	rc = cli_apply_report(c, obj, r, res, err);
	json_object_put(obj);
	return rc;
}

int cmd_reset(struct cli *c)
{
	CLI_RESULT(res);
	struct json_object *obj = NULL;
	struct np_plan *plan = NULL;
	CLI_ERROR(err);
	int r, rc;

	if (c->argc > 0)
		return cli_usage_error("reset: unexpected argument '%s'", c->argv[0]);
	if (!res)
		return cli_out_of_memory();
	np_error_clear(err);
	/* a dry run only plans; a reset plans and applies from one read */
	if (c->dry_run)
		r = np_reset_plan(c->ctx, c->device, &plan, err);
	else
		r = np_reset(c->ctx, c->device, 0, &plan, res, err);
	if ((r == -ENOENT && c->dry_run) || (r >= 0 && !plan)) {
		/* Nothing saved: the device is as netpolicy found it. */
		if (c->json) {
			obj = json_object_new_object();
			json_object_object_add(obj, "ifname", json_object_new_string(c->device));
			json_object_object_add(obj, "dry_run", json_object_new_boolean(c->dry_run));
			json_object_object_add(obj, "changed", json_object_new_boolean(0));
			json_object_object_add(obj, "steps", json_object_new_array());
			cli_print_json(obj);
			json_object_put(obj);
		} else if (!c->quiet) {
			printf("%s: no changes (netpolicy has not changed this device)\n", c->device);
		}
		return NP_EXIT_OK;
	}
	if (!plan)	/* failed before anything was written */
		return cli_fail(c, err);
	if (np_plan_to_json(plan, &obj) < 0) {
		np_plan_free(plan);
		return NP_EXIT_ERROR;
	}
	json_object_object_add(obj, "policy", json_object_new_string("reset"));
	if (c->dry_run)
		rc = cli_print_dry_run(c, obj);
	else
		rc = cli_apply_report(c, obj, r, res, err);
	json_object_put(obj);
	np_plan_free(plan);
	return rc;
}

/* Before anything else on a device: finish what a killed netpolicy left. */
int cli_recover(struct cli *c)
{
	CLI_RESULT(res);
	CLI_ERROR(err);
	int r;

	if (!res)
		return cli_out_of_memory();
	np_error_clear(err);
	r = np_recover(c->ctx, c->device, res, err);
	if (np_apply_result_recovered(res) && !c->quiet)
		fprintf(stderr, "netpolicy: %s: an interrupted earlier run was rolled back%s\n",
			c->device, r < 0 ? " incompletely" : "");
	if (r < 0 && r != -ENODEV) {
		char buf[600];

		np_error_format(err, buf, sizeof(buf));
		fprintf(stderr, "netpolicy: %s: recovery: %s\n", c->device, buf);
		return NP_EXIT_ROLLBACK_FAILED;
	}
	return NP_EXIT_OK;
}
