/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * try --metric-json PATH: the metric is a number in the JSON document the
 * workload prints (iperf3 -J, fio --output-format=json, sockperf's and
 * many a load generator's).  PATH names it by its members, dot-separated,
 * a number picking an array's element: end.sum_received.bits_per_second,
 * end.streams.0.sender.bits_per_second.  The document is the output's
 * first '{' or '[' on; what follows it (a message on stderr after it) is
 * ignored.  json-c parses it: no backtracking, a bounded depth, and the
 * output read is bounded as the regex's is.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "try_run.h"

/* the most output parsed: iperf3 -J of a 60 s run with intervals is ~150 KB */
#define TRY_JSON_MAX (16 << 20)

bool try_json_path_valid(const char *path)
{
	size_t n = strlen(path);

	/* no empty member: "a..b", ".a", "a." */
	return n && path[0] != '.' && path[n - 1] != '.' && !strstr(path, "..");
}

/* the member or element PATH names in doc, NULL when there is none */
static struct json_object *follow(struct json_object *doc, const char *path)
{
	char name[256];

	while (doc && *path) {
		size_t l = strcspn(path, ".");
		char *end;

		if (l >= sizeof(name))
			return NULL;
		memcpy(name, path, l);
		name[l] = '\0';
		path += l + (path[l] == '.');
		if (json_object_is_type(doc, json_type_array)) {
			unsigned long i = strtoul(name, &end, 10);

			if (*end || end == name || i >= json_object_array_length(doc))
				return NULL;
			doc = json_object_array_get_idx(doc, i);
		} else if (!json_object_is_type(doc, json_type_object) ||
			   !json_object_object_get_ex(doc, name, &doc)) {
			return NULL;
		}
	}
	return doc;
}

int try_metric_json(const char *path, int fd, double *ret)
{
	struct json_tokener *tok;
	struct json_object *doc, *v;
	struct stat sb;
	char *buf, *start;
	ssize_t n;
	int r = 0;

	if (fstat(fd, &sb) < 0)
		return -errno;
	if (sb.st_size > TRY_JSON_MAX)
		return -EFBIG;
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf)
		return -ENOMEM;
	n = pread(fd, buf, (size_t)sb.st_size, 0);
	if (n < 0) {
		r = -errno;
		free(buf);
		return r;
	}
	buf[n] = '\0';
	/* the document starts at the first { or [ of all n bytes: a NUL in
	 * what the command printed before it must not end the search */
	start = buf;
	while (start < buf + n && *start != '{' && *start != '[')
		start++;
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		return -ENOMEM;
	}
	doc = json_tokener_parse_ex(tok, start, (int)(buf + n - start));
	if (!doc) {
		r = -EBADMSG;
	} else {
		v = follow(doc, path);
		if (v && (json_object_is_type(v, json_type_double) ||
			  json_object_is_type(v, json_type_int))) {
			*ret = json_object_get_double(v);
			r = isfinite(*ret) ? 1 : -EDOM;
		} else if (v && !json_object_is_type(v, json_type_null)) {
			r = -EDOM;	/* a string, object or array */
		}
	}
	json_object_put(doc);
	json_tokener_free(tok);
	free(buf);
	return r;
}
