/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The serializer (state <-> JSON) and the simulated backend: every fixture
 * model loads, states survive a round trip, bad input is refused naming its
 * JSON path, the sim's setters behave like drivers, faults fire, and changes
 * are saved where a second context sees them.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "np_serialize.h"
#include "tap.h"

static const char *const models[] = {
	"mlx5-2s64c", "ice-100g", "ixgbe-16cpu", "virtio-4q", "vm-1cpu", "few-msix", "isolated",
	"ice-mixed", "mlx5-mixed",
};

static char srcdir[1024], tmpdir[256];

static void setup_dirs(void)
{
	const char *s = getenv("NP_SRCDIR");

	if (s && *s) {
		snprintf(srcdir, sizeof(srcdir), "%s", s);
	} else {
		/* run by hand from a build directory: __FILE__ is relative to it */
		const char *file = __FILE__, *tail = strstr(file, "tests/unit/");

		if (tail && tail > file)
			snprintf(srcdir, sizeof(srcdir), "%.*s", (int)(tail - file - 1), file);
		else
			snprintf(srcdir, sizeof(srcdir), ".");
	}
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/np-test-serialize.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		exit(99);
	}
}

static void cleanup_dirs(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char p[512];

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(tmpdir);
}

static const char *fixture(const char *name)
{
	static char p[1200];

	snprintf(p, sizeof(p), "%s/tests/fixtures/models/%s.json", srcdir, name);
	return p;
}

/* A private copy the test may change; returns its path (static per slot). */
static const char *copy_model(const char *name, const char *as)
{
	static char paths[8][600];
	static int slot;
	char *p = paths[slot++ % 8];
	struct json_object *o = json_object_from_file(fixture(name));

	snprintf(p, 600, "%s/%s.json", tmpdir, as);
	if (!o || json_object_to_file(p, o) < 0) {
		printf("# cannot copy %s to %s\n", fixture(name), p);
		exit(99);
	}
	json_object_put(o);
	return p;
}

static struct json_object *read_json(const char *path)
{
	return json_object_from_file(path);
}

static void write_json(const char *path, struct json_object *o)
{
	if (json_object_to_file(path, o) < 0) {
		printf("# cannot write %s\n", path);
		exit(99);
	}
}

static struct json_object *dev0(struct json_object *root)
{
	struct json_object *devs;

	json_object_object_get_ex(root, "devices", &devs);
	return json_object_array_get_idx(devs, 0);
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static struct np_ctx *ctx_for(const char *model, struct np_error *err)
{
	struct np_ctx *ctx = NULL;

	np_error_clear(err);
	if (np_ctx_new(&ctx, err) < 0 || np_ctx_set_state_dir(ctx, tmpdir, err) < 0 ||
	    np_ctx_set_model(ctx, model, err) < 0) {
		printf("# ctx: %s\n", err->msg);
		exit(99);
	}
	return ctx;
}

static struct np_backend *backend(struct np_ctx *ctx)
{
	struct np_backend *be = NULL;
	struct np_error err;

	np_error_clear(&err);
	if (np_ctx_backend(ctx, &be, &err) < 0) {
		printf("# backend: %s\n", err.msg);
		exit(99);
	}
	return be;
}

static struct np_state *discover(struct np_ctx *ctx, const char *ifname)
{
	struct np_state *st = NULL;
	struct np_error err;

	np_error_clear(&err);
	if (np_discover(ctx, ifname, &st, &err) < 0) {
		printf("# discover %s: %s\n", ifname, err.msg);
		return NULL;
	}
	return st;
}

static const char *mask(const struct np_cpumask *m)
{
	static char buf[4][1024];
	static int i;
	char *b = buf[i++ % 4];

	if (np_cpumask_format_list(m, b, 1024) < 0)
		snprintf(b, 1024, "(too long)");
	return b;
}

static char *to_text(const struct np_state *st)
{
	struct json_object *o = NULL;
	char *s;

	if (np_state_to_json(st, &o) < 0)
		return NULL;
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

/* Field by field (struct padding is not data). */
static bool states_equal(const struct np_state *a, const struct np_state *b)
{
	const struct np_topology *x = &a->topo, *y = &b->topo;
	const struct np_dev *d = &a->dev, *e = &b->dev;

	if (x->nr_cpus != y->nr_cpus || x->nr_nodes != y->nr_nodes || x->nr_cores != y->nr_cores ||
	    x->nr_packages != y->nr_packages || x->smt != y->smt ||
	    !np_cpumask_equal(&x->online, &y->online) ||
	    !np_cpumask_equal(&x->possible, &y->possible) ||
	    !np_cpumask_equal(&x->isolated, &y->isolated) ||
	    !np_cpumask_equal(&x->nohz_full, &y->nohz_full))
		return false;
	for (unsigned i = 0; i < x->nr_cpus; i++) {
		const struct np_cpu *p = &x->cpus[i], *q = &y->cpus[i];

		if (p->core_id != q->core_id || p->package_id != q->package_id ||
		    p->node != q->node || p->core != q->core || p->thread != q->thread ||
		    p->online != q->online)
			return false;
	}
	for (unsigned i = 0; i < x->nr_nodes; i++)
		if (!np_cpumask_equal(&x->node_cpus[i], &y->node_cpus[i]))
			return false;
	if (strcmp(d->ifname, e->ifname) || d->ifindex != e->ifindex ||
	    strcmp(d->driver, e->driver) || strcmp(d->bus_info, e->bus_info) ||
	    strcmp(d->operstate, e->operstate) || d->mtu != e->mtu ||
	    d->num_tx_queues != e->num_tx_queues || d->num_rx_queues != e->num_rx_queues ||
	    d->numa_node != e->numa_node || !np_cpumask_equal(&d->local_cpus, &e->local_cpus))
		return false;
	/* the values of a knob that could not be read are meaningless and not written */
#define KNOB_DIFFERS(k, values_differ) \
	(d->k.err != e->k.err || (!d->k.err && (values_differ)))
	if (KNOB_DIFFERS(link, d->link.speed != e->link.speed || d->link.duplex != e->link.duplex ||
				   d->link.carrier != e->link.carrier))
		return false;
	if (KNOB_DIFFERS(channels, d->channels.combined != e->channels.combined ||
				       d->channels.rx != e->channels.rx ||
				       d->channels.tx != e->channels.tx ||
				       d->channels.other != e->channels.other ||
				       d->channels.max_combined != e->channels.max_combined ||
				       d->channels.max_rx != e->channels.max_rx ||
				       d->channels.max_tx != e->channels.max_tx ||
				       d->channels.max_other != e->channels.max_other))
		return false;
	if (KNOB_DIFFERS(rings, d->rings.rx != e->rings.rx || d->rings.tx != e->rings.tx ||
				    d->rings.rx_mini != e->rings.rx_mini ||
				    d->rings.rx_jumbo != e->rings.rx_jumbo ||
				    d->rings.max_rx != e->rings.max_rx ||
				    d->rings.max_tx != e->rings.max_tx ||
				    d->rings.max_rx_mini != e->rings.max_rx_mini ||
				    d->rings.max_rx_jumbo != e->rings.max_rx_jumbo))
		return false;
	if (KNOB_DIFFERS(coalesce, d->coalesce.supported != e->coalesce.supported ||
				       memcmp(d->coalesce.val, e->coalesce.val,
					      sizeof(d->coalesce.val))))
		return false;
	if (KNOB_DIFFERS(features, d->features.n != e->features.n))
		return false;
	for (unsigned i = 0; !d->features.err && i < d->features.n; i++)
		if (strcmp(d->features.v[i].name, e->features.v[i].name) ||
		    d->features.v[i].wanted != e->features.v[i].wanted ||
		    d->features.v[i].active != e->features.v[i].active ||
		    d->features.v[i].fixed != e->features.v[i].fixed)
			return false;
	if (KNOB_DIFFERS(rss, d->rss.indir_size != e->rss.indir_size ||
				  d->rss.key_size != e->rss.key_size || d->rss.hfunc != e->rss.hfunc ||
				  d->rss.rx_rings != e->rss.rx_rings ||
				  (d->rss.indir_size &&
				   memcmp(d->rss.indir, e->rss.indir, d->rss.indir_size * 4)) ||
				  (d->rss.key_size && memcmp(d->rss.key, e->rss.key, d->rss.key_size))))
		return false;
	if (KNOB_DIFFERS(napi, d->napi.defer_hard_irqs != e->napi.defer_hard_irqs ||
				   d->napi.gro_flush_timeout != e->napi.gro_flush_timeout))
		return false;
#undef KNOB_DIFFERS
	if (d->n_rxq != e->n_rxq || d->n_txq != e->n_txq || d->n_irq != e->n_irq)
		return false;
	for (unsigned i = 0; i < d->n_rxq; i++)
		if (d->rxq[i].rps_err != e->rxq[i].rps_err || d->rxq[i].flow_err != e->rxq[i].flow_err ||
		    (!d->rxq[i].rps_err &&
		     !np_cpumask_equal(&d->rxq[i].rps_cpus, &e->rxq[i].rps_cpus)) ||
		    (!d->rxq[i].flow_err && d->rxq[i].rps_flow_cnt != e->rxq[i].rps_flow_cnt))
			return false;
	for (unsigned i = 0; i < d->n_txq; i++)
		if (d->txq[i].xps_err != e->txq[i].xps_err ||
		    d->txq[i].xps_rxqs_err != e->txq[i].xps_rxqs_err ||
		    (!d->txq[i].xps_err &&
		     !np_cpumask_equal(&d->txq[i].xps_cpus, &e->txq[i].xps_cpus)) ||
		    (!d->txq[i].xps_rxqs_err &&
		     !np_cpumask_equal(&d->txq[i].xps_rxqs, &e->txq[i].xps_rxqs)))
			return false;
	for (unsigned i = 0; i < d->n_irq; i++) {
		const struct np_irq *p = &d->irq[i], *q = &e->irq[i];

		if (p->irq != q->irq || strcmp(p->name, q->name) || p->kind != q->kind ||
		    p->queue != q->queue || p->err != q->err ||
		    (!p->err && (!np_cpumask_equal(&p->affinity, &q->affinity) ||
				 !np_cpumask_equal(&p->effective, &q->effective))))
			return false;
	}
	return a->sys.rps_sock_flow_entries == b->sys.rps_sock_flow_entries &&
	       a->sys.flow_entries_err == b->sys.flow_entries_err &&
	       a->sys.busy_err == b->sys.busy_err && a->sys.busy_poll == b->sys.busy_poll &&
	       a->sys.busy_read == b->sys.busy_read;
}

static bool round_trip(const struct np_state *st)
{
	struct json_object *o = NULL;
	struct np_state *back = NULL;
	struct np_error err;
	char *a, *b = NULL;
	bool same;

	np_error_clear(&err);
	a = to_text(st);
	o = json_tokener_parse(a);
	if (!o || np_state_from_json_full(o, &back, &err) < 0) {
		printf("# round trip: %s\n", err.msg);
		json_object_put(o);
		free(a);
		return false;
	}
	b = to_text(back);
	same = states_equal(st, back) && b && !strcmp(a, b);
	json_object_put(o);
	np_state_free(back);
	free(a);
	free(b);
	return same;
}

/* --- every fixture model --------------------------------------------------- */

static void test_fixtures(void)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(models); i++) {
		struct np_error err;
		struct np_ctx *ctx = ctx_for(fixture(models[i]), &err);
		struct np_state *st;
		char **names = NULL;
		size_t n = 0;

		ok(np_list_devices(ctx, &names, &n, &err) == 0 && n == 1, "%s: one device listed",
		   models[i]);
		st = n ? discover(ctx, names[0]) : NULL;
		ok(st != NULL, "%s: %s discovered through the sim backend", models[i],
		   n ? names[0] : "?");
		if (st) {
			ok(round_trip(st), "%s: state -> JSON -> state is lossless", models[i]);
			ok(st->topo.nr_cpus > 0 && st->topo.nr_nodes > 0 && st->topo.nr_cores > 0,
			   "%s: topology has CPUs, nodes and cores", models[i]);
		}
		is_str(np_ctx_backend_name(ctx), "sim", "%s: backend is sim", models[i]);
		np_state_free(st);
		np_list_free(names, n);
		np_ctx_free(ctx);
	}
}

static void test_mlx5_shape(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("mlx5-2s64c"), &err);
	struct np_state *st = discover(ctx, "ens1f0np0");
	const struct np_topology *t;
	const struct np_dev *d;

	if (!st) {
		ok(0, "mlx5 model discovered");
		np_ctx_free(ctx);
		return;
	}
	t = &st->topo;
	d = &st->dev;
	is_int(t->nr_cpus, 128, "mlx5: 128 CPUs");
	is_int(t->nr_nodes, 2, "mlx5: 2 NUMA nodes");
	is_int(t->nr_cores, 64, "mlx5: 64 physical cores");
	ok(t->smt, "mlx5: SMT");
	is_str(mask(&t->node_cpus[1]), "32-63,96-127", "mlx5: node 1 CPUs");
	is_int(t->cpus[96].core, 32, "mlx5: CPU 96 is the sibling of CPU 32 (core 32)");
	is_int(t->cpus[96].thread, 1, "mlx5: CPU 96 is thread 1");
	is_int(d->numa_node, 1, "mlx5: NIC on node 1");
	is_int(d->channels.max_combined, 63, "mlx5: 63 channels max");
	is_int(d->rings.max_rx, 8192, "mlx5: rings max 8192");
	is_int(d->rss.indir_size, 512, "mlx5: 512-entry indirection table");
	is_int(d->rss.key_size, 40, "mlx5: 40-byte key");
	ok(d->coalesce.supported & (1u << NP_COAL_CQE_MODE_RX), "mlx5: cqe-mode-rx supported");
	ok(!(d->coalesce.supported & (1u << NP_COAL_RX_USECS_IRQ)), "mlx5: rx-usecs-irq not");
	is_int(d->n_irq, 64, "mlx5: 63 completion IRQs + async");
	is_int(d->irq[1].queue, 0, "mlx5: mlx5_comp0 serves queue 0");
	is_str(mask(&d->irq[1].affinity), "32", "mlx5: comp0 on the first local CPU");
	is_str(mask(&d->txq[32].xps_cpus), "96", "mlx5: tx-32 XPS on the first local sibling");
	np_state_free(st);
	np_ctx_free(ctx);
}

/* --- JSON form ------------------------------------------------------------- */

static void test_schema(void)
{
	static const char *const order[] = {
		"ifname", "ifindex", "driver", "bus_info", "operstate", "mtu", "num_tx_queues",
		"num_rx_queues", "numa_node", "local_cpus", "link", "channels", "rings",
		"coalesce", "features", "rss", "napi", "ntuple", "rss_contexts", "queues", "irqs", "sysctl", "topology",
	};
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("virtio-4q"), &err);
	struct np_state *st = discover(ctx, "enp0s3");
	struct json_object *o = NULL, *v;
	struct json_object_iterator it, end;
	size_t i = 0;
	bool in_order = true;
	struct np_cpumask m;

	if (!st || np_state_to_json(st, &o) < 0) {
		ok(0, "virtio state serialized");
		goto out;
	}
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it), i++)
		if (i >= NP_ARRAY_SIZE(order) || strcmp(order[i], json_object_iter_peek_name(&it)))
			in_order = false;
	ok(in_order && i == NP_ARRAY_SIZE(order), "top-level keys in the schema's order");
	v = get(get(o, "rss"), "supported");
	ok(v && !json_object_get_boolean(v), "virtio: rss.supported is false");
	is_int(json_object_get_int(get(get(o, "rss"), "errno")), 95, "virtio: rss.errno 95");
	is_str(json_object_get_string(get(get(o, "rss"), "error")), "Operation not supported",
	       "virtio: rss.error is strerror's text");
	v = get(get(get(o, "coalesce"), "fields"), "adaptive-rx");
	ok(v && json_object_is_type(v, json_type_boolean), "adaptive-rx is a boolean");
	v = json_object_array_get_idx(get(o, "irqs"), 0);
	ok(get(v, "queue") == NULL && json_object_object_get_ex(v, "queue", NULL),
	   "the config IRQ has \"queue\": null");
	is_str(json_object_get_string(get(v, "kind")), "other", "virtio0-config is kind other");
	is_str(json_object_get_string(get(json_object_array_get_idx(get(get(o, "queues"), "tx"),
								       2), "xps_cpus")),
	       "2", "tx-2 xps_cpus as a cpulist");
	np_cpumask_zero(&m);
	v = np_cpumask_to_json_str(&m);
	is_str(json_object_get_string(v), "", "an empty mask is \"\"");
	json_object_put(v);
out:
	json_object_put(o);
	np_state_free(st);
	np_ctx_free(ctx);
}

/* Per-file errors, unsupported knobs and odd values survive the trip. */
static void test_errors_round_trip(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("few-msix"), &err);
	struct np_state *st = discover(ctx, "eno1");
	struct json_object *o = NULL, *q;

	if (!st) {
		ok(0, "few-msix discovered");
		np_ctx_free(ctx);
		return;
	}
	st->dev.rxq[1].rps_err = -ENOENT;
	st->dev.rxq[2].flow_err = -EACCES;
	st->dev.txq[3].xps_err = -ENOENT;
	st->dev.txq[3].xps_rxqs_err = -EPERM;
	st->dev.irq[2].err = -EIO;
	st->dev.link.err = -ENODATA;
	st->dev.coalesce.err = -EOPNOTSUPP;
	st->dev.napi.err = -ENOENT;
	st->sys.flow_entries_err = -ENOENT;
	st->sys.busy_err = -EACCES;
	st->dev.napi.err = 0;
	st->dev.napi.gro_flush_timeout = UINT64_C(1) << 40;
	st->dev.rss.hfunc = NP_RSS_HASH_XOR;
	ok(round_trip(st), "errors, a 2^40 gro_flush_timeout and xor survive the round trip");
	if (np_state_to_json(st, &o) == 0) {
		q = json_object_array_get_idx(get(get(o, "queues"), "rx"), 1);
		ok(json_object_object_get_ex(q, "rps_cpus", NULL) && !get(q, "rps_cpus"),
		   "unreadable rps_cpus is null");
		is_str(json_object_get_string(get(q, "rps_cpus_error")), "No such file or directory",
		       "... with rps_cpus_error");
		is_str(json_object_get_string(get(get(o, "sysctl"), "busy_read_error")),
		       "Permission denied", "sysctl busy_read_error");
		is_int(json_object_get_int(get(get(o, "link"), "errno")), ENODATA, "link errno");
	}
	json_object_put(o);
	np_state_free(st);
	np_ctx_free(ctx);
}

/* --- validation -------------------------------------------------------------- */

typedef void (*edit_fn)(struct json_object *root);

static void set_int(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void set_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static void e_max_string(struct json_object *r)
{
	set_str(get(dev0(r), "channels"), "max_combined", "63");
}

static void e_combined_over(struct json_object *r)
{
	set_int(get(dev0(r), "channels"), "combined", 64);
	set_int(dev0(r), "num_rx_queues", 64);
}

static void e_zero_cpus(struct json_object *r)
{
	set_int(get(r, "topology"), "nr_cpus", 0);
}

/* near 2^32: a 32-bit size sum in the planner wrapped into a heap overflow */
static void e_cores_huge(struct json_object *r)
{
	set_int(get(r, "topology"), "cores", 4294967292LL);
}

static void e_packages_over(struct json_object *r)
{
	set_int(get(r, "topology"), "packages", 100000);
}

/* the planner's queue count was an unsigned difference that wrapped */
static void e_channels_over_queues(struct json_object *r)
{
	set_int(get(dev0(r), "channels"), "max_combined", 5000);
	set_int(get(dev0(r), "channels"), "combined", 4000);
}

static void e_irq_queue_missing(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(dev0(r), "irqs"), 2), "queue", 100000);
}

static void e_core_beyond(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(get(r, "topology"), "cpus"), 3), "core", 70);
}

static void e_queues_short(struct json_object *r)
{
	json_object_array_del_idx(get(get(dev0(r), "queues"), "rx"), 62, 1);
}

static void e_core_id(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(get(r, "topology"), "cpus"), 3), "core_id", -1);
}

static void e_affinity(struct json_object *r)
{
	set_str(json_object_array_get_idx(get(dev0(r), "irqs"), 1), "affinity", "0,200");
}

static void e_indir(struct json_object *r)
{
	json_object_array_del_idx(get(get(dev0(r), "rss"), "indir"), 0, 1);
}

static void e_indir_queue(struct json_object *r)
{
	json_object_array_put_idx(get(get(dev0(r), "rss"), "indir"), 5, json_object_new_int(63));
}

static void e_coal(struct json_object *r)
{
	set_int(get(get(dev0(r), "coalesce"), "fields"), "rx-bogus", 1);
}

static void e_no_ifname(struct json_object *r)
{
	json_object_object_del(dev0(r), "ifname");
}

static void e_not_model(struct json_object *r)
{
	json_object_object_del(r, "netpolicy_model");
}

static void e_fault_op(struct json_object *r)
{
	struct json_object *f = json_object_new_object();

	set_str(f, "op", "set_everything");
	json_object_array_add(get(r, "faults"), f);
}

static void e_queue_order(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(get(dev0(r), "queues"), "tx"), 4), "queue", 5);
}

static void e_dup_irq(struct json_object *r)
{
	set_int(json_object_array_get_idx(get(dev0(r), "irqs"), 2), "irq", 154);
}

static void e_online(struct json_object *r)
{
	json_object_object_add(json_object_array_get_idx(get(get(r, "topology"), "cpus"), 7),
			       "online", json_object_new_boolean(0));
}

static void e_bool(struct json_object *r)
{
	set_int(get(get(dev0(r), "coalesce"), "fields"), "adaptive-rx", 1);
}

static void e_null_no_error(struct json_object *r)
{
	json_object_object_add(json_object_array_get_idx(get(get(dev0(r), "queues"), "rx"), 0),
			       "rps_cpus", NULL);
}

static void test_validation(void)
{
	static const struct {
		edit_fn edit;
		const char *want;
	} cases[] = {
		{ e_max_string, "devices[0].channels.max_combined: expected an integer" },
		{ e_combined_over, "devices[0].channels.combined: 64 exceeds max_combined 63" },
		{ e_zero_cpus, "topology.nr_cpus: 0 is out of range (1..2048)" },
		{ e_cores_huge, "topology.cores: 4294967292 is out of range (1..nr_cpus" },
		{ e_packages_over, "topology.packages: 100000 is out of range (1..nr_cpus" },
		{ e_channels_over_queues, "devices[0].channels: rx 0, tx 0, combined 4000: more than" },
		{ e_irq_queue_missing, "devices[0].irqs[2].queue: queue 100000 does not exist" },
		{ e_core_beyond, "topology.cpus[3].core: core 70, but there are" },
		{ e_queues_short, "devices[0].queues.rx: 62 queues, but channels rx + combined is 63" },
		{ e_core_id, "topology.cpus[3].core_id: -1 is out of range" },
		{ e_affinity, "devices[0].irqs[1].affinity: CPU 200 is out of range" },
		{ e_indir, "devices[0].rss.indir: 511 entries, but indir_size is 512" },
		{ e_indir_queue, "devices[0].rss.indir[5]: queue 63 is not below rx_rings 63" },
		{ e_coal, "devices[0].coalesce.fields.rx-bogus: unknown coalescing parameter" },
		{ e_no_ifname, "devices[0].ifname: missing" },
		{ e_not_model, "netpolicy_model: expected 1" },
		{ e_fault_op, "faults[0]: op: unknown operation 'set_everything'" },
		{ e_queue_order, "devices[0].queues.tx[4].queue: is 5, expected 4" },
		{ e_dup_irq, "devices[0].irqs[2].irq: IRQ 154 is listed twice" },
		{ e_online, "topology.cpus[7].online: does not match topology.online" },
		{ e_bool, "devices[0].coalesce.fields.adaptive-rx: expected true or false" },
		{ e_null_no_error, "devices[0].queues.rx[0].rps_cpus_error: a null rps_cpus needs" },
	};

	for (size_t i = 0; i < NP_ARRAY_SIZE(cases); i++) {
		const char *path = copy_model("mlx5-2s64c", "bad");
		struct json_object *root = read_json(path);
		struct np_state *st = NULL;
		struct np_error err;
		struct np_ctx *ctx;
		int r;

		cases[i].edit(root);
		write_json(path, root);
		json_object_put(root);
		ctx = ctx_for(path, &err);
		r = np_discover(ctx, "ens1f0np0", &st, &err);
		is_int(r, -EINVAL, "bad model %zu refused with -EINVAL", i);
		ok(strstr(err.msg, cases[i].want) != NULL, "... naming the path: %s", cases[i].want);
		if (!strstr(err.msg, cases[i].want))
			printf("#   message: %s\n", err.msg);
		np_state_free(st);
		np_ctx_free(ctx);
	}
}

/* A state document (not a model): paths start at the device. */
static void test_state_validation(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("ixgbe-16cpu"), &err);
	struct np_state *st = discover(ctx, "enp3s0f0"), *back = NULL;
	struct json_object *o = NULL;
	int r;

	if (!st || np_state_to_json(st, &o) < 0) {
		ok(0, "ixgbe state serialized");
		goto out;
	}
	set_str(get(o, "channels"), "max_combined", "x");
	np_error_clear(&err);
	r = np_state_from_json_full(o, &back, &err);
	is_int(r, -EINVAL, "state with a string count refused");
	is_str(err.msg, "channels.max_combined: expected an integer", "message names the path");
	set_int(get(o, "channels"), "max_combined", 63);
	json_object_object_del(o, "topology");
	np_error_clear(&err);
	r = np_state_from_json_full(o, &back, &err);
	is_str(err.msg, "topology: missing", "a state needs its topology");
	np_error_clear(&err);
	ok(np_state_from_json_full(json_object_array_get_idx(get(o, "irqs"), 0), &back, &err) < 0,
	   "an IRQ object is not a state");
out:
	json_object_put(o);
	np_state_free(st);
	np_state_free(back);
	np_ctx_free(ctx);
}

static void test_errno_names(void)
{
	is_int(np_errno_parse("EBUSY"), EBUSY, "errno name");
	is_int(np_errno_parse("16"), 16, "errno number");
	/* strerror() text depends on the locale that wrote it: never read back */
	is_int(np_errno_parse("Operation not supported"), 0, "strerror text is not an errno");
	is_int(np_errno_parse("EWHATEVER"), 0, "unknown name");
	is_str(np_errno_name(-EOVERFLOW), "EOVERFLOW", "name of -EOVERFLOW");
}

/* --- the sim backend's driver behaviour -------------------------------------------- */

static int set_channels(struct np_ctx *ctx, const char *ifname, uint32_t combined,
			struct np_error *err)
{
	struct np_state *st = discover(ctx, ifname);
	struct np_backend *be = backend(ctx);
	struct np_channels want;
	int r;

	if (!st)
		return -ENODEV;
	want = st->dev.channels;
	want.combined = combined;
	np_error_clear(err);
	r = be->ops->set_channels(be, &st->dev, &want, err);
	np_state_free(st);
	return r;
}

static int write_attr(struct np_ctx *ctx, const char *ifname, enum np_attr attr, unsigned index,
		      const char *value, struct np_error *err)
{
	struct np_backend *be = backend(ctx);
	struct np_dev dev;

	memset(&dev, 0, sizeof(dev));
	snprintf(dev.ifname, sizeof(dev.ifname), "%s", ifname);
	np_error_clear(err);
	return be->ops->write_attr(be, &dev, attr, index, value, err);
}

static void test_sim_channels(void)
{
	const char *path = copy_model("mlx5-2s64c", "chan");
	const char *ifname = "ens1f0np0";
	struct np_error err;
	struct np_ctx *ctx = ctx_for(path, &err), *ctx2;
	struct np_backend *be = backend(ctx);
	struct np_state *st;
	uint32_t table[512];
	int r;

	r = set_channels(ctx, ifname, 64, &err);
	is_int(r, -EINVAL, "64 channels on a 63-channel NIC: -EINVAL");
	is_str(err.extack, "requested channel count exceeds maximum", "... with the kernel's extack");
	is_str(err.knob, "channels", "... for knob channels");

	is_int(set_channels(ctx, ifname, 32, &err), 0, "32 channels");
	st = discover(ctx, ifname);
	if (!st) {
		ok(0, "rediscovered");
		np_ctx_free(ctx);
		return;
	}
	is_int(st->dev.n_rxq, 32, "32 rx queues after the change");
	is_int(st->dev.n_txq, 32, "32 tx queues");
	is_int(st->dev.rss.rx_rings, 32, "RSS spreads over 32 rings");
	ok(st->dev.rss.indir[40] == 8 && st->dev.rss.indir[511] == 31,
	   "the default table was re-spread over 32 queues");
	/* np_drivers.h: mlx5's completion EQs are made at probe, a channel
	 * change keeps their vectors (and affinity) and rewrites XPS */
	is_str(mask(&st->dev.irq[1].affinity), "32", "mlx5: queue IRQ affinity kept");
	is_str(mask(&st->dev.irq[0].affinity), "32-63,96-127", "the async IRQ kept its affinity");
	is_str(mask(&st->dev.txq[0].xps_cpus), "0-3", "XPS back to the driver default (tx-0)");
	is_str(mask(&st->dev.txq[31].xps_cpus), "124-127", "XPS default (tx-31)");
	ok(round_trip(st), "the changed state round-trips");
	np_state_free(st);

	/* save-back: a second context reading the file sees the change */
	ctx2 = ctx_for(path, &err);
	st = discover(ctx2, ifname);
	is_int(st ? st->dev.channels.combined : 0, 32, "a second context sees 32 channels");
	np_state_free(st);
	is_int(set_channels(ctx2, ifname, 48, &err), 0, "the second context grows to 48");
	st = discover(ctx, ifname);
	is_int(st ? st->dev.n_rxq : 0, 48, "the first context re-reads the replaced model");
	ok(st && np_cpumask_empty(&st->dev.rxq[47].rps_cpus) && st->dev.rxq[47].rps_flow_cnt == 0,
	   "new queues start with empty RPS masks");
	np_state_free(st);
	np_ctx_free(ctx2);

	/* a user-set table pins the queues it names */
	for (unsigned i = 0; i < 512; i++)
		table[i] = i % 16;
	st = discover(ctx, ifname);
	r = be->ops->set_rss_indir(be, &st->dev, table, 512, &err);
	is_int(r, 0, "user RSS table over queues 0-15");
	np_state_free(st);
	r = set_channels(ctx, ifname, 8, &err);
	is_int(r, -EINVAL, "shrinking below a queue the table uses: -EINVAL");
	is_str(err.extack, "requested channel count is too low for existing indirection table settings",
	       "... with the kernel's extack");
	is_int(set_channels(ctx, ifname, 20, &err), 0, "20 channels still cover the table");
	st = discover(ctx, ifname);
	ok(st && st->dev.rss.indir[17] == 1 && st->dev.rss.rx_rings == 20,
	   "the user table survives the channel change");
	r = be->ops->set_rss_indir(be, &st->dev, table, 100, &err);
	is_int(r, -EINVAL, "a table of the wrong size: -EINVAL");
	table[3] = 20;
	r = be->ops->set_rss_indir(be, &st->dev, table, 512, &err);
	is_int(r, -EINVAL, "an entry beyond the rx rings: -EINVAL");
	r = be->ops->set_rss_indir(be, &st->dev, NULL, 0, &err);
	is_int(r, 0, "back to the default table");
	np_state_free(st);
	is_int(set_channels(ctx, ifname, 8, &err), 0, "with the default table 8 channels are fine");
	st = discover(ctx, ifname);
	ok(st && st->dev.rss.indir[9] == 1, "and the default table follows to 8 queues");
	np_state_free(st);
	np_ctx_free(ctx);
}

static void test_sim_knobs(void)
{
	const char *path = copy_model("mlx5-2s64c", "knobs");
	const char *ifname = "ens1f0np0";
	struct np_error err;
	struct np_ctx *ctx = ctx_for(path, &err);
	struct np_backend *be = backend(ctx);
	struct np_state *st = discover(ctx, ifname);
	struct np_rings rg;
	struct np_coalesce co;
	const struct np_feature *f;
	int r;

	if (!st) {
		ok(0, "mlx5 copy discovered");
		np_ctx_free(ctx);
		return;
	}
	rg = st->dev.rings;
	rg.rx = 8193;
	np_error_clear(&err);
	r = be->ops->set_rings(be, &st->dev, &rg, &err);
	is_int(r, -EINVAL, "rx ring 8193 > 8192: -EINVAL");
	is_str(err.extack, "requested ring size exceeds maximum", "... with the kernel's extack");
	rg.rx = 4096;
	is_int(be->ops->set_rings(be, &st->dev, &rg, &err), 0, "rx ring 4096");

	co = st->dev.coalesce;
	co.val[NP_COAL_RX_USECS_IRQ] = 5;
	np_error_clear(&err);
	r = be->ops->set_coalesce(be, &st->dev, &co, 1u << NP_COAL_RX_USECS_IRQ, &err);
	is_int(r, -EOPNOTSUPP, "rx-usecs-irq on mlx5: -EOPNOTSUPP");
	is_str(err.extack, "cannot modify an unsupported parameter", "... with the kernel's extack");
	co.val[NP_COAL_RX_USECS] = 0;
	co.val[NP_COAL_ADAPTIVE_RX] = 7;
	r = be->ops->set_coalesce(be, &st->dev, &co,
				  1u << NP_COAL_RX_USECS | 1u << NP_COAL_ADAPTIVE_RX, &err);
	is_int(r, 0, "rx-usecs 0, adaptive-rx on");

	is_int(be->ops->set_feature(be, &st->dev, "rx-ntuple-filter", true, &err), 0,
	       "rx-ntuple-filter on");
	is_int(be->ops->set_feature(be, &st->dev, "highdma", false, &err), 0,
	       "a fixed feature: accepted, like the kernel");
	np_error_clear(&err);
	is_int(be->ops->set_feature(be, &st->dev, "rx-bogus", true, &err), -EINVAL,
	       "an unknown feature: -EINVAL");
	np_state_free(st);

	st = discover(ctx, ifname);
	if (st) {
		is_int(st->dev.rings.rx, 4096, "rings saved");
		is_int(st->dev.coalesce.val[NP_COAL_RX_USECS], 0, "rx-usecs saved");
		is_int(st->dev.coalesce.val[NP_COAL_ADAPTIVE_RX], 1, "adaptive-rx stored as 1");
		f = np_features_find(&st->dev.features, "rx-ntuple-filter");
		ok(f && f->wanted && f->active, "rx-ntuple-filter is on");
		f = np_features_find(&st->dev.features, "highdma");
		ok(f && f->active, "the fixed feature did not change");
	}
	np_state_free(st);

	/* sysfs and procfs files */
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 0, "1,00000000,00000000,00000000,00000000",
			  &err), -EOVERFLOW, "rps_cpus naming CPU 128 of 128: -EOVERFLOW");
	is_int(write_attr(ctx, ifname, NP_ATTR_XPS_CPUS, 0, "1,00000000,00000000,00000000,00000000",
			  &err), -EOVERFLOW, "xps_cpus naming CPU 128: -EOVERFLOW");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 0, "zz", &err), -EINVAL,
	       "rps_cpus garbage: -EINVAL");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 99, "1", &err), -ENOENT,
	       "rps_cpus of a queue that does not exist: -ENOENT");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_CPUS, 1, "00000000,00000000,00000000,0000000f",
			  &err), 0, "rps_cpus 0-3 on rx-1");
	is_int(write_attr(ctx, ifname, NP_ATTR_RPS_FLOW_CNT, 1, "100", &err), 0,
	       "rps_flow_cnt 100");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 154, "0-200", &err), -ERANGE,
	       "IRQ affinity naming CPU 200: -ERANGE");
	is_str(err.knob, "irq-affinity", "... for knob irq-affinity");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 9999, "1", &err), -ENOENT,
	       "an IRQ that does not exist: -ENOENT");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 154, "5-7", &err), 0,
	       "IRQ 154 affinity 5-7");
	is_int(write_attr(ctx, ifname, NP_ATTR_SOCK_FLOW_ENTRIES, 0, "1000", &err), 0,
	       "rps_sock_flow_entries 1000");
	is_int(write_attr(ctx, ifname, NP_ATTR_SOCK_FLOW_ENTRIES, 0, "1073741824", &err), -EINVAL,
	       "rps_sock_flow_entries 2^30: -EINVAL");
	is_int(write_attr(ctx, ifname, NP_ATTR_BUSY_POLL, 0, "50\n", &err), 0, "busy_poll 50");
	is_int(write_attr(ctx, ifname, NP_ATTR_NAPI_DEFER_HARD_IRQS, 0, "2", &err), 0,
	       "napi_defer_hard_irqs 2");
	is_int(write_attr(ctx, ifname, NP_ATTR_GRO_FLUSH_TIMEOUT, 0, "20000", &err), 0,
	       "gro_flush_timeout 20000");
	st = discover(ctx, ifname);
	if (st) {
		is_str(mask(&st->dev.rxq[1].rps_cpus), "0-3", "rps_cpus read back");
		is_int(st->dev.rxq[1].rps_flow_cnt, 128, "rps_flow_cnt rounded up to 128");
		is_str(mask(&st->dev.irq[1].affinity), "5-7", "IRQ affinity read back");
		is_str(mask(&st->dev.irq[1].effective), "5", "effective affinity: one CPU of it");
		is_int(st->sys.rps_sock_flow_entries, 1024, "rps_sock_flow_entries rounded to 1024");
		is_int(st->sys.busy_poll, 50, "busy_poll read back");
		is_int(st->dev.napi.defer_hard_irqs, 2, "defer_hard_irqs read back");
		ok(st->dev.napi.gro_flush_timeout == 20000, "gro_flush_timeout read back");
	}
	np_state_free(st);
	np_error_clear(&err);
	st = NULL;
	is_int(np_discover(ctx, "eth9", &st, &err), -ENODEV, "an unknown device: -ENODEV");
	is_str(err.msg, "no such device", "... 'no such device'");
	np_ctx_free(ctx);
}

static void test_sim_isolated_and_unsupported(void)
{
	const char *path = copy_model("isolated", "iso");
	struct np_error err;
	struct np_ctx *ctx = ctx_for(path, &err);
	struct np_state *st;
	struct np_backend *be;
	struct np_channels ch;

	is_int(write_attr(ctx, "enp1s0f0", NP_ATTR_RPS_CPUS, 0, "000000fc", &err), -EINVAL,
	       "rps_cpus of isolated CPUs only: -EINVAL (housekeeping CPUs only)");
	is_int(write_attr(ctx, "enp1s0f0", NP_ATTR_RPS_CPUS, 0, "000000ff", &err), 0,
	       "rps_cpus 0-7 with 2-7 isolated");
	st = discover(ctx, "enp1s0f0");
	is_str(st ? mask(&st->dev.rxq[0].rps_cpus) : "?", "0-1", "the isolated CPUs were dropped");
	is_str(st ? mask(&st->topo.isolated) : "?", "2-7,18-23", "isolated CPUs in the topology");
	np_state_free(st);
	np_ctx_free(ctx);

	path = copy_model("vm-1cpu", "vm");
	ctx = ctx_for(path, &err);
	be = backend(ctx);
	st = discover(ctx, "enp0s2");
	if (!st) {
		ok(0, "vm-1cpu discovered");
		np_ctx_free(ctx);
		return;
	}
	is_int(st->dev.channels.err, -EOPNOTSUPP, "e1000e: channels unsupported");
	is_int(st->dev.rss.err, -EOPNOTSUPP, "e1000e: RSS unsupported");
	ch = st->dev.channels;
	ch.combined = 1;
	np_error_clear(&err);
	is_int(be->ops->set_channels(be, &st->dev, &ch, &err), -EOPNOTSUPP,
	       "set_channels on e1000e: -EOPNOTSUPP");
	np_error_clear(&err);
	is_int(be->ops->set_rss_indir(be, &st->dev, NULL, 0, &err), -EOPNOTSUPP,
	       "set_rss_indir on e1000e: -EOPNOTSUPP");
	is_int(st->dev.n_irq, 3, "e1000e: rx, tx and other IRQs");
	np_state_free(st);
	np_ctx_free(ctx);
}

/* --- faults ---------------------------------------------------------------------------- */

static void add_fault(const char *path, const char *op, int after, const char *mode,
		      const char *errname, const char *extack)
{
	struct json_object *root = read_json(path), *f = json_object_new_object();

	set_str(f, "op", op);
	set_int(f, "after", after);
	if (mode)
		set_str(f, "mode", mode);
	if (errname)
		set_str(f, "errno", errname);
	if (extack)
		set_str(f, "extack", extack);
	json_object_array_add(get(root, "faults"), f);
	write_json(path, root);
	json_object_put(root);
}

static int64_t calls_in_file(const char *path, const char *op)
{
	struct json_object *root = read_json(path);
	int64_t n = json_object_get_int64(get(get(root, "calls"), op));

	json_object_put(root);
	return n;
}

static void test_faults(void)
{
	const char *path = copy_model("virtio-4q", "faults"), *ifname = "enp0s3";
	struct np_error err;
	struct np_ctx *ctx;
	struct np_backend *be;
	struct np_state *st;
	struct np_rings rg;
	struct np_coalesce co;
	char **names = NULL;
	size_t n = 9;

	{
		/* the fixture's virtio device has no VIRTIO_NET_F_NOTF_COAL (its
		 * coalescing fixed); the round fault needs a settable field */
		struct json_object *o = read_json(path), *d, *c;

		if (json_object_object_get_ex(o, "devices", &d) &&
		    json_object_object_get_ex(json_object_array_get_idx(d, 0), "coalesce", &c))
			json_object_object_del(c, "fixed");
		write_json(path, o);
		json_object_put(o);
	}
	add_fault(path, "set_channels", 1, NULL, "EBUSY", "device is busy");
	ctx = ctx_for(path, &err);
	is_int(set_channels(ctx, ifname, 2, &err), 0, "fail fault: 1st set_channels passes");
	is_int(set_channels(ctx, ifname, 3, &err), -EBUSY, "2nd fails with the fault's errno");
	is_str(err.extack, "device is busy", "... and its extack");
	is_int(set_channels(ctx, ifname, 3, &err), 0, "3rd passes again");
	is_int(calls_in_file(path, "set_channels"), 3, "the call counter is saved in the model");
	np_ctx_free(ctx);

	/* the count continues across contexts (CLI invocations) */
	add_fault(path, "set_channels", 3, NULL, "5", NULL);
	ctx = ctx_for(path, &err);
	is_int(set_channels(ctx, ifname, 4, &err), -EIO, "4th call (a new context) fails: errno 5");
	np_ctx_free(ctx);

	add_fault(path, "set_rings", 0, "ignore", NULL, NULL);
	add_fault(path, "set_rings", 1, "round", NULL, NULL);
	add_fault(path, "set_coalesce", 0, "round", NULL, NULL);
	add_fault(path, "write_attr", 0, "round", NULL, NULL);
	add_fault(path, "write_attr", 1, "round", NULL, NULL);
	add_fault(path, "discover", 1, NULL, "EAGAIN", NULL);
	ctx = ctx_for(path, &err);
	be = backend(ctx);
	st = discover(ctx, ifname);
	if (!st) {
		ok(0, "virtio copy discovered");
		np_ctx_free(ctx);
		return;
	}
	np_error_clear(&err);
	ok(np_discover(ctx, ifname, &(struct np_state *){ NULL }, &err) == -EAGAIN,
	   "discover fault: the 2nd discover fails with EAGAIN");
	rg = st->dev.rings;
	rg.rx = 128;
	is_int(be->ops->set_rings(be, &st->dev, &rg, &err), 0, "ignore fault: reports success");
	rg.rx = 100;
	rg.tx = 200;
	is_int(be->ops->set_rings(be, &st->dev, &rg, &err), 0, "round fault on rings");
	co = st->dev.coalesce;
	co.val[NP_COAL_RX_USECS] = 7;
	co.val[NP_COAL_ADAPTIVE_RX] = 1;
	is_int(be->ops->set_coalesce(be, &st->dev, &co,
				     1u << NP_COAL_RX_USECS | 1u << NP_COAL_ADAPTIVE_RX, &err), 0,
	       "round fault on coalesce");
	is_int(write_attr(ctx, ifname, NP_ATTR_IRQ_AFFINITY, 25, "1-3", &err), 0,
	       "round fault on an IRQ mask");
	is_int(write_attr(ctx, ifname, NP_ATTR_BUSY_POLL, 0, "50", &err), 0,
	       "round fault on busy_poll");
	np_state_free(st);
	st = discover(ctx, ifname);
	if (st) {
		is_int(st->dev.rings.rx, 128, "rings: rx 100 rounded up to 128 (the ignored 128 "
		       "never applied either)");
		is_int(st->dev.rings.tx, 256, "rings: tx 200 rounded up to 256");
		is_int(st->dev.coalesce.val[NP_COAL_RX_USECS], 4, "coalesce: 7 rounded down to 4");
		is_int(st->dev.coalesce.val[NP_COAL_ADAPTIVE_RX], 1, "booleans are not rounded");
		is_str(mask(&st->dev.irq[1].affinity), "1", "IRQ mask reduced to its lowest CPU");
		is_int(st->sys.busy_poll, 48, "busy_poll 50 rounded down to 48");
	}
	np_state_free(st);
	np_ctx_free(ctx);

	add_fault(path, "write_attr", 2, "vanish", NULL, NULL);
	ctx = ctx_for(path, &err);
	is_int(write_attr(ctx, ifname, NP_ATTR_XPS_CPUS, 0, "1", &err), -ENODEV,
	       "vanish fault: the call fails with ENODEV");
	np_error_clear(&err);
	st = NULL;
	is_int(np_discover(ctx, ifname, &st, &err), -ENODEV, "... and the device is gone");
	ok(np_list_devices(ctx, &names, &n, &err) == 0 && n == 0, "... from the list too");
	np_list_free(names, n);
	np_ctx_free(ctx);
	ctx = ctx_for(path, &err);
	st = NULL;
	is_int(np_discover(ctx, ifname, &st, &err), -ENODEV, "... and from the saved model");
	np_ctx_free(ctx);

	/* a fault naming a device fires only for it */
	path = copy_model("virtio-4q", "faultdev");
	{
		struct json_object *root = read_json(path), *f = json_object_new_object();

		set_str(f, "op", "set_channels");
		set_str(f, "device", "eth7");
		set_str(f, "errno", "EBUSY");
		json_object_array_add(get(root, "faults"), f);
		write_json(path, root);
		json_object_put(root);
	}
	ctx = ctx_for(path, &err);
	is_int(set_channels(ctx, ifname, 2, &err), 0, "a fault for another device does not fire");
	np_ctx_free(ctx);

	/* a fault with a mode that makes no sense is refused */
	path = copy_model("virtio-4q", "faultbad");
	add_fault(path, "set_feature", 0, "round", NULL, NULL);
	ctx = ctx_for(path, &err);
	st = NULL;
	is_int(np_discover(ctx, ifname, &st, &err), -EINVAL, "round on set_feature is refused");
	ok(strstr(err.msg, "faults[0]: mode") != NULL, "... naming faults[0]: %s", err.msg);
	np_ctx_free(ctx);
}

/* A model wrapping `netpolicy DEV show --json` output as it is. */
static void test_wrapped_show_output(void)
{
	struct np_error err;
	struct np_ctx *ctx = ctx_for(fixture("ixgbe-16cpu"), &err);
	struct np_state *st = discover(ctx, "enp3s0f0");
	struct json_object *o = NULL, *root, *devs;
	char path[600];

	np_ctx_free(ctx);
	if (!st || np_state_to_json(st, &o) < 0) {
		ok(0, "ixgbe serialized");
		np_state_free(st);
		return;
	}
	json_object_object_add(o, "policy", NULL);
	json_object_object_add(o, "drift", NULL);
	root = json_object_new_object();
	devs = json_object_new_array();
	json_object_object_add(root, "netpolicy_model", json_object_new_int(1));
	json_object_array_add(devs, o);
	json_object_object_add(root, "devices", devs);
	snprintf(path, sizeof(path), "%s/wrapped.json", tmpdir);
	write_json(path, root);
	json_object_put(root);
	ctx = ctx_for(path, &err);
	{
		struct np_state *again = discover(ctx, "enp3s0f0");

		ok(again && states_equal(st, again),
		   "show --json output wrapped in {netpolicy_model, devices} is a model");
		np_state_free(again);
	}
	is_int(set_channels(ctx, "enp3s0f0", 8, &err), 0, "... that can be changed");
	root = read_json(path);
	ok(get(root, "topology") && !get(dev0(root), "topology"),
	   "... and is saved with the topology at the top");
	json_object_put(root);
	np_ctx_free(ctx);
	np_state_free(st);
}

int main(void)
{
	setup_dirs();
	test_errno_names();
	test_fixtures();
	test_mlx5_shape();
	test_schema();
	test_errors_round_trip();
	test_validation();
	test_state_validation();
	test_sim_channels();
	test_sim_knobs();
	test_sim_isolated_and_unsupported();
	test_faults();
	test_wrapped_show_output();
	cleanup_dirs();
	return tap_done();
}
