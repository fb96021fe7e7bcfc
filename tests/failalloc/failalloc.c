/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Allocation-failure injection for tests: an LD_PRELOAD object whose
 * malloc, calloc, realloc and reallocarray return NULL (errno ENOMEM) at
 * the Nth call, counted from the program's start; everything else goes to
 * glibc's allocator (__libc_*), whose free() releases it as usual.  glibc
 * calls the interposed malloc for its own allocations too (strdup, fopen,
 * qsort...), and json-c, libmnl and libnl allocate through them: every
 * allocation of the process is counted.
 *
 *   NP_FAIL_ALLOC=N        fail the Nth allocation (1-based); unset or 0: none
 *   NP_FAIL_ALLOC_AFTER=1  fail the Nth and every one after it
 *   NP_FAIL_ALLOC_COUNT=F  at exit, append "ALLOCATIONS FAILED SPARED\n" to F
 *   NP_FAIL_ALLOC_PROG=P   only in a program named P: every other one that
 *                          loads this object fails nothing and keeps the
 *                          variables for the programs it runs (the leak
 *                          checker: LD_PRELOAD=this.so valgrind netpolicy,
 *                          whose launcher is a shell script and a launcher
 *                          binary; valgrind then sees netpolicy's
 *                          allocations through __libc_malloc)
 *
 * The variables are removed from the environment at start, so a child the
 * program execs (the --confirm watchdog) runs without injection.  Not for
 * sanitizer builds: ASan replaces malloc itself and must come first.
 *
 * One allocation is never failed: json-c before 0.17 does not check the
 * strdup() of an object key in json_tokener_parse_ex() and crashes hashing
 * the NULL it got (0.17 reports json_tokener_error_memory).  No caller can
 * do anything about that, so with such a json-c those strdup() calls are
 * counted but spared (the second number of NP_FAIL_ALLOC_COUNT's line).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static unsigned long calls, fail_at, failed, spared;
static int tokener_unchecked = -1;
static int after;
static char count_file[512];

static int fail_now(void)
{
	calls++;
	if (fail_at && (calls == fail_at || (after && calls > fail_at))) {
		failed++;
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t size)
{
	return fail_now() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	/* realloc(p, 0) frees: no allocation to fail */
	if (p && !size)
		return __libc_realloc(p, size);
	return fail_now() ? NULL : __libc_realloc(p, size);
}

/* Called from json-c's tokener, in a json-c that does not check it. */
static int spare(const void *caller)
{
	Dl_info info;

	if (tokener_unchecked < 0) {
		int (*version)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "json_c_version_num");

		tokener_unchecked = version && version() < ((0 << 16) | (17 << 8));
	}
	return tokener_unchecked && dladdr(caller, &info) && info.dli_sname &&
	       !strcmp(info.dli_sname, "json_tokener_parse_ex");
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p;

	if (spare(__builtin_return_address(0))) {
		calls++;
		spared++;
		p = __libc_malloc(n);
	} else {
		p = malloc(n);
	}
	return p ? memcpy(p, s, n) : NULL;
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

__attribute__((destructor)) static void report(void)
{
	char line[64];
	int fd, n;

	if (!count_file[0])
		return;
	fd = open(count_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%lu %lu %lu\n", calls, failed, spared);
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

__attribute__((constructor)) static void setup(void)
{
	const char *n = getenv("NP_FAIL_ALLOC"), *a = getenv("NP_FAIL_ALLOC_AFTER"),
		   *f = getenv("NP_FAIL_ALLOC_COUNT"), *prog = getenv("NP_FAIL_ALLOC_PROG");

	if (prog && strcmp(prog, program_invocation_short_name))
		return;

	/* read before counting starts: getenv allocates nothing */
	fail_at = n ? strtoul(n, NULL, 10) : 0;
	after = a && *a == '1';
	if (f)
		snprintf(count_file, sizeof(count_file), "%s", f);
	calls = 0;
	unsetenv("NP_FAIL_ALLOC");
	unsetenv("NP_FAIL_ALLOC_AFTER");
	unsetenv("NP_FAIL_ALLOC_COUNT");
	unsetenv("NP_FAIL_ALLOC_PROG");
	unsetenv("LD_PRELOAD");
}
