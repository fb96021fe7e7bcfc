/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the serializer and simulated-backend unit tests (see the header). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serialize_common.h"
#include "tap.h"

const char *const models[N_MODELS] = {
	"mlx5-2s64c", "ice-100g", "ixgbe-16cpu", "virtio-4q", "vm-1cpu", "few-msix", "isolated",
	"ice-mixed", "mlx5-mixed",
};

char srcdir[1024], tmpdir[256];

void setup_dirs(void)
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

void cleanup_dirs(void)
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

const char *fixture(const char *name)
{
	static char p[1200];

	snprintf(p, sizeof(p), "%s/tests/fixtures/models/%s.json", srcdir, name);
	return p;
}

/* A private copy the test may change; returns its path (static per slot). */
const char *copy_model(const char *name, const char *as)
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

struct json_object *read_json(const char *path)
{
	return json_object_from_file(path);
}

void write_json(const char *path, struct json_object *o)
{
	if (json_object_to_file(path, o) < 0) {
		printf("# cannot write %s\n", path);
		exit(99);
	}
}

struct json_object *dev0(struct json_object *root)
{
	struct json_object *devs;

	json_object_object_get_ex(root, "devices", &devs);
	return json_object_array_get_idx(devs, 0);
}

struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

struct np_ctx *ctx_for(const char *model, struct np_error *err)
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

struct np_backend *backend(struct np_ctx *ctx)
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

struct np_state *discover(struct np_ctx *ctx, const char *ifname)
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

const char *mask(const struct np_cpumask *m)
{
	static char buf[4][1024];
	static int i;
	char *b = buf[i++ % 4];

	if (np_cpumask_format_list(m, b, 1024) < 0)
		snprintf(b, 1024, "(too long)");
	return b;
}

char *to_text(const struct np_state *st)
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
bool states_equal(const struct np_state *a, const struct np_state *b)
{
	const struct np_topology *x = &a->topo, *y = &b->topo;
	const struct np_dev *d = &a->dev, *e = &b->dev;

	if (x->nr_cpus != y->nr_cpus || x->nr_nodes != y->nr_nodes || x->nr_cores != y->nr_cores ||
	    x->nr_packages != y->nr_packages || x->smt != y->smt || x->nr_llcs != y->nr_llcs ||
	    x->nr_clusters != y->nr_clusters ||
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
		/* the ids mean something only on online CPUs of a machine with them */
		if (p->online && ((x->nr_llcs && p->llc != q->llc) ||
				  (x->nr_clusters && p->cluster != q->cluster)))
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

bool round_trip(const struct np_state *st)
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

void set_int(struct json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

void set_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}
