/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-CPU wake-up latency part of a state (np_pm.h): ownership, the
 * resume-latency file's encoding, and its JSON both ways, the "pm_qos"
 * member of a state or model:
 *   {"cpus": [{"cpu": 0, "resume_latency_us": "0",
 *              "idle_states": [{"name": "POLL", "latency": 0, "disable": false}, ...]}]}
 * "resume_latency_us" is the file's text ("0" no limit, "n/a" 0 us, "N");
 * null with "resume_latency_us_errno" when the file could not be read, and
 * "idle_states" null with "idle_states_errno" when the CPU has no cpuidle.
 * Only online CPUs are listed; one not listed has neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

void np_pm_clear(struct np_pm *pm)
{
	free(pm->cpu);
	memset(pm, 0, sizeof(*pm));
}

int np_pm_copy(struct np_pm *dst, const struct np_pm *src)
{
	struct np_pm t = *src;

	t.cpu = NULL;
	if (src->n) {
		t.cpu = malloc(src->n * sizeof(*t.cpu));
		if (!t.cpu)
			return -ENOMEM;
		memcpy(t.cpu, src->cpu, src->n * sizeof(*t.cpu));
	}
	*dst = t;
	return 0;
}

const struct np_cpu_pm *np_pm_cpu(const struct np_pm *pm, unsigned cpu)
{
	if (pm->err || cpu >= pm->n || pm->cpu[cpu].err)
		return NULL;
	return &pm->cpu[cpu];
}

void np_pm_format(uint32_t us, char *buf, unsigned len)
{
	if (us == NP_PM_NONE)
		snprintf(buf, len, "0");
	else if (!us)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%u", us);
}

int np_pm_parse(const char *text, uint32_t *ret)
{
	long long v;
	char *end;
	size_t n = strlen(text);

	if (n && text[n - 1] == '\n')
		n--;
	if (n == 3 && !strncmp(text, "n/a", 3)) {
		*ret = 0;
		return 0;
	}
	if (!n || n > 24 || text[0] == ' ' || text[0] == '\t')
		return -EINVAL;
	errno = 0;
	v = strtoll(text, &end, 0);
	/* S32_MAX is the kernel's own "no constraint": refused as written */
	if (errno || end != text + n || v < 0 || v >= INT32_MAX)
		return -EINVAL;
	*ret = !v ? NP_PM_NONE : (uint32_t)v;
	return 0;
}

static const char *errname(int e)
{
	const char *s = np_errno_name(e);

	return s ? s : "EIO";
}

static int put(struct json_object *o, const char *k, struct json_object *v)
{
	if (!v || json_object_object_add(o, k, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *idle_json(const struct np_cpu_pm *c)
{
	struct json_object *a = json_object_new_array();

	for (unsigned k = 0; a && k < c->n_idle; k++) {
		struct json_object *e = json_object_new_object();

		if (!e || put(e, "name", json_object_new_string(c->idle[k].name)) < 0 ||
		    put(e, "latency", json_object_new_int64(c->idle[k].latency)) < 0 ||
		    put(e, "disable", json_object_new_boolean(c->idle[k].disable)) < 0 ||
		    json_object_array_add(a, e) < 0) {
			json_object_put(e);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

static int cpu_json(const struct np_cpu_pm *c, unsigned i, struct json_object *e)
{
	char v[16];
	int r;

	np_pm_format(c->resume, v, sizeof(v));
	r = put(e, "cpu", json_object_new_int64(i));
	if (c->err)
		r |= json_object_object_add(e, "resume_latency_us", NULL) |
		     put(e, "resume_latency_us_errno", json_object_new_string(errname(c->err)));
	else
		r |= put(e, "resume_latency_us", json_object_new_string(v));
	if (c->idle_err)
		r |= json_object_object_add(e, "idle_states", NULL) |
		     put(e, "idle_states_errno", json_object_new_string(errname(c->idle_err)));
	else
		r |= put(e, "idle_states", idle_json(c));
	return r ? -ENOMEM : 0;
}

struct json_object *np_pm_to_json(const struct np_pm *pm, const struct np_cpumask *online)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	for (unsigned i = 0; o && a && i < pm->n; i++) {
		struct json_object *e;

		if (!np_cpumask_test(online, i))
			continue;
		e = json_object_new_object();
		if (!e || cpu_json(&pm->cpu[i], i, e) < 0 || json_object_array_add(a, e) < 0) {
			json_object_put(e);
			goto oom;
		}
	}
	if (o && a && put(o, "cpus", a) == 0)
		return o;
	a = NULL;
oom:
	json_object_put(a);
	json_object_put(o);
	return NULL;
}

/* "KEY": null with "KEY_errno": a name or number -> *eret; 1 when so. */
static int null_with_errno(struct json_object *e, const char *p, const char *key, int *eret,
			   struct np_error *err)
{
	struct json_object *v;
	char k[40];
	const char *s;
	int r;

	if (!json_object_object_get_ex(e, key, &v))
		return np_j_bad(err, p, key, "missing");
	if (v)
		return 0;
	snprintf(k, sizeof(k), "%s_errno", key);
	if ((r = np_j_get_string(e, p, k, &s, err)) < 0)
		return r;
	*eret = -np_errno_parse(s);
	if (!*eret)
		return np_j_bad(err, p, k, "unknown errno \"%s\"", s);
	return 1;
}

static int read_idle(struct json_object *e, const char *p, struct np_cpu_pm *c,
		     struct np_error *err)
{
	struct json_object *a;
	size_t n;
	int r;

	if ((r = null_with_errno(e, p, "idle_states", &c->idle_err, err)) != 0)
		return r < 0 ? r : 0;
	if ((r = np_j_get_objects(e, p, "idle_states", &a, &n, err)) < 0)
		return r;
	if (n > NP_IDLE_MAX)
		return np_j_bad(err, p, "idle_states", "more than %d states", NP_IDLE_MAX);
	for (size_t k = 0; k < n; k++) {
		struct json_object *s = json_object_array_get_idx(a, k);
		struct np_idle_state *st = &c->idle[k];
		char sp[JPATH];

		np_j_path_idx(sp, p, "idle_states", k);
		if ((r = np_j_get_strbuf(s, sp, "name", st->name, sizeof(st->name), err)) < 0 ||
		    (r = np_j_get_u32(s, sp, "latency", &st->latency, err)) < 0 ||
		    (r = np_j_get_bool(s, sp, "disable", &st->disable, err)) < 0)
			return r;
	}
	c->n_idle = (unsigned)n;
	return 0;
}

static int read_cpu(struct json_object *e, const char *p, struct np_pm *pm, struct np_error *err)
{
	struct np_cpu_pm *c;
	const char *s;
	int64_t i;
	int r;

	if ((r = np_j_get_int(e, p, "cpu", 0, (int64_t)pm->n - 1, &i, err)) < 0)
		return r;
	c = &pm->cpu[i];
	if (c->err != -ENOENT || c->idle_err != -ENOENT)
		return np_j_bad(err, p, "cpu", "CPU %lld listed twice", (long long)i);
	c->err = 0;
	if ((r = null_with_errno(e, p, "resume_latency_us", &c->err, err)) < 0)
		return r;
	if (!r) {
		if ((r = np_j_get_string(e, p, "resume_latency_us", &s, err)) < 0)
			return r;
		if (np_pm_parse(s, &c->resume) < 0)
			return np_j_bad(err, p, "resume_latency_us", "\"%s\": expected \"0\", "
					"\"n/a\" or a number of microseconds", s);
	}
	c->idle_err = 0;
	return read_idle(e, p, c, err);
}

int np_pm_from_json(struct json_object *o, const char *path, unsigned nr_cpus,
		    struct np_pm *ret, struct np_error *err)
{
	struct np_pm pm = { .n = nr_cpus };
	struct json_object *a;
	size_t n;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return np_j_bad(err, path, NULL, "expected an object");
	if ((r = np_j_get_objects(o, path, "cpus", &a, &n, err)) < 0)
		return r;
	pm.cpu = calloc(nr_cpus ? nr_cpus : 1, sizeof(*pm.cpu));
	if (!pm.cpu)
		return np_j_oom(err);
	for (unsigned i = 0; i < nr_cpus; i++)
		pm.cpu[i].err = pm.cpu[i].idle_err = -ENOENT;
	for (size_t i = 0; r >= 0 && i < n; i++) {
		char p[JPATH];

		np_j_path_idx(p, path, "cpus", i);
		r = read_cpu(json_object_array_get_idx(a, i), p, &pm, err);
	}
	if (r < 0) {
		np_pm_clear(&pm);
		return r;
	}
	*ret = pm;
	return 0;
}
