/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: any bytes as a file of the state directory.  Each
 * input is written as every kind of file of one device (journal, pristine
 * snapshot, policy record, tentative marker, sysctl record) and read back
 * through the store's loaders, as the next command would after a crash or
 * a planted file.  A loader must refuse what is not its document with an
 * error, never crash; a state it accepts must serialize again.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "np_journal.h"
#include "np_serialize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct np_ctx *ctx;
static char dir[256];

static void put(const char *kind, const uint8_t *data, size_t size)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/fz0.%s", dir, kind);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

static void check_state(struct np_state *st)
{
	struct json_object *o = NULL;

	/* what was read back is written again (a journal embeds it) */
	if (np_state_to_json(st, &o) < 0)
		abort();
	json_object_put(o);
	np_state_free(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const kinds[] = { "journal", "pristine", "policy", "tentative", "sysctl" };
	struct np_journal_info info;
	struct np_policy_record rec;
	struct np_sysctl_record sys;
	struct np_tentative t;
	struct np_state *st;
	struct np_ident id;
	struct np_error err;
	struct np_store s;

	if (!ctx) {
		if ((size_t)snprintf(dir, sizeof(dir), "%s/np-fuzz-state.XXXXXX",
				     np_fuzz_tmpdir()) >= sizeof(dir) || !mkdtemp(dir) || np_ctx_new(&ctx, NULL) < 0 ||
		    np_ctx_set_state_dir(ctx, dir, NULL) < 0)
			abort();
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		put(kinds[i], data, size);
	np_error_clear(&err);
	if (np_store_open_readonly(ctx, "fz0", &s, &err) < 0)
		abort();
	if (np_journal_load(&s, &info, &err) == 0) {
		check_state(info.before);
		info.before = NULL;
		np_journal_info_release(&info);
	} else if (!err.code) {
		abort();	/* an error without its words */
	}
	np_error_clear(&err);
	if (np_store_pristine_load(&s, &st, &id, &err) == 0)
		check_state(st);
	else if (!err.code)
		abort();
	np_error_clear(&err);
	if (np_store_policy_load(&s, &rec, &err) == 0 &&
	    (!rec.policy[0] || !memchr(rec.cpus, '\0', sizeof(rec.cpus))))
		abort();
	np_error_clear(&err);
	if (np_store_tentative_load(&s, &t, &err) == 0) {
		check_state(t.before);
		t.before = NULL;
	}
	np_error_clear(&err);
	np_store_sysctl_load(&s, &sys, &err);
	np_store_close(&s, false);
	return 0;
}
