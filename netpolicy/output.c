/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every command prints through: one-line errors with their exit code
 * (netpolicy(8), EXIT STATUS), and JSON documents that carry their schema
 * version and are printed whole or not at all.  Below the commands, which
 * main.c's table dispatches to.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* " (did you mean '" + an interface name + "'?)" */
#define IFNAMSIZ_HINT 48

int cli_usage_error(const char *fmt, ...)
{
	char raw[512], msg[1024];
	va_list ap;

	/* the words quoted come from the command line: escape them */
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	np_escape(raw, msg, sizeof(msg));
	fprintf(stderr, "netpolicy: %s (see 'netpolicy --help')\n", msg);
	return NP_EXIT_USAGE;
}

int cli_out_of_memory(void)
{
	fprintf(stderr, "netpolicy: out of memory\n");
	return NP_EXIT_ERROR;
}

/* " (did you mean 'eth0'?)" after "no such device" for a mistyped name. */
static const char *device_hint(const struct cli *c, const struct np_error *err)
{
	static char hint[IFNAMSIZ_HINT];
	const char *best;
	char **names;
	size_t n;

	hint[0] = '\0';
	if (!err || np_error_code(err) != -ENODEV || !c->ctx ||
	    np_list_devices(c->ctx, &names, &n, NULL) < 0)
		return hint;
	best = np_suggest(c->device, (const char *const *)names, n);
	if (best)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", best);
	np_list_free(names, n);
	return hint;
}

int cli_fail(const struct cli *c, const struct np_error *err)
{
	char buf[600];

	if (err)
		np_error_format(err, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "out of memory");
	if (c->device) {
		char dev[80];

		np_escape(c->device, dev, sizeof(dev));
		fprintf(stderr, "netpolicy: %s: %s%s\n", dev, buf, device_hint(c, err));
	} else {
		fprintf(stderr, "netpolicy: %s\n", buf);
	}
	return cli_exit_of_error(err);
}

/* Every document starts with the version of its contract, netpolicy-json(7):
 * a script checks it before reading anything else. */
void cli_jadd(struct cli *c, struct json_object *o, const char *key, struct json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		c->out_failed = true;
	}
}

void cli_jnull(struct cli *c, struct json_object *o, const char *key)
{
	if (!o || json_object_object_add(o, key, NULL) < 0)
		c->out_failed = true;
}

void cli_jpush(struct cli *c, struct json_object *arr, struct json_object *v)
{
	if (!arr || !v || json_object_array_add(arr, v) < 0) {
		json_object_put(v);
		c->out_failed = true;
	}
}

void cli_print_json(struct cli *c, struct json_object *obj)
{
	struct json_object *doc = NULL;
	const char *text = NULL;
	bool suspect = false;

	/* half a document is worse than none: a script would take it */
	if (obj && !c->out_failed && json_object_is_type(obj, json_type_object)) {
		doc = json_object_new_object();
		cli_jadd(c, doc, "schema", json_object_new_int(NP_JSON_SCHEMA));
		if (c->trigger) {
			cli_jadd(c, doc, "event", json_object_new_string("reapply"));
			cli_jadd(c, doc, "time", json_object_new_int64((int64_t)time(NULL)));
			cli_jadd(c, doc, "trigger", json_object_new_string(c->trigger));
		}
		json_object_object_foreach(obj, key, val) {
			if (!doc || c->out_failed)
				break;
			/* a member that is JSON null is NULL here too */
			if (val)
				cli_jadd(c, doc, key, json_object_get(val));
			else
				cli_jnull(c, doc, key);
		}
		obj = doc;
	}
	if (obj && !c->out_failed) {
		errno = 0;
		text = json_object_to_json_string_ext(obj, (c->trigger ? JSON_C_TO_STRING_PLAIN :
							    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED) |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
		suspect = errno != 0;
	}
	/* json-c can return a damaged text when memory runs out (a failed
	 * append to its buffer is ignored): print only what reads back.  A
	 * failed allocation sets errno (malloc(3)) and json-c's serializers
	 * never clear it, so a text made with errno still 0 needs no reading
	 * back (which took a twentieth of a `show --json`). */
	if (text && suspect) {
		struct json_object *back = json_tokener_parse(text);

		if (!back || !json_object_equal(obj, back))
			text = NULL;
		json_object_put(back);
	}
	/* flushed at once: the reason a write failed is lost by the time
	 * main checks the stream */
	if (text) {
		if (puts(text) < 0 || fflush(stdout) != 0)
			c->out_errno = errno ? errno : EIO;
	} else
		c->out_failed = true;
	json_object_put(doc);
}

/* Output that could not be written (a full disk, an I/O error) is an
 * error, as in coreutils: one line on stderr; exit 1 where nothing was
 * changed, 6 where the change was made and kept.  A reader that went away
 * (| head) ends a command that changed nothing as it ends ip(8): quietly. */
int cli_output_status(int r, bool changed, int out_err)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return r;
	out_err = errno ? errno : out_err ? out_err : EIO;
	if (!changed && cli_stdout_broken(out_err)) {
		cli_end_by_sigpipe();
		return r;
	}
	fprintf(stderr, "netpolicy: cannot write output: %s%s\n", strerror(out_err),
		changed ? " (the change itself was applied)" : "");
	return r == NP_EXIT_OK ? (changed ? NP_EXIT_UNRECORDED : NP_EXIT_ERROR) : r;
}
