/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The store's JSON builders under allocation failure leak nothing: the
 * tentative marker, the pristine snapshot, the policy and sysctl records,
 * each built with its Nth allocation failing, for every N up to the count
 * of a clean build.  This program's own malloc family (the executable's
 * symbols come first, for json-c and glibc too) fails the Nth call when
 * armed and counts the blocks alive; after a failed build as many are
 * alive as before it.  Not in a sanitizer build (ASan owns malloc there;
 * tests/cli/alloc_leak.bats checks whole commands under valgrind).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "model/np_serialize.h"
#include "apply/np_store.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define NP_NO_OWN_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NP_NO_OWN_MALLOC 1
#endif
#endif

#ifndef NP_NO_OWN_MALLOC
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

/* the build hides symbols by default: these must be seen by json-c and glibc */
#define EXPORT __attribute__((visibility("default")))

static long alive, calls, fail_at;	/* fail_at: the call to fail, 0 none */

/*
 * json-c's own leak: json_object_object_add() strdup()s the key, and when
 * the insert then fails (its table could not grow) the copy is not freed
 * (linkhash.c, lh_table_insert_w_hash; json-c 0.16).  Those copies are kept
 * apart, not counted alive: a caller cannot free them.  An object leaked by
 * us still counts (its own blocks), keys or not.
 */
#define KEYS 8192
static void *keys[KEYS];

static size_t key_slot(const void *p, bool want_empty)
{
	size_t i = ((uintptr_t)p >> 4) % KEYS;

	for (size_t n = 0; n < KEYS; n++, i = (i + 1) % KEYS)
		if (keys[i] == p || (want_empty && !keys[i]))
			return i;
	return KEYS;
}

/* The failed allocation was json-c's tokener's: np_json_text() reads the
 * text back, and json-c 0.16's tokener leaks what it had parsed when an
 * allocation fails (json_tokener.c); nothing a caller can free. */
static bool in_tokener;

static bool stack_has(const char *fn)
{
	void *frames[64];
	int n = backtrace(frames, 64);

	for (int i = 0; i < n; i++) {
		Dl_info info;

		if (dladdr(frames[i], &info) && info.dli_sname && !strcmp(info.dli_sname, fn))
			return true;
	}
	return false;
}

static int fail_now(void)
{
	calls++;
	if (fail_at && calls == fail_at) {
		in_tokener = stack_has("json_tokener_parse_ex");
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

EXPORT void *malloc(size_t size)
{
	void *p = fail_now() ? NULL : __libc_malloc(size);

	alive += p != NULL;
	return p;
}

EXPORT void *calloc(size_t n, size_t size)
{
	void *p = fail_now() ? NULL : __libc_calloc(n, size);

	alive += p != NULL;
	return p;
}

EXPORT void *realloc(void *old, size_t size)
{
	void *p;

	if (old && !size) {
		alive--;
		return __libc_realloc(old, 0);
	}
	p = fail_now() ? NULL : __libc_realloc(old, size);
	alive += p && !old;
	return p;
}

EXPORT void *reallocarray(void *old, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(old, n * size);
}

EXPORT void free(void *p)
{
	size_t i = p ? key_slot(p, false) : KEYS;

	if (i < KEYS)
		keys[i] = NULL;
	else
		alive -= p != NULL;
	__libc_free(p);
}

/* json-c before 0.17 does not check the strdup() of a key in its tokener
 * (np_json_text() parses what it wrote): as in tests/failalloc/failalloc.c,
 * that one call is never failed. */
static const char *caller_name(const void *caller)
{
	Dl_info info;

	return dladdr(caller, &info) && info.dli_sname ? info.dli_sname : "";
}

EXPORT char *strdup(const char *s)
{
	const char *by = caller_name(__builtin_return_address(0));
	size_t n = strlen(s) + 1;
	char *p;

	if (json_c_version_num() < ((0 << 16) | (17 << 8)) && !strcmp(by, "json_tokener_parse_ex")) {
		p = __libc_malloc(n);
		alive += p != NULL;
	} else {
		p = malloc(n);
	}
	if (p && !strcmp(by, "json_object_object_add_ex")) {
		size_t i = key_slot(NULL, true);

		if (i < KEYS) {
			keys[i] = p;
			alive--;
		}
	}
	return p ? memcpy(p, s, n) : NULL;
}

/* One builder: a clean build counts its allocations; then each is failed in
 * turn.  Returns how many failed builds left blocks behind. */
typedef int (*build_fn)(void *arg);

static int sweep(const char *what, build_fn fn, void *arg)
{
	long k, n, before, bad = 0, fails = 0, jsonc = 0;

	calls = 0;
	before = alive;
	if (fn(arg) < 0) {
		printf("# %s: the clean build failed\n", what);
		return -1;
	}
	k = calls;
	if (alive != before)
		printf("# %s: a clean build leaves %ld blocks\n", what, alive - before);
	for (n = 1; n <= k; n++) {
		calls = 0;
		before = alive;
		fail_at = n;
		in_tokener = false;
		if (fn(arg) < 0)
			fails++;
		fail_at = 0;
		if (alive != before && in_tokener) {
			jsonc++;
		} else if (alive != before) {
			if (!bad)
				printf("# %s: allocation %ld of %ld failed: %ld blocks left\n", what, n, k,
				       alive - before);
			bad++;
		}
	}
	printf("# %s: %ld allocations, %ld failed builds (%ld in json-c's tokener leaked)\n",
	       what, k, fails, jsonc);
	return fails ? (int)bad : -1;
}

static struct np_state *state;
static struct np_store store;

static int build_tentative(void *arg)
{
	struct np_tentative *t = arg;
	struct json_object *doc = NULL;

	if (np_tentative_to_json(t, &doc) < 0)
		return -1;
	json_object_put(doc);
	return 0;
}

static int build_sysctl(void *arg)
{
	struct json_object *doc = NULL;

	if (np_sysctl_record_to_json(arg, &doc) < 0)
		return -1;
	json_object_put(doc);
	return 0;
}

static int build_policy(void *arg)
{
	struct json_object *doc = NULL;

	if (np_policy_record_to_json(arg, &doc) < 0)
		return -1;
	json_object_put(doc);
	return 0;
}

static int save_pristine(void *arg)
{
	struct np_ident id = { .ifindex = 2, .netns = 4026531840ULL };
	struct np_error err;

	(void)arg;
	np_error_clear(&err);
	return np_store_pristine_save(&store, state, &id, &err);
}

int main(void)
{
	const char *src = getenv("NP_SRCDIR");
	struct np_tentative t = { .token = 12345, .deadline = 1700000000 };
	struct np_sysctl_record sys = { .need = { .rps_sock_flow_entries = 32768 } };
	struct np_policy_record pol = { .policy = "latency", .cpus = "0-3" };
	char path[1024], dir[] = "/tmp/np-test-records-oom.XXXXXX";
	struct np_ctx *ctx = NULL;
	struct np_error err;

	np_error_clear(&err);
	{	/* backtrace() loads its unwinder on first use: not in a sweep */
		void *f[4];

		backtrace(f, 4);
	}
	/* a device of the simulated virtio VM: a state of some size */
	snprintf(path, sizeof(path), "%s/tests/fixtures/models/virtio-4q.json", src ? src : ".");
	if (!mkdtemp(dir) || np_ctx_new(&ctx, &err) < 0 || np_ctx_set_state_dir(ctx, dir, &err) < 0 ||
	    np_ctx_set_model(ctx, path, &err) < 0 || np_discover(ctx, "enp0s3", &state, &err) < 0 ||
	    np_store_open(ctx, "enp0s3", &store, &err) < 0) {
		printf("# setup: %s (%s)\n", err.msg, path);
		return 99;
	}
	t.before = state;
	t.policy = pol;
	t.sysctl = sys;
	for (int variant = 0; variant < 2; variant++) {
		t.has_policy = t.sysctl_known = t.has_sysctl = variant;
		is_int(sweep(variant ? "tentative marker, records" : "tentative marker, none",
			     build_tentative, &t), 0, "tentative marker (%s records): nothing leaks",
		       variant ? "with" : "without");
	}
	is_int(sweep("sysctl record", build_sysctl, &sys), 0, "sysctl record: nothing leaks");
	is_int(sweep("policy record", build_policy, &pol), 0, "policy record: nothing leaks");
	is_int(sweep("pristine snapshot", save_pristine, NULL), 0,
	       "pristine snapshot save: nothing leaks");
	np_store_close(&store, true);
	np_ctx_free(ctx);
	np_state_free(state);
	snprintf(path, sizeof(path), "%s/enp0s3.pristine", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/enp0s3.lock", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
#else
int main(void)
{
	printf("1..0 # SKIP a sanitizer build owns malloc\n");
	return 0;
}
#endif
