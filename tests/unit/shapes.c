/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Builds an np_state the way the kernel backend fills one: the topology
 * numbering of backend/topology.c (dense cores in order of their first
 * online CPU, threads in CPU order, offline CPUs zeroed) and a NIC whose
 * queue arrays, RSS table and IRQs match its current channel counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_private.h"
#include "shapes.h"

#define IRQ_BASE 100

static int parse(const char *list, unsigned nr, struct np_cpumask *ret)
{
	int r;

	np_cpumask_zero(ret);
	if (!list)
		return 0;
	r = np_cpumask_parse_list(list, ret);
	if (r < 0)
		return r;
	return np_cpumask_next(ret, nr) >= 0 ? -EINVAL : 0;
}

static int build_topology(const struct shape *s, struct np_topology *t)
{
	unsigned nodes = s->nodes ? s->nodes : 1, pkgs = s->packages ? s->packages : 1;
	unsigned ncores, *dense = NULL;
	struct np_cpumask offline;
	bool seen_pkg[NP_CPUS_MAX] = { false };
	int r;

	unsigned threads = s->threads ? s->threads : s->smt ? 2 : 1;

	if (!s->cpus || s->cpus > NP_CPUS_MAX || s->cpus % threads)
		return -EINVAL;
	ncores = s->cpus / threads;
	if (nodes > ncores || pkgs > ncores)
		return -EINVAL;
	t->nr_cpus = s->cpus;
	t->nr_nodes = nodes + s->cpuless_nodes;
	t->cpus = calloc(s->cpus, sizeof(*t->cpus));
	t->node_cpus = calloc(t->nr_nodes, sizeof(*t->node_cpus));
	dense = malloc(sizeof(*dense) * ncores);
	if (!t->cpus || !t->node_cpus || !dense) {
		r = -ENOMEM;
		goto out;
	}
	if ((r = parse(s->offline, s->cpus, &offline)) < 0 ||
	    (r = parse(s->isolated, s->cpus, &t->isolated)) < 0 ||
	    (r = parse(s->nohz_full, s->cpus, &t->nohz_full)) < 0)
		goto out;
	for (unsigned c = 0; c < ncores; c++)
		dense[c] = ~0u;
	for (unsigned cpu = 0; cpu < s->cpus; cpu++) {
		struct np_cpu *c = &t->cpus[cpu];
		unsigned core = s->adjacent ? cpu / threads : cpu % ncores, pkg = core * pkgs / ncores;
		unsigned first_of_pkg = (pkg * ncores + pkgs - 1) / pkgs;

		np_cpumask_set(&t->possible, cpu);
		if (np_cpumask_test(&offline, cpu))
			continue;
		np_cpumask_set(&t->online, cpu);
		c->online = true;
		c->package_id = (int)pkg;
		c->core_id = (int)(core - first_of_pkg);
		c->node = (int)(core * nodes / ncores);
		c->llc = s->llcs ? (int)(core * s->llcs / ncores) : -1;
		c->cluster = -1;
		if (dense[core] == ~0u) {
			dense[core] = t->nr_cores++;
		} else {
			/* threads in CPU order: count the core's earlier ones */
			for (unsigned o = 0; o < cpu; o++)
				c->thread += t->cpus[o].online &&
					     (s->adjacent ? o / threads : o % ncores) == core;
			t->smt = true;
		}
		c->core = (int)dense[core];
		np_cpumask_set(&t->node_cpus[c->node], cpu);
		if (!seen_pkg[pkg]) {
			seen_pkg[pkg] = true;
			t->nr_packages++;
		}
	}
	t->nr_llcs = s->llcs;
	if (np_cpumask_empty(&t->online) || s->llcs > ncores)
		r = -EINVAL;
out:
	free(dense);
	return r;
}

static const char *const feature_names[] = {
	"rx-checksum", "tx-checksum-ip-generic", "tx-scatter-gather", "tx-tcp-segmentation",
	"rx-gro", "rx-hashing", "rx-ntuple-filter", "rx-vlan-hw-parse",
};

static int build_features(const struct shape *s, struct np_features *f)
{
	f->n = NP_ARRAY_SIZE(feature_names);
	f->v = calloc(f->n, sizeof(*f->v));
	if (!f->v)
		return -ENOMEM;
	for (unsigned i = 0; i < f->n; i++) {
		struct np_feature *v = &f->v[i];

		snprintf(v->name, sizeof(v->name), "%s", feature_names[i]);
		v->wanted = v->active = strcmp(v->name, "rx-ntuple-filter") != 0;
		/* without ntuple filters the feature is there but fixed off */
		v->fixed = !strcmp(v->name, "rx-ntuple-filter") && s->ntuple_fixed;
		if (!strcmp(v->name, "rx-hashing")) {
			v->wanted = v->active = !s->rxhash_off;
			v->fixed = s->rxhash_fixed;
		}
	}
	return 0;
}

static void build_coalesce(const struct shape *s, struct np_coalesce *c)
{
	if (s->no_coalesce) {
		c->err = -EOPNOTSUPP;
		return;
	}
	c->supported = s->coal_mask;
	if (!c->supported) {
		c->supported = 1u << NP_COAL_RX_USECS | 1u << NP_COAL_RX_FRAMES |
			       1u << NP_COAL_TX_USECS | 1u << NP_COAL_TX_FRAMES;
		if (!s->no_adaptive)
			c->supported |= 1u << NP_COAL_ADAPTIVE_RX | 1u << NP_COAL_ADAPTIVE_TX;
	}
	/* values no policy asks for, so every policy has something to change */
	c->val[NP_COAL_RX_USECS] = 3;
	c->val[NP_COAL_RX_FRAMES] = 32;
	c->val[NP_COAL_TX_USECS] = 3;
	c->val[NP_COAL_TX_FRAMES] = 32;
	c->val[NP_COAL_ADAPTIVE_RX] = s->adaptive_on;
	c->val[NP_COAL_ADAPTIVE_TX] = s->adaptive_on;
	for (int f = 0; f < NP_COAL__COUNT; f++)
		if (!(c->supported & (1u << f)))
			c->val[f] = 0;
}

static int build_rss(const struct shape *s, struct np_dev *d)
{
	struct np_rss *rss = &d->rss;

	if (s->no_rss) {
		rss->err = -EOPNOTSUPP;
		return 0;
	}
	rss->indir_size = s->rss_size ? s->rss_size : 128;
	rss->key_size = 40;
	rss->indir = malloc(sizeof(*rss->indir) * rss->indir_size);
	rss->key = malloc(rss->key_size);
	if (!rss->indir || !rss->key)
		return -ENOMEM;
	rss->rx_rings = d->n_rxq;
	for (uint32_t i = 0; i < rss->indir_size; i++)
		rss->indir[i] = i % d->n_rxq;
	for (uint32_t i = 0; i < rss->key_size; i++)
		rss->key[i] = (uint8_t)(i * 37 + 11);
	rss->hfunc = 1;	/* ETH_RSS_HASH_TOP */
	return 0;
}

static void irq_name(const struct shape *s, const struct np_dev *d, enum np_irq_kind kind,
		     int q, char *buf, size_t len)
{
	bool mlx5 = !strcmp(d->driver, "mlx5_core"), virtio = !strcmp(d->driver, "virtio_net");

	if (kind == NP_IRQ_OTHER) {
		if (mlx5)
			snprintf(buf, len, "mlx5_async0@pci:%s", d->bus_info);
		else if (virtio)
			snprintf(buf, len, "virtio0-config");
		else
			snprintf(buf, len, "%s", d->ifname);
	} else if (mlx5) {
		snprintf(buf, len, "mlx5_comp%d@pci:%s", q, d->bus_info);
	} else if (virtio) {
		snprintf(buf, len, "virtio0-%s.%d", kind == NP_IRQ_TX ? "output" : "input", q);
	} else if (!strcmp(d->driver, "ice") || !strcmp(d->driver, "i40e")) {
		snprintf(buf, len, "%s-%s-%s-%d", d->driver, d->ifname,
			 kind == NP_IRQ_TXRX ? "TxRx" : kind == NP_IRQ_RX ? "rx" : "tx", q);
	} else {
		snprintf(buf, len, "%s-%s-%d", d->ifname,
			 kind == NP_IRQ_TXRX ? "TxRx" : kind == NP_IRQ_RX ? "rx" : "tx", q);
	}
	(void)s;
}

static void add_irq(const struct shape *s, struct np_state *st, enum np_irq_kind kind, int q)
{
	const struct np_dev *d = &st->dev;
	struct np_irq *irq = &st->dev.irq[st->dev.n_irq++];

	irq->irq = IRQ_BASE + (unsigned)(irq - st->dev.irq);
	irq->kind = kind;
	irq->queue = q;
	irq_name(s, d, kind, q, irq->name, sizeof(irq->name));
	/* what a machine without irqbalance shows: any CPU, delivered to the first */
	irq->affinity = st->topo.online;
	np_cpumask_zero(&irq->effective);
	np_cpumask_set(&irq->effective, (unsigned)np_cpumask_next(&st->topo.online, 0));
}

/* Sorted as backend/irq.c sorts them: by kind, then queue. */
static int build_irqs(const struct shape *s, struct np_state *st)
{
	struct np_dev *d = &st->dev;
	unsigned nq, nrx, ntx, cap;

	if (s->irqs == SHAPE_NO_IRQS)
		return 0;
	nrx = d->n_rxq;
	ntx = d->n_txq;
	if (s->irqs > 0) {
		nrx = nrx < (unsigned)s->irqs ? nrx : (unsigned)s->irqs;
		ntx = ntx < (unsigned)s->irqs ? ntx : (unsigned)s->irqs;
	}
	nq = nrx > ntx ? nrx : ntx;
	cap = nrx + ntx + 1;
	d->irq = calloc(cap, sizeof(*d->irq));
	if (!d->irq)
		return -ENOMEM;
	if (s->irq_kind == SHAPE_IRQ_TXRX) {
		for (unsigned q = 0; q < nq; q++)
			add_irq(s, st, NP_IRQ_TXRX, (int)q);
	} else {
		for (unsigned q = 0; q < nrx; q++)
			add_irq(s, st, NP_IRQ_RX, (int)q);
		for (unsigned q = 0; q < ntx; q++)
			add_irq(s, st, NP_IRQ_TX, (int)q);
	}
	if (s->other)
		add_irq(s, st, NP_IRQ_OTHER, -1);
	return 0;
}

static int build_channels(const struct shape *s, struct np_dev *d)
{
	struct np_channels *c = &d->channels;
	uint32_t q = s->queues ? s->queues : 1, max = s->max_queues ? s->max_queues : q;
	uint32_t tx = s->tx ? s->tx : q, max_tx = s->max_tx ? s->max_tx : max;

	if (q > max || tx > max_tx)
		return -EINVAL;
	switch (s->chan) {
	case SHAPE_COMBINED:
		c->combined = q;
		c->max_combined = max;
		d->n_rxq = d->n_txq = q;
		d->num_rx_queues = d->num_tx_queues = max;
		break;
	case SHAPE_SEPARATE:
		c->rx = q;
		c->max_rx = max;
		c->tx = tx;
		c->max_tx = max_tx;
		d->n_rxq = q;
		d->n_txq = tx;
		d->num_rx_queues = max;
		d->num_tx_queues = max_tx;
		break;
	case SHAPE_NO_CHANNELS:
	default:
		c->err = -EOPNOTSUPP;
		d->n_rxq = q;
		d->n_txq = tx;
		d->num_rx_queues = q;
		d->num_tx_queues = tx;
		break;
	}
	if (s->other && !c->err)
		c->other = c->max_other = 1;
	return 0;
}

static int build_queues(const struct shape *s, struct np_state *st)
{
	struct np_dev *d = &st->dev;
	unsigned n = 0;

	d->rxq = calloc(d->n_rxq, sizeof(*d->rxq));
	d->txq = calloc(d->n_txq, sizeof(*d->txq));
	if (!d->rxq || !d->txq)
		return -ENOMEM;
	if (s->xps_rxqs) {
		struct np_cpumask m;
		int r = np_cpumask_parse_list(s->xps_rxqs, &m);

		if (r < 0)
			return r;
		for (unsigned q = 0; q < d->n_txq; q++)
			d->txq[q].xps_rxqs = m;
	}
	/* drivers such as mlx5 and ixgbe set XPS to the queue's own CPU at open */
	for (unsigned q = 0; q < d->n_txq; q++) {
		int cpu = np_cpumask_next(&st->topo.online, n);

		if (cpu < 0)
			cpu = np_cpumask_next(&st->topo.online, 0);
		np_cpumask_set(&d->txq[q].xps_cpus, (unsigned)cpu);
		n = (unsigned)cpu + 1;
	}
	(void)s;
	return 0;
}

static int build_dev(const struct shape *s, struct np_state *st)
{
	struct np_dev *d = &st->dev;
	int r;

	snprintf(d->ifname, sizeof(d->ifname), "eth0");
	d->ifindex = 2;
	snprintf(d->driver, sizeof(d->driver), "%s", s->driver ? s->driver : "ixgbe");
	snprintf(d->bus_info, sizeof(d->bus_info), "0000:3b:00.0");
	snprintf(d->operstate, sizeof(d->operstate), "up");
	d->mtu = 1500;
	if (s->nic_node >= (int)st->topo.nr_nodes || s->nic_node < -1)
		return -EINVAL;
	d->numa_node = s->nic_node;
	d->local_cpus = s->nic_node < 0 ? st->topo.online : st->topo.node_cpus[s->nic_node];
	if (np_cpumask_empty(&d->local_cpus))
		d->local_cpus = st->topo.online;

	d->link.speed = s->speed;
	d->link.duplex = s->speed ? 1 : 0xff;	/* DUPLEX_FULL, DUPLEX_UNKNOWN */
	d->link.carrier = !s->link_down;

	r = build_channels(s, d);
	if (r < 0)
		return r;
	if (s->no_rings) {
		d->rings.err = -EOPNOTSUPP;
	} else {
		d->rings.max_rx = d->rings.max_tx = s->ring_max ? s->ring_max : 4096;
		d->rings.rx = d->rings.tx = s->ring ? s->ring : 512;
		if (d->rings.rx > d->rings.max_rx)
			return -EINVAL;
	}
	build_coalesce(s, &d->coalesce);
	if (s->no_napi)
		d->napi.err = -ENOENT;
	if ((r = build_features(s, &d->features)) < 0 || (r = build_queues(s, st)) < 0 ||
	    (r = build_rss(s, d)) < 0 || (r = build_irqs(s, st)) < 0)
		return r;
	if (s->netns)
		st->sys.flow_entries_err = -ENOENT;
	return 0;
}

int shape_build(const struct shape *s, struct np_state **ret)
{
	struct np_state *st = calloc(1, sizeof(*st));
	int r;

	if (!st)
		return -ENOMEM;
	r = build_topology(s, &st->topo);
	if (r >= 0)
		r = build_dev(s, st);
	if (r < 0) {
		np_state_free(st);
		return r;
	}
	*ret = st;
	return 0;
}

unsigned shape_count_cores(const struct np_topology *t, const struct np_cpumask *m)
{
	unsigned n = 0;

	np_cpumask_for_each(cpu, m) {
		bool dup = false;

		if ((unsigned)cpu >= t->nr_cpus)
			break;
		for (int o = np_cpumask_next(m, 0); o >= 0 && o < cpu && !dup;
		     o = np_cpumask_next(m, (unsigned)o + 1))
			dup = t->cpus[o].package_id == t->cpus[cpu].package_id &&
			      t->cpus[o].core_id == t->cpus[cpu].core_id;
		n += !dup;
	}
	return n;
}
