/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * set --confirm SECONDS: apply, then undo unless `netpolicy DEVICE confirm`
 * comes in time.  The undo must not depend on the invoking process: an
 * admin's SSH session may die with the link this very change broke.  So a
 * watchdog is a fresh netpolicy process in its own session, detached from
 * the terminal, that sleeps and then asks the library to revert.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int cli_spawn_watchdog(struct cli *c, unsigned long long token, long long deadline)
{
	char tok[24], secs[24];
	const char *argv[16];
	int n = 0, status;
	pid_t pid;

	snprintf(tok, sizeof(tok), "%llu", token);
	snprintf(secs, sizeof(secs), "%lld", deadline);
	argv[n++] = "netpolicy";
	argv[n++] = "--state-dir";
	argv[n++] = c->state_dir;
	if (c->model) {
		argv[n++] = "--model";
		argv[n++] = c->model;
	}
	/* "--": a device may be named "-v" or "--state-dir=x" */
	argv[n++] = "--";
	argv[n++] = c->device;
	argv[n++] = "__revert";
	argv[n++] = tok;
	argv[n++] = secs;
	argv[n] = NULL;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd;

		/* Double fork: the watchdog is re-parented to init and leads
		 * no session a hangup could reach. */
		if (setsid() < 0)
			_exit(1);
		signal(SIGHUP, SIG_IGN);
		pid = fork();
		if (pid != 0)
			_exit(pid < 0 ? 1 : 0);
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -ECHILD;
	return 0;
}

/* The watchdog: netpolicy -- DEVICE __revert TOKEN DEADLINE.  It waits
 * until the deadline (CLOCK_REALTIME, as recorded with the change), then
 * reverts; it ends at once, reverting nothing, when the change is confirmed,
 * reset or superseded before (np_tentative_wait), so no stale watchdog
 * outlives its change. */
int cmd_revert(struct cli *c)
{
	CLI_RESULT(res);
	CLI_ERROR(err);
	struct timespec ts = { 0 };
	unsigned long long token;
	int r;
	long long deadline;
	char *end;

	if (c->argc != 2)
		return NP_EXIT_USAGE;
	if (!res)
		return cli_out_of_memory();
	errno = 0;
	token = strtoull(c->argv[0], &end, 10);
	if (*end || errno)
		return NP_EXIT_USAGE;
	deadline = strtoll(c->argv[1], &end, 10);
	if (*end || errno || deadline < 0)
		return NP_EXIT_USAGE;
	np_error_clear(err);
	r = np_tentative_wait(c->ctx, c->device, token, deadline, err);
	if (r == 0)
		return NP_EXIT_OK;	/* confirmed, reset or superseded */
	/* no way to watch (no inotify): sleep out the deadline as before */
	ts.tv_sec = (time_t)deadline;
	while (r < 0 && clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	np_error_clear(err);
	if (np_revert_tentative(c->ctx, c->device, token, res, err) < 0)
		return np_apply_result_rollback_incomplete(res) ? NP_EXIT_ROLLBACK_FAILED :
								   NP_EXIT_ERROR;
	return NP_EXIT_OK;
}

int cmd_confirm(struct cli *c)
{
	CLI_RESULT(res);
	CLI_ERROR(err);
	int r;

	if (c->argc > 0)
		return cli_usage_error("confirm: unexpected argument '%s'", c->argv[0]);
	if (!res)
		return cli_out_of_memory();
	np_error_clear(err);
	r = np_confirm(c->ctx, c->device, res, err);
	if (r == -ETIME || (r < 0 && (np_apply_result_rolled_back(res) ||
				      np_apply_result_rollback_incomplete(res)))) {
		char buf[600];

		/* never "confirmed" for a change that is not there any more */
		fprintf(stderr, "netpolicy: %s: %s\n", c->device, np_error_format(err, buf, sizeof(buf)));
		return np_apply_result_rollback_incomplete(res) ? NP_EXIT_ROLLBACK_FAILED :
								   NP_EXIT_ROLLED_BACK;
	}
	if (r < 0) {
		int rc = cli_fail(c, err);

		/* nothing pending is not a mistake in the command line: exit 1,
		 * nothing was changed (netpolicy(8)) */
		return rc == NP_EXIT_USAGE ? NP_EXIT_ERROR : rc;
	}
	if (c->json) {
		struct json_object *o = json_object_new_object();

		cli_jadd(c, o, "ifname", json_object_new_string(c->device));
		cli_jadd(c, o, "confirmed", json_object_new_boolean(1));
		cli_jadd(c, o, "changed", json_object_new_boolean(0));
		cli_print_json(c, o);
		json_object_put(o);
	} else if (!c->quiet) {
		printf("%s: confirmed\n", c->device);
	}
	return NP_EXIT_OK;
}
