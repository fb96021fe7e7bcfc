/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as a file of the state directory.  Each
 * input is every kind of file of one device (journal, pristine snapshot,
 * policy record, tentative marker, sysctl record) read through the store's
 * loaders, as the next command would after a crash or a planted file.  The
 * store reads it from memory (np_store_open_text): np_store_read's checks
 * and every loader after it are a file's, without five files per run.  A
 * loader must refuse what is not its document with an error, never crash;
 * a state it accepts must serialize again.
 *
 * A whole-document loader whose format the text cannot name ends at its
 * format check (np_json_check_format), after the same np_store_read and
 * np_json_parse_strict every other one runs: such a run fuzzes nothing the
 * others do not.  JSON spells "netpolicy-pristine" only as those bytes or
 * with a backslash escape, so a loader gets the text when it contains its
 * format's name or a backslash, and the pristine loader stands for them all
 * when it names none.  The journal loader gets every text: it reads the
 * first line on its own before its format check.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_alloc.h"
#include "apply/np_journal.h"
#include "model/np_serialize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct np_ctx *ctx;
static void check_state(struct np_state *st)
{
	struct json_object *o = NULL;

	/* what was read back is written again (a journal embeds it) */
	if (np_state_to_json(st, &o) < 0)
		abort();
	json_object_put(o);
	np_state_free(st);
}

/* Can a JSON text with these bytes hold the string name? */
static bool may_name(const uint8_t *data, size_t size, const char *name)
{
	return memchr(data, '\\', size) || memmem(data, size, name, strlen(name));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct np_journal_info info;
	struct np_policy_record rec;
	struct np_sysctl_record sys;
	struct np_tentative t;
	struct np_state *st;
	struct np_ident id;
	struct np_error err;
	struct np_store s;
	bool policy, tentative, sysctl;

	if (!ctx) {
		np_fuzz_alloc_setup();
		/* only named in messages: nothing is read from or written there */
		if (np_ctx_new(&ctx, NULL) < 0 || np_ctx_set_state_dir(ctx, "/nonexistent/np-fuzz", NULL) < 0)
			abort();
	}
	np_error_clear(&err);
	if (np_store_open_text(ctx, "fz0", (const char *)data, size, &s, &err) < 0)
		abort();
	if (np_journal_load(&s, &info, &err) == 0) {
		check_state(info.before);
		info.before = NULL;
		np_journal_info_release(&info);
	} else if (!err.code) {
		abort();	/* an error without its words */
	}
	policy = may_name(data, size, "netpolicy-policy");
	tentative = may_name(data, size, "netpolicy-tentative");
	sysctl = may_name(data, size, "netpolicy-sysctl");
	np_error_clear(&err);
	if (may_name(data, size, "netpolicy-pristine") || (!policy && !tentative && !sysctl)) {
		if (np_store_pristine_load(&s, &st, &id, &err) == 0)
			check_state(st);
		else if (!err.code)
			abort();
	}
	np_error_clear(&err);
	if (policy && np_store_policy_load(&s, &rec, &err) == 0 &&
	    (!rec.policy[0] || !memchr(rec.cpus, '\0', sizeof(rec.cpus))))
		abort();
	np_error_clear(&err);
	if (tentative && np_store_tentative_load(&s, &t, &err) == 0) {
		check_state(t.before);
		t.before = NULL;
	}
	np_error_clear(&err);
	if (sysctl)
		np_store_sysctl_load(&s, &sys, &err);
	np_store_close(&s, false);
	return 0;
}
