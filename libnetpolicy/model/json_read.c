/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Typed getters for the np_state readers.  Input is validated strictly:
 * journals, pristine snapshots and machine models come back through here,
 * and a wrong type or an impossible value must be reported with the JSON
 * path that holds it, not turn into a plan for a device that cannot exist.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

/* --- reading ---------------------------------------------------------------- */

void np_j_path(char *buf, const char *path, const char *key)
{
	/* a truncated path still names the place; the return value is used
	 * only to tell the compiler truncation was considered */
	if (snprintf(buf, JPATH, "%s%s%s", path, *path ? "." : "", key) >= JPATH)
		buf[JPATH - 1] = '\0';
}

void np_j_path_idx(char *buf, const char *path, const char *key, size_t i)
{
	if (snprintf(buf, JPATH, "%s%s%s[%zu]", path, *path && *key ? "." : "", key, i) >= JPATH)
		buf[JPATH - 1] = '\0';
}

int np_j_bad(struct np_error *err, const char *path, const char *key, const char *fmt, ...)
{
	char p[JPATH], what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (key)
		np_j_path(p, path, key);
	else
		snprintf(p, sizeof(p), "%s", *path ? path : "(top level)");
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "%s: %s", p, what);
}

int np_j_oom(struct np_error *err)
{
	return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
}

static const char *type_word(enum json_type t)
{
	switch (t) {
	case json_type_int:
		return "an integer";
	case json_type_boolean:
		return "true or false";
	case json_type_string:
		return "a string";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	default:
		return "something else";
	}
}

int np_j_member(struct json_object *o, const char *path, const char *key, enum json_type type,
		  struct json_object **ret, struct np_error *err)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		return np_j_bad(err, path, key, "missing");
	if (!json_object_is_type(v, type))
		return np_j_bad(err, path, key, "expected %s", type_word(type));
	*ret = v;
	return 0;
}

/* An integer value (not a member): path names it. */
int np_j_int_value(struct json_object *v, const char *path, const char *key, int64_t min,
		     int64_t max, int64_t *ret, struct np_error *err)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return np_j_bad(err, path, key, "expected an integer");
	x = json_object_get_int64(v);
	if (x < min || x > max)
		return np_j_bad(err, path, key, "%" PRId64 " is out of range (%" PRId64 "..%" PRId64 ")",
			   x, min, max);
	*ret = x;
	return 0;
}

int np_j_get_int(struct json_object *o, const char *path, const char *key, int64_t min,
		   int64_t max, int64_t *ret, struct np_error *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return np_j_bad(err, path, key, "missing");
	return np_j_int_value(v, path, key, min, max, ret, err);
}

int np_j_get_u32(struct json_object *o, const char *path, const char *key, uint32_t *ret,
		   struct np_error *err)
{
	int64_t v;
	int r = np_j_get_int(o, path, key, 0, UINT32_MAX, &v, err);

	if (r == 0)
		*ret = (uint32_t)v;
	return r;
}

int np_j_get_u64(struct json_object *o, const char *path, const char *key, uint64_t *ret,
		   struct np_error *err)
{
	struct json_object *v;
	int64_t x;
	int r = np_j_get_int(o, path, key, 0, INT64_MAX, &x, err);

	if (r < 0)
		return r;
#if JSON_C_VERSION_NUM >= ((0 << 16) | (14 << 8))
	json_object_object_get_ex(o, key, &v);
	*ret = json_object_get_uint64(v);
#else
	(void)v;
	*ret = (uint64_t)x;
#endif
	return 0;
}

int np_j_get_bool(struct json_object *o, const char *path, const char *key, bool *ret,
		    struct np_error *err)
{
	struct json_object *v = NULL;
	int r = np_j_member(o, path, key, json_type_boolean, &v, err);

	if (r == 0)
		*ret = json_object_get_boolean(v);
	return r;
}

int np_j_get_string(struct json_object *o, const char *path, const char *key, const char **ret,
		      struct np_error *err)
{
	struct json_object *v = NULL;
	int r = np_j_member(o, path, key, json_type_string, &v, err);

	if (r == 0)
		*ret = json_object_get_string(v);
	return r;
}

int np_j_get_strbuf(struct json_object *o, const char *path, const char *key, char *buf,
		      size_t len, struct np_error *err)
{
	const char *s = "";
	int r = np_j_get_string(o, path, key, &s, err);

	if (r < 0)
		return r;
	if (strlen(s) >= len)
		return np_j_bad(err, path, key, "longer than %zu characters", len - 1);
	snprintf(buf, len, "%s", s);
	return 0;
}

/* A cpulist; bits at or above nbits (when nbits) are refused: a mask naming
 * a CPU the machine does not have cannot come from the kernel. */
int np_j_mask_value(const char *s, const char *path, const char *key, unsigned nbits,
		      const char *unit, struct np_cpumask *ret, struct np_error *err)
{
	struct np_cpumask m;
	int r, hi;

	r = np_cpumask_parse_list(s, &m);
	if (r == -ERANGE)
		return np_j_bad(err, path, key, "'%.40s' names a %s beyond %d", s, unit, NP_CPUS_MAX - 1);
	if (r < 0)
		return np_j_bad(err, path, key, "'%.40s' is not a list like \"0-3,8\"", s);
	if (nbits && (hi = np_cpumask_next(&m, nbits)) >= 0)
		return np_j_bad(err, path, key, "%s %d is out of range (there are %u)", unit, hi, nbits);
	*ret = m;
	return 0;
}

int np_j_get_mask(struct json_object *o, const char *path, const char *key, unsigned nbits,
		    struct np_cpumask *ret, struct np_error *err)
{
	const char *s = "";
	int r = np_j_get_string(o, path, key, &s, err);

	if (r < 0)
		return r;
	return np_j_mask_value(s, path, key, nbits, "CPU", ret, err);
}

/* A per-file reading: its value, or null with "<key>_error" saying why.
 * Returns 1 with *ret set, 0 with *eret set, or -EINVAL. */
static int file_value(struct json_object *o, const char *path, const char *key,
		      struct json_object **ret, int *eret, struct np_error *err)
{
	struct json_object *v, *e;
	char k[64];
	int code;

	if (!json_object_object_get_ex(o, key, &v))
		return np_j_bad(err, path, key, "missing");
	if (v) {
		*ret = v;
		return 1;
	}
	snprintf(k, sizeof(k), "%s_error", key);
	if (!json_object_object_get_ex(o, k, &e) || !json_object_is_type(e, json_type_string))
		return np_j_bad(err, path, k, "a null %s needs the error text as a string", key);
	code = np_errno_parse(json_object_get_string(e));
	snprintf(k, sizeof(k), "%s_errno", key);
	if (json_object_object_get_ex(o, k, &e) &&
	    (!json_object_is_type(e, json_type_string) ||
	     !(code = np_errno_parse(json_object_get_string(e)))))
		return np_j_bad(err, path, k, "expected an errno name (\"EACCES\") or number");
	*eret = code ? -code : -EIO;
	return 0;
}

int np_j_get_u32_file(struct json_object *o, const char *path, const char *key, uint32_t *ret,
			int *eret, struct np_error *err)
{
	struct json_object *v;
	int64_t x;
	int r = file_value(o, path, key, &v, eret, err);

	if (r <= 0)
		return r;
	r = np_j_int_value(v, path, key, 0, UINT32_MAX, &x, err);
	if (r < 0)
		return r;
	*ret = (uint32_t)x;
	*eret = 0;
	return 0;
}

int np_j_get_mask_file(struct json_object *o, const char *path, const char *key, unsigned nbits,
			 const char *unit, struct np_cpumask *ret, int *eret, struct np_error *err)
{
	struct json_object *v;
	int r = file_value(o, path, key, &v, eret, err);

	if (r <= 0)
		return r;
	if (!json_object_is_type(v, json_type_string))
		return np_j_bad(err, path, key, "expected a string");
	r = np_j_mask_value(json_object_get_string(v), path, key, nbits, unit, ret, err);
	if (r == 0)
		*eret = 0;
	return r;
}

/* A knob object.  Returns 1 (supported: read its values from *ret, whose
 * path is kpath), 0 (not: *kerr set) or -EINVAL. */
int np_j_knob(struct json_object *o, const char *path, const char *key, struct json_object **ret,
		char *kpath, int *kerr, struct np_error *err)
{
	struct json_object *k = NULL, *v;
	bool sup = false;
	int r;

	r = np_j_member(o, path, key, json_type_object, &k, err);
	if (r < 0)
		return r;
	np_j_path(kpath, path, key);
	r = np_j_get_bool(k, kpath, "supported", &sup, err);
	if (r < 0)
		return r;
	if (sup) {
		*kerr = 0;
		*ret = k;
		return 1;
	}
	*kerr = -EOPNOTSUPP;
	if (json_object_object_get_ex(k, "errno", &v)) {
		int64_t e;

		r = np_j_int_value(v, kpath, "errno", 1, 4095, &e, err);
		if (r < 0)
			return r;
		*kerr = -(int)e;
	} else if (json_object_object_get_ex(k, "error", &v) &&
		   json_object_is_type(v, json_type_string)) {
		int e = np_errno_parse(json_object_get_string(v));

		if (e)
			*kerr = -e;
	}
	return 0;
}

int np_j_get_u32_fields(struct json_object *o, const char *path, void *base,
			  const struct np_u32field *f, size_t n, struct np_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int r = np_j_get_u32(o, path, f[i].key, np_u32at(base, &f[i]), err);

		if (r < 0)
			return r;
	}
	return 0;
}

/* An array member whose elements are objects; *n its length. */
int np_j_get_objects(struct json_object *o, const char *path, const char *key,
		       struct json_object **ret, size_t *n, struct np_error *err)
{
	int r = np_j_member(o, path, key, json_type_array, ret, err);

	if (r < 0)
		return r;
	*n = json_object_array_length(*ret);
	for (size_t i = 0; i < *n; i++) {
		if (!json_object_is_type(json_object_array_get_idx(*ret, i), json_type_object)) {
			char p[JPATH];

			np_j_path_idx(p, path, key, i);
			return np_j_bad(err, p, NULL, "expected an object");
		}
	}
	return 0;
}

int np_j_u32_array(struct json_object *arr, const char *path, const char *key, uint32_t **ret,
		   struct np_error *err)
{
	size_t n = json_object_array_length(arr);

	if (n && !(*ret = calloc(n, sizeof(**ret))))
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		char ep[JPATH];
		int64_t x;
		int r;

		np_j_path_idx(ep, path, key, i);
		r = np_j_int_value(json_object_array_get_idx(arr, i), ep, NULL, 0, UINT32_MAX, &x, err);
		if (r < 0)
			return r;
		(*ret)[i] = (uint32_t)x;
	}
	return 0;
}

/* Each queue names its index, so a hand-edited list cannot shift silently. */
int np_j_check_index(struct json_object *e, const char *path, const char *key, size_t i,
		       struct np_error *err)
{
	int64_t q;
	int r = np_j_get_int(e, path, key, 0, INT32_MAX, &q, err);

	if (r < 0)
		return r;
	if ((size_t)q != i)
		return np_j_bad(err, path, key, "is %" PRId64 ", expected %zu (entries in order)", q, i);
	return 0;
}
