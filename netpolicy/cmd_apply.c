/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Applying a plan and reporting it: shared by set and reset. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* plan collects one JSON document per device: a device that failed before
 * it had a plan gets one too, saying why. */
int cli_device_failed(struct cli *c, const struct np_policy *policy, int rc, const char *why)
{
	struct json_object *obj;

	if (!c->json_out)
		return rc;
	obj = json_object_new_object();
	cli_jadd(c, obj, "ifname", json_object_new_string(c->device));
	cli_jadd(c, obj, "policy", json_object_new_string(np_policy_name(policy)));
	cli_jadd(c, obj, "dry_run", json_object_new_boolean(c->dry_run));
	cli_jadd(c, obj, "changed", json_object_new_boolean(0));
	cli_jadd(c, obj, "error", json_object_new_string(why));
	cli_jpush(c, c->json_out, obj);
	return rc;
}

void cli_emit_json(struct cli *c, struct json_object *obj)
{
	if (!obj)
		c->out_failed = true;
	else if (c->json_out)
		cli_jpush(c, c->json_out, json_object_get(obj));
	else
		cli_print_json(c, obj);
}

static struct json_object *dropped_json(struct cli *c, const struct np_apply_result *res)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < np_apply_result_n_dropped(res); i++) {
		struct json_object *o = json_object_new_object();

		const char *field = np_apply_result_dropped_field(res, i);
		const char *name = np_apply_result_dropped_errno(res, i);

		cli_jadd(c, o, "knob",
				       json_object_new_string(np_apply_result_dropped_knob(res, i)));
		if (field && field[0])
			cli_jadd(c, o, "field", json_object_new_string(field));
		if (name)
			cli_jadd(c, o, "errno", json_object_new_string(name));
		cli_jadd(c, o, "reason",
				       json_object_new_string(np_apply_result_dropped_reason(res, i)));
		cli_jpush(c, arr, o);
	}
	return arr;
}

/* The plan's warnings (a conflict with a foreign ntuple rule) on stderr,
 * whatever came of the apply, --quiet or not: the device does what the
 * user asked only in part.  --json has them in the notes ("warning"). */
static void print_warnings(struct cli *c, struct json_object *plan_json)
{
	struct json_object *notes, *n, *v;

	if (c->json || !plan_json || !json_object_object_get_ex(plan_json, "notes", &notes))
		return;
	for (size_t i = 0; i < json_object_array_length(notes); i++) {
		n = json_object_array_get_idx(notes, i);
		if (!json_object_object_get_ex(n, "warning", &v) || !json_object_get_boolean(v))
			continue;
		fprintf(stderr, "netpolicy: %s: warning: %s: %s\n", c->device,
			json_object_object_get_ex(n, "knob", &v) ? json_object_get_string(v) : "",
			json_object_object_get_ex(n, "note", &v) ? json_object_get_string(v) : "");
	}
}

/* On stderr: an earlier run rolled back first, and one line for a
 * failure: what failed, where, and what became of the device. */
static void report_failure(const struct cli *c, int r, const struct np_apply_result *res,
			   const struct np_error *err)
{
	if (np_apply_result_recovered(res) && !c->quiet)
		fprintf(stderr, "netpolicy: %s: rolled back an interrupted earlier run first\n",
			c->device);
	if (r < 0 && np_apply_result_unrecorded(res)) {
		char buf[600];

		/* Changed and kept so: the records lag behind, never "nothing
		 * was changed". */
		np_error_format(err, buf, sizeof(buf));
		fprintf(stderr, "netpolicy: %s: the change was applied, but %s; the next netpolicy "
			"command for %s completes the records\n", c->device, buf, c->device);
	} else if (r < 0) {
		char buf[600], step[32] = "", gone[300];
		const char *outcome;

		/* One line: what failed, where, and what became of the device. */
		np_error_format(err, buf, sizeof(buf));
		if (np_error_step(err) >= 0)
			snprintf(step, sizeof(step), "step %d: ", np_error_step(err));
		if (np_apply_result_interrupted(res) && !c->quiet)
			fprintf(stderr, "netpolicy: %s: interrupted by a signal during the apply\n",
				c->device);
		if (np_apply_result_vanished(res)) {
			/* Renamed or moved elsewhere, it lives on half-changed:
			 * its journal is kept for when it is back. */
			if (np_apply_result_renamed_to(res)[0])
				snprintf(gone, sizeof(gone), "the device was renamed to %s: nothing "
					 "could be rolled back; its journal is kept: once it is named %s "
					 "again, 'netpolicy %s reset' rolls it back",
					 np_apply_result_renamed_to(res), c->device, c->device);
			else
				snprintf(gone, sizeof(gone), "the device left this network namespace "
					 "(deleted, or moved to another one): nothing could be rolled "
					 "back; its journal is kept for when it is back");
			outcome = gone;
		} else if (np_apply_result_rollback_incomplete(res)) {
			outcome = "rollback INCOMPLETE";
		} else if (np_apply_result_rolled_back(res)) {
			outcome = "rolled back, the device is as it was";
		} else {
			outcome = NULL;
		}
		if (np_apply_result_rollback_incomplete(res))
			fprintf(stderr, "netpolicy: %s: %s%s; %s: %s; the journal is kept, "
				"'netpolicy %s reset' retries\n", c->device, step, buf, outcome,
				np_apply_result_rollback_msg(res), c->device);
		else
			fprintf(stderr, "netpolicy: %s: %s%s%s%s\n", c->device, step, buf,
				outcome ? "; " : "", outcome ? outcome : "");
	}
}

int cli_apply_report(struct cli *c, struct json_object *plan_json, int r,
		     const struct np_apply_result *res, const struct np_error *err)
{
	int rc = cli_exit_of_apply(r, res, err);

	print_warnings(c, plan_json);

	if (np_apply_result_changed(res))
		c->changed = true;
	report_failure(c, r, res, err);
	if (c->json) {
		cli_jadd(c, plan_json, "dry_run", json_object_new_boolean(0));
		cli_jadd(c, plan_json, "changed",
				       json_object_new_boolean(np_apply_result_changed(res)));
		cli_jadd(c, plan_json, "writes",
				       json_object_new_int64(np_apply_result_writes(res)));
		cli_jadd(c, plan_json, "rolled_back",
				       json_object_new_boolean(np_apply_result_rolled_back(res)));
		if (np_apply_result_notes(res)[0])
			cli_jadd(c, plan_json, "rounded",
					       json_object_new_string(np_apply_result_notes(res)));
		/* documented "when any" */
		if (np_apply_result_n_dropped(res))
			cli_jadd(c, plan_json, "dropped", dropped_json(c, res));
		if (np_apply_result_interrupted(res))
			cli_jadd(c, plan_json, "interrupted", json_object_new_boolean(1));
		if (np_apply_result_unrecorded(res))
			cli_jadd(c, plan_json, "unrecorded", json_object_new_boolean(1));
		if (r < 0) {
			char buf[600];

			np_error_format(err, buf, sizeof(buf));
			cli_jadd(c, plan_json, "error", json_object_new_string(buf));
		}
		cli_emit_json(c, plan_json);
	} else if (!c->quiet && (r >= 0 || np_apply_result_unrecorded(res))) {
		struct json_object *pol = NULL;

		/* with the policy's name, as a dry run says it: a switch
		 * whose plan is empty (veth: latency after throughput) still
		 * records the new policy, and says which */
		if (!np_apply_result_changed(res) && plan_json &&
		    json_object_object_get_ex(plan_json, "policy", &pol) && pol)
			printf("%s: %s: no changes\n", c->device, json_object_get_string(pol));
		else if (!np_apply_result_changed(res))
			printf("%s: no changes\n", c->device);
		else if (plan_json && !c->out_failed)
			render_plan(stdout, plan_json, "changed", c->verbose);
		else
			c->out_failed = true;
		if (np_apply_result_notes(res)[0])
			printf("note: %s\n", np_apply_result_notes(res));
	}
	/* what the driver refused and the apply left out: said even with
	 * --quiet, since the device is not quite at the policy */
	for (unsigned i = 0; !c->json && i < np_apply_result_n_dropped(res); i++) {
		const char *field = np_apply_result_dropped_field(res, i);

		fprintf(r >= 0 ? stdout : stderr, "%s: dropped %s%s%s (the driver refused it: %s)\n",
			c->device, np_apply_result_dropped_knob(res, i), field[0] ? " " : "", field,
			np_apply_result_dropped_reason(res, i));
	}
	return rc;
}

/* Failed before the command's own plan.  In the rollback of an earlier
 * interrupted run that could not be completed (some of its values may be
 * written back, the journal is kept): exit 4, never "nothing was changed". */
static int failed_unplanned(struct cli *c, const struct np_apply_result *res,
			    const struct np_error *err)
{
	char buf[600];

	if (!np_apply_result_rollback_incomplete(res))
		return cli_fail(c, err);
	np_error_format(err, buf, sizeof(buf));
	fprintf(stderr, "netpolicy: %s: rolling back an interrupted earlier run: %s; rollback "
		"INCOMPLETE; the journal is kept, 'netpolicy %s reset' retries\n", c->device, buf,
		c->device);
	return NP_EXIT_ROLLBACK_FAILED;
}

int cli_print_dry_run(struct cli *c, struct json_object *plan_json)
{
	cli_jadd(c, plan_json, "dry_run", json_object_new_boolean(1));
	cli_jadd(c, plan_json, "changed", json_object_new_boolean(0));
	if (c->json)
		cli_emit_json(c, plan_json);
	else if (!c->quiet && plan_json && !c->out_failed)
		render_plan(stdout, plan_json, "would change", c->verbose);
	else if (!c->quiet)
		c->out_failed = true;
	return NP_EXIT_OK;
}

/* Called by the library once the way back is on disk, before the first write. */
static int start_watchdog(void *userdata, unsigned long long token, long long deadline)
{
	return cli_spawn_watchdog(userdata, token, deadline);
}

int cli_apply(struct cli *c, const struct np_policy *policy, const struct np_plan_opts *opts)
{
	struct np_pending pend = { .sz = sizeof(pend) };
	CLI_RESULT(res);
	struct json_object *obj = NULL;
	struct np_plan *plan = NULL;
	CLI_ERROR(err);
	int r, rc;

	if (!res)
		return cli_out_of_memory();
	np_error_clear(err);
	if (c->confirm)
		np_ctx_set_tentative(c->ctx, (unsigned)c->confirm, start_watchdog, c);
	else if (np_pending_state(c->ctx, c->device, &pend, err) < 0)
		np_error_clear(err);	/* the apply says what is wrong there */
	r = np_apply_policy(c->ctx, c->device, policy, opts,
			    (c->confirm ? NP_APPLY_TENTATIVE : 0) | (c->strict ? NP_APPLY_STRICT : 0),
			    &plan, res, err);
	/* a plain set keeps itself: the --confirm it found is over */
	if (r >= 0 && pend.tentative && !c->quiet && !c->json)
		fprintf(stderr, "netpolicy: %s: ended the pending --confirm (this set is kept, "
			"not rolled back)\n", c->device);
	if (!plan) {	/* failed before there was a plan: nothing was touched */
		char buf[600];

		rc = failed_unplanned(c, res, err);
		return cli_device_failed(c, policy, rc, np_error_format(err, buf, sizeof(buf)));
	}
	/* Without its document the outcome is still reported (stderr, exit
	 * status); main says the output could not be made. */
	if (np_plan_to_json(plan, &obj) < 0)
		obj = NULL;
	np_plan_free(plan);
	/* a deadline only when this set changed the device (not a recovery) */
	if (c->confirm && np_apply_result_deadline(res)) {
		cli_jadd(c, obj, "confirm_within", json_object_new_int(c->confirm));
		cli_jadd(c, obj, "confirm_deadline",
				       json_object_new_int64(np_apply_result_deadline(res)));
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
		/* Nothing saved: the device is as netpolicy found it, or is so
		 * again because an interrupted run (a killed try's condition,
		 * say) was just rolled back: then the reset did change it. */
		bool undone = !c->dry_run && np_apply_result_recovered(res);

		if (c->json) {
			obj = json_object_new_object();
			cli_jadd(c, obj, "ifname", json_object_new_string(c->device));
			cli_jadd(c, obj, "dry_run", json_object_new_boolean(c->dry_run));
			cli_jadd(c, obj, "changed", json_object_new_boolean(undone));
			cli_jadd(c, obj, "steps", json_object_new_array());
			cli_print_json(c, obj);
			json_object_put(obj);
		} else if (undone && !c->quiet) {
			printf("%s: rolled back the interrupted run; the device is as netpolicy "
			       "found it\n", c->device);
		} else if (!c->quiet) {
			printf("%s: no changes (netpolicy has not changed this device)\n", c->device);
		}
		return NP_EXIT_OK;
	}
	if (!plan)	/* failed before its own first write */
		return failed_unplanned(c, res, err);
	if (np_plan_to_json(plan, &obj) < 0)
		obj = NULL;	/* reported as for cli_apply */
	cli_jadd(c, obj, "policy", json_object_new_string("reset"));
	if (c->dry_run) {
		cli_note_pending(c, obj);
		rc = cli_print_dry_run(c, obj);
	} else {
		rc = cli_apply_report(c, obj, r, res, err);
	}
	json_object_put(obj);
	np_plan_free(plan);
	return rc;
}

/* A try in progress as JSON: {"pid", "condition", "round"}. */
static struct json_object *try_json(struct cli *c, const struct np_pending *p)
{
	struct json_object *o = json_object_new_object();

	cli_jadd(c, o, "pid", json_object_new_int64(p->try_pid));
	cli_jadd(c, o, "condition", json_object_new_string(p->try_condition));
	cli_jadd(c, o, "round", json_object_new_int64(p->try_round));
	return o;
}

bool cli_note_pending(struct cli *c, struct json_object *obj)
{
	struct np_pending p = { .sz = sizeof(p) };
	CLI_ERROR(err);
	long long now = (long long)time(NULL);

	np_error_clear(err);
	if (np_pending_state(c->ctx, c->device, &p, err) < 0) {
		char buf[600];

		fprintf(stderr, "netpolicy: %s: %s\n", c->device, np_error_format(err, buf, sizeof(buf)));
		return false;
	}
	if (obj) {
		cli_jadd(c, obj, "interrupted_run", json_object_new_boolean(p.journal));
		if (p.tentative)
			cli_jadd(c, obj, "confirm_deadline", json_object_new_int64(p.deadline));
		else
			cli_jnull(c, obj, "confirm_deadline");
		if (p.try_pid)
			cli_jadd(c, obj, "try", try_json(c, &p));
		else
			cli_jnull(c, obj, "try");
	}
	if (c->quiet)
		return p.try_pid != 0;
	if (p.journal)
		fprintf(stderr, "netpolicy: %s: an earlier run was interrupted; the next 'set' or "
			"'reset' rolls it back first\n", c->device);
	if (p.try_pid && p.try_round)
		fprintf(stderr, "netpolicy: %s: try in progress (pid %ld, condition %s, round %u): "
			"the device returns to its baseline when it ends\n", c->device, p.try_pid,
			p.try_condition, p.try_round);
	else if (p.try_pid)
		fprintf(stderr, "netpolicy: %s: try in progress (pid %ld, starting): the device "
			"returns to its baseline when it ends\n", c->device, p.try_pid);
	if (p.tentative && now < p.deadline)
		fprintf(stderr, "netpolicy: %s: a 'set --confirm' is pending: reverted in %lld s "
			"unless 'netpolicy %s confirm'\n", c->device, p.deadline - now, c->device);
	else if (p.tentative)
		fprintf(stderr, "netpolicy: %s: a 'set --confirm' was not confirmed in time (%lld s "
			"ago); it is being reverted\n", c->device, now - p.deadline);
	return p.try_pid != 0;
}
