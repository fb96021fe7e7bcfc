/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * set --confirm SECONDS: apply, then undo unless `netpolicy DEVICE confirm`
 * comes in time.  The undo must not depend on the invoking process: an
 * admin's SSH session may die with the link this very change broke.  So a
 * watchdog is a fresh netpolicy process in its own session, detached from
 * the terminal, that sleeps and then asks the library to revert.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* The watchdog says on this descriptor that it holds its copy of the way
 * back (np_revert_hold), before the apply writes anything. */
#define WATCHDOG_READY_FD 3
#define WATCHDOG_READY_ENV "NETPOLICY_WATCHDOG_READY_FD"

int cli_spawn_watchdog(struct cli *c, unsigned long long token, long long deadline)
{
	char tok[24], secs[24], ready;
	const char *argv[16];
	int n = 0, status, p[2];
	pid_t pid;
	ssize_t got;

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

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int r = -errno;

		close(p[0]);
		close(p[1]);
		return r;
	}
	if (pid == 0) {
		sigset_t none;
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
		/* dup2 clears close-on-exec; the same number keeps it */
		if (p[1] == WATCHDOG_READY_FD ? fcntl(p[1], F_SETFD, 0) < 0 :
		    dup2(p[1], WATCHDOG_READY_FD) < 0)
			_exit(126);
		setenv(WATCHDOG_READY_ENV, "3", 1);
		/* no mask of the caller's: confirm, reset and set stop it
		 * with SIGTERM (cli_watchdog_end) */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		close(p[0]);
		return -ECHILD;
	}
	/* a watchdog that could not take its copy exits: EOF, nothing written */
	do
		got = read(p[0], &ready, 1);
	while (got < 0 && errno == EINTR);
	close(p[0]);
	return got == 1 ? 0 : -EIO;
}

/* Where the watchdog's words go: it has no terminal (syslog's daemon
 * facility, netpolicy[PID]). */
static void log_to_syslog(void *userdata, enum np_log_level level, const char *msg)
{
	(void)userdata;
	if (level <= NP_LOG_NOTICE)
		syslog(level <= NP_LOG_WARNING ? LOG_WARNING : LOG_NOTICE, "%s", msg);
}

unsigned long long cli_pending_token(struct cli *c)
{
	struct np_pending p = { .sz = sizeof(p) };
	CLI_ERROR(err);

	np_error_clear(err);
	if (!c->device || np_pending_state(c->ctx, c->device, &p, err) < 0 || !p.tentative)
		return 0;
	return p.token;
}

void cli_watchdog_end(unsigned long long token)
{
	char tok[24], path[64], args[512];
	struct dirent *d;
	DIR *proc;

	if (!token)
		return;
	snprintf(tok, sizeof(tok), "%llu", token);
	proc = opendir("/proc");
	if (!proc)
		return;
	/* its command line: ... DEVICE __revert TOKEN DEADLINE (the token is
	 * random, 53 bits: no other process has it) */
	while ((d = readdir(proc))) {
		ssize_t n;
		char *e;
		long pid = strtol(d->d_name, &e, 10);
		int fd;

		if (*e || pid <= 1 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, args, sizeof(args) - 1);
		close(fd);
		if (n <= 0)
			continue;
		args[n] = '\0';
		for (char *a = args; a < args + n; a += strlen(a) + 1)
			if (!strcmp(a, "__revert") && a + strlen(a) + 1 < args + n &&
			    !strcmp(a + strlen(a) + 1, tok)) {
				kill((pid_t)pid, SIGTERM);
				break;
			}
	}
	closedir(proc);
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
	struct np_revert_hold *hold = NULL;
	unsigned long long token;
	const char *ready_fd;
	long long deadline;
	char *end;
	int r;

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
	openlog("netpolicy", LOG_PID, LOG_DAEMON);
	np_ctx_set_log(c->ctx, log_to_syslog, c);
	np_error_clear(err);
	/* the way back in memory first: then the apply may write */
	if (np_revert_hold(c->ctx, c->device, token, &hold, err) < 0) {
		char buf[600];

		syslog(LOG_ERR, "%s: --confirm watchdog not started: %s", c->device,
		       np_error_format(err, buf, sizeof(buf)));
		return NP_EXIT_ERROR;
	}
	ready_fd = getenv(WATCHDOG_READY_ENV);
	if (ready_fd && !strcmp(ready_fd, "3")) {
		unsetenv(WATCHDOG_READY_ENV);
		if (write(WATCHDOG_READY_FD, "1", 1) != 1) {
			np_revert_hold_free(hold);
			return NP_EXIT_ERROR;
		}
		close(WATCHDOG_READY_FD);
	}
	np_error_clear(err);
	r = np_tentative_wait(c->ctx, c->device, token, deadline, err);
	/* confirmed, reset or superseded: done.  Gone with the whole state
	 * directory (another lock file, or none): still unconfirmed, so wait
	 * out the deadline and revert from the copy. */
	if (r == 0 && !np_revert_hold_orphaned(c->ctx, c->device, hold)) {
		np_revert_hold_free(hold);
		return NP_EXIT_OK;
	}
	/* no way to watch (no inotify), or orphaned: sleep out the deadline */
	ts.tv_sec = (time_t)deadline;
	while (r != 1 && clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	np_error_clear(err);
	r = np_revert_held(c->ctx, c->device, hold, res, err);
	np_revert_hold_free(hold);
	if (r < 0) {
		char buf[600];

		syslog(LOG_ERR, "%s: --confirm revert failed: %s", c->device,
		       np_error_format(err, buf, sizeof(buf)));
		return np_apply_result_rollback_incomplete(res) ? NP_EXIT_ROLLBACK_FAILED :
								   NP_EXIT_ERROR;
	}
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
	if (r < 0) {
		/* never "confirmed" for a change that is not there any more */
		cli_fail(c, err);
		return cli_exit_of_confirm(r, res, err);
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
