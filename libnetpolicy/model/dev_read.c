/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One device of a state or model from JSON (netpolicy-model(5)). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_object_iterator.h>

#include "json_util.h"

static int read_link(struct json_object *o, const char *path, struct np_link *l,
		     struct np_error *err)
{
	struct json_object *k;
	char p[JPATH];
	const char *s = "";
	int r;

	r = np_j_knob(o, path, "link", &k, p, &l->err, err);
	if (r <= 0)
		return r;
	if ((r = np_j_get_u32(k, p, "speed", &l->speed, err)) < 0 ||
	    (r = np_j_get_string(k, p, "duplex", &s, err)) < 0 ||
	    (r = np_j_get_bool(k, p, "carrier", &l->carrier, err)) < 0)
		return r;
	if (!strcmp(s, "full"))
		l->duplex = NP_DUPLEX_FULL;
	else if (!strcmp(s, "half"))
		l->duplex = NP_DUPLEX_HALF;
	else if (!strcmp(s, "unknown"))
		l->duplex = NP_DUPLEX_UNKNOWN;
	else
		return np_j_bad(err, p, "duplex", "expected \"full\", \"half\" or \"unknown\"");
	return 0;
}

/* optional ("settable": false when the driver has no setter); older
 * documents have none */
static int read_settable(struct json_object *k, const char *p, bool *fixed, struct np_error *err)
{
	bool settable = true;

	if (json_object_object_get_ex(k, "settable", NULL)) {
		int r = np_j_get_bool(k, p, "settable", &settable, err);

		if (r < 0)
			return r;
	}
	*fixed = !settable;
	return 1;
}

/* {"rx-usecs": N, "adaptive-rx": BOOL, ...} into val; *mask gets the
 * fields read.  allowed: the fields it may name (all: UINT32_MAX). */
static int read_coal_fields(struct json_object *f, const char *fp, uint32_t allowed, uint32_t *val,
			    uint32_t *mask, struct np_error *err)
{
	struct json_object_iterator it = json_object_iter_begin(f), end = json_object_iter_end(f);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *name = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		int i = np_coal_field_lookup(name);
		int64_t x;
		int r;

		if (i < 0)
			return np_j_bad(err, fp, name, "unknown coalescing parameter");
		if (!(allowed & (1u << i)))
			return np_j_bad(err, fp, name, "not a per-queue field of the device");
		if (np_coal_is_bool(i)) {
			if (!json_object_is_type(v, json_type_boolean))
				return np_j_bad(err, fp, name, "expected true or false");
			val[i] = json_object_get_boolean(v);
		} else {
			r = np_j_int_value(v, fp, name, 0, UINT32_MAX, &x, err);
			if (r < 0)
				return r;
			val[i] = (uint32_t)x;
		}
		*mask |= 1u << i;
	}
	return 0;
}

/* An array of names of fields in `supported` into *ret. */
static int read_coal_names(struct json_object *k, const char *p, const char *key,
			   uint32_t supported, uint32_t *ret, struct np_error *err)
{
	struct json_object *f;

	if (!json_object_object_get_ex(k, key, &f))
		return 0;
	if (!json_object_is_type(f, json_type_array))
		return np_j_bad(err, p, key, "expected an array of parameter names");
	for (size_t n = 0; n < json_object_array_length(f); n++) {
		struct json_object *v = json_object_array_get_idx(f, n);
		int i = json_object_is_type(v, json_type_string) ?
				np_coal_field_lookup(json_object_get_string(v)) : -1;

		if (i < 0 || !(supported & (1u << i)))
			return np_j_bad(err, p, key, "expected names of parameters in \"fields\"");
		*ret |= 1u << i;
	}
	return 0;
}

static int read_coalesce(struct json_object *o, const char *path, struct np_coalesce *c,
			 struct np_error *err)
{
	struct json_object *k, *f;
	char p[JPATH], fp[JPATH];
	int r;

	r = np_j_knob(o, path, "coalesce", &k, p, &c->err, err);
	if (r <= 0)
		return r;
	r = np_j_member(k, p, "fields", json_type_object, &f, err);
	if (r < 0)
		return r;
	np_j_path(fp, p, "fields");
	r = read_coal_fields(f, fp, UINT32_MAX, c->val, &c->supported, err);
	/* optional: older documents have no "fixed", and a device without
	 * per-queue coalescing no "per_queue" */
	if (r >= 0)
		r = read_coal_names(k, p, "fixed", c->supported, &c->fixed, err);
	if (r >= 0)
		r = read_coal_names(k, p, "per_queue", c->supported, &c->per_queue, err);
	return r < 0 ? r : 0;
}

static int read_features(struct json_object *o, const char *path, struct np_features *fs,
			 struct np_error *err)
{
	struct json_object_iterator it, end;
	struct json_object *k, *list;
	char p[JPATH], lp[JPATH], fp[JPATH];
	int r;

	r = np_j_knob(o, path, "features", &k, p, &fs->err, err);
	if (r <= 0)
		return r;
	r = np_j_member(k, p, "list", json_type_object, &list, err);
	if (r < 0)
		return r;
	np_j_path(lp, p, "list");
	if (json_object_object_length(list) > 0) {
		fs->v = calloc((size_t)json_object_object_length(list), sizeof(*fs->v));
		if (!fs->v)
			return np_j_oom(err);
	}
	it = json_object_iter_begin(list);
	end = json_object_iter_end(list);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		const char *name = json_object_iter_peek_name(&it);
		struct json_object *v = json_object_iter_peek_value(&it);
		struct np_feature *f = &fs->v[fs->n];

		if (!*name || strlen(name) >= NP_FEATURE_NAME_LEN)
			return np_j_bad(err, lp, name, "a feature name has 1 to %d characters",
				   NP_FEATURE_NAME_LEN - 1);
		if (!json_object_is_type(v, json_type_object))
			return np_j_bad(err, lp, name, "expected an object");
		np_j_path(fp, lp, name);
		if ((r = np_j_get_bool(v, fp, "active", &f->active, err)) < 0 ||
		    (r = np_j_get_bool(v, fp, "wanted", &f->wanted, err)) < 0 ||
		    (r = np_j_get_bool(v, fp, "fixed", &f->fixed, err)) < 0)
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
		return np_j_bad(err, path, "key", "expected hex bytes like \"6d:5a:56\"");
	r->key = malloc(n);
	if (!r->key)
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		int hi = hexdigit(s[i * 3]), lo = hexdigit(s[i * 3 + 1]);

		if (hi < 0 || lo < 0 || (i + 1 < n && s[i * 3 + 2] != ':'))
			return np_j_bad(err, path, "key", "expected hex bytes like \"6d:5a:56\"");
		r->key[i] = (uint8_t)(hi << 4 | lo);
	}
	r->key_size = (uint32_t)n;
	return 0;
}

static int read_rss(struct json_object *o, const char *path, struct np_rss *rss,
		    struct np_error *err)
{
	struct json_object *k, *indir, *key;
	char p[JPATH];
	const char *s = "";
	size_t n;
	int r;

	r = np_j_knob(o, path, "rss", &k, p, &rss->err, err);
	if (r <= 0)
		return r;
	if ((r = np_j_get_u32(k, p, "indir_size", &rss->indir_size, err)) < 0 ||
	    (r = np_j_member(k, p, "indir", json_type_array, &indir, err)) < 0)
		return r;
	n = json_object_array_length(indir);
	if (n != rss->indir_size)
		return np_j_bad(err, p, "indir", "%zu entries, but indir_size is %u", n, rss->indir_size);
	if ((r = np_j_u32_array(indir, p, "indir", &rss->indir, err)) < 0)
		return r;
	/* null: no key (what show writes); "": the same, as older documents,
	 * journals among them, have it */
	if (!json_object_object_get_ex(k, "key", &key) || key)
		if ((r = np_j_get_string(k, p, "key", &s, err)) < 0 || (r = parse_key(s, p, rss, err)) < 0)
			return r;
	if ((r = np_j_get_string(k, p, "hfunc", &s, err)) < 0)
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
		return np_j_bad(err, p, "hfunc", "expected \"toeplitz\", \"xor\", \"crc32\" or \"unknown\"");
	return np_j_get_u32(k, p, "rx_rings", &rss->rx_rings, err);
}

static int read_napi(struct json_object *o, const char *path, struct np_napi *n,
		     struct np_error *err)
{
	struct json_object *k;
	char p[JPATH];
	int r;

	struct json_object *t;

	n->threaded_err = -ENOENT;	/* a model without it: no threaded file */
	r = np_j_knob(o, path, "napi", &k, p, &n->err, err);
	if (r <= 0)
		return r;
	if (json_object_object_get_ex(k, "threaded", &t) && t) {
		r = np_j_get_u32(k, p, "threaded", &n->threaded, err);
		if (r < 0)
			return r;
		if (n->threaded > 2)
			return np_j_bad(err, p, "threaded", "expected 0, 1 or 2");
		n->threaded_err = 0;
	}
	r = np_j_get_u32(k, p, "defer_hard_irqs", &n->defer_hard_irqs, err);
	if (r < 0)
		return r;
	return np_j_get_u64(k, p, "gro_flush_timeout", &n->gro_flush_timeout, err);
}

/* A queue's own coalescing ("coalesce", per_queue fields only); absent:
 * the device-wide values, which the drivers that have per-queue values
 * write to every queue (ice_set_coalesce() -> __ice_set_coalesce() with
 * q_num -1, drivers/net/ethernet/intel/ice/ice_ethtool.c). */
static int read_queue_coal(struct json_object *e, const char *ep, const struct np_dev *d,
			   struct np_rxq *q, struct np_error *err)
{
	struct json_object *f;
	char fp[JPATH];
	uint32_t got = 0;

	memcpy(q->coal, d->coalesce.val, sizeof(q->coal));
	if (!json_object_object_get_ex(e, "coalesce", &f))
		return 0;
	np_j_path(fp, ep, "coalesce");
	if (d->coalesce.err || !d->coalesce.per_queue)
		return np_j_bad(err, ep, "coalesce", "the device has no per-queue coalescing");
	if (!json_object_is_type(f, json_type_object))
		return np_j_bad(err, ep, "coalesce", "expected an object");
	return read_coal_fields(f, fp, d->coalesce.per_queue, q->coal, &got, err);
}

static int read_queues(struct json_object *o, const char *path, struct np_dev *d, unsigned nbits,
		       struct np_error *err)
{
	struct json_object *qs, *rx, *tx;
	char p[JPATH], ep[JPATH];
	size_t nrx, ntx;
	int r;

	r = np_j_member(o, path, "queues", json_type_object, &qs, err);
	if (r < 0)
		return r;
	np_j_path(p, path, "queues");
	if ((r = np_j_get_objects(qs, p, "rx", &rx, &nrx, err)) < 0 ||
	    (r = np_j_get_objects(qs, p, "tx", &tx, &ntx, err)) < 0)
		return r;
	if (nrx > d->num_rx_queues)
		return np_j_bad(err, p, "rx", "%zu queues, but num_rx_queues is %u", nrx, d->num_rx_queues);
	if (ntx > d->num_tx_queues)
		return np_j_bad(err, p, "tx", "%zu queues, but num_tx_queues is %u", ntx, d->num_tx_queues);
	if (nrx && !(d->rxq = calloc(nrx, sizeof(*d->rxq))))
		return np_j_oom(err);
	d->n_rxq = (unsigned)nrx;
	if (ntx && !(d->txq = calloc(ntx, sizeof(*d->txq))))
		return np_j_oom(err);
	d->n_txq = (unsigned)ntx;
	for (size_t i = 0; i < nrx; i++) {
		struct json_object *e = json_object_array_get_idx(rx, i);
		struct np_rxq *q = &d->rxq[i];

		np_j_path_idx(ep, p, "rx", i);
		if ((r = np_j_check_index(e, ep, "queue", i, err)) < 0 ||
		    (r = np_j_get_mask_file(e, ep, "rps_cpus", nbits, "CPU", &q->rps_cpus, &q->rps_err,
				       err)) < 0 ||
		    (r = np_j_get_u32_file(e, ep, "rps_flow_cnt", &q->rps_flow_cnt, &q->flow_err, err)) < 0 ||
		    (r = read_queue_coal(e, ep, d, q, err)) < 0)
			return r;
	}
	for (size_t i = 0; i < ntx; i++) {
		struct json_object *e = json_object_array_get_idx(tx, i);
		struct np_txq *q = &d->txq[i];

		np_j_path_idx(ep, p, "tx", i);
		if ((r = np_j_check_index(e, ep, "queue", i, err)) < 0 ||
		    (r = np_j_get_mask_file(e, ep, "xps_cpus", nbits, "CPU", &q->xps_cpus, &q->xps_err,
				       err)) < 0 ||
		    (r = np_j_get_mask_file(e, ep, "xps_rxqs", d->num_rx_queues, "rx queue", &q->xps_rxqs,
				       &q->xps_rxqs_err, err)) < 0)
			return r;
	}
	return 0;
}

/* String member key as an index of names[0..n) into *ret; absent is dflt
 * when dflt is not NULL (an optional member), else an error. */
static int get_enum(struct json_object *e, const char *p, const char *key, const char *dflt,
		    const char *const *names, size_t n, const char *expected, size_t *ret,
		    struct np_error *err)
{
	const char *s = dflt;
	int r;

	if ((!dflt || json_object_object_get_ex(e, key, NULL)) &&
	    (r = np_j_get_string(e, p, key, &s, err)) < 0)
		return r;
	for (*ret = 0; *ret < n && strcmp(s, names[*ret]); (*ret)++)
		;
	return *ret < n ? 0 : np_j_bad(err, p, key, "expected %s", expected);
}

/* "source" (absent: "name", what models before it meant) and "napi_id". */
static int irq_source(struct json_object *e, const char *p, struct np_irq *q,
		      struct np_error *err)
{
	size_t k;
	int r;

	r = get_enum(e, p, "source", "name", np_irq_source_names, NP_IRQ_SOURCES,
		     "\"kernel\", \"name\" or \"none\"", &k, err);
	if (r < 0)
		return r;
	q->source = (enum np_irq_source)k;
	if (q->source == NP_IRQ_SRC_NONE && (q->kind != NP_IRQ_OTHER || q->queue >= 0))
		return np_j_bad(err, p, "source", "\"none\" ties no queue: kind \"other\", queue null");
	q->napi_id = 0;
	if (json_object_object_get_ex(e, "napi_id", NULL))
		return np_j_get_u32(e, p, "napi_id", &q->napi_id, err);
	return 0;
}

static int read_irq(struct json_object *e, const char *p, struct np_irq *q, unsigned nbits,
		    struct np_error *err)
{
	struct json_object *v;
	size_t k;
	int r;

	if ((r = np_j_get_u32(e, p, "irq", &q->irq, err)) < 0 ||
	    (r = np_j_get_strbuf(e, p, "name", q->name, sizeof(q->name), err)) < 0 ||
	    (r = get_enum(e, p, "kind", NULL, np_irq_kind_names, NP_IRQ_KINDS,
			  "\"rx\", \"tx\", \"txrx\" or \"other\"", &k, err)) < 0)
		return r;
	q->kind = (enum np_irq_kind)k;
	if (!json_object_object_get_ex(e, "queue", &v))
		return np_j_bad(err, p, "queue", "missing");
	if (v) {
		int64_t x;

		r = np_j_int_value(v, p, "queue", 0, INT32_MAX, &x, err);
		if (r < 0)
			return r;
		q->queue = (int)x;
	} else {
		q->queue = -1;
	}
	r = irq_source(e, p, q, err);
	if (r < 0)
		return r;
	r = np_j_get_mask_file(e, p, "affinity", nbits, "CPU", &q->affinity, &q->err, err);
	if (r < 0 || q->err)
		return r;
	return np_j_get_mask(e, p, "effective", nbits, &q->effective, err);
}

/* The queue an IRQ serves must be one the device can have (a driver may
 * have vectors for queues not open now, never beyond its maximum). */
static int irq_queue_exists(const struct np_dev *d, const struct np_irq *q, const char *p,
			    struct np_error *err)
{
	unsigned max = q->kind == NP_IRQ_RX ? d->num_rx_queues :
		       q->kind == NP_IRQ_TX ? d->num_tx_queues :
		       d->num_rx_queues > d->num_tx_queues ? d->num_rx_queues : d->num_tx_queues;

	if (q->queue >= 0 && (unsigned)q->queue >= max)
		return np_j_bad(err, p, "queue", "queue %d does not exist (the device has %u)",
				q->queue, max);
	return 0;
}

static int read_irqs(struct json_object *o, const char *path, struct np_dev *d, unsigned nbits,
		     struct np_error *err)
{
	struct json_object *arr;
	char p[JPATH];
	size_t n;
	int r;

	r = np_j_get_objects(o, path, "irqs", &arr, &n, err);
	if (r < 0)
		return r;
	if (n && !(d->irq = calloc(n, sizeof(*d->irq))))
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		np_j_path_idx(p, path, "irqs", i);
		r = read_irq(json_object_array_get_idx(arr, i), p, &d->irq[i], nbits, err);
		if (r < 0 || (r = irq_queue_exists(d, &d->irq[i], p, err)) < 0)
			return r;
		for (size_t j = 0; j < i; j++)
			if (d->irq[j].irq == d->irq[i].irq)
				return np_j_bad(err, p, "irq", "IRQ %u is listed twice", d->irq[i].irq);
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
		return np_j_bad(err, path, NULL, "expected an object");
	if ((r = np_j_get_strbuf(o, path, "ifname", d->ifname, sizeof(d->ifname), err)) < 0)
		return r;
	if (np_ifname_validate(d->ifname, NULL) < 0)
		return np_j_bad(err, path, "ifname", "'%s' is not a valid device name", d->ifname);
	if ((r = np_j_get_int(o, path, "ifindex", 0, INT32_MAX, &x, err)) < 0)
		return r;
	d->ifindex = (int)x;
	if ((r = np_j_get_strbuf(o, path, "driver", d->driver, sizeof(d->driver), err)) < 0 ||
	    (r = np_j_get_strbuf(o, path, "bus_info", d->bus_info, sizeof(d->bus_info), err)) < 0 ||
	    (r = np_j_get_strbuf(o, path, "operstate", d->operstate, sizeof(d->operstate), err)) < 0 ||
	    (r = np_j_get_u32(o, path, "mtu", &d->mtu, err)) < 0 ||
	    (r = np_j_get_u32(o, path, "num_tx_queues", &d->num_tx_queues, err)) < 0 ||
	    (r = np_j_get_u32(o, path, "num_rx_queues", &d->num_rx_queues, err)) < 0 ||
	    (r = np_j_get_int(o, path, "numa_node", -1, NP_CPUS_MAX, &x, err)) < 0)
		return r;
	d->numa_node = (int)x;
	if (d->num_rx_queues > NP_CPUS_MAX * 8 || d->num_tx_queues > NP_CPUS_MAX * 8)
		return np_j_bad(err, path, d->num_rx_queues > NP_CPUS_MAX * 8 ? "num_rx_queues" :
			   "num_tx_queues", "more than %d queues", NP_CPUS_MAX * 8);
	if ((r = np_j_get_mask(o, path, "local_cpus", nbits, &d->local_cpus, err)) < 0 ||
	    (r = read_link(o, path, &d->link, err)) < 0)
		return r;
	r = np_j_knob(o, path, "channels", &k, p, &d->channels.err, err);
	if (r > 0)
		r = np_j_get_u32_fields(k, p, &d->channels, np_channel_fields, NP_U32FIELDS,
				   err) < 0 ? -EINVAL : read_settable(k, p, &d->channels.fixed, err);
	if (r < 0)
		return r;
	/* Open channels are queues: never more than the device has (the
	 * planner counts queues from them). */
	if (!d->channels.err && ((uint64_t)d->channels.rx + d->channels.combined > d->num_rx_queues ||
				 (uint64_t)d->channels.tx + d->channels.combined > d->num_tx_queues))
		return np_j_bad(err, path, "channels", "rx %u, tx %u, combined %u: more than the "
				"device's %u rx and %u tx queues", d->channels.rx, d->channels.tx,
				d->channels.combined, d->num_rx_queues, d->num_tx_queues);
	r = np_j_knob(o, path, "rings", &k, p, &d->rings.err, err);
	if (r > 0)
		r = np_j_get_u32_fields(k, p, &d->rings, np_ring_fields, NP_U32FIELDS, err) < 0 ?
			    -EINVAL : read_settable(k, p, &d->rings.fixed, err);
	if (r < 0)
		return r;
	if ((r = read_coalesce(o, path, &d->coalesce, err)) < 0 ||
	    (r = read_features(o, path, &d->features, err)) < 0 ||
	    (r = read_rss(o, path, &d->rss, err)) < 0 ||
	    (r = read_napi(o, path, &d->napi, err)) < 0 ||
	    (r = np_napis_from_json(o, path, &d->napis, err)) < 0 ||
	    (r = np_napi_threads_from_json(o, path, nbits, d, err)) < 0 ||
	    (r = np_steer_from_json(o, path, &d->steer, err)) < 0 ||
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
