/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies as data: every policy's JSON turns back into the same policy
 * (np_policy_from_json), a policy file loads with each value's line, and
 * np_policy_find() looks in the ctx's directory first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <netpolicy/netpolicy.h>

#include "tap.h"

static const char *js(struct json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

static void test_round_trip(void)
{
	for (size_t i = 0; i < np_policy_count(); i++) {
		const struct np_policy *p = np_policy_at(i);
		struct json_object *a = NULL, *b = NULL;
		struct np_policy *q = NULL;
		struct np_error *err = np_error_new();

		ok(np_policy_to_json(p, &a) == 0, "%s: to JSON", np_policy_name(p));
		ok(np_policy_from_json(a, &q, err) == 0, "%s: back from JSON (%s)", np_policy_name(p),
		   np_error_message(err));
		np_error_free(err);
		if (q && np_policy_to_json(q, &b) == 0) {
			char *x = strdup(js(a));

			is_str(js(b), x, "%s: the same policy again", np_policy_name(p));
			free(x);
		}
		json_object_put(a);
		json_object_put(b);
		np_policy_free(q);
	}
}

static void test_from_json_errors(void)
{
	struct json_object *o = json_tokener_parse(
		"{\"name\": \"x\", \"base\": \"cpu\", \"values\": {\"rings\": \"huge\"}}");
	struct np_policy *q = NULL;
	struct np_error *err = np_error_new();

	is_int(np_policy_from_json(o, &q, err), -EINVAL, "a bad value is refused");
	ok(q == NULL, "... and nothing returned");
	ok(strstr(np_error_message(err), "rings") != NULL, "... naming the key: %s",
	   np_error_message(err));
	np_error_free(err);
	json_object_put(o);
}

static void test_find(void)
{
	char dir[] = "/tmp/np-test-policy.XXXXXX", path[128];
	const struct np_policy *p = NULL;
	struct json_object *o = NULL, *v;
	struct np_ctx *ctx;
	struct np_error *err = np_error_new();
	FILE *f;

	if (!mkdtemp(dir) || np_ctx_new(&ctx, NULL) < 0)
		exit(99);
	snprintf(path, sizeof(path), "%s/quiet.conf", dir);
	f = fopen(path, "w");
	fputs("# a comment\nbase = cpu\n\n  rfs-entries = 1024  \n", f);
	fclose(f);
	is_int(np_policy_find(ctx, "quiet", &p, err), -EINVAL, "not found before the directory is set");
	is_int(np_ctx_set_policy_dir(ctx, dir, err), 0, "set the policy directory");
	np_error_clear(err);
	is_int(np_policy_find(ctx, "quiet", &p, err), 0, "found in the ctx's directory");
	if (p && np_policy_to_json(p, &o) == 0) {
		json_object_object_get_ex(o, "origin", &v);
		json_object_object_get_ex(v, "rfs-entries", &v);
		snprintf(path, sizeof(path), "%s/quiet.conf:4", dir);
		is_str(json_object_get_string(v), path, "the value's origin is its file and line");
		json_object_object_get_ex(o, "values", &v);
		json_object_object_get_ex(v, "rfs-entries", &v);
		is_int(json_object_get_int(v), 1024, "the value is the file's");
	}
	json_object_put(o);
	is_int(np_policy_find(ctx, "cpu", &p, err), 0, "built-ins still found");
	snprintf(path, sizeof(path), "%s/quiet.conf", dir);
	unlink(path);
	rmdir(dir);
	np_ctx_free(ctx);
	np_error_free(err);
}

/* A file based on mixed keeps its flows, default class and weights, and
 * they come back from its JSON; another base refuses them. */
static void test_mixed_keys(void)
{
	char dir[] = "/tmp/np-test-policy.XXXXXX", path[128];
	struct json_object *a = NULL, *b = NULL, *v;
	struct np_policy *p = NULL, *q = NULL;
	struct np_error *err = np_error_new();
	FILE *f;

	if (!mkdtemp(dir))
		exit(99);
	snprintf(path, sizeof(path), "%s/web.conf", dir);
	f = fopen(path, "w");
	fputs("base = mixed\nflow = latency:tcp:6379\nflow = cpu:udp:53\ndefault-class = cpu\n"
	      "weight = cpu=3\n", f);
	fclose(f);
	is_int(np_policy_load(path, &p, err), 0, "a mixed file with flows loads (%s)",
	       np_error_message(err));
	if (p && np_policy_to_json(p, &a) == 0) {
		json_object_object_get_ex(a, "values", &v);
		json_object_object_get_ex(v, "flow", &v);
		is_str(js(v), "[\"latency:tcp:6379\",\"cpu:udp:53\"]", "its flows, in order");
		ok(np_policy_from_json(a, &q, err) == 0, "back from JSON (%s)", np_error_message(err));
		if (q && np_policy_to_json(q, &b) == 0) {
			struct json_object *va, *vb;
			char *x;

			json_object_object_get_ex(a, "values", &va);
			json_object_object_get_ex(b, "values", &vb);
			x = strdup(js(va));
			is_str(js(vb), x, "the same flows, default class and weights again");
			free(x);
		}
	}
	np_policy_free(p);
	np_policy_free(q);
	json_object_put(a);
	json_object_put(b);
	p = NULL;
	f = fopen(path, "w");
	fputs("base = throughput\ndefault-class = cpu\n", f);
	fclose(f);
	np_error_clear(err);
	is_int(np_policy_load(path, &p, err), -EINVAL, "not under another base");
	ok(strstr(np_error_message(err), "web.conf:2:1: flow, default-class and weight") != NULL,
	   "... at the key: %s", np_error_message(err));
	f = fopen(path, "w");
	fputs("base = mixed\nflow = latency:tcp:0\n", f);
	fclose(f);
	np_error_clear(err);
	is_int(np_policy_load(path, &p, err), -EINVAL, "a bad flow is refused");
	ok(strstr(np_error_message(err), "web.conf:2:8: flow") != NULL, "... at the value: %s",
	   np_error_message(err));
	unlink(path);
	rmdir(dir);
	np_error_free(err);
}

int main(void)
{
	test_round_trip();
	test_from_json_errors();
	test_find();
	test_mixed_keys();
	return tap_done();
}
