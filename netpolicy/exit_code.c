/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Exit codes are an API (netpolicy(8) EXIT STATUS): decided here, from the
 * library's result and error only, and nowhere else.  Pure: no output, so
 * tests/unit/test_exit_code.c checks them against the manual's table.
 */
#include <errno.h>

#include "cli.h"

int cli_exit_of_error(const struct np_error *err)
{
	/* running out of memory is no usage error, whatever was being read */
	if (!err || np_error_code(err) == -ENOMEM)
		return NP_EXIT_ERROR;
	switch (np_error_phase(err)) {
	case NP_PHASE_INPUT:
		return NP_EXIT_USAGE;
	case NP_PHASE_LOCK:
		return NP_EXIT_BUSY;
	case NP_PHASE_STATE:
		return NP_EXIT_STATE;
	default:
		return NP_EXIT_ERROR;
	}
}

int cli_exit_of_apply(int r, const struct np_apply_result *res, const struct np_error *err)
{
	/* changed and kept so: never a code that says nothing was changed */
	if (r < 0 && np_apply_result_unrecorded(res))
		return NP_EXIT_UNRECORDED;
	if (r >= 0)
		return NP_EXIT_OK;
	if (np_apply_result_vanished(res) || np_apply_result_rollback_incomplete(res))
		return NP_EXIT_ROLLBACK_FAILED;
	if (np_apply_result_rolled_back(res))
		return NP_EXIT_ROLLED_BACK;
	return cli_exit_of_error(err);
}

int cli_exit_of_confirm(int r, const struct np_apply_result *res, const struct np_error *err)
{
	int rc;

	if (r >= 0)
		return NP_EXIT_OK;
	if (np_apply_result_rollback_incomplete(res))
		return NP_EXIT_ROLLBACK_FAILED;
	/* too late: reverted, by this confirm or by the watchdog before it */
	if (np_error_code(err) == -ETIME || np_apply_result_rolled_back(res))
		return NP_EXIT_ROLLED_BACK;
	rc = cli_exit_of_error(err);
	/* nothing pending is not a mistake in the command line: nothing was
	 * changed */
	return rc == NP_EXIT_USAGE ? NP_EXIT_ERROR : rc;
}

int cli_exit_of_workload(int status)
{
	/* a non-zero exit, a signal, the timeout, no metric: the device is
	 * back at its baseline either way */
	return status == 0 ? NP_EXIT_OK : NP_EXIT_COMMAND;
}

void cli_tally_add(struct cli_run_tally *t, int rc, bool changed)
{
	if (rc == NP_EXIT_ERROR || rc == NP_EXIT_USAGE || rc == NP_EXIT_ROLLED_BACK ||
	    rc == NP_EXIT_BUSY || rc == NP_EXIT_STATE)
		t->failed = true;
	if (rc == NP_EXIT_ROLLBACK_FAILED)
		t->incomplete = true;
	if (changed)
		t->changed = true;
	if (rc > t->rc)
		t->rc = rc;
}

int cli_exit_of_run(const struct cli_run_tally *t)
{
	/* Exit 1 says nothing was changed, 3 that the device is as it was: not
	 * true of a run that changed other devices.  Exit 4 (a rollback left a
	 * device half-changed) outranks it, and 9 ("nothing changed" there)
	 * gives way to it. */
	if (t->incomplete && t->rc == NP_EXIT_STATE)
		return NP_EXIT_ROLLBACK_FAILED;
	if (t->failed && t->changed && t->rc != NP_EXIT_ROLLBACK_FAILED)
		return NP_EXIT_PARTIAL;
	return t->rc;
}
