/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Signals while a command changes devices (netpolicy(8), EXIT STATUS): the
 * first SIGINT, SIGTERM or SIGHUP asks the library to stop after the step
 * in hand and roll back; the commands ask cli_signal_received() to exit
 * with the signal's status after that.  Its own file so that the commands
 * need not import main.c, which imports them.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

static volatile sig_atomic_t got_signal;

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
