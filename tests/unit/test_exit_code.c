/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CLI's exit codes (netpolicy/exit_code.c) against the manual: each
 * outcome of an apply, reset, recovery or confirm gets the code
 * netpolicy(8) EXIT STATUS gives it, every code the classifiers return is
 * in that table, and every code in the table is either one of theirs or
 * one decided by a command of its own (5 by check, 10 by try).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_private.h"
#include "../../netpolicy/cli.h"
#include "tap.h"

static bool returned[256], documented[256];

static struct np_error *error_of(struct np_error *e, int code, enum np_phase phase)
{
	np_error_clear(e);
	np_err(e, code, phase, NULL, "test");
	return e;
}

#define expect(got, want, ...) do {			\
	int g = (got);					\
	returned[g & 255] = true;			\
	is_int(g, want, __VA_ARGS__);			\
} while (0)

static void read_manual(void)
{
	const char *src = getenv("NP_SRCDIR");
	char path[4096], line[512];
	bool in = false, tp = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/man/netpolicy.8", src ? src : ".");
	f = fopen(path, "r");
	ok(f != NULL, "netpolicy(8) at %s", path);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned n;
		char end;

		if (!strncmp(line, ".SH", 3))
			in = !strncmp(line, ".SH EXIT STATUS", 15);
		else if (in && tp && sscanf(line, ".B %u%c", &n, &end) == 2 && end == '\n' && n < 256)
			documented[n] = true;
		tp = !strncmp(line, ".TP", 3);
	}
	if (f)
		fclose(f);
}

int main(void)
{
	struct np_apply_result *res = np_apply_result_new();
	struct np_error e;
	unsigned n_doc = 0;

	if (!res)
		return 1;
	read_manual();

	/* failed calls, by the error's phase */
	expect(cli_exit_of_error(error_of(&e, -EINVAL, NP_PHASE_INPUT)), 2, "bad input: 2");
	expect(cli_exit_of_error(error_of(&e, -ENOMEM, NP_PHASE_INPUT)), 1,
	       "out of memory while reading input: 1, no usage error");
	expect(cli_exit_of_error(error_of(&e, -EAGAIN, NP_PHASE_LOCK)), 7, "busy past --wait: 7");
	expect(cli_exit_of_error(error_of(&e, -EROFS, NP_PHASE_STATE)), 9,
	       "a journal in a directory that cannot be written: 9");
	expect(cli_exit_of_error(error_of(&e, -ENODEV, NP_PHASE_DISCOVER)), 1, "no such device: 1");
	expect(cli_exit_of_error(NULL), 1, "no error object (out of memory): 1");

	/* an apply, reset or recovery */
	expect(cli_exit_of_apply(0, res, NULL), 0, "done: 0");
	expect(cli_exit_of_apply(-EINVAL, res, error_of(&e, -EINVAL, NP_PHASE_PLAN)), 1,
	       "nothing changed: 1");
	res->rolled_back = true;
	expect(cli_exit_of_apply(-EINVAL, res, error_of(&e, -EINVAL, NP_PHASE_APPLY)), 3,
	       "rolled back: 3");
	res->rollback_incomplete = true;
	expect(cli_exit_of_apply(-EIO, res, error_of(&e, -EIO, NP_PHASE_APPLY)), 4,
	       "rollback incomplete: 4");
	res->rolled_back = res->rollback_incomplete = false;
	res->vanished = true;
	expect(cli_exit_of_apply(-ENODEV, res, error_of(&e, -ENODEV, NP_PHASE_APPLY)), 4,
	       "the device left mid-apply: 4");
	res->vanished = false;
	res->changed = res->unrecorded = true;
	expect(cli_exit_of_apply(-ENOSPC, res, error_of(&e, -ENOSPC, NP_PHASE_APPLY)), 6,
	       "changed, records not updated: 6");
	res->changed = res->unrecorded = false;
	expect(cli_exit_of_apply(-EAGAIN, res, error_of(&e, -EAGAIN, NP_PHASE_LOCK)), 7,
	       "an apply that waited too long: 7");

	/* confirm */
	expect(cli_exit_of_confirm(0, res, NULL), 0, "confirmed: 0");
	expect(cli_exit_of_confirm(-ENOENT, res, error_of(&e, -ENOENT, NP_PHASE_INPUT)), 1,
	       "nothing to confirm: 1, no usage error");
	expect(cli_exit_of_confirm(-ETIME, res, error_of(&e, -ETIME, NP_PHASE_APPLY)), 3,
	       "too late, reverted: 3");
	res->rolled_back = res->rollback_incomplete = true;
	expect(cli_exit_of_confirm(-EIO, res, error_of(&e, -EIO, NP_PHASE_ROLLBACK)), 4,
	       "too late, and the revert incomplete: 4");

	/* plan over several devices */
	{
		struct cli_run_tally t = { 0 };

		cli_tally_add(&t, NP_EXIT_OK, true);
		cli_tally_add(&t, NP_EXIT_OK, false);
		expect(cli_exit_of_run(&t), 0, "plan: every device done: 0");
		t = (struct cli_run_tally){ 0 };
		cli_tally_add(&t, NP_EXIT_ERROR, false);
		cli_tally_add(&t, NP_EXIT_OK, false);
		expect(cli_exit_of_run(&t), 1, "plan: one failed, none changed: 1");
		cli_tally_add(&t, NP_EXIT_OK, true);
		expect(cli_exit_of_run(&t), 8, "plan: one failed, another changed: 8");
		t = (struct cli_run_tally){ 0 };
		cli_tally_add(&t, NP_EXIT_ROLLED_BACK, false);
		cli_tally_add(&t, NP_EXIT_OK, true);
		expect(cli_exit_of_run(&t), 8, "plan: one rolled back, another changed: 8");
		t = (struct cli_run_tally){ 0 };
		cli_tally_add(&t, NP_EXIT_ROLLBACK_FAILED, false);
		cli_tally_add(&t, NP_EXIT_OK, true);
		expect(cli_exit_of_run(&t), 4, "plan: a rollback incomplete outranks partial: 4");
		t = (struct cli_run_tally){ 0 };
		cli_tally_add(&t, NP_EXIT_ROLLBACK_FAILED, false);
		cli_tally_add(&t, NP_EXIT_STATE, false);
		expect(cli_exit_of_run(&t), 4, "plan: 9 (nothing changed there) gives way to 4");
		t = (struct cli_run_tally){ 0 };
		cli_tally_add(&t, NP_EXIT_UNRECORDED, true);
		expect(cli_exit_of_run(&t), 6, "plan: changed but not recorded: 6");
	}

	/* try's workload */
	expect(cli_exit_of_workload(0), 0, "the workload ran: 0");
	expect(cli_exit_of_workload(1), 10, "the workload failed: 10");
	expect(cli_exit_of_workload(128 + 9), 10, "the workload was killed: 10");
	expect(cli_exit_of_workload(-1), 10, "the workload timed out: 10");

	for (unsigned i = 0; i < 256; i++) {
		n_doc += documented[i];
		if (returned[i])
			ok(documented[i], "exit %u is in netpolicy(8)", i);
		/* check (5) and try (10) decide theirs from what they
		 * found */
		else if (documented[i] && i != NP_EXIT_DRIFT && i != NP_EXIT_COMMAND)
			ok(false, "exit %u of netpolicy(8) is decided by no classifier", i);
	}
	ok(n_doc >= 10, "netpolicy(8) lists %u exit codes", n_doc);
	np_apply_result_free(res);
	return tap_done();
}
