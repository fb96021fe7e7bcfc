/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Signals while a command changes devices (netpolicy(8), EXIT STATUS): the
 * first SIGINT, SIGTERM or SIGHUP asks the library to stop after the step
 * in hand and roll back; the commands ask cli_signal_received() to exit
 * with the signal's status after that.  Its own file so that the commands
 * need not import main.c, which imports them.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t got_signal;

/* Every signal netpolicy ignores or handles, and what it found each one set
 * to when it started: `exec` gives them back (cli_restore_signals). */
static const int own_sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGHUP };
#define N_OWN (sizeof(own_sigs) / sizeof(own_sigs[0]))
static struct sigaction inherited[N_OWN];
static bool saved;

void cli_save_signals(void)
{
	for (size_t i = 0; i < N_OWN; i++)
		if (sigaction(own_sigs[i], NULL, &inherited[i]) < 0)
			inherited[i] = (struct sigaction){ .sa_handler = SIG_DFL };
	saved = true;
}

/* An ignored disposition survives execve (a handler does not, but one that
 * was SIG_IGN before ours must come back): a command started with SIGPIPE
 * ignored prints "Broken pipe" where `yes | head -1` is silent.  Each
 * signal goes back to what netpolicy was started with (SIG_DFL, or SIG_IGN
 * under nohup(1)), and the mask is emptied. */
void cli_restore_signals(void)
{
	sigset_t none;

	for (size_t i = 0; i < N_OWN; i++) {
		struct sigaction sa = { .sa_handler = SIG_DFL };

		if (saved && inherited[i].sa_handler == SIG_IGN)
			sa.sa_handler = SIG_IGN;
		sigemptyset(&sa.sa_mask);
		sigaction(own_sigs[i], &sa, NULL);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* stdout is a pipe or socket nobody reads any more: the write failed with
 * EPIPE, or (the error flag set by an earlier flush, errno gone) the
 * descriptor polls as hung up. */
bool cli_stdout_broken(int out_err)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
	struct stat sb;

	if (out_err == EPIPE)
		return true;
	if (fstat(STDOUT_FILENO, &sb) < 0 || !(S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
		return false;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/* A command that only printed, whose reader went away (netpolicy show |
 * head -1): end as ip(8) and ethtool(8) do, killed by SIGPIPE without a
 * word, unless netpolicy was started with SIGPIPE ignored (then a quiet
 * return, the caller's status). */
void cli_end_by_sigpipe(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t pipe_only;

	if (saved && inherited[0].sa_handler == SIG_IGN)
		return;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	sigprocmask(SIG_UNBLOCK, &pipe_only, NULL);
	raise(SIGPIPE);
}

static void on_signal(int sig)
{
	/* The first one counts; later ones must not cut the rollback short. */
	if (!got_signal)
		got_signal = sig;
}

int cli_signal_received(void)
{
	return got_signal;
}

static bool cancel_requested(void *userdata)
{
	(void)userdata;
	return got_signal != 0;
}

/* SIGINT (Ctrl-C), SIGTERM (systemd, kill) and SIGHUP (a terminal closed
 * under an Ansible run) while changing a device: finish the step in hand,
 * roll the run back, then exit.  SA_RESTART: the rollback's own system
 * calls must not fail with EINTR at a second signal. */
void cli_catch_signals(struct np_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	np_ctx_set_cancel(ctx, cancel_requested, NULL);
}
