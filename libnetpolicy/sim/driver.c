/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated drivers' ethtool operations: channels, rings, coalescing,
 * features and the RSS table, with the limits, error codes and extack
 * texts the kernel and the drivers give (the driver facts come from
 * np_drivers.h), queues appearing and vanishing with channel counts, IRQ
 * affinity and XPS reset when queues are reopened.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "np_sim.h"

uint32_t np_sim_roundup_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return v ? p : 0;
}

bool np_sim_no_channel_setter(const struct np_sim *s, const struct np_dev *d)
{
	const struct np_driver *drv = np_driver_lookup(d->driver);

	return d->channels.fixed || (!s->m.no_driver_rules && drv && drv->no_set_channels);
}

/* --- channels ------------------------------------------------------------------ */

static bool rss_user_set(const struct np_rss *r)
{
	if (r->err || !r->indir_size || !r->rx_rings)
		return false;
	/* The kernel remembers a flag; the model has only the table, and a
	 * table equal to the driver's default spread is what clearing the
	 * flag ("ethtool -X DEV default") leaves behind. */
	for (uint32_t i = 0; i < r->indir_size; i++)
		if (r->indir[i] != i % r->rx_rings)
			return true;
	return false;
}

static uint32_t rss_max_queue(const struct np_rss *r)
{
	uint32_t max = 0;

	for (uint32_t i = 0; i < r->indir_size; i++)
		if (r->indir[i] > max)
			max = r->indir[i];
	return max;
}

/* New queues start with empty masks, like fresh queues/rx-N directories;
 * a file the model cannot read on queue 0 is unreadable on new ones too. */
static int resize_queues(struct np_dev *d, unsigned nrx, unsigned ntx)
{
	struct np_rxq *rx = calloc(nrx ? nrx : 1, sizeof(*rx));
	struct np_txq *tx = calloc(ntx ? ntx : 1, sizeof(*tx));

	if (!rx || !tx) {
		free(rx);
		free(tx);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nrx; i++) {
		if (i < d->n_rxq) {
			rx[i] = d->rxq[i];
		} else if (d->n_rxq) {
			rx[i].rps_err = d->rxq[0].rps_err;
			rx[i].flow_err = d->rxq[0].flow_err;
			/* ice_vsi_rebuild_set_coalesce() (ice_lib.c): vectors
			 * added by a channel change take the first one's */
			memcpy(rx[i].coal, d->rxq[0].coal, sizeof(rx[i].coal));
		}
	}
	for (unsigned i = 0; i < ntx; i++) {
		if (i < d->n_txq) {
			tx[i] = d->txq[i];
		} else if (d->n_txq) {
			tx[i].xps_err = d->txq[0].xps_err;
			tx[i].xps_rxqs_err = d->txq[0].xps_rxqs_err;
		}
	}
	free(d->rxq);
	free(d->txq);
	d->rxq = rx;
	d->txq = tx;
	d->n_rxq = nrx;
	d->n_txq = ntx;
	return 0;
}

/* What virtio_net's virtnet_set_affinity() does: online CPUs in blocks of
 * online/queues (the first online % queues queues get one more), wrapping
 * around when there are more queues than CPUs. */
static void xps_default(const struct np_topology *t, struct np_dev *d)
{
	unsigned n_online = np_cpumask_weight(&t->online), stride, stragglers, pos = 0;
	unsigned *cpus;

	for (unsigned q = 0; q < d->n_txq; q++)
		if (!d->txq[q].xps_err) {
			np_cpumask_zero(&d->txq[q].xps_cpus);
			np_cpumask_zero(&d->txq[q].xps_rxqs);
		}
	if (!n_online || !d->n_txq || !(cpus = calloc(n_online, sizeof(*cpus))))
		return;
	np_cpumask_for_each(cpu, &t->online)
		cpus[pos++] = (unsigned)cpu;
	stride = n_online / d->n_txq ? n_online / d->n_txq : 1;
	stragglers = n_online >= d->n_txq ? n_online % d->n_txq : 0;
	pos = 0;
	for (unsigned q = 0; q < d->n_txq; q++) {
		unsigned size = stride + (q < stragglers ? 1 : 0);

		for (unsigned j = 0; j < size; j++, pos++)
			if (!d->txq[q].xps_err)
				np_cpumask_set(&d->txq[q].xps_cpus, cpus[pos % n_online]);
	}
	free(cpus);
}

/* Re-requested vectors come back with the default affinity (all online
 * CPUs); x86 then targets one CPU of it. */
static void irq_reset(const struct np_sim_model *m, struct np_dev *d)
{
	const struct np_topology *t = &m->topo;
	int first = np_cpumask_next(&t->online, 0);

	for (unsigned i = 0; i < d->n_irq; i++) {
		struct np_irq *q = &d->irq[i];
		enum np_irq_kind kind;
		uint32_t id;
		int queue;

		/* a queue's vector by its name or by the kernel's NAPI map; the
		 * kernel's own spread of managed vectors stays */
		if ((q->kind == NP_IRQ_OTHER && !np_irq_napi_tie(d, q->irq, &kind, &queue, &id)) ||
		    q->err || np_sim_irq_managed(m, q->irq))
			continue;
		q->affinity = t->online;
		np_cpumask_zero(&q->effective);
		if (first >= 0)
			np_cpumask_set(&q->effective, (unsigned)first);
	}
}

static int channels(struct np_sim *s, struct np_sim_call *c, const struct np_channels *want,
		    struct np_error *err)
{
	struct np_dev *d = c->dev;
	struct np_channels n = d->channels;
	const struct np_driver *drv;
	unsigned nrx, ntx;

	if (n.err)
		return np_sim_fail(err, c->phase, c->knob, n.err, NULL);
	/* the ethtool core checks for the setter before anything else */
	if (np_sim_no_channel_setter(s, d))
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	if (want->rx > n.max_rx || want->tx > n.max_tx || want->other > n.max_other ||
	    want->combined > n.max_combined)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL, "requested channel count exceeds maximum");
	if (!want->combined && (!want->rx || !want->tx))
		return np_sim_fail(err, c->phase, c->knob, -EINVAL,
			    "requested channel counts would result in no RX or TX channel being configured");
	if (want->rx == n.rx && want->tx == n.tx && want->other == n.other &&
	    want->combined == n.combined)
		return 0;	/* the kernel does not call the driver at all */
	if (rss_user_set(&d->rss) && rss_max_queue(&d->rss) >= want->rx + want->combined)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL,
			    "requested channel count is too low for existing indirection table settings");
	if (!s->m.no_driver_rules) {
		char why[160];
		int e = np_sim_steer_shrink_check(d, want->rx + want->combined, why, sizeof(why));

		if (e < 0)
			return np_sim_fail(err, c->phase, c->knob, e, why);
	}
	/* the ethtool core's checks first, then the driver's */
	drv = s->m.no_driver_rules ? NULL : np_driver_lookup(d->driver);
	if (drv && drv->rules_block_channels && d->steer.n_rules)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP,
				   "Cannot set channels when Flow Director filters are active");
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	n.rx = want->rx;
	n.tx = want->tx;
	n.other = want->other;
	n.combined = want->combined;
	if (np_sim_fault_is(c, NP_SIM_MODE_ROUND)) {
		n.rx = np_sim_roundup_pow2(n.rx) < n.max_rx ? np_sim_roundup_pow2(n.rx) : n.max_rx;
		n.tx = np_sim_roundup_pow2(n.tx) < n.max_tx ? np_sim_roundup_pow2(n.tx) : n.max_tx;
		n.other = np_sim_roundup_pow2(n.other) < n.max_other ? np_sim_roundup_pow2(n.other) : n.max_other;
		n.combined = np_sim_roundup_pow2(n.combined) < n.max_combined ? np_sim_roundup_pow2(n.combined) :
									  n.max_combined;
	}
	nrx = n.rx + n.combined;
	ntx = n.tx + n.combined;
	if (nrx > d->num_rx_queues || ntx > d->num_tx_queues)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL, "requested channel count exceeds maximum");
	if (resize_queues(d, nrx, ntx) < 0)
		return np_err(err, -ENOMEM, c->phase, c->knob, "out of memory");
	d->channels = n;
	if (!d->rss.err && d->rss.indir_size) {
		bool user = rss_user_set(&d->rss);

		d->rss.rx_rings = nrx;
		/* a user-set table survives; the default one is re-spread */
		if (!user && nrx)
			for (uint32_t i = 0; i < d->rss.indir_size; i++)
				d->rss.indir[i] = i % nrx;
	} else if (!d->rss.err) {
		d->rss.rx_rings = nrx;
	}
	/* what the driver's set_channels does to them (np_drivers.h); a
	 * driver the table does not say it of, or a model without driver
	 * rules, resets both */
	drv = s->m.no_driver_rules ? NULL : np_driver_lookup(d->driver);
	if (!drv || drv->chan_affinity != NP_CHAN_KEEPS)
		irq_reset(&s->m, d);
	if (!drv || drv->chan_xps != NP_CHAN_KEEPS)
		xps_default(&s->m.topo, d);
	s->dirty = true;
	return 0;
}

int np_sim_set_channels(struct np_backend *be, const struct np_dev *dev,
			    const struct np_channels *want, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_SET_CHANNELS, .phase = NP_PHASE_APPLY, .knob = "channels" };
	int r = np_sim_begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = channels(s, &c, want, err);
	return np_sim_finish(s, r, err);
}

/* --- rings, coalesce, features, RSS -------------------------------------------- */

static uint32_t round_ring(uint32_t v, uint32_t max)
{
	uint32_t p = np_sim_roundup_pow2(v);

	return p < max ? p : max;
}

static int rings(struct np_sim *s, struct np_sim_call *c, const struct np_rings *want,
		 struct np_error *err)
{
	struct np_rings *n = &c->dev->rings;

	if (n->err)
		return np_sim_fail(err, c->phase, c->knob, n->err, NULL);
	if (n->fixed)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	if (want->rx > n->max_rx || want->rx_mini > n->max_rx_mini ||
	    want->rx_jumbo > n->max_rx_jumbo || want->tx > n->max_tx)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL, "requested ring size exceeds maximum");
	if (want->rx == n->rx && want->rx_mini == n->rx_mini && want->rx_jumbo == n->rx_jumbo &&
	    want->tx == n->tx)
		return 0;
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	n->rx = want->rx;
	n->rx_mini = want->rx_mini;
	n->rx_jumbo = want->rx_jumbo;
	n->tx = want->tx;
	if (np_sim_fault_is(c, NP_SIM_MODE_ROUND)) {
		n->rx = round_ring(n->rx, n->max_rx);
		n->rx_mini = round_ring(n->rx_mini, n->max_rx_mini);
		n->rx_jumbo = round_ring(n->rx_jumbo, n->max_rx_jumbo);
		n->tx = round_ring(n->tx, n->max_tx);
	}
	s->dirty = true;
	return 0;
}

int np_sim_set_rings(struct np_backend *be, const struct np_dev *dev,
			 const struct np_rings *want, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_SET_RINGS, .phase = NP_PHASE_APPLY, .knob = "rings" };
	int r;

	/* the sizes the request changes, for a fault that names one */
	c.fields = (want->rx != dev->rings.rx) << NP_RING_RX |
		   (want->rx_mini != dev->rings.rx_mini) << NP_RING_RX_MINI |
		   (want->rx_jumbo != dev->rings.rx_jumbo) << NP_RING_RX_JUMBO |
		   (want->tx != dev->rings.tx) << NP_RING_TX;
	r = np_sim_begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = rings(s, &c, want, err);
	return np_sim_finish(s, r, err);
}

static bool coal_bool(int f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX || f == NP_COAL_CQE_MODE_RX ||
	       f == NP_COAL_CQE_MODE_TX;
}

static int coalesce(struct np_sim *s, struct np_sim_call *c, const struct np_coalesce *want,
		    uint32_t fields, struct np_error *err)
{
	struct np_coalesce *n = &c->dev->coalesce;
	const struct np_driver *drv;
	uint32_t val[NP_COAL__COUNT];
	bool same = true;
	int r;

	if (n->err)
		return np_sim_fail(err, c->phase, c->knob, n->err, NULL);
	if (fields & ~n->supported)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP,
			    "cannot modify an unsupported parameter");
	if (fields & n->fixed)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	memcpy(val, n->val, sizeof(val));
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		if (!(fields & (1u << f)))
			continue;
		val[f] = coal_bool(f) ? !!want->val[f] : want->val[f];
		if (np_sim_fault_is(c, NP_SIM_MODE_ROUND) && !coal_bool(f))
			val[f] &= ~3u;
		same = same && val[f] == n->val[f];
	}
	if (same)
		return 0;	/* ethnl_set_coalesce() does not call the driver */
	drv = s->m.no_driver_rules ? NULL : np_driver_lookup(c->dev->driver);
	if (drv && drv->adaptive_off_alone && n->val[NP_COAL_ADAPTIVE_RX] &&
	    !val[NP_COAL_ADAPTIVE_RX]) {
		/* bnxt_set_coalesce(): DIM off, then straight to reset_coalesce */
		memcpy(val, n->val, sizeof(val));
		val[NP_COAL_ADAPTIVE_RX] = 0;
	}
	if (!s->m.no_driver_rules) {
		/* the driver sees every field, the ones not sent at their
		 * current values, and checks them all */
		struct np_coalesce all = *n;
		char why[200];

		memcpy(all.val, val, sizeof(val));
		r = np_driver_coal_check(np_driver_lookup(c->dev->driver), c->dev, &all, n->supported,
					 why, sizeof(why));
		if (r < 0)
			return np_sim_fail(err, c->phase, c->knob, r, why);
	}
	r = np_sim_coal_refuses(c, n->val, val, fields, err);
	if (r < 0)
		return r;
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	np_sim_coal_stores(c, n->val, val, fields);
	memcpy(n->val, val, sizeof(val));
	/* igc_ethtool_set_coalesce(): with queue pairs Tx takes rx-usecs */
	if (drv && drv->paired_tx_follows_rx && np_driver_paired(c->dev))
		n->val[NP_COAL_TX_USECS] = n->val[NP_COAL_RX_USECS];
	np_sim_queue_coal_all(c->dev);
	s->dirty = true;
	return 0;
}

int np_sim_set_coalesce(struct np_backend *be, const struct np_dev *dev,
			    const struct np_coalesce *want, uint32_t fields, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_SET_COALESCE, .phase = NP_PHASE_APPLY, .knob = "coalesce",
				 .fields = fields };
	int r = np_sim_begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = coalesce(s, &c, want, fields, err);
	return np_sim_finish(s, r, err);
}

static int feature(struct np_sim *s, struct np_sim_call *c, const char *name, bool on,
		   struct np_error *err)
{
	struct np_features *fs = &c->dev->features;
	struct np_feature *f = NULL;

	if (fs->err)
		return np_sim_fail(err, c->phase, c->knob, fs->err, NULL);
	for (unsigned i = 0; i < fs->n && !f; i++)
		if (!strcmp(fs->v[i].name, name))
			f = &fs->v[i];
	if (!f)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL, "bit name not found");
	/* Like the kernel: a feature outside hw_features keeps its value and
	 * the request still succeeds (the reply would show it unchanged). */
	if (f->fixed || (f->wanted == on && f->active == on) || np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	f->wanted = on;
	f->active = on;
	s->dirty = true;
	return 0;
}

int np_sim_set_feature(struct np_backend *be, const struct np_dev *dev, const char *name,
			   bool on, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_SET_FEATURE, .phase = NP_PHASE_APPLY, .knob = "features" };
	int r = np_sim_begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = feature(s, &c, name, on, err);
	return np_sim_finish(s, r, err);
}

static int rss_indir(struct np_sim *s, struct np_sim_call *c, const uint32_t *indir, uint32_t n,
		     struct np_error *err)
{
	struct np_rss *rss = &c->dev->rss;
	uint32_t rings = c->dev->n_rxq;
	bool same = true;

	if (rss->err)
		return np_sim_fail(err, c->phase, c->knob, rss->err, NULL);
	if (!rss->indir_size)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	if (n && n != rss->indir_size)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL,
			    "indirection table size does not match the device's");
	if (!rings)
		return np_sim_fail(err, c->phase, c->knob, -EINVAL, "no rx rings to spread over");
	for (uint32_t i = 0; i < rss->indir_size; i++) {
		uint32_t q = n ? indir[i] : i % rings;

		if (q >= rings)
			return np_sim_fail(err, c->phase, c->knob, -EINVAL,
				    "indirection table entry is beyond the number of rx rings");
		same = same && rss->indir[i] == q;
	}
	if (same || np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	for (uint32_t i = 0; i < rss->indir_size; i++)
		rss->indir[i] = n ? indir[i] : i % rings;
	s->dirty = true;
	return 0;
}

int np_sim_set_rss_indir(struct np_backend *be, const struct np_dev *dev,
			     const uint32_t *indir, uint32_t n, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_SET_RSS_INDIR, .phase = NP_PHASE_APPLY, .knob = "rss" };
	int r = np_sim_begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = rss_indir(s, &c, indir, n, err);
	return np_sim_finish(s, r, err);
}

/* --- napi-set (net/core/netdev-genl.c netdev_nl_napi_set_doit()) ---------------- */

static int napi_set(struct np_sim *s, struct np_sim_call *c, const struct np_napi_inst *want,
		    uint32_t fields, struct np_error *err)
{
	struct np_napis *ns = &c->dev->napis;
	struct np_napi_inst *n = NULL;

	if (ns->err)
		return np_sim_fail(err, c->phase, c->knob, -EOPNOTSUPP, NULL);
	for (unsigned i = 0; i < ns->n; i++)
		if (ns->v[i].id == want->id)
			n = &ns->v[i];
	if (!n)
		return np_sim_fail(err, c->phase, c->knob, -ENOENT, "napi not found");
	/* an attribute the kernel's napi-set policy lacks: -EINVAL */
	if (fields & ~n->has & (NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH | NP_NAPI_HAS_SUSPEND |
				NP_NAPI_HAS_THREADED))
		return np_sim_fail(err, c->phase, c->knob, -EINVAL, "unknown attribute");
	/* netdev.yaml: defer-hard-irqs max s32-max */
	if ((fields & NP_NAPI_HAS_DEFER) && want->defer_hard_irqs > INT32_MAX)
		return np_sim_fail(err, c->phase, c->knob, -ERANGE, NULL);
	if (np_sim_fault_is(c, NP_SIM_MODE_IGNORE))
		return 0;
	if (fields & NP_NAPI_HAS_DEFER)
		n->defer_hard_irqs = want->defer_hard_irqs;
	if (fields & NP_NAPI_HAS_GRO_FLUSH)
		n->gro_flush_timeout = want->gro_flush_timeout;
	if (fields & NP_NAPI_HAS_SUSPEND)
		n->irq_suspend_timeout = want->irq_suspend_timeout;
	if (fields & NP_NAPI_HAS_THREADED)
		n->threaded = want->threaded;
	s->dirty = true;
	return 0;
}

int np_sim_set_napi(struct np_backend *be, const struct np_dev *dev,
		    const struct np_napi_inst *want, uint32_t fields, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_SET_NAPI, .phase = NP_PHASE_APPLY,
				 .knob = "napi-config" };
	int r = np_sim_begin(s, &c, dev->ifname, true, err);

	if (r >= 0)
		r = napi_set(s, &c, want, fields, err);
	return np_sim_finish(s, r, err);
}
