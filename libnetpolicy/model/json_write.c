/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * np_state to JSON (schema: netpolicy-model(5)).  Output keeps a fixed key
 * order (json-c keeps insertion order) so golden files and diffs stay stable.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"


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

/* A per-file reading that failed: "key": null, "key_error": "text for
 * people", "key_errno": "EACCES" (the name: what readers use, whatever the
 * locale that wrote it; the number when it has no name here). */
static void put_file_err(struct jw *w, struct json_object *o, const char *key, int e)
{
	const char *name = np_errno_name(e);
	char k[64], num[16];

	snprintf(k, sizeof(k), "%s_error", key);
	put_null(w, o, key);
	put_str(w, o, k, errtext(e));
	snprintf(k, sizeof(k), "%s_errno", key);
	snprintf(num, sizeof(num), "%d", e < 0 ? -e : e);
	put_str(w, o, k, name ? name : num);
}

static void put_mask(struct jw *w, struct json_object *o, const char *key,
		     const struct np_cpumask *m)
{
	put(w, o, key, np_cpumask_to_json_str(m));
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

/* A per-file reading (the readers' np_j_get_*_file): its value, or why the
 * file could not be read. */
static void put_mask_file(struct jw *w, struct json_object *o, const char *key, int e,
			  const struct np_cpumask *m)
{
	if (e)
		put_file_err(w, o, key, e);
	else
		put_mask(w, o, key, m);
}

static void put_int_file(struct jw *w, struct json_object *o, const char *key, int e, int64_t v)
{
	if (e)
		put_file_err(w, o, key, e);
	else
		put_int(w, o, key, v);
}

static void put_u32_fields(struct jw *w, struct json_object *o, const void *base,
			   const struct np_u32field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_int(w, o, f[i].key, *np_u32at((void *)base, &f[i]));
}

static const char *duplex_name(uint8_t d)
{
	return d == NP_DUPLEX_FULL ? "full" : d == NP_DUPLEX_HALF ? "half" : "unknown";
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
		if (np_coal_is_bool(i))
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
	/* fields each queue has its own value of (ETHTOOL_PERQUEUE) */
	if (c->per_queue) {
		f = chk(w, json_object_new_array());
		for (int i = 0; i < NP_COAL__COUNT; i++)
			if (c->per_queue & (1u << i))
				push(w, f, chk(w, json_object_new_string(np_coal_field_name(i))));
		put(w, o, "per_queue", f);
	}
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
	/* a driver without get_rxfh_key_size (igb, vmxnet3) reports no key:
	 * absent, so null as every absent value, never "" */
	if (!r->key_size) {
		put_null(w, o, "key");
	} else if ((key = malloc((size_t)r->key_size * 3 + 1))) {
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

static struct json_object *queue_coal_json(struct jw *w, uint32_t fields, const uint32_t *val)
{
	struct json_object *f = chk(w, json_object_new_object());

	for (int i = 0; i < NP_COAL__COUNT; i++) {
		if (!(fields & (1u << i)))
			continue;
		if (np_coal_is_bool(i))
			put_bool(w, f, np_coal_field_name(i), val[i]);
		else
			put_int(w, f, np_coal_field_name(i), val[i]);
	}
	return f;
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
		put_mask_file(w, e, "rps_cpus", q->rps_err, &q->rps_cpus);
		put_int_file(w, e, "rps_flow_cnt", q->flow_err, q->rps_flow_cnt);
		if (!d->coalesce.err && d->coalesce.per_queue)
			put(w, e, "coalesce", queue_coal_json(w, d->coalesce.per_queue, q->coal));
		push(w, rx, e);
	}
	for (unsigned i = 0; i < d->n_txq; i++) {
		const struct np_txq *q = &d->txq[i];
		struct json_object *e = chk(w, json_object_new_object());

		put_int(w, e, "queue", i);
		put_mask_file(w, e, "xps_cpus", q->xps_err, &q->xps_cpus);
		put_mask_file(w, e, "xps_rxqs", q->xps_rxqs_err, &q->xps_rxqs);
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
		put_str(w, e, "kind", (unsigned)q->kind < NP_IRQ_KINDS ?
					      np_irq_kind_names[q->kind] : "other");
		if (q->queue >= 0)
			put_int(w, e, "queue", q->queue);
		else
			put_null(w, e, "queue");
		put_str(w, e, "source", (unsigned)q->source < NP_IRQ_SOURCES ?
						np_irq_source_names[q->source] : "name");
		if (q->napi_id)
			put_int(w, e, "napi_id", q->napi_id);
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
	{
		put_u32_fields(w, k, &d->channels, np_channel_fields, NP_U32FIELDS);
		put_bool(w, k, "settable", !d->channels.fixed);
	}
	put(w, o, "channels", k);

	k = knob_new(w, d->rings.err);
	if (!d->rings.err)
	{
		put_u32_fields(w, k, &d->rings, np_ring_fields, NP_U32FIELDS);
		put_bool(w, k, "settable", !d->rings.fixed);
	}
	put(w, o, "rings", k);

	put(w, o, "coalesce", coalesce_json(w, &d->coalesce));
	put(w, o, "features", features_json(w, &d->features));
	put(w, o, "rss", rss_json(w, &d->rss));

	k = knob_new(w, d->napi.err);
	if (!d->napi.err) {
		put_int(w, k, "defer_hard_irqs", d->napi.defer_hard_irqs);
		put_u64(w, k, "gro_flush_timeout", d->napi.gro_flush_timeout);
	}
	if (!d->napi.threaded_err)
		put_int(w, k, "threaded", d->napi.threaded);
	put(w, o, "napi", k);
	/* absent: the kernel has no napi-get, as in a model without it */
	if (!d->napis.err)
		put(w, o, "napis", np_napis_to_json(&d->napis));
	else if (d->napis.err != -EOPNOTSUPP)
		put_file_err(w, o, "napis", d->napis.err);
	if (d->n_napi_thread)
		put(w, o, "napi_threads", np_napi_threads_to_json(d));
	if (o && np_steer_to_json(&d->steer, o) < 0)
		w->oom = true;

	put(w, o, "queues", queues_json(w, d));
	put(w, o, "irqs", irqs_json(w, d));
	return o;
}

static void put_triple(struct jw *w, struct json_object *o, const char *key, int e,
		       const uint32_t v[3])
{
	struct json_object *a;

	if (e) {
		put_file_err(w, o, key, e);
		return;
	}
	a = chk(w, json_object_new_array());
	for (int i = 0; a && i < 3; i++)
		if (json_object_array_add(a, chk(w, json_object_new_int64(v[i]))) < 0)
			w->oom = true;
	put(w, o, key, a);
}

static struct json_object *sysctl_json(struct jw *w, const struct np_sysctl *s)
{
	struct json_object *o = chk(w, json_object_new_object());

	put_int_file(w, o, "rps_sock_flow_entries", s->flow_entries_err, s->rps_sock_flow_entries);
	put_int_file(w, o, "busy_poll", s->busy_err, s->busy_poll);
	put_int_file(w, o, "busy_read", s->busy_err, s->busy_read);
	put_int_file(w, o, "rmem_max", s->core_mem_err, s->rmem_max);
	put_int_file(w, o, "wmem_max", s->core_mem_err, s->wmem_max);
	put_triple(w, o, "tcp_rmem", s->tcp_mem_err, s->tcp_rmem);
	put_triple(w, o, "tcp_wmem", s->tcp_mem_err, s->tcp_wmem);
	put_int_file(w, o, "netdev_max_backlog", s->backlog_err, s->netdev_max_backlog);
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
		/* only where known: a machine without them writes what it did */
		if (t->nr_llcs && cpu->online && cpu->llc >= 0)
			put_int(w, e, "llc", cpu->llc);
		if (t->nr_clusters && cpu->online && cpu->cluster >= 0)
			put_int(w, e, "cluster", cpu->cluster);
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
	if (!st->pm.err && st->pm.n)	/* only where it was read */
		put(&w, o, "pm_qos", chk(&w, np_pm_to_json(&st->pm, &st->topo.online)));
	if (w.oom) {
		json_object_put(o);
		return -ENOMEM;
	}
	*ret = o;
	return 0;
}
