/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Untrusted input: the strict JSON parser (one document, no key twice, no
 * NUL), and the bounded reader of user-given files (no FIFO, device or
 * endless file; a size limit).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/np_serialize.h"
#include "tap.h"

static int parse(const char *text, size_t len, struct np_error *err)
{
	struct json_object *o = NULL;
	int r;

	np_error_clear(err);
	r = np_json_parse(text, len, &o, err);
	json_object_put(o);
	return r;
}

static void test_json(void)
{
	static const struct {
		const char *text;
		const char *want;	/* NULL: accepted */
	} cases[] = {
		{ "{\"a\": 1, \"b\": [1, {\"c\": \"x:y\"}]}\n", NULL },
		{ "  {\"a\": \"\\\" : \"}  \r\n", NULL },
		{ "{\"a\": 1} garbage", "not valid JSON" },
		{ "{\"a\": 1}{\"a\": 1}", "not valid JSON" },
		{ "{\"a\": 1, \"a\": 2}", "key \"a\" appears twice" },
		{ "{\"x\": [{\"k\": 1, \"j\": {\"z\": 0}, \"k\": {\"q\": 1}}]}", "key \"k\" appears twice" },
		{ "{\"a\": 1, \"\\u0061\": 2}", "appears twice in one object" },
		{ "{\"a\": {\"b\": 1}, \"c\": {\"b\": 2}}", NULL },
		{ "{\"a\": 1", "ends inside a value" },
		{ "{'a': 1}", "not valid JSON" },
		{ "", "ends inside a value" },
	};
	struct np_error err;

	for (size_t i = 0; i < NP_ARRAY_SIZE(cases); i++) {
		int r = parse(cases[i].text, strlen(cases[i].text), &err);

		if (!cases[i].want) {
			is_int(r, 0, "json %zu accepted", i);
			continue;
		}
		is_int(r, -EINVAL, "json %zu refused", i);
		ok(strstr(err.msg, cases[i].want) != NULL, "json %zu: '%s' (got '%s')", i,
		   cases[i].want, err.msg);
	}
	is_int(parse("{\"a\": 1}\0{\"b\": 2}", 16, &err), -EINVAL, "a NUL byte is refused");
	ok(strstr(err.msg, "NUL byte") != NULL, "... saying so");

	/* nesting beyond json-c's depth is an error, not a stack overflow */
	{
		size_t n = 100000;
		char *deep = malloc(2 * n + 1);

		memset(deep, '[', n);
		memset(deep + n, ']', n);
		deep[2 * n] = '\0';
		is_int(parse(deep, 2 * n, &err), -EINVAL, "100000 nested arrays refused");
		free(deep);
	}
}

static void test_text_file(void)
{
	char dir[] = "/tmp/np-input.XXXXXX", path[64], *text = NULL;
	size_t len = 0;
	int fd;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ok(mkfifo(path, 0600) == 0, "a FIFO made");
	/* without O_NONBLOCK this open would wait for a writer for ever */
	is_int(np_text_file_read(AT_FDCWD, path, 1024, &text, &len), -EINVAL, "a FIFO is refused");
	is_str(np_text_file_strerror(-EINVAL), "not a regular file", "... as not a regular file");
	unlink(path);
	is_int(np_text_file_read(AT_FDCWD, "/dev/zero", 1024, &text, &len), -EINVAL,
	       "/dev/zero is refused");
	is_int(np_text_file_read(AT_FDCWD, dir, 1024, &text, &len), -EISDIR, "a directory is refused");

	snprintf(path, sizeof(path), "%s/big", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok(fd >= 0 && ftruncate(fd, 4097) == 0, "a 4097-byte file");
	close(fd);
	is_int(np_text_file_read(AT_FDCWD, path, 4096, &text, &len), -EFBIG, "over the limit: -EFBIG");
	is_int(np_text_file_read(AT_FDCWD, path, 4097, &text, &len), 0, "at the limit: read");
	is_int((int)len, 4097, "... all of it");
	free(text);
	unlink(path);
	rmdir(dir);
}

/* A --model run must never use the real device's snapshot or journal. */
static void test_sim_state_dir(void)
{
	struct np_ctx *a = NULL, *b = NULL;
	struct np_error err;
	char other[1024];

	np_error_clear(&err);
	if (np_ctx_new(&a, &err) < 0 || np_ctx_new(&b, &err) < 0) {
		ok(0, "contexts");
		return;
	}
	is_str(np_ctx_state_dir(a), "/run/netpolicy", "the kernel backend's default");
	np_ctx_set_model(a, "/tmp/some/model.json", &err);
	ok(!strncmp(np_ctx_state_dir(a), "/run/netpolicy-sim.", 19),
	   "a model has its own default state directory (%s)", np_ctx_state_dir(a));
	snprintf(other, sizeof(other), "%s", np_ctx_state_dir(a));
	np_ctx_set_model(b, "/tmp/other/model.json", &err);
	ok(strcmp(other, np_ctx_state_dir(b)) != 0, "... one per model file");
	np_ctx_free(b);
	np_ctx_new(&b, &err);
	np_ctx_set_state_dir(b, "/tmp/given", &err);
	np_ctx_set_model(b, "/tmp/some/model.json", &err);
	is_str(np_ctx_state_dir(b), "/tmp/given", "a given --state-dir wins");
	np_ctx_free(a);
	np_ctx_free(b);
}

int main(void)
{
	test_json();
	test_text_file();
	test_sim_state_dir();
	return tap_done();
}
