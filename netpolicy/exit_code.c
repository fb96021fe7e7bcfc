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
