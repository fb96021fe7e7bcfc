/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers the unit tests share: fixture trees and readable masks. */
#ifndef NP_TEST_FIXTURE_H
#define NP_TEST_FIXTURE_H

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <json-c/json.h>
#include <netpolicy/netpolicy.h>

#include "util/np_cpumask.h"
#include "np_private.h"

/* A directory fd on tests/fixtures/sysfs/NAME (NP_SRCDIR comes from make check). */
static inline int open_fixture(const char *name)
{
	const char *src = getenv("NP_SRCDIR");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs/%s", src ? src : ".", name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		printf("Bail out! cannot open %s (is NP_SRCDIR set?)\n", path);
		exit(1);
	}
	return fd;
}

/* A mask as a cpulist, in one of four rotating buffers (several per printf). */
static inline const char *list(const struct np_cpumask *m)
{
	static char buf[4][1024];
	static int i;

	i = (i + 1) % 4;
	np_cpumask_format_list(m, buf[i], sizeof(buf[i]));
	return buf[i];
}

/* A context on a private copy of tests/fixtures/models/MODEL.json (the
 * simulator saves its changes into the model) in dir as AS.json, with the
 * state directory dir/AS.state. */
static inline struct np_ctx *sim_ctx(const char *dir, const char *model, const char *as)
{
	const char *src = getenv("NP_SRCDIR");
	char from[1200], to[600], state[600];
	struct np_error *err = np_error_new();
	struct json_object *o;
	struct np_ctx *ctx = NULL;

	snprintf(from, sizeof(from), "%s/tests/fixtures/models/%s.json", src ? src : ".", model);
	snprintf(to, sizeof(to), "%s/%s.json", dir, as);
	snprintf(state, sizeof(state), "%s/%s.state", dir, as);
	o = json_object_from_file(from);
	if (!o || json_object_to_file(to, o) < 0) {
		printf("Bail out! cannot copy %s\n", from);
		exit(1);
	}
	json_object_put(o);
	if (!err || np_ctx_new(&ctx, err) < 0 || np_ctx_set_model(ctx, to, err) < 0 ||
	    np_ctx_set_state_dir(ctx, state, err) < 0) {
		printf("Bail out! %s: %s\n", model, err ? np_error_message(err) : "out of memory");
		exit(1);
	}
	np_error_free(err);
	return ctx;
}

/* The state the simulated backend discovers for IFNAME in
 * tests/fixtures/models/MODEL.json, read through a context with a state
 * directory of its own (removed again: discovery writes nothing there). */
static inline struct np_state *model_state(const char *model, const char *ifname)
{
	const char *src = getenv("NP_SRCDIR");
	struct np_ctx *ctx = NULL;
	struct np_backend *be = NULL;
	struct np_error err = { 0 };
	struct np_state *st = calloc(1, sizeof(*st));
	char path[1200], tmp[] = "/tmp/np-model-XXXXXX";

	snprintf(path, sizeof(path), "%s/tests/fixtures/models/%s.json", src ? src : ".", model);
	if (!st || !mkdtemp(tmp) || np_ctx_new(&ctx, &err) < 0 ||
	    np_ctx_set_state_dir(ctx, tmp, &err) < 0 || np_ctx_set_model(ctx, path, &err) < 0 ||
	    np_ctx_backend(ctx, &be, &err) < 0 || be->ops->discover(be, ifname, st, &err) < 0) {
		printf("Bail out! %s: %s\n", model, err.msg);
		exit(99);
	}
	np_ctx_free(ctx);
	rmdir(tmp);
	return st;
}

static inline int fixture_remove_one(const char *path, const struct stat *sb, int flag,
				     struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

/* rm -r dir, said in TAP when it fails */
static inline void remove_tree(const char *dir)
{
	if (nftw(dir, fixture_remove_one, 8, FTW_DEPTH | FTW_PHYS) < 0)
		printf("# could not remove %s\n", dir);
}

#endif
