/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device's NAPI instances in JSON, both ways (netpolicy-model(5)):
 *   "napis": [{"id": 8193, "irq": 25, "pid": null, "rx_queue": 0,
 *              "tx_queue": 0, "defer_hard_irqs": 0, ...}]
 * An attribute the kernel did not report is absent (defer_hard_irqs,
 * gro_flush_timeout: 6.13; irq_suspend_timeout: 6.14; threaded: 6.17).
 * No "napis" at all: the kernel has no napi-get (before 6.8), which is what
 * a model without the member describes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

static bool add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return false;
	}
	return true;
}

static bool add_opt_int(struct json_object *o, const char *key, bool has, int64_t v)
{
	return has ? add(o, key, json_object_new_int64(v)) :
		     json_object_object_add(o, key, NULL) == 0;
}

static struct json_object *inst_json(const struct np_napi_inst *n)
{
	struct json_object *o = json_object_new_object();
	bool ok;

	if (!o)
		return NULL;
	ok = add(o, "id", json_object_new_int64(n->id)) &&
	     add_opt_int(o, "irq", n->has & NP_NAPI_HAS_IRQ, n->irq) &&
	     add_opt_int(o, "pid", n->has & NP_NAPI_HAS_PID, n->pid) &&
	     add_opt_int(o, "rx_queue", n->rxq >= 0, n->rxq) &&
	     add_opt_int(o, "tx_queue", n->txq >= 0, n->txq);
	if (ok && (n->has & NP_NAPI_HAS_DEFER))
		ok = add(o, "defer_hard_irqs", json_object_new_int64(n->defer_hard_irqs));
	/* ns values below 2^63: int64 in JSON */
	if (ok && (n->has & NP_NAPI_HAS_GRO_FLUSH))
		ok = add(o, "gro_flush_timeout",
			 json_object_new_int64((int64_t)(n->gro_flush_timeout & INT64_MAX)));
	if (ok && (n->has & NP_NAPI_HAS_SUSPEND))
		ok = add(o, "irq_suspend_timeout",
			 json_object_new_int64((int64_t)(n->irq_suspend_timeout & INT64_MAX)));
	if (ok && (n->has & NP_NAPI_HAS_THREADED))
		ok = add(o, "threaded", json_object_new_int64(n->threaded));
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *np_napis_to_json(const struct np_napis *n)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned i = 0; arr && i < n->n; i++) {
		struct json_object *e = inst_json(&n->v[i]);

		if (!e || json_object_array_add(arr, e) < 0) {
			json_object_put(e);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

/* An optional integer: absent or null is "not reported" (false). */
static int opt_int(struct json_object *o, const char *p, const char *key, int64_t max,
		   int64_t *ret, bool *has, struct np_error *err)
{
	struct json_object *v;
	int r;

	*has = false;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	r = np_j_int_value(v, p, key, 0, max, ret, err);
	if (r < 0)
		return r;
	*has = true;
	return 0;
}

static int read_inst(struct json_object *e, const char *p, struct np_napi_inst *n,
		     struct np_error *err)
{
	static const struct {
		const char *key;
		uint32_t bit;
		int64_t max;
	} f[] = {
		{ "irq", NP_NAPI_HAS_IRQ, UINT32_MAX },
		{ "pid", NP_NAPI_HAS_PID, INT32_MAX },
		{ "rx_queue", 0, INT32_MAX },
		{ "tx_queue", 0, INT32_MAX },
		{ "defer_hard_irqs", NP_NAPI_HAS_DEFER, INT32_MAX },
		{ "gro_flush_timeout", NP_NAPI_HAS_GRO_FLUSH, INT64_MAX },
		{ "irq_suspend_timeout", NP_NAPI_HAS_SUSPEND, INT64_MAX },
		{ "threaded", NP_NAPI_HAS_THREADED, 2 },
	};
	int64_t v[sizeof(f) / sizeof(f[0])];
	bool has;
	int r;

	memset(n, 0, sizeof(*n));
	r = np_j_get_u32(e, p, "id", &n->id, err);
	if (r < 0)
		return r;
	if (!n->id)
		return np_j_bad(err, p, "id", "NAPI ids start at 1");
	n->rxq = n->txq = -1;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		r = opt_int(e, p, f[i].key, f[i].max, &v[i], &has, err);
		if (r < 0)
			return r;
		if (!has)
			continue;
		n->has |= f[i].bit;
		switch (i) {
		case 0: n->irq = (uint32_t)v[i]; break;
		case 1: n->pid = (uint32_t)v[i]; break;
		case 2: n->rxq = (int)v[i]; break;
		case 3: n->txq = (int)v[i]; break;
		case 4: n->defer_hard_irqs = (uint32_t)v[i]; break;
		case 5: n->gro_flush_timeout = (uint64_t)v[i]; break;
		case 6: n->irq_suspend_timeout = (uint64_t)v[i]; break;
		default: n->threaded = (uint32_t)v[i]; break;
		}
	}
	return 0;
}

int np_napis_from_json(struct json_object *o, const char *path, struct np_napis *ret,
		       struct np_error *err)
{
	struct json_object *arr;
	char p[JPATH];
	size_t n;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (!json_object_object_get_ex(o, "napis", &arr)) {
		ret->err = -EOPNOTSUPP;
		return 0;
	}
	if (!arr) {
		/* "napis": null, "napis_errno": "EPERM": the read failed */
		struct json_object *e;
		int code = 0;

		if (json_object_object_get_ex(o, "napis_errno", &e) &&
		    json_object_is_type(e, json_type_string))
			code = np_errno_parse(json_object_get_string(e));
		ret->err = code ? -code : -EIO;
		return 0;
	}
	r = np_j_get_objects(o, path, "napis", &arr, &n, err);
	if (r < 0)
		return r;
	if (n > 65536)
		return np_j_bad(err, path, "napis", "more than 65536 NAPI instances");
	if (n && !(ret->v = calloc(n, sizeof(*ret->v))))
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		np_j_path_idx(p, path, "napis", i);
		r = read_inst(json_object_array_get_idx(arr, i), p, &ret->v[i], err);
		if (r < 0)
			return r;
		for (size_t j = 0; j < i; j++)
			if (ret->v[j].id == ret->v[i].id)
				return np_j_bad(err, p, "id", "NAPI %u is listed twice", ret->v[i].id);
		ret->n++;
	}
	return 0;
}

/* --- NAPI kthreads: "napi_threads": [{"pid": 812, "napi_id": 259,
 * "affinity": "0-3"}], absent when the device has none ----------------------- */

struct json_object *np_napi_threads_to_json(const struct np_dev *d)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned i = 0; arr && i < d->n_napi_thread; i++) {
		const struct np_napi_thread *t = &d->napi_thread[i];
		struct json_object *e = json_object_new_object();
		bool ok = e && add(e, "pid", json_object_new_int64(t->pid)) &&
			  add(e, "napi_id", json_object_new_int64(t->napi_id));

		if (ok && t->err)
			ok = json_object_object_add(e, "affinity", NULL) == 0 &&
			     add(e, "affinity_errno", json_object_new_string(
					     np_errno_name(t->err) ? np_errno_name(t->err) : "EIO"));
		else if (ok)
			ok = add(e, "affinity", np_cpumask_to_json_str(&t->affinity));
		if (!ok || json_object_array_add(arr, e) < 0) {
			json_object_put(e);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

int np_napi_threads_from_json(struct json_object *o, const char *path, unsigned nbits,
			      struct np_dev *d, struct np_error *err)
{
	struct json_object *arr, *v;
	char p[JPATH];
	size_t n;
	int r;

	if (!json_object_object_get_ex(o, "napi_threads", NULL))
		return 0;
	r = np_j_get_objects(o, path, "napi_threads", &arr, &n, err);
	if (r < 0)
		return r;
	if (n > 65536)
		return np_j_bad(err, path, "napi_threads", "more than 65536 threads");
	if (n && !(d->napi_thread = calloc(n, sizeof(*d->napi_thread))))
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		struct np_napi_thread *t = &d->napi_thread[i];

		np_j_path_idx(p, path, "napi_threads", i);
		if ((r = np_j_get_u32(e, p, "pid", &t->pid, err)) < 0 ||
		    (r = np_j_get_u32(e, p, "napi_id", &t->napi_id, err)) < 0)
			return r;
		if (!t->pid || t->pid > INT32_MAX)
			return np_j_bad(err, p, "pid", "expected 1 to %d", INT32_MAX);
		if (json_object_object_get_ex(e, "affinity", &v) && !v) {
			int code = 0;

			if (json_object_object_get_ex(e, "affinity_errno", &v) &&
			    json_object_is_type(v, json_type_string))
				code = np_errno_parse(json_object_get_string(v));
			t->err = code ? -code : -EIO;
		} else {
			r = np_j_get_mask(e, p, "affinity", nbits, &t->affinity, err);
			if (r < 0)
				return r;
		}
		for (size_t j = 0; j < i; j++)
			if (d->napi_thread[j].pid == t->pid || d->napi_thread[j].napi_id == t->napi_id)
				return np_j_bad(err, p, "pid", "thread %u or NAPI %u listed twice",
						t->pid, t->napi_id);
		d->n_napi_thread++;
	}
	return 0;
}
