/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The one JSON form of np_state, both ways (schema: netpolicy-model(5)).
 *
 * Output keeps a fixed key order (json-c keeps insertion order) so golden
 * files and diffs stay stable.  Input is validated strictly: journals,
 * pristine snapshots and machine models come back through here, and a
 * wrong type or an impossible value must be reported with the JSON path
 * that holds it, not turn into a plan for a device that cannot exist.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_object_iterator.h>

#include "np_serialize.h"

/* DUPLEX_* as in <linux/ethtool.h> */
#define DUPLEX_HALF_ 0x00
#define DUPLEX_FULL_ 0x01
#define DUPLEX_UNKNOWN_ 0xff

#define JPATH 192	/* "devices[12].queues.rx[1023].rps_flow_cnt" and more */
#define MASKBUF 8192	/* the longest cpulist of NP_CPUS_MAX CPUs ("0,2,4,...") */

/* --- errno names --------------------------------------------------------- */

static const struct {
	const char *name;
	int code;
} errnames[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EINTR", EINTR }, { "EIO", EIO },
	{ "ENXIO", ENXIO }, { "E2BIG", E2BIG }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EFAULT", EFAULT }, { "EBUSY", EBUSY }, { "EEXIST", EEXIST },
	{ "ENODEV", ENODEV }, { "EINVAL", EINVAL }, { "ENFILE", ENFILE }, { "ENOSPC", ENOSPC },
	{ "EROFS", EROFS }, { "ERANGE", ERANGE }, { "ENOTTY", ENOTTY }, { "ENOSYS", ENOSYS },
	{ "ENODATA", ENODATA }, { "ETIME", ETIME }, { "EPROTO", EPROTO },
	{ "EOVERFLOW", EOVERFLOW }, { "EMSGSIZE", EMSGSIZE }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "ENOTSUP", ENOTSUP }, { "ENOBUFS", ENOBUFS }, { "ENETDOWN", ENETDOWN },
	{ "ETIMEDOUT", ETIMEDOUT }, { "ECANCELED", ECANCELED }, { "EALREADY", EALREADY },
	{ "EINPROGRESS", EINPROGRESS }, { "ENOLINK", ENOLINK }, { "EDQUOT", EDQUOT },
};

int np_errno_parse(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (!errno && !*end && end != s)
		return v > 0 && v < 4096 ? (int)v : 0;
	for (size_t i = 0; i < NP_ARRAY_SIZE(errnames); i++)
		if (!strcmp(s, errnames[i].name))
			return errnames[i].code;
	/* The state's own form: strerror() text, as written by np_state_to_json. */
	for (int e = 1; e < 256; e++)
		if (!strcmp(s, strerror(e)))
			return e;
	return 0;
}

const char *np_errno_name(int code)
{
	if (code < 0)
		code = -code;
	for (size_t i = 0; i < NP_ARRAY_SIZE(errnames); i++)
		if (errnames[i].code == code)
			return errnames[i].name;
	return NULL;
}

/* --- writing ---------------------------------------------------------------- */

/* Memory can run out anywhere in a tree of a few thousand nodes: remember
 * it once instead of checking every call. */
struct jw {
	bool oom;
};

static struct json_object *chk(struct jw *w, struct json_object *v)
{
	if (!v)
		w->oom = true;
	return v;
}

static void put(struct jw *w, struct json_object *o, const char *key, struct json_object *v)
{
	if (!v || !o || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		w->oom = true;
	}
}

static void put_null(struct jw *w, struct json_object *o, const char *key)
{
	if (!o || json_object_object_add(o, key, NULL) < 0)
		w->oom = true;
}

static void put_int(struct jw *w, struct json_object *o, const char *key, int64_t v)
{
	put(w, o, key, json_object_new_int64(v));
}

static void put_u64(struct jw *w, struct json_object *o, const char *key, uint64_t v)
{
#if JSON_C_VERSION_NUM >= ((0 << 16) | (14 << 8))
	put(w, o, key, json_object_new_uint64(v));
#else
	put(w, o, key, json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v));
#endif
}

static void put_bool(struct jw *w, struct json_object *o, const char *key, bool v)
{
	put(w, o, key, json_object_new_boolean(v));
}

static void put_str(struct jw *w, struct json_object *o, const char *key, const char *v)
{
	put(w, o, key, json_object_new_string(v));
}

static void push(struct jw *w, struct json_object *arr, struct json_object *v)
{
	if (!v || !arr || json_object_array_add(arr, v) < 0) {
		json_object_put(v);
		w->oom = true;
	}
}

static const char *errtext(int e)
{
	return strerror(e < 0 ? -e : e);
}

/* A per-file reading that failed: "key": null, "key_error": "..." */
static void put_file_err(struct jw *w, struct json_object *o, const char *key, int e)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_error", key);
	put_null(w, o, key);
	put_str(w, o, k, errtext(e));
}

static void put_mask(struct jw *w, struct json_object *o, const char *key,
		     const struct np_cpumask *m)
{
	put(w, o, key, np_cpumask_to_json_str(m));
}

struct json_object *np_cpumask_to_json_str(const struct np_cpumask *m)
{
	char buf[MASKBUF];

	if (np_cpumask_format_list(m, buf, sizeof(buf)) < 0)
		return NULL;
	return json_object_new_string(buf);
}

/* {"supported":true, ...} or {"supported":false,"error":"...","errno":95} */
static struct json_object *knob_new(struct jw *w, int e)
{
	struct json_object *o = chk(w, json_object_new_object());

	put_bool(w, o, "supported", !e);
	if (e) {
		put_str(w, o, "error", errtext(e));
		put_int(w, o, "errno", e < 0 ? -e : e);
	}
	return o;
}

struct u32field {
	const char *key;
	size_t off;
};

static const struct u32field channel_fields[] = {
	{ "rx", offsetof(struct np_channels, rx) },
	{ "tx", offsetof(struct np_channels, tx) },
	{ "other", offsetof(struct np_channels, other) },
	{ "combined", offsetof(struct np_channels, combined) },
	{ "max_rx", offsetof(struct np_channels, max_rx) },
	{ "max_tx", offsetof(struct np_channels, max_tx) },
	{ "max_other", offsetof(struct np_channels, max_other) },
	{ "max_combined", offsetof(struct np_channels, max_combined) },
};

static const struct u32field ring_fields[] = {
	{ "rx", offsetof(struct np_rings, rx) },
	{ "rx_mini", offsetof(struct np_rings, rx_mini) },
	{ "rx_jumbo", offsetof(struct np_rings, rx_jumbo) },
	{ "tx", offsetof(struct np_rings, tx) },
	{ "max_rx", offsetof(struct np_rings, max_rx) },
	{ "max_rx_mini", offsetof(struct np_rings, max_rx_mini) },
	{ "max_rx_jumbo", offsetof(struct np_rings, max_rx_jumbo) },
	{ "max_tx", offsetof(struct np_rings, max_tx) },
};

static uint32_t *u32at(void *base, const struct u32field *f)
{
	return (uint32_t *)((char *)base + f->off);
}

static void put_u32_fields(struct jw *w, struct json_object *o, const void *base,
			   const struct u32field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_int(w, o, f[i].key, *u32at((void *)base, &f[i]));
}

static bool coal_is_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_TX ||
	       f == NP_COAL_CQE_MODE_RX;
}

static const char *duplex_name(uint8_t d)
{
	return d == DUPLEX_FULL_ ? "full" : d == DUPLEX_HALF_ ? "half" : "unknown";
}

static const char *hfunc_name(uint32_t h)
{
	switch (h) {
	case NP_RSS_HASH_TOP:
		return "toeplitz";
	case NP_RSS_HASH_XOR:
		return "xor";
	case NP_RSS_HASH_CRC32:
		return "crc32";
	default:
		return "unknown";
	}
}

static const char *const irq_kinds[] = {
	[NP_IRQ_TXRX] = "txrx",
	[NP_IRQ_RX] = "rx",
	[NP_IRQ_TX] = "tx",
	[NP_IRQ_OTHER] = "other",
};

static struct json_object *link_json(struct jw *w, const struct np_link *l)
{
	struct json_object *o = knob_new(w, l->err);

	if (!l->err) {
		put_int(w, o, "speed", l->speed);
		put_str(w, o, "duplex", duplex_name(l->duplex));
		put_bool(w, o, "carrier", l->carrier);
	}
	return o;
}

static struct json_object *coalesce_json(struct jw *w, const struct np_coalesce *c)
{
	struct json_object *o = knob_new(w, c->err), *f;

	if (c->err)
		return o;
	f = chk(w, json_object_new_object());
	for (int i = 0; i < NP_COAL__COUNT; i++) {
		if (!(c->supported & (1u << i)))
			continue;
		if (coal_is_bool(i))
			put_bool(w, f, np_coal_field_name(i), c->val[i]);
		else
			put_int(w, f, np_coal_field_name(i), c->val[i]);
	}
	put(w, o, "fields", f);
	/* fields the driver reports but this device cannot change */
	f = chk(w, json_object_new_array());
	for (int i = 0; i < NP_COAL__COUNT; i++)
		if (c->supported & c->fixed & (1u << i))
			push(w, f, chk(w, json_object_new_string(np_coal_field_name(i))));
	put(w, o, "fixed", f);
	return o;
}

static struct json_object *features_json(struct jw *w, const struct np_features *fs)
{
	struct json_object *o = knob_new(w, fs->err), *list;

	if (fs->err)
		return o;
	list = chk(w, json_object_new_object());
	for (unsigned i = 0; i < fs->n; i++) {
		struct json_object *f = chk(w, json_object_new_object());

		put_bool(w, f, "active", fs->v[i].active);
		put_bool(w, f, "wanted", fs->v[i].wanted);
		put_bool(w, f, "fixed", fs->v[i].fixed);
		put(w, list, fs->v[i].name, f);
	}
	put(w, o, "list", list);
	return o;
}

static struct json_object *rss_json(struct jw *w, const struct np_rss *r)
{
	struct json_object *o = knob_new(w, r->err), *indir;
	char *key;

	if (r->err)
		return o;
	put_int(w, o, "indir_size", r->indir_size);
	indir = chk(w, json_object_new_array());
	for (uint32_t i = 0; i < r->indir_size; i++)
		push(w, indir, json_object_new_int64(r->indir[i]));
	put(w, o, "indir", indir);
	key = malloc((size_t)r->key_size * 3 + 1);
	if (key) {
		size_t pos = 0;

		key[0] = '\0';
		for (uint32_t i = 0; i < r->key_size; i++)
			pos += (size_t)sprintf(key + pos, i ? ":%02x" : "%02x", r->key[i]);
		put_str(w, o, "key", key);
		free(key);
	} else {
		w->oom = true;
	}
	put_str(w, o, "hfunc", hfunc_name(r->hfunc));
	put_int(w, o, "rx_rings", r->rx_rings);
	return o;
}

static struct json_object *queues_json(struct jw *w, const struct np_dev *d)
{
	struct json_object *o = chk(w, json_object_new_object());
	struct json_object *rx = chk(w, json_object_new_array());
	struct json_object *tx = chk(w, json_object_new_array());

	for (unsigned i = 0; i < d->n_rxq; i++) {
		const struct np_rxq *q = &d->rxq[i];
		struct json_object *e = chk(w, json_object_new_object());

		put_int(w, e, "queue", i);
		if (q->rps_err)
			put_file_err(w, e, "rps_cpus", q->rps_err);
		else
			put_mask(w, e, "rps_cpus", &q->rps_cpus);
		if (q->flow_err)
			put_file_err(w, e, "rps_flow_cnt", q->flow_err);
		else
			put_int(w, e, "rps_flow_cnt", q->rps_flow_cnt);
		push(w, rx, e);
	}
	for (unsigned i = 0; i < d->n_txq; i++) {
		const struct np_txq *q = &d->txq[i];
		struct json_object *e = chk(w, json_object_new_object());

		put_int(w, e, "queue", i);
		if (q->xps_err)
			put_file_err(w, e, "xps_cpus", q->xps_err);
		else
			put_mask(w, e, "xps_cpus", &q->xps_cpus);
		if (q->xps_rxqs_err)
			put_file_err(w, e, "xps_rxqs", q->xps_rxqs_err);
		else
			put_mask(w, e, "xps_rxqs", &q->xps_rxqs);
		push(w, tx, e);
	}
	put(w, o, "rx", rx);
	put(w, o, "tx", tx);
	return o;
}

static struct json_object *irqs_json(struct jw *w, const struct np_dev *d)
{
	struct json_object *arr = chk(w, json_object_new_array());

	for (unsigned i = 0; i < d->n_irq; i++) {
		const struct np_irq *q = &d->irq[i];
		struct json_object *e = chk(w, json_object_new_object());

		put_int(w, e, "irq", q->irq);
		put_str(w, e, "name", q->name);
		put_str(w, e, "kind", (unsigned)q->kind < NP_ARRAY_SIZE(irq_kinds) ?
					      irq_kinds[q->kind] : "other");
		if (q->queue >= 0)
			put_int(w, e, "queue", q->queue);
		else
			put_null(w, e, "queue");
		if (q->err) {
			put_file_err(w, e, "affinity", q->err);
			put_null(w, e, "effective");
		} else {
			put_mask(w, e, "affinity", &q->affinity);
			put_mask(w, e, "effective", &q->effective);
		}
		push(w, arr, e);
	}
	return arr;
}

static struct json_object *dev_json(struct jw *w, const struct np_dev *d)
{
	struct json_object *o = chk(w, json_object_new_object()), *k;

	put_str(w, o, "ifname", d->ifname);
	put_int(w, o, "ifindex", d->ifindex);
	put_str(w, o, "driver", d->driver);
	put_str(w, o, "bus_info", d->bus_info);
	put_str(w, o, "operstate", d->operstate);
	put_int(w, o, "mtu", d->mtu);
	put_int(w, o, "num_tx_queues", d->num_tx_queues);
	put_int(w, o, "num_rx_queues", d->num_rx_queues);
	put_int(w, o, "numa_node", d->numa_node);
	put_mask(w, o, "local_cpus", &d->local_cpus);
	put(w, o, "link", link_json(w, &d->link));

	k = knob_new(w, d->channels.err);
	if (!d->channels.err)
		put_u32_fields(w, k, &d->channels, channel_fields, NP_ARRAY_SIZE(channel_fields));
	put(w, o, "channels", k);

	k = knob_new(w, d->rings.err);
	if (!d->rings.err)
		put_u32_fields(w, k, &d->rings, ring_fields, NP_ARRAY_SIZE(ring_fields));
	put(w, o, "rings", k);

	put(w, o, "coalesce", coalesce_json(w, &d->coalesce));
	put(w, o, "features", features_json(w, &d->features));
	put(w, o, "rss", rss_json(w, &d->rss));

	k = knob_new(w, d->napi.err);
	if (!d->napi.err) {
		put_int(w, k, "defer_hard_irqs", d->napi.defer_hard_irqs);
		put_u64(w, k, "gro_flush_timeout", d->napi.gro_flush_timeout);
	}
	put(w, o, "napi", k);

	put(w, o, "queues", queues_json(w, d));
	put(w, o, "irqs", irqs_json(w, d));
	return o;
}

static struct json_object *sysctl_json(struct jw *w, const struct np_sysctl *s)
{
	struct json_object *o = chk(w, json_object_new_object());

	if (s->flow_entries_err)
		put_file_err(w, o, "rps_sock_flow_entries", s->flow_entries_err);
	else
		put_int(w, o, "rps_sock_flow_entries", s->rps_sock_flow_entries);
	if (s->busy_err) {
		put_file_err(w, o, "busy_poll", s->busy_err);
		put_file_err(w, o, "busy_read", s->busy_err);
	} else {
		put_int(w, o, "busy_poll", s->busy_poll);
		put_int(w, o, "busy_read", s->busy_read);
	}
	return o;
}

static struct json_object *topology_json(struct jw *w, const struct np_topology *t)
{
	struct json_object *o = chk(w, json_object_new_object());
	struct json_object *nodes = chk(w, json_object_new_array());
	struct json_object *cpus = chk(w, json_object_new_array());

	put_int(w, o, "nr_cpus", t->nr_cpus);
	put_mask(w, o, "online", &t->online);
	put_mask(w, o, "possible", &t->possible);
	put_mask(w, o, "isolated", &t->isolated);
	put_mask(w, o, "nohz_full", &t->nohz_full);
	put_int(w, o, "cores", t->nr_cores);
	put_int(w, o, "packages", t->nr_packages);
	put_bool(w, o, "smt", t->smt);
	for (unsigned n = 0; n < t->nr_nodes; n++) {
		struct json_object *e = chk(w, json_object_new_object());

		put_int(w, e, "node", n);
		put_mask(w, e, "cpus", &t->node_cpus[n]);
		push(w, nodes, e);
	}
	put(w, o, "nodes", nodes);
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		const struct np_cpu *cpu = &t->cpus[c];
		struct json_object *e = chk(w, json_object_new_object());

		put_int(w, e, "cpu", c);
		put_int(w, e, "core_id", cpu->core_id);
		put_int(w, e, "package", cpu->package_id);
		put_int(w, e, "node", cpu->node);
		put_bool(w, e, "online", cpu->online);
		put_int(w, e, "core", cpu->core);
		put_int(w, e, "thread", cpu->thread);
		push(w, cpus, e);
	}
	put(w, o, "cpus", cpus);
	return o;
}

/* Each public writer: the whole tree, or NULL and nothing leaked. */
#define WRITER(name, type, fn)						\
	struct json_object *name(const type *x)				\
	{								\
		struct jw w = { false };				\
		struct json_object *o = fn(&w, x);			\
									\
		if (w.oom) {						\
			json_object_put(o);				\
			return NULL;					\
		}							\
		return o;						\
	}

WRITER(np_topology_to_json, struct np_topology, topology_json)
WRITER(np_sysctl_to_json, struct np_sysctl, sysctl_json)
WRITER(np_dev_to_json, struct np_dev, dev_json)

int np_state_to_json(const struct np_state *st, struct json_object **ret)
{
	struct jw w = { false };
	struct json_object *o;

	if (!st || !ret)
		return -EINVAL;
	o = dev_json(&w, &st->dev);
	put(&w, o, "sysctl", sysctl_json(&w, &st->sys));
	put(&w, o, "topology", topology_json(&w, &st->topo));
	if (w.oom) {
		json_object_put(o);
		return -ENOMEM;
	}
	*ret = o;
	return 0;
}

/* --- reading ---------------------------------------------------------------- */

static void jpath(char *buf, const char *path, const char *key)
{
	/* a truncated path still names the place; the return value is used
	 * only to tell the compiler truncation was considered */
	if (snprintf(buf, JPATH, "%s%s%s", path, *path ? "." : "", key) >= JPATH)
		buf[JPATH - 1] = '\0';
}

static void jpath_idx(char *buf, const char *path, const char *key, size_t i)
{
	if (snprintf(buf, JPATH, "%s%s%s[%zu]", path, *path && *key ? "." : "", key, i) >= JPATH)
		buf[JPATH - 1] = '\0';
}

static int bad(struct np_error *err, const char *path, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad(struct np_error *err, const char *path, const char *key, const char *fmt, ...)
{
	char p[JPATH], what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (key)
		jpath(p, path, key);
	else
		snprintf(p, sizeof(p), "%s", *path ? path : "(top level)");
	return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "%s: %s", p, what);
}

static int oom(struct np_error *err)
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

static int member(struct json_object *o, const char *path, const char *key, enum json_type type,
		  struct json_object **ret, struct np_error *err)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		return bad(err, path, key, "missing");
	if (!json_object_is_type(v, type))
		return bad(err, path, key, "expected %s", type_word(type));
	*ret = v;
	return 0;
}

/* An integer value (not a member): path names it. */
static int int_value(struct json_object *v, const char *path, const char *key, int64_t min,
		     int64_t max, int64_t *ret, struct np_error *err)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return bad(err, path, key, "expected an integer");
	x = json_object_get_int64(v);
	if (x < min || x > max)
		return bad(err, path, key, "%" PRId64 " is out of range (%" PRId64 "..%" PRId64 ")",
			   x, min, max);
	*ret = x;
	return 0;
}

static int get_int(struct json_object *o, const char *path, const char *key, int64_t min,
		   int64_t max, int64_t *ret, struct np_error *err)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return bad(err, path, key, "missing");
	return int_value(v, path, key, min, max, ret, err);
}

static int get_u32(struct json_object *o, const char *path, const char *key, uint32_t *ret,
		   struct np_error *err)
{
	int64_t v;
	int r = get_int(o, path, key, 0, UINT32_MAX, &v, err);

	if (r == 0)
		*ret = (uint32_t)v;
	return r;
}

static int get_u64(struct json_object *o, const char *path, const char *key, uint64_t *ret,
		   struct np_error *err)
{
	struct json_object *v;
	int64_t x;
	int r = get_int(o, path, key, 0, INT64_MAX, &x, err);

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

static int get_bool(struct json_object *o, const char *path, const char *key, bool *ret,
		    struct np_error *err)
{
	struct json_object *v = NULL;
	int r = member(o, path, key, json_type_boolean, &v, err);

	if (r == 0)
		*ret = json_object_get_boolean(v);
	return r;
}

static int get_string(struct json_object *o, const char *path, const char *key, const char **ret,
		      struct np_error *err)
{
	struct json_object *v = NULL;
	int r = member(o, path, key, json_type_string, &v, err);

	if (r == 0)
		*ret = json_object_get_string(v);
	return r;
}

static int get_strbuf(struct json_object *o, const char *path, const char *key, char *buf,
		      size_t len, struct np_error *err)
{
	const char *s = "";
	int r = get_string(o, path, key, &s, err);

	if (r < 0)
		return r;
	if (strlen(s) >= len)
		return bad(err, path, key, "longer than %zu characters", len - 1);
	snprintf(buf, len, "%s", s);
	return 0;
}

/* A cpulist; bits at or above nbits (when nbits) are refused: a mask naming
 * a CPU the machine does not have cannot come from the kernel. */
static int mask_value(const char *s, const char *path, const char *key, unsigned nbits,
		      const char *unit, struct np_cpumask *ret, struct np_error *err)
{
	struct np_cpumask m;
	int r, hi;

	r = np_cpumask_parse_list(s, &m);
	if (r == -ERANGE)
		return bad(err, path, key, "'%.40s' names a %s beyond %d", s, unit, NP_CPUS_MAX - 1);
	if (r < 0)
		return bad(err, path, key, "'%.40s' is not a list like \"0-3,8\"", s);
	if (nbits && (hi = np_cpumask_next(&m, nbits)) >= 0)
		return bad(err, path, key, "%s %d is out of range (there are %u)", unit, hi, nbits);
	*ret = m;
	return 0;
}

static int get_mask(struct json_object *o, const char *path, const char *key, unsigned nbits,
		    struct np_cpumask *ret, struct np_error *err)
{
	const char *s = "";
	int r = get_string(o, path, key, &s, err);

	if (r < 0)
		return r;
	return mask_value(s, path, key, nbits, "CPU", ret, err);
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
		return bad(err, path, key, "missing");
	if (v) {
		*ret = v;
		return 1;
	}
	snprintf(k, sizeof(k), "%s_error", key);
	if (!json_object_object_get_ex(o, k, &e) || !json_object_is_type(e, json_type_string))
		return bad(err, path, k, "a null %s needs the error text as a string", key);
	code = np_errno_parse(json_object_get_string(e));
	*eret = code ? -code : -EIO;
	return 0;
}

static int get_u32_file(struct json_object *o, const char *path, const char *key, uint32_t *ret,
			int *eret, struct np_error *err)
{
	struct json_object *v;
	int64_t x;
	int r = file_value(o, path, key, &v, eret, err);

	if (r <= 0)
		return r;
	r = int_value(v, path, key, 0, UINT32_MAX, &x, err);
	if (r < 0)
		return r;
	*ret = (uint32_t)x;
	*eret = 0;
	return 0;
}

static int get_mask_file(struct json_object *o, const char *path, const char *key, unsigned nbits,
			 const char *unit, struct np_cpumask *ret, int *eret, struct np_error *err)
{
	struct json_object *v;
	int r = file_value(o, path, key, &v, eret, err);

	if (r <= 0)
		return r;
	if (!json_object_is_type(v, json_type_string))
		return bad(err, path, key, "expected a string");
	r = mask_value(json_object_get_string(v), path, key, nbits, unit, ret, err);
	if (r == 0)
		*eret = 0;
	return r;
}

/* A knob object.  Returns 1 (supported: read its values from *ret, whose
 * path is kpath), 0 (not: *kerr set) or -EINVAL. */
static int knob(struct json_object *o, const char *path, const char *key, struct json_object **ret,
		char *kpath, int *kerr, struct np_error *err)
{
	struct json_object *k = NULL, *v;
	bool sup = false;
	int r;

	r = member(o, path, key, json_type_object, &k, err);
	if (r < 0)
		return r;
	jpath(kpath, path, key);
	r = get_bool(k, kpath, "supported", &sup, err);
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

		r = int_value(v, kpath, "errno", 1, 4095, &e, err);
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

static int get_u32_fields(struct json_object *o, const char *path, void *base,
			  const struct u32field *f, size_t n, struct np_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int r = get_u32(o, path, f[i].key, u32at(base, &f[i]), err);

		if (r < 0)
			return r;
	}
	return 0;
}

static int read_link(struct json_object *o, const char *path, struct np_link *l,
		     struct np_error *err)
{
	struct json_object *k;
	char p[JPATH];
	const char *s = "";
	int r;

	r = knob(o, path, "link", &k, p, &l->err, err);
	if (r <= 0)
		return r;
	if ((r = get_u32(k, p, "speed", &l->speed, err)) < 0 ||
	    (r = get_string(k, p, "duplex", &s, err)) < 0 ||
	    (r = get_bool(k, p, "carrier", &l->carrier, err)) < 0)
		return r;
	if (!strcmp(s, "full"))
		l->duplex = DUPLEX_FULL_;
	else if (!strcmp(s, "half"))
		l->duplex = DUPLEX_HALF_;
	else if (!strcmp(s, "unknown"))
		l->duplex = DUPLEX_UNKNOWN_;
	else
		return bad(err, p, "duplex", "expected \"full\", \"half\" or \"unknown\"");
	return 0;
}

static int read_coalesce(struct json_object *o, const char *path, struct np_coalesce *c,
			 struct np_error *err)
{
	struct json_object_iterator it, end;
	struct json_object *k, *f;
	char p[JPATH], fp[JPATH];
	int r;

	r = knob(o, path, "coalesce", &k, p, &c->err, err);
	if (r <= 0)
		return r;
	r = member(k, p, "fields", json_type_object, &f, err);
	if (r < 0)
		return r;
	jpath(fp, p, "fields");
	it = json_object_iter_begin(f);
	end = json_object_iter_end(f);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *name = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		int i = np_coal_field_lookup(name);
		int64_t x;

		if (i < 0)
			return bad(err, fp, name, "unknown coalescing parameter");
		if (coal_is_bool(i)) {
			if (!json_object_is_type(v, json_type_boolean))
				return bad(err, fp, name, "expected true or false");
			c->val[i] = json_object_get_boolean(v);
		} else {
			r = int_value(v, fp, name, 0, UINT32_MAX, &x, err);
			if (r < 0)
				return r;
			c->val[i] = (uint32_t)x;
		}
		c->supported |= 1u << i;
	}
	/* optional: older documents have no "fixed" */
	if (json_object_object_get_ex(k, "fixed", &f)) {
		jpath(fp, p, "fixed");
		if (!json_object_is_type(f, json_type_array))
			return bad(err, p, "fixed", "expected an array of parameter names");
		for (size_t n = 0; n < json_object_array_length(f); n++) {
			struct json_object *v = json_object_array_get_idx(f, n);
			int i = json_object_is_type(v, json_type_string) ?
					np_coal_field_lookup(json_object_get_string(v)) : -1;

			if (i < 0 || !(c->supported & (1u << i)))
				return bad(err, p, "fixed", "expected names of parameters in \"fields\"");
			c->fixed |= 1u << i;
		}
	}
	return 0;
}

static int read_features(struct json_object *o, const char *path, struct np_features *fs,
			 struct np_error *err)
{
	struct json_object_iterator it, end;
	struct json_object *k, *list;
	char p[JPATH], lp[JPATH], fp[JPATH];
	int r;

	r = knob(o, path, "features", &k, p, &fs->err, err);
	if (r <= 0)
		return r;
	r = member(k, p, "list", json_type_object, &list, err);
	if (r < 0)
		return r;
	jpath(lp, p, "list");
	if (json_object_object_length(list) > 0) {
		fs->v = calloc((size_t)json_object_object_length(list), sizeof(*fs->v));
		if (!fs->v)
			return oom(err);
	}
	it = json_object_iter_begin(list);
	end = json_object_iter_end(list);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *name = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		struct np_feature *f = &fs->v[fs->n];

		if (!*name || strlen(name) >= NP_FEATURE_NAME_LEN)
			return bad(err, lp, name, "a feature name has 1 to %d characters",
				   NP_FEATURE_NAME_LEN - 1);
		if (!json_object_is_type(v, json_type_object))
			return bad(err, lp, name, "expected an object");
		jpath(fp, lp, name);
		if ((r = get_bool(v, fp, "active", &f->active, err)) < 0 ||
		    (r = get_bool(v, fp, "wanted", &f->wanted, err)) < 0 ||
		    (r = get_bool(v, fp, "fixed", &f->fixed, err)) < 0)
			return r;
		snprintf(f->name, sizeof(f->name), "%s", name);
		fs->n++;
	}
	return 0;
}

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "6d:5a:56" -> bytes; "" -> none */
static int parse_key(const char *s, const char *path, struct np_rss *r, struct np_error *err)
{
	size_t len = strlen(s), n;

	if (!len)
		return 0;
	if ((len + 1) % 3 || (n = (len + 1) / 3) > 1024)
		return bad(err, path, "key", "expected hex bytes like \"6d:5a:56\"");
	r->key = malloc(n);
	if (!r->key)
		return oom(err);
	for (size_t i = 0; i < n; i++) {
		int hi = hexdigit(s[i * 3]), lo = hexdigit(s[i * 3 + 1]);

		if (hi < 0 || lo < 0 || (i + 1 < n && s[i * 3 + 2] != ':'))
			return bad(err, path, "key", "expected hex bytes like \"6d:5a:56\"");
		r->key[i] = (uint8_t)(hi << 4 | lo);
	}
	r->key_size = (uint32_t)n;
	return 0;
}

static int read_rss(struct json_object *o, const char *path, struct np_rss *rss,
		    struct np_error *err)
{
	struct json_object *k, *indir;
	char p[JPATH], ip[JPATH];
	const char *s = "";
	size_t n;
	int r;

	r = knob(o, path, "rss", &k, p, &rss->err, err);
	if (r <= 0)
		return r;
	if ((r = get_u32(k, p, "indir_size", &rss->indir_size, err)) < 0 ||
	    (r = member(k, p, "indir", json_type_array, &indir, err)) < 0)
		return r;
	n = json_object_array_length(indir);
	if (n != rss->indir_size)
		return bad(err, p, "indir", "%zu entries, but indir_size is %u", n, rss->indir_size);
	if (n) {
		rss->indir = calloc(n, sizeof(*rss->indir));
		if (!rss->indir)
			return oom(err);
	}
	jpath(ip, p, "indir");
	for (size_t i = 0; i < n; i++) {
		char ep[JPATH];
		int64_t x;

		jpath_idx(ep, p, "indir", i);
		r = int_value(json_object_array_get_idx(indir, i), ep, NULL, 0, UINT32_MAX, &x, err);
		if (r < 0)
			return r;
		rss->indir[i] = (uint32_t)x;
	}
	if ((r = get_string(k, p, "key", &s, err)) < 0 || (r = parse_key(s, p, rss, err)) < 0 ||
	    (r = get_string(k, p, "hfunc", &s, err)) < 0)
		return r;
	if (!strcmp(s, "toeplitz"))
		rss->hfunc = NP_RSS_HASH_TOP;
	else if (!strcmp(s, "xor"))
		rss->hfunc = NP_RSS_HASH_XOR;
	else if (!strcmp(s, "crc32"))
		rss->hfunc = NP_RSS_HASH_CRC32;
	else if (!strcmp(s, "unknown"))
		rss->hfunc = 0;
	else
		return bad(err, p, "hfunc", "expected \"toeplitz\", \"xor\", \"crc32\" or \"unknown\"");
	return get_u32(k, p, "rx_rings", &rss->rx_rings, err);
}

static int read_napi(struct json_object *o, const char *path, struct np_napi *n,
		     struct np_error *err)
{
	struct json_object *k;
	char p[JPATH];
	int r;

	r = knob(o, path, "napi", &k, p, &n->err, err);
	if (r <= 0)
		return r;
	r = get_u32(k, p, "defer_hard_irqs", &n->defer_hard_irqs, err);
	if (r < 0)
		return r;
	return get_u64(k, p, "gro_flush_timeout", &n->gro_flush_timeout, err);
}

/* An array member whose elements are objects; *n its length. */
static int get_objects(struct json_object *o, const char *path, const char *key,
		       struct json_object **ret, size_t *n, struct np_error *err)
{
	int r = member(o, path, key, json_type_array, ret, err);

	if (r < 0)
		return r;
	*n = json_object_array_length(*ret);
	for (size_t i = 0; i < *n; i++) {
		if (!json_object_is_type(json_object_array_get_idx(*ret, i), json_type_object)) {
			char p[JPATH];

			jpath_idx(p, path, key, i);
			return bad(err, p, NULL, "expected an object");
		}
	}
	return 0;
}

/* Each queue names its index, so a hand-edited list cannot shift silently. */
static int check_index(struct json_object *e, const char *path, const char *key, size_t i,
		       struct np_error *err)
{
	int64_t q;
	int r = get_int(e, path, key, 0, INT32_MAX, &q, err);

	if (r < 0)
		return r;
	if ((size_t)q != i)
		return bad(err, path, key, "is %" PRId64 ", expected %zu (entries in order)", q, i);
	return 0;
}

static int read_queues(struct json_object *o, const char *path, struct np_dev *d, unsigned nbits,
		       struct np_error *err)
{
	struct json_object *qs, *rx, *tx;
	char p[JPATH], ep[JPATH];
	size_t nrx, ntx;
	int r;

	r = member(o, path, "queues", json_type_object, &qs, err);
	if (r < 0)
		return r;
	jpath(p, path, "queues");
	if ((r = get_objects(qs, p, "rx", &rx, &nrx, err)) < 0 ||
	    (r = get_objects(qs, p, "tx", &tx, &ntx, err)) < 0)
		return r;
	if (nrx > d->num_rx_queues)
		return bad(err, p, "rx", "%zu queues, but num_rx_queues is %u", nrx, d->num_rx_queues);
	if (ntx > d->num_tx_queues)
		return bad(err, p, "tx", "%zu queues, but num_tx_queues is %u", ntx, d->num_tx_queues);
	if (nrx && !(d->rxq = calloc(nrx, sizeof(*d->rxq))))
		return oom(err);
	d->n_rxq = (unsigned)nrx;
	if (ntx && !(d->txq = calloc(ntx, sizeof(*d->txq))))
		return oom(err);
	d->n_txq = (unsigned)ntx;
	for (size_t i = 0; i < nrx; i++) {
		struct json_object *e = json_object_array_get_idx(rx, i);
		struct np_rxq *q = &d->rxq[i];

		jpath_idx(ep, p, "rx", i);
		if ((r = check_index(e, ep, "queue", i, err)) < 0 ||
		    (r = get_mask_file(e, ep, "rps_cpus", nbits, "CPU", &q->rps_cpus, &q->rps_err,
				       err)) < 0 ||
		    (r = get_u32_file(e, ep, "rps_flow_cnt", &q->rps_flow_cnt, &q->flow_err, err)) < 0)
			return r;
	}
	for (size_t i = 0; i < ntx; i++) {
		struct json_object *e = json_object_array_get_idx(tx, i);
		struct np_txq *q = &d->txq[i];

		jpath_idx(ep, p, "tx", i);
		if ((r = check_index(e, ep, "queue", i, err)) < 0 ||
		    (r = get_mask_file(e, ep, "xps_cpus", nbits, "CPU", &q->xps_cpus, &q->xps_err,
				       err)) < 0 ||
		    (r = get_mask_file(e, ep, "xps_rxqs", d->num_rx_queues, "rx queue", &q->xps_rxqs,
				       &q->xps_rxqs_err, err)) < 0)
			return r;
	}
	return 0;
}

static int read_irq(struct json_object *e, const char *p, struct np_irq *q, unsigned nbits,
		    struct np_error *err)
{
	struct json_object *v;
	const char *kind = "";
	size_t k;
	int r;

	if ((r = get_u32(e, p, "irq", &q->irq, err)) < 0 ||
	    (r = get_strbuf(e, p, "name", q->name, sizeof(q->name), err)) < 0 ||
	    (r = get_string(e, p, "kind", &kind, err)) < 0)
		return r;
	for (k = 0; k < NP_ARRAY_SIZE(irq_kinds); k++)
		if (!strcmp(kind, irq_kinds[k]))
			break;
	if (k >= NP_ARRAY_SIZE(irq_kinds))
		return bad(err, p, "kind", "expected \"rx\", \"tx\", \"txrx\" or \"other\"");
	q->kind = (enum np_irq_kind)k;
	if (!json_object_object_get_ex(e, "queue", &v))
		return bad(err, p, "queue", "missing");
	if (v) {
		int64_t x;

		r = int_value(v, p, "queue", 0, INT32_MAX, &x, err);
		if (r < 0)
			return r;
		q->queue = (int)x;
	} else {
		q->queue = -1;
	}
	r = get_mask_file(e, p, "affinity", nbits, "CPU", &q->affinity, &q->err, err);
	if (r < 0 || q->err)
		return r;
	return get_mask(e, p, "effective", nbits, &q->effective, err);
}

static int read_irqs(struct json_object *o, const char *path, struct np_dev *d, unsigned nbits,
		     struct np_error *err)
{
	struct json_object *arr;
	char p[JPATH];
	size_t n;
	int r;

	r = get_objects(o, path, "irqs", &arr, &n, err);
	if (r < 0)
		return r;
	if (n && !(d->irq = calloc(n, sizeof(*d->irq))))
		return oom(err);
	for (size_t i = 0; i < n; i++) {
		jpath_idx(p, path, "irqs", i);
		r = read_irq(json_object_array_get_idx(arr, i), p, &d->irq[i], nbits, err);
		if (r < 0)
			return r;
		for (size_t j = 0; j < i; j++)
			if (d->irq[j].irq == d->irq[i].irq)
				return bad(err, p, "irq", "IRQ %u is listed twice", d->irq[i].irq);
		d->n_irq++;
	}
	return 0;
}

static int read_dev(struct json_object *o, const char *path, const struct np_topology *topo,
		    struct np_dev *d, struct np_error *err)
{
	unsigned nbits = topo ? topo->nr_cpus : 0;
	struct json_object *k;
	char p[JPATH];
	int64_t x;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return bad(err, path, NULL, "expected an object");
	if ((r = get_strbuf(o, path, "ifname", d->ifname, sizeof(d->ifname), err)) < 0)
		return r;
	if (np_ifname_validate(d->ifname, NULL) < 0)
		return bad(err, path, "ifname", "'%s' is not a valid device name", d->ifname);
	if ((r = get_int(o, path, "ifindex", 0, INT32_MAX, &x, err)) < 0)
		return r;
	d->ifindex = (int)x;
	if ((r = get_strbuf(o, path, "driver", d->driver, sizeof(d->driver), err)) < 0 ||
	    (r = get_strbuf(o, path, "bus_info", d->bus_info, sizeof(d->bus_info), err)) < 0 ||
	    (r = get_strbuf(o, path, "operstate", d->operstate, sizeof(d->operstate), err)) < 0 ||
	    (r = get_u32(o, path, "mtu", &d->mtu, err)) < 0 ||
	    (r = get_u32(o, path, "num_tx_queues", &d->num_tx_queues, err)) < 0 ||
	    (r = get_u32(o, path, "num_rx_queues", &d->num_rx_queues, err)) < 0 ||
	    (r = get_int(o, path, "numa_node", -1, NP_CPUS_MAX, &x, err)) < 0)
		return r;
	d->numa_node = (int)x;
	if (d->num_rx_queues > NP_CPUS_MAX * 8 || d->num_tx_queues > NP_CPUS_MAX * 8)
		return bad(err, path, d->num_rx_queues > NP_CPUS_MAX * 8 ? "num_rx_queues" :
			   "num_tx_queues", "more than %d queues", NP_CPUS_MAX * 8);
	if ((r = get_mask(o, path, "local_cpus", nbits, &d->local_cpus, err)) < 0 ||
	    (r = read_link(o, path, &d->link, err)) < 0)
		return r;
	r = knob(o, path, "channels", &k, p, &d->channels.err, err);
	if (r > 0)
		r = get_u32_fields(k, p, &d->channels, channel_fields, NP_ARRAY_SIZE(channel_fields),
				   err);
	if (r < 0)
		return r;
	r = knob(o, path, "rings", &k, p, &d->rings.err, err);
	if (r > 0)
		r = get_u32_fields(k, p, &d->rings, ring_fields, NP_ARRAY_SIZE(ring_fields), err);
	if (r < 0)
		return r;
	if ((r = read_coalesce(o, path, &d->coalesce, err)) < 0 ||
	    (r = read_features(o, path, &d->features, err)) < 0 ||
	    (r = read_rss(o, path, &d->rss, err)) < 0 ||
	    (r = read_napi(o, path, &d->napi, err)) < 0 ||
	    (r = read_queues(o, path, d, nbits, err)) < 0)
		return r;
	return read_irqs(o, path, d, nbits, err);
}

int np_dev_from_json(struct json_object *obj, const char *path, const struct np_topology *topo,
		     struct np_dev *ret, struct np_error *err)
{
	struct np_dev d;
	int r;

	memset(&d, 0, sizeof(d));
	r = read_dev(obj, path ? path : "", topo, &d, err);
	if (r < 0) {
		np_dev_clear(&d);
		return r;
	}
	*ret = d;
	return 0;
}

int np_sysctl_from_json(struct json_object *obj, const char *path, struct np_sysctl *ret,
			struct np_error *err)
{
	struct np_sysctl s;
	int r, e2 = 0;

	memset(&s, 0, sizeof(s));
	if (!path)
		path = "";
	if (!json_object_is_type(obj, json_type_object))
		return bad(err, path, NULL, "expected an object");
	if ((r = get_u32_file(obj, path, "rps_sock_flow_entries", &s.rps_sock_flow_entries,
			      &s.flow_entries_err, err)) < 0 ||
	    (r = get_u32_file(obj, path, "busy_poll", &s.busy_poll, &s.busy_err, err)) < 0 ||
	    (r = get_u32_file(obj, path, "busy_read", &s.busy_read, &e2, err)) < 0)
		return r;
	/* np_sysctl has one error for both busy-polling files */
	if (!s.busy_err)
		s.busy_err = e2;
	*ret = s;
	return 0;
}

/* Dense machine-wide core numbers and SMT thread numbers, as discovery
 * assigns them: in CPU order, among online CPUs. */
static int derive_cores(struct np_topology *t, const bool *given)
{
	struct { int package, core_id; unsigned threads; } *seen;
	unsigned n = 0;

	seen = calloc(t->nr_cpus ? t->nr_cpus : 1, sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		struct np_cpu *cpu = &t->cpus[c];
		unsigned i;

		if (!cpu->online)
			continue;
		for (i = 0; i < n; i++)
			if (seen[i].package == cpu->package_id && seen[i].core_id == cpu->core_id)
				break;
		if (i == n) {
			seen[n].package = cpu->package_id;
			seen[n].core_id = cpu->core_id;
			n++;
		}
		if (!given[c]) {
			cpu->core = (int)i;
			cpu->thread = (int)seen[i].threads;
		}
		seen[i].threads++;
	}
	free(seen);
	return 0;
}

static int read_cpu(struct json_object *e, const char *p, unsigned c, struct np_cpu *cpu,
		    bool *given, struct np_error *err)
{
	struct json_object *v;
	int64_t x;
	int r;

	if ((r = check_index(e, p, "cpu", c, err)) < 0 ||
	    (r = get_int(e, p, "core_id", 0, INT32_MAX, &x, err)) < 0)
		return r;
	cpu->core_id = (int)x;
	if ((r = get_int(e, p, "package", 0, INT32_MAX, &x, err)) < 0)
		return r;
	cpu->package_id = (int)x;
	if ((r = get_int(e, p, "node", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
		return r;
	cpu->node = (int)x;
	if ((r = get_bool(e, p, "online", &cpu->online, err)) < 0)
		return r;
	/* "core" and "thread" are derived when a hand-written model omits them */
	*given = json_object_object_get_ex(e, "core", &v);
	if (!*given)
		return 0;
	if ((r = get_int(e, p, "core", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
		return r;
	cpu->core = (int)x;
	if ((r = get_int(e, p, "thread", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
		return r;
	cpu->thread = (int)x;
	return 0;
}

static int read_topology(struct json_object *o, const char *path, struct np_topology *t,
			 struct np_error *err)
{
	struct json_object *nodes, *cpus, *v;
	bool *given = NULL;
	char p[JPATH];
	size_t n;
	int64_t x;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return bad(err, path, NULL, "expected an object");
	if ((r = get_int(o, path, "nr_cpus", 0, NP_CPUS_MAX, &x, err)) < 0)
		return r;
	t->nr_cpus = (unsigned)x;
	if ((r = get_mask(o, path, "online", t->nr_cpus, &t->online, err)) < 0 ||
	    (r = get_mask(o, path, "isolated", t->nr_cpus, &t->isolated, err)) < 0 ||
	    (r = get_mask(o, path, "nohz_full", t->nr_cpus, &t->nohz_full, err)) < 0 ||
	    (r = get_u32(o, path, "cores", &t->nr_cores, err)) < 0 ||
	    (r = get_u32(o, path, "packages", &t->nr_packages, err)) < 0 ||
	    (r = get_bool(o, path, "smt", &t->smt, err)) < 0)
		return r;
	/* "possible" is optional: every CPU below nr_cpus when absent */
	if (json_object_object_get_ex(o, "possible", &v)) {
		r = get_mask(o, path, "possible", t->nr_cpus, &t->possible, err);
		if (r < 0)
			return r;
	} else {
		for (unsigned c = 0; c < t->nr_cpus; c++)
			np_cpumask_set(&t->possible, c);
	}

	if ((r = get_objects(o, path, "nodes", &nodes, &n, err)) < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		jpath_idx(p, path, "nodes", i);
		r = get_int(json_object_array_get_idx(nodes, i), p, "node", 0, NP_CPUS_MAX - 1, &x,
			    err);
		if (r < 0)
			return r;
		if ((unsigned)x + 1 > t->nr_nodes)
			t->nr_nodes = (unsigned)x + 1;
	}
	if (t->nr_nodes && !(t->node_cpus = calloc(t->nr_nodes, sizeof(*t->node_cpus))))
		return oom(err);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(nodes, i), *id;

		jpath_idx(p, path, "nodes", i);
		json_object_object_get_ex(e, "node", &id);
		x = json_object_get_int64(id);
		for (size_t j = 0; j < i; j++) {
			json_object_object_get_ex(json_object_array_get_idx(nodes, j), "node", &id);
			if (json_object_get_int64(id) == x)
				return bad(err, p, "node", "node %" PRId64 " is listed twice", x);
		}
		r = get_mask(e, p, "cpus", t->nr_cpus, &t->node_cpus[x], err);
		if (r < 0)
			return r;
	}

	if ((r = get_objects(o, path, "cpus", &cpus, &n, err)) < 0)
		return r;
	if (n != t->nr_cpus)
		return bad(err, path, "cpus", "%zu entries, but nr_cpus is %u", n, t->nr_cpus);
	if (n && (!(t->cpus = calloc(n, sizeof(*t->cpus))) || !(given = calloc(n, sizeof(*given)))))
		return oom(err);
	for (unsigned c = 0; c < n; c++) {
		jpath_idx(p, path, "cpus", c);
		r = read_cpu(json_object_array_get_idx(cpus, c), p, c, &t->cpus[c], &given[c], err);
		if (r < 0)
			goto out;
		if (t->cpus[c].online != np_cpumask_test(&t->online, c)) {
			r = bad(err, p, "online", "does not match %s%sonline", path, *path ? "." : "");
			goto out;
		}
	}
	if (derive_cores(t, given) < 0)
		r = oom(err);
out:
	free(given);
	return r;
}

int np_topology_from_json(struct json_object *obj, const char *path, struct np_topology *ret,
			  struct np_error *err)
{
	struct np_topology t;
	int r;

	memset(&t, 0, sizeof(t));
	r = read_topology(obj, path ? path : "", &t, err);
	if (r < 0) {
		np_topology_clear(&t);
		return r;
	}
	*ret = t;
	return 0;
}

int np_state_from_json(struct json_object *dev, struct json_object *topology,
		       struct json_object *sysctl, struct np_state *ret, struct np_error *err)
{
	struct np_state st;
	int r = 0;

	memset(&st, 0, sizeof(st));
	if (topology)
		r = np_topology_from_json(topology, "topology", &st.topo, err);
	if (r >= 0 && sysctl)
		r = np_sysctl_from_json(sysctl, "sysctl", &st.sys, err);
	if (r >= 0)
		r = np_dev_from_json(dev, "", &st.topo, &st.dev, err);
	if (r < 0) {
		np_state_clear(&st);
		return r;
	}
	*ret = st;
	return 0;
}

int np_state_from_json_full(struct json_object *obj, struct np_state **ret, struct np_error *err)
{
	struct json_object *topo, *sys;
	struct np_state *st;
	int r;

	if (!json_object_is_type(obj, json_type_object))
		return bad(err, "", NULL, "expected an object");
	if ((r = member(obj, "", "topology", json_type_object, &topo, err)) < 0 ||
	    (r = member(obj, "", "sysctl", json_type_object, &sys, err)) < 0)
		return r;
	st = calloc(1, sizeof(*st));
	if (!st)
		return oom(err);
	r = np_state_from_json(obj, topo, sys, st, err);
	if (r < 0) {
		free(st);
		return r;
	}
	*ret = st;
	return 0;
}

/* --- driver consistency ------------------------------------------------------ */

int np_dev_check(const struct np_dev *d, const char *path, const struct np_topology *topo,
		 struct np_error *err)
{
	char p[JPATH];

	if (!path)
		path = "";
	if (topo && topo->nr_nodes && d->numa_node >= (int)topo->nr_nodes)
		return bad(err, path, "numa_node", "node %d does not exist (topology has %u)",
			   d->numa_node, topo->nr_nodes);
	if (!d->channels.err) {
		const struct np_channels *c = &d->channels;

		jpath(p, path, "channels");
		for (size_t i = 0; i < 4; i++) {
			uint32_t cur = *u32at((void *)c, &channel_fields[i]);
			uint32_t max = *u32at((void *)c, &channel_fields[i + 4]);

			if (cur > max)
				return bad(err, p, channel_fields[i].key, "%u exceeds %s %u", cur,
					   channel_fields[i + 4].key, max);
		}
		jpath(p, path, "queues");
		if (d->n_rxq != c->rx + c->combined)
			return bad(err, p, "rx", "%u queues, but channels rx + combined is %u",
				   d->n_rxq, c->rx + c->combined);
		if (d->n_txq != c->tx + c->combined)
			return bad(err, p, "tx", "%u queues, but channels tx + combined is %u",
				   d->n_txq, c->tx + c->combined);
	}
	if (!d->rings.err) {
		jpath(p, path, "rings");
		for (size_t i = 0; i < 4; i++) {
			uint32_t cur = *u32at((void *)&d->rings, &ring_fields[i]);
			uint32_t max = *u32at((void *)&d->rings, &ring_fields[i + 4]);

			if (cur > max)
				return bad(err, p, ring_fields[i].key, "%u exceeds %s %u", cur,
					   ring_fields[i + 4].key, max);
		}
	}
	if (!d->rss.err) {
		jpath(p, path, "rss");
		if (d->rss.indir_size && d->rss.rx_rings != d->n_rxq)
			return bad(err, p, "rx_rings", "is %u, but the device has %u rx queues",
				   d->rss.rx_rings, d->n_rxq);
		for (uint32_t i = 0; i < d->rss.indir_size; i++) {
			if (d->rss.indir[i] >= d->rss.rx_rings) {
				char ip[JPATH];

				jpath_idx(ip, p, "indir", i);
				return bad(err, ip, NULL, "queue %u is not below rx_rings %u",
					   d->rss.indir[i], d->rss.rx_rings);
			}
		}
	}
	return 0;
}
