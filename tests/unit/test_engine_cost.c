/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One read, one plan: what a command costs in whole-device reads, partial
 * re-reads, plans and diffs (np_ctx_work_counts), on simulated machines.
 * A `set` that changes a device reads it once before planning and once to
 * verify; between them only what a step may have changed is read again
 * (the queues and IRQs after a channel or ring change, the coalescing a
 * driver rounds), and the plan is refined once per queue-reopening step.
 * A no-op `set` reads and plans once and diffs nothing more.
 */
#include <errno.h>
#include <ftw.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "plan/np_plan.h"
#include "tap.h"

static char tmpdir[] = "/tmp/np-test-engine-cost.XXXXXX";

static struct np_ctx *ctx_for(const char *model, const char *as)
{
	return sim_ctx(tmpdir, model, as);
}

static struct np_work_counts since(struct np_ctx *ctx, const struct np_work_counts *before)
{
	struct np_work_counts now;

	np_ctx_work_counts(ctx, &now);
	now.reads -= before->reads;
	now.refreshes -= before->refreshes;
	now.plans -= before->plans;
	now.refines -= before->refines;
	now.diffs -= before->diffs;
	return now;
}

/* One `set POLICY` through the public API; its counts and the plan's
 * queue-reopening and rounding steps. */
static struct np_work_counts set(struct np_ctx *ctx, const char *dev, const char *policy,
				 unsigned *reopening, unsigned *rounding, bool *changed)
{
	struct np_apply_result *res = NULL;
	struct np_work_counts before;
	const struct np_policy *p;
	struct np_plan *plan = NULL;
	struct np_error err;
	int r;

	np_error_clear(&err);
	np_ctx_work_counts(ctx, &before);
	if (np_policy_lookup(policy, &p, &err) < 0 || !(res = np_apply_result_new())) {
		printf("Bail out! %s\n", err.msg);
		exit(1);
	}
	r = np_apply_policy(ctx, dev, p, NULL, 0, &plan, res, &err);
	ok(r == 0, "%s set %s applies (%s)", dev, policy, err.msg);
	*changed = np_apply_result_changed(res);
	*reopening = *rounding = 0;
	for (size_t i = 0; plan && i < plan->n_steps; i++) {
		const char *knob = plan->steps[i].knob->name;

		if (!strcmp(knob, "channels") || !strcmp(knob, "rings"))
			(*reopening)++;
		else if (!strcmp(knob, "coalesce"))
			(*rounding)++;
	}
	np_plan_free(plan);
	np_apply_result_free(res);
	return since(ctx, &before);
}

static void changing_then_noop(const char *model, const char *policy)
{
	struct np_ctx *ctx = ctx_for(model, policy);
	struct np_work_counts c;
	unsigned reopening, rounding;
	char **names = NULL;
	size_t n = 0;
	bool changed;
	struct np_error err;

	np_error_clear(&err);
	if (np_list_devices(ctx, &names, &n, &err) < 0 || n < 1) {
		printf("Bail out! %s: no device (%s)\n", model, err.msg);
		exit(1);
	}
	c = set(ctx, names[0], policy, &reopening, &rounding, &changed);
	ok(changed && reopening > 0, "%s %s: changes the device, %u queue-reopening steps", model,
	   policy, reopening);
	is_int(c.reads, 2, "%s %s: the device read once to plan, once to verify", model, policy);
	is_int(c.refreshes, reopening + (rounding ? 1 : 0),
	       "%s %s: partial re-reads only after the %u queue-reopening and %u rounding steps",
	       model, policy, reopening, rounding);
	is_int(c.plans, 1, "%s %s: planned once", model, policy);
	is_int(c.refines, reopening, "%s %s: refined once per queue-reopening step", model, policy);
	is_int(c.diffs, 3, "%s %s: one converge, verify's two diffs", model, policy);

	c = set(ctx, names[0], policy, &reopening, &rounding, &changed);
	ok(!changed && reopening == 0, "%s %s again: no change", model, policy);
	is_int(c.reads, 1, "%s %s again: one read", model, policy);
	is_int(c.plans, 1, "%s %s again: one plan", model, policy);
	is_int(c.refreshes + c.refines + c.diffs, 0, "%s %s again: nothing re-read, refined or "
	       "diffed", model, policy);
	np_list_free(names, n);
	np_ctx_free(ctx);
}

static void reset(const char *model)
{
	struct np_ctx *ctx = ctx_for(model, "reset");
	struct np_apply_result *res = NULL;
	struct np_work_counts c, before;
	unsigned reopening, rounding;
	struct np_plan *plan = NULL;
	char **names = NULL;
	struct np_error err;
	size_t n = 0;
	bool changed;

	np_error_clear(&err);
	if (np_list_devices(ctx, &names, &n, &err) < 0 || n < 1 || !(res = np_apply_result_new())) {
		printf("Bail out! %s: no device (%s)\n", model, err.msg);
		exit(1);
	}
	(void)set(ctx, names[0], "throughput", &reopening, &rounding, &changed);
	np_ctx_work_counts(ctx, &before);
	ok(np_reset(ctx, names[0], 0, &plan, res, &err) == 0 && np_apply_result_changed(res),
	   "%s reset changes the device back (%s)", model, err.msg);
	c = since(ctx, &before);
	is_int(c.reads, 2, "%s reset: one read under the lock, one to verify", model);
	is_int(c.plans + c.refines, 0, "%s reset: the pristine snapshot is the plan", model);
	is_int(c.diffs, 3, "%s reset: one converge, verify's two diffs", model);
	np_plan_free(plan);
	np_apply_result_free(res);
	np_list_free(names, n);
	np_ctx_free(ctx);
}

static void cleanup(void)
{
	remove_tree(tmpdir);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	/* ixgbe: channels (and rings for cpu); latency also rounds coalescing */
	changing_then_noop("ixgbe-16cpu", "cpu");
	changing_then_noop("ixgbe-16cpu", "latency");
	changing_then_noop("mlx5-2s64c", "throughput");
	reset("ixgbe-16cpu");
	cleanup();
	return tap_done();
}
