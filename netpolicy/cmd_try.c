/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DEVICE try [POLICY...] -- COMMAND [ARG...]: run the caller's workload
 * under the device's baseline and each policy, in rounds, each round in a
 * rotated order (drift over the run then favours no condition), and say
 * which policy changed what measurably.  The library brings the device to
 * each condition and back (np_try_*, one lock and one journal for the
 * run); here are the schedule, the workload's processes and the report.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "try_run.h"

/* a workload asked to stop gets this long before SIGKILL */
#define TRY_GRACE_S 5.0

int try_order(const struct try_ctx *t, int round, int pos)
{
	return (pos + round) % t->n_cond;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pause_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

	nanosleep(&ts, NULL);
}

static int conditions(struct try_ctx *t)
{
	struct cli *c = t->c;
	CLI_ERROR(err);

	t->cond[t->n_cond++].name = "baseline";
	if (c->argc == 0) {
		/* every built-in one but mixed, which needs its flows */
		for (size_t i = 0; i < np_policy_count() && t->n_cond < TRY_MAX_COND; i++) {
			const struct np_policy *p = np_policy_at(i);

			if (strcmp(np_policy_name(p), "mixed")) {
				t->cond[t->n_cond].policy = p;
				t->cond[t->n_cond++].name = np_policy_name(p);
			}
		}
		return 0;
	}
	for (int i = 0; i < c->argc; i++) {
		const struct np_policy *p = NULL;

		if (t->n_cond == TRY_MAX_COND)
			return cli_usage_error("try: at most %d policies", TRY_MAX_COND - 1);
		if (!strcmp(c->argv[i], "mixed"))
			return cli_usage_error("try: the mixed policy cannot be tried (its classes "
					       "need flows and tasks placed with exec)");
		if (np_policy_find(c->ctx, c->argv[i], &p, err) < 0)
			return cli_fail(c, err);
		t->cond[t->n_cond].policy = p;
		t->cond[t->n_cond++].name = np_policy_name(p);
	}
	return 0;
}

static void print_schedule(struct try_ctx *t)
{
	struct cli *c = t->c;
	struct json_object *doc, *sched, *names, *cmd;

	if (c->json) {
		doc = json_object_new_object();
		sched = json_object_new_array();
		names = json_object_new_array();
		cmd = json_object_new_array();
		cli_jadd(c, doc, "schema", json_object_new_int(NP_JSON_SCHEMA));
		cli_jadd(c, doc, "device", json_object_new_string(c->device));
		cli_jadd(c, doc, "dry_run", json_object_new_boolean(true));
		cli_jadd(c, doc, "changed", json_object_new_boolean(false));
		for (int i = 0; i < c->cmd_argc; i++)
			cli_jpush(c, cmd, json_object_new_string(c->cmd_argv[i]));
		cli_jadd(c, doc, "command", cmd);
		cli_jadd(c, doc, "rounds", json_object_new_int(c->try_rounds));
		for (int i = 0; i < t->n_cond; i++)
			cli_jpush(c, names, json_object_new_string(t->cond[i].name));
		cli_jadd(c, doc, "conditions", names);
		for (int r = 0; r < c->try_rounds; r++) {
			struct json_object *round = json_object_new_array();

			for (int i = 0; i < t->n_cond; i++)
				cli_jpush(c, round, json_object_new_string(
						t->cond[try_order(t, r, i)].name));
			cli_jpush(c, sched, round);
		}
		cli_jadd(c, doc, "schedule", sched);
		try_warnings_json(t, doc);
		cli_print_json(c, doc);
		json_object_put(doc);
		return;
	}
	printf("try %s: %d conditions, %d rounds, %d runs of '%s' (settle %g s, timeout %g s)\n",
	       c->device, t->n_cond, c->try_rounds, t->n_cond * c->try_rounds, c->cmd_argv[0],
	       c->try_settle, c->try_timeout);
	for (int r = 0; r < c->try_rounds; r++) {
		printf("round %d:", r + 1);
		for (int i = 0; i < t->n_cond; i++)
			printf("%s %s", i ? "," : "", t->cond[try_order(t, r, i)].name);
		printf("\n");
	}
	printf("nothing was changed (dry run)\n");
}

/* Where the workload's output goes: DIR/ROUND-CONDITION.log, or an
 * unnamed temporary file read back for the metric. */
static int output_file(struct try_ctx *t, int round, const char *name)
{
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (t->log_dirfd >= 0) {
		snprintf(path, sizeof(path), "%02d-%s.log", round, name);
		return try_log_file_open(t->log_dirfd, path);
	}
	snprintf(path, sizeof(path), "%s/netpolicy-try.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* Run the workload once, its output to fd; how it ended into run (exit
 * status or signal, timed out).  Returns 0 when it exited 0, 1 when it
 * failed, -errno when it could not be started.  It runs in a process group
 * of its own: a signal to netpolicy is passed on to all of it, as is the
 * timeout, and what is left of it when its first process ends is killed
 * (while that one, unreaped, keeps the group's id from being given to
 * another). */
static int run_command(struct try_ctx *t, int fd, struct try_run *run)
{
	struct cli *c = t->c;
	double start = now_s(), asked = 0;
	int status, sent = 0;
	siginfo_t info;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		setpgid(0, 0);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		cli_restore_signals();
		execvp(c->cmd_argv[0], c->cmd_argv);
		dprintf(STDERR_FILENO, "netpolicy: try: %s: %s\n", c->cmd_argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	setpgid(pid, pid);	/* both sides: whichever runs first */
	for (;;) {
		int w;

		info.si_pid = 0;
		w = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
		if (w == 0 && info.si_pid == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (!sent && cli_signal_received()) {
			kill(-pid, cli_signal_received());
			sent = cli_signal_received();
			asked = now_s();
		} else if (!sent && c->try_timeout > 0 && now_s() - start > c->try_timeout) {
			kill(-pid, SIGTERM);
			sent = -1;
			asked = now_s();
		} else if (sent && now_s() - asked > TRY_GRACE_S) {
			kill(-pid, SIGKILL);
		}
		pause_s(0.01);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	run->timed_out = sent == -1;
	run->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	run->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	run->status = run->timed_out ? -1 : run->signal ? 128 + run->signal : run->exit_code;
	return run->status != 0;
}

static void progress(struct try_ctx *t, int round, int pos, double started, int done)
{
	struct cli *c = t->c;
	int total = t->n_cond * c->try_rounds;
	double left = done ? (now_s() - started) / done * (total - done) : 0;

	if (c->quiet)
		return;
	fprintf(stderr, "netpolicy: %s: try: round %d/%d, %s (%d/%d)", c->device, round + 1,
		c->try_rounds, t->cond[try_order(t, round, pos)].name, done + 1, total);
	if (done)
		fprintf(stderr, ", about %.0f s left", left);
	fprintf(stderr, "\n");
}

/* A run's figures from its sample; v[0], the one compared, is the wall
 * time until a --metric replaces it. */
static void record_sample(struct try_run *run, int round, int pos, const struct np_try_sample *s)
{
	run->round = round + 1;
	run->position = pos + 1;
	for (int m = 0; m < NP_TRY_MEASURE__COUNT; m++)
		run->v[1 + m] = np_try_sample_get(s, (enum np_try_measure)m);
	run->v[0] = run->v[1 + NP_TRY_WALL];
}

/* "exit status 3", "killed by signal 9 (Killed)", "--timeout 5 s, then
 * killed by signal 15 (Terminated)" */
static void describe_end(const struct try_ctx *t, const struct try_run *run, char *buf,
			 size_t size)
{
	if (run->timed_out)
		snprintf(buf, size, "--timeout %g s, then %s %d%s%s%s", t->c->try_timeout,
			 run->signal ? "killed by signal" : "exit status",
			 run->signal ? run->signal : run->exit_code, run->signal ? " (" : "",
			 run->signal ? strsignal(run->signal) : "", run->signal ? ")" : "");
	else if (run->signal)
		snprintf(buf, size, "killed by signal %d (%s)", run->signal,
			 strsignal(run->signal));
	else
		snprintf(buf, size, "exit status %d", run->exit_code);
}

/* The failed run's output's last lines, on stderr. */
static void print_tail(const struct try_ctx *t)
{
	const struct cli *c = t->c;
	const char *p = t->tail;

	if (!*p) {
		fprintf(stderr, "netpolicy: %s: try: it printed nothing\n", c->device);
		return;
	}
	fprintf(stderr, "netpolicy: %s: try: the last lines of its output%s%s%s:\n", c->device,
		c->try_log ? " (all of it in " : "", c->try_log ? c->try_log : "",
		c->try_log ? ")" : "");
	while (*p) {
		size_t l = strcspn(p, "\n");

		fprintf(stderr, "  | %.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
}

/* A run that failed: kept (not counted) for the report, said with its
 * status and the last lines of its output. */
static void failed_run(struct try_ctx *t, struct try_cond *cd, int fd)
{
	struct cli *c = t->c;
	const struct try_run *run = &cd->runs[cd->n_runs];
	char how[96];

	t->failed = (int)(cd - t->cond);
	try_output_tail(fd, t->tail, sizeof(t->tail));
	describe_end(t, run, how, sizeof(how));
	fprintf(stderr, "netpolicy: %s: try: the command %s under %s (round %d): %s\n",
		c->device, run->timed_out ? "timed out" : run->signal ? "was killed" : "failed",
		cd->name, run->round, how);
	print_tail(t);
}

/* A run whose output gave no metric: why, and its last lines. */
static void metric_failed(struct try_ctx *t, struct try_cond *cd, int fd, int r)
{
	struct cli *c = t->c;

	if (c->try_metric_json)
		fprintf(stderr, "netpolicy: %s: try: --metric-json %s: %s in the command's output "
			"under %s (round %d)\n", c->device, c->try_metric_json,
			r == 0 ? "no value there" : r == -EDOM ? "not a finite number there" :
			r == -EBADMSG ? "no JSON document" : r == -EFBIG ? "more than 16 MiB" :
			strerror(-r), cd->name, cd->runs[cd->n_runs].round);
	else
		fprintf(stderr, "netpolicy: %s: try: the --metric pattern %s in the command's "
			"output under %s (round %d)\n", c->device, r == 0 ? "matched nothing" :
			r == -EDOM ? "captured a value that is not a finite number" : r == -ETIME ?
			"took too long to match (a back reference on a long line?)" :
			strerror(-r), cd->name, cd->runs[cd->n_runs].round);
	t->failed = (int)(cd - t->cond);
	try_output_tail(fd, t->tail, sizeof(t->tail));
	print_tail(t);
}

/* One run: the condition, the settling time, the workload and its sample.
 * Returns 0, or the exit code that ends the try. */
static int one_run(struct try_ctx *t, struct np_try *tr, const regex_t *re, int round, int pos)
{
	struct cli *c = t->c;
	struct try_cond *cd = &t->cond[try_order(t, round, pos)];
	struct try_run *run = &cd->runs[cd->n_runs];
	struct np_try_sample *s = NULL;
	CLI_RESULT(res);
	CLI_ERROR(err);
	int fd, st, r;

	if (!res)
		return cli_out_of_memory();
	r = np_try_mark(tr, cd->name, (unsigned)round + 1, err);
	if (r >= 0)
		r = np_try_apply(tr, cd->policy, NULL, res, err);
	if (r < 0) {
		cli_fail(c, err);
		/* stopped by a signal before its first write too: as set, 3 */
		return cli_signal_received() ? NP_EXIT_ROLLED_BACK : cli_exit_of_apply(r, res, err);
	}
	pause_s(c->try_settle);
	if (cli_signal_received())
		return NP_EXIT_ROLLED_BACK;
	fd = output_file(t, round + 1, cd->name);
	if (fd < 0) {
		fprintf(stderr, "netpolicy: %s: try: the workload's output file: %s\n", c->device,
			strerror(errno));
		return NP_EXIT_ERROR;
	}
	if (np_try_sample_start(tr, &s, err) < 0) {
		close(fd);
		return cli_fail(c, err);
	}
	memset(run, 0, sizeof(*run));
	st = run_command(t, fd, run);
	r = np_try_sample_stop(tr, s, err);
	if (cli_signal_received()) {
		np_try_sample_free(s);
		close(fd);
		return NP_EXIT_ROLLED_BACK;
	}
	record_sample(run, round, pos, s);
	np_try_sample_free(s);
	if (r < 0) {
		close(fd);
		cli_fail(c, err);
		/* renamed or gone: the end of the run restores it (exit 3) or
		 * says it could not (4) */
		return np_error_code(err) == -ENODEV ? NP_EXIT_ROLLED_BACK : NP_EXIT_ERROR;
	}
	if (st < 0) {
		fprintf(stderr, "netpolicy: %s: try: the command could not be started under %s "
			"(round %d): %s\n", c->device, cd->name, round + 1, strerror(-st));
		close(fd);
		return NP_EXIT_ERROR;
	}
	if (st) {
		failed_run(t, cd, fd);
		close(fd);
		return cli_exit_of_workload(run->status);
	}
	r = re ? try_metric(re, fd, &run->v[0]) :
	    c->try_metric_json ? try_metric_json(c->try_metric_json, fd, &run->v[0]) : 1;
	if (r == -EINTR) {
		close(fd);
		return NP_EXIT_ROLLED_BACK;
	}
	if (r <= 0) {
		metric_failed(t, cd, fd, r);
		close(fd);
		return cli_exit_of_workload(-1);
	}
	close(fd);
	cd->n_runs++;
	if (cd == t->cond)
		try_check_baseline(t);
	return 0;
}

/* The schedule, of a device that exists (as set --dry-run: exit 1 when not). */
static int dry_run(struct try_ctx *t)
{
	struct np_state *st = NULL;
	CLI_ERROR(err);

	if (np_discover(t->c->ctx, t->c->device, &st, err) < 0)
		return cli_fail(t->c, err);
	np_state_free(st);
	t->alpha = try_alpha(t);
	try_check_rounds(t);
	print_schedule(t);
	return 0;
}

static int run_all(struct try_ctx *t, const regex_t *re)
{
	struct cli *c = t->c;
	struct np_try *tr = NULL;
	const struct np_policy *keep = NULL;
	CLI_RESULT(res);
	CLI_ERROR(err);
	double started = now_s();
	int rc = NP_EXIT_OK, done = 0, r;

	if (!res)
		return cli_out_of_memory();
	t->alpha = try_alpha(t);
	try_check_rounds(t);
	if (np_try_begin(c->ctx, c->device, &tr, err) < 0)
		return cli_fail(c, err);
	for (int round = 0; round < c->try_rounds && !rc; round++)
		for (int pos = 0; pos < t->n_cond && !rc; pos++) {
			progress(t, round, pos, started, done++);
			rc = one_run(t, tr, re, round, pos);
		}
	t->completed = !rc;
	t->stop_signal = cli_signal_received();
	try_analyse(t);
	if (t->completed && t->winner > 0 && c->try_keep && !strcmp(c->try_keep, "best"))
		keep = t->cond[t->winner].policy;
	np_error_clear(err);
	r = np_try_end(tr, keep, NULL, c->strict ? NP_APPLY_STRICT : 0, NULL, res, err);
	/* returned to the baseline and verified (what is kept needs every run) */
	t->restored = r >= 0;
	if (r < 0) {
		/* the measurements stand though the winner cannot be kept:
		 * the report first, then why nothing was kept */
		if (keep || t->stop_signal || rc == NP_EXIT_COMMAND) {
			try_report(t);
			fflush(stdout);
		}
		cli_fail(c, err);
		rc = cli_exit_of_apply(r, res, err);
		np_try_free(tr);
		return rc;
	}
	if (keep) {
		t->kept = true;
		c->changed = np_apply_result_changed(res);
	}
	np_try_free(tr);
	/* a signal: the runs so far, and the device back where it was */
	if (rc == NP_EXIT_OK || rc == NP_EXIT_COMMAND || t->stop_signal) {
		try_report(t);
		c->signal_said = t->stop_signal && !c->json;
	}
	return rc;
}

int cmd_try(struct cli *c)
{
	struct try_ctx *t;
	regex_t re;
	int rc;

	if (c->cmd_argc < 1)
		return cli_usage_error("try: which command? ('netpolicy DEVICE try [POLICY...] -- "
				       "COMMAND [ARG...]')");
	if (c->try_keep && strcmp(c->try_keep, "best") && strcmp(c->try_keep, "none"))
		return cli_usage_error("--keep: '%s' is neither 'best' nor 'none'", c->try_keep);
	/* before the pattern is compiled: no usage error leaves it allocated */
	if (c->try_metric_json && c->try_metric)
		return cli_usage_error("--metric and --metric-json: one measure, not both");
	if (c->try_metric) {
		if (regcomp(&re, c->try_metric, REG_EXTENDED))
			return cli_usage_error("--metric: '%s' is not an extended regular expression",
					       c->try_metric);
		if (re.re_nsub < 1) {
			regfree(&re);
			return cli_usage_error("--metric: '%s' has no group '(...)' to capture the "
					       "value", c->try_metric);
		}
	}
	if (c->try_metric_json && !try_json_path_valid(c->try_metric_json))
		return cli_usage_error("--metric-json: '%s' is not a path of members "
				       "(end.sum_received.bits_per_second)", c->try_metric_json);
	t = calloc(1, sizeof(*t));
	if (!t) {
		if (c->try_metric)
			regfree(&re);
		return cli_out_of_memory();
	}
	t->c = c;
	t->winner = -1;
	t->failed = -1;
	/* without a metric the measure is wall time, where less is better */
	t->lower_better = c->try_lower || (!c->try_metric && !c->try_metric_json);
	t->log_dirfd = -1;
	rc = conditions(t);
	/* a dry run creates nothing */
	if (rc == 0 && c->try_log && !c->dry_run && (t->log_dirfd = try_log_dir_open(c->try_log)) < 0)
		rc = NP_EXIT_ERROR;
	if (rc == 0 && c->dry_run)
		rc = dry_run(t);
	else if (rc == 0)
		rc = run_all(t, c->try_metric ? &re : NULL);
	if (c->try_metric)
		regfree(&re);
	if (t->log_dirfd >= 0)
		close(t->log_dirfd);
	free(t);
	return rc;
}
