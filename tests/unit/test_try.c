/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * np_try_*: the conditions of a try run on a simulated ixgbe (ixgbe-16cpu):
 * each policy changes the device, the baseline condition and the end bring
 * it back exactly; a pending --confirm is refused; a process killed in a
 * condition leaves a journal the next command rolls back to the baseline,
 * also when a policy was applied before the run; the counters' parsing and
 * a sample's arithmetic.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "np_try.h"
#include "tap.h"

#define DEV "enp3s0f0"

static char tmpdir[] = "/tmp/np-test-try.XXXXXX";

/* The device as JSON text (malloc'd), to compare whole states. */
static char *state_text(struct np_ctx *ctx)
{
	struct np_error *err = np_error_new();
	struct json_object *j = NULL;
	struct np_state *st = NULL;
	char *s;

	if (np_discover(ctx, DEV, &st, err) < 0 || np_state_to_json(st, &j) < 0) {
		printf("Bail out! discover: %s\n", np_error_message(err));
		exit(1);
	}
	s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
	json_object_put(j);
	np_state_free(st);
	np_error_free(err);
	return s;
}

static const struct np_policy *policy(const char *name)
{
	const struct np_policy *p = NULL;

	if (np_policy_lookup(name, &p, NULL) < 0) {
		printf("Bail out! no policy %s\n", name);
		exit(1);
	}
	return p;
}

static int try_apply(struct np_try *t, const char *name)
{
	struct np_apply_result *res = np_apply_result_new();
	struct np_error *err = np_error_new();
	int r = np_try_apply(t, name ? policy(name) : NULL, NULL, res, err);

	if (r < 0)
		printf("# %s: %s\n", name ? name : "baseline", np_error_message(err));
	np_apply_result_free(res);
	np_error_free(err);
	return r;
}

static int set(struct np_ctx *ctx, const char *name, unsigned flags)
{
	struct np_apply_result *res = np_apply_result_new();
	int r = np_apply_policy(ctx, DEV, policy(name), NULL, flags, NULL, res, NULL);

	np_apply_result_free(res);
	return r;
}

static int no_watchdog(void *ud, unsigned long long token, long long deadline)
{
	(void)ud;
	(void)token;
	(void)deadline;
	return 0;
}

static void test_parse(void)
{
	struct np_cpu_ticks c;

	is_int(np_cpu_ticks_parse("cpu  10 2 30 400 5 6 70 0 0 0\n", &c), 0, "the cpu line");
	ok(c.user == 12 && c.system == 30 && c.softirq == 70,
	   "user counts nice; system and softirq as they are (%llu %llu %llu)", c.user, c.system,
	   c.softirq);
	is_int(np_cpu_ticks_parse("cpu0 1 2 3 4 5 6 7\n", &c), -EINVAL, "one CPU's line is not it");
	is_int(np_cpu_ticks_parse("cpu  1 2 3\n", &c), -EINVAL, "a line without softirq");
	{
		int named = 0;

		for (int m = 0; m < NP_TRY_MEASURE__COUNT; m++)
			named += np_try_measure_name((enum np_try_measure)m) != NULL;
		is_int(named, NP_TRY_MEASURE__COUNT, "every measure has a name");
	}
	ok(np_try_measure_name(NP_TRY_MEASURE__COUNT) == NULL, "an unknown measure has no name");
}

/* Begin, go through conditions, end: the device is the baseline after. */
static void test_rotation(struct np_ctx *ctx, const char *baseline)
{
	struct np_apply_result *res = np_apply_result_new();
	struct np_try_sample *s = NULL;
	struct np_try *t = NULL;
	char *now;

	is_int(np_try_begin(ctx, DEV, &t, NULL), 0, "begin");
	is_int(try_apply(t, "throughput"), 0, "throughput");
	now = state_text(ctx);
	ok(strcmp(now, baseline) != 0, "throughput changed the device");
	free(now);
	is_int(try_apply(t, "latency"), 0, "latency after throughput");
	is_int(try_apply(t, NULL), 0, "the baseline after latency");
	now = state_text(ctx);
	ok(!strcmp(now, baseline), "the baseline condition is the baseline exactly");
	free(now);
	is_int(np_try_sample_start(t, &s, NULL), 0, "sample start");
	is_int(np_try_sample_stop(t, s, NULL), 0, "sample stop");
	ok(np_try_sample_get(s, NP_TRY_WALL) >= 0, "wall time measured");
	ok(np_try_sample_get(s, NP_TRY_CPU_PER_GB) == -1, "no bytes moved: no CPU per GB");
	ok(np_try_sample_get(s, NP_TRY_MEASURE__COUNT) == -1, "an unknown measure is -1");
	np_try_sample_free(s);
	is_int(try_apply(t, "cpu"), 0, "cpu");
	is_int(np_try_end(t, NULL, NULL, 0, NULL, res, NULL), 0, "end");
	now = state_text(ctx);
	ok(!strcmp(now, baseline), "the end restores the baseline exactly");
	free(now);
	ok(try_apply(t, "cpu") == -EINVAL, "no condition after the end");
	np_try_free(t);
	np_apply_result_free(res);
}

/* A process killed in a condition: the next command rolls back. */
static void test_killed(struct np_ctx *ctx, const char *baseline)
{
	struct np_apply_result *res = np_apply_result_new();
	int status = 0;
	char *now;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct np_try *t = NULL;

		if (np_try_begin(ctx, DEV, &t, NULL) < 0 || try_apply(t, "throughput") < 0)
			_exit(1);
		_exit(0);	/* as SIGKILL would: nothing ended */
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child applied throughput and died");
	now = state_text(ctx);
	ok(strcmp(now, baseline) != 0, "the device was left in the condition");
	free(now);
	is_int(np_recover(ctx, DEV, res, NULL), 0, "the next command recovers");
	now = state_text(ctx);
	ok(!strcmp(now, baseline), "back at the baseline");
	free(now);
	np_apply_result_free(res);
}

int main(void)
{
	struct np_apply_result *res = np_apply_result_new();
	struct np_try *t = NULL;
	struct np_ctx *ctx;
	char *baseline, *now;

	test_parse();
	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	ctx = sim_ctx(tmpdir, "ixgbe-16cpu", "m");
	baseline = state_text(ctx);
	test_rotation(ctx, baseline);
	test_killed(ctx, baseline);
	free(baseline);

	/* a baseline with a policy applied: restored to that, records kept */
	is_int(set(ctx, "latency", 0), 0, "set latency before the run");
	baseline = state_text(ctx);
	test_rotation(ctx, baseline);
	test_killed(ctx, baseline);
	{
		struct np_active *a = NULL;

		ok(np_active_policy(ctx, DEV, &a, NULL) == 0 && !strcmp(np_active_name(a), "latency"),
		   "the policy record is still latency's");
		np_active_free(a);
	}

	np_ctx_set_tentative(ctx, 60, no_watchdog, NULL);
	is_int(set(ctx, "throughput", NP_APPLY_TENTATIVE), 0, "set throughput --confirm 60");
	is_int(np_try_begin(ctx, DEV, &t, NULL), -EBUSY, "refused while a --confirm is pending");
	is_int(np_reset(ctx, DEV, 0, NULL, res, NULL), 0, "reset");
	now = state_text(ctx);
	is_int(np_try_begin(ctx, DEV, &t, NULL), 0, "begins again once nothing is pending");
	np_try_free(t);
	free(now);
	free(baseline);
	np_apply_result_free(res);
	np_ctx_free(ctx);
	remove_tree(tmpdir);
	return tap_done();
}
