/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Knobs a plan leaves alone.  When a driver refuses a refinement (a knob the
 * policy can do without), the apply engine plans again without it: the
 * target gets the knob's values from the device as it is, so the differ
 * plans no step for it and `check` sees no drift there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan/np_plan.h"

static void keep_features(struct np_dev *t, const struct np_dev *d)
{
	for (unsigned i = 0; i < t->features.n; i++) {
		const struct np_feature *f = np_features_find(&d->features, t->features.v[i].name);

		if (f) {
			t->features.v[i].wanted = f->wanted;
			t->features.v[i].active = f->active;
		}
	}
}

static void keep_rss(struct np_dev *t, const struct np_dev *d)
{
	if (t->rss.indir_size == d->rss.indir_size && d->rss.indir_size)
		memcpy(t->rss.indir, d->rss.indir, sizeof(*d->rss.indir) * d->rss.indir_size);
	t->rss.rx_rings = d->rss.rx_rings;
}

static void keep_irqs(struct np_dev *t, const struct np_dev *d)
{
	for (unsigned i = 0; i < t->n_irq; i++)
		for (unsigned j = 0; j < d->n_irq; j++)
			if (d->irq[j].irq == t->irq[i].irq)
				t->irq[i].affinity = d->irq[j].affinity;
}

/* Queues the plan adds start as fresh sysfs directories do: empty. */
static void keep_queues(struct np_dev *t, const struct np_dev *d, const char *knob)
{
	/* xps is both maps of a tx queue: CPUs, and rx queues (the mixed
	 * policy's tx-N on rx-N) */
	for (unsigned q = 0; q < t->n_txq; q++)
		if (!strcmp(knob, "xps")) {
			np_cpumask_zero(&t->txq[q].xps_cpus);
			np_cpumask_zero(&t->txq[q].xps_rxqs);
		}
	for (unsigned q = 0; q < t->n_rxq; q++) {
		if (!strcmp(knob, "rps"))
			np_cpumask_zero(&t->rxq[q].rps_cpus);
		else if (!strcmp(knob, "rfs"))
			t->rxq[q].rps_flow_cnt = 0;
	}
	for (unsigned q = 0; q < t->n_txq && q < d->n_txq; q++)
		if (!strcmp(knob, "xps")) {
			t->txq[q].xps_cpus = d->txq[q].xps_cpus;
			t->txq[q].xps_rxqs = d->txq[q].xps_rxqs;
		}
	for (unsigned q = 0; q < t->n_rxq && q < d->n_rxq; q++) {
		if (!strcmp(knob, "rps"))
			t->rxq[q].rps_cpus = d->rxq[q].rps_cpus;
		else if (!strcmp(knob, "rfs"))
			t->rxq[q].rps_flow_cnt = d->rxq[q].rps_flow_cnt;
	}
}

/* Device-wide field f left at the driver's value v: the queues the plan
 * gave the device-wide value (every queue, or a mixed policy's default
 * class) get v too, as the device-wide write gives it to every queue on
 * the drivers with per-queue values (np_plan_queue_coalesce()); a queue
 * with a class value of its own keeps its per-queue step. */
static void follow_device_wide(struct np_dev *t, int f, uint32_t v)
{
	uint32_t planned = t->coalesce.val[f];

	t->coalesce.val[f] = v;
	if (!(t->coalesce.per_queue & (1u << f)))
		return;
	for (unsigned q = 0; q < t->n_rxq; q++)
		if (t->rxq[q].coal[f] == planned)
			t->rxq[q].coal[f] = v;
}

/* "coalesce.FIELD", "rings.FIELD": one field the driver refused, the
 * others of the request applied (apply/refuse.c); "queue-coalesce.FIELD":
 * a per-queue value the driver answered with a value of its own
 * (apply/verify.c), left as the driver has it on every queue. */
static void keep_fields(struct np_plan *plan, const struct np_state *st, const char *drop)
{
	struct np_dev *t = &plan->target->dev;
	struct np_rings *r = &t->rings;
	const struct np_rings *d = &st->dev.rings;
	uint32_t *rt[NP_RING__COUNT] = { &r->rx, &r->rx_mini, &r->rx_jumbo, &r->tx };
	const uint32_t *rd[NP_RING__COUNT] = { &d->rx, &d->rx_mini, &d->rx_jumbo, &d->tx };
	char item[40];

	for (int f = 0; f < NP_COAL__COUNT; f++) {
		snprintf(item, sizeof(item), "coalesce.%s", np_coal_field_name(f));
		if (!np_knob_listed(drop, item))
			continue;
		follow_device_wide(t, f, st->dev.coalesce.val[f]);
		np_plan_note(plan, "coalesce", "%s left as it is: the driver refused it when this "
			     "policy was applied", np_coal_field_name(f));
	}
	for (int f = 0; f < NP_COAL__COUNT; f++) {
		snprintf(item, sizeof(item), "queue-coalesce.%s", np_coal_field_name(f));
		if (!np_knob_listed(drop, item))
			continue;
		for (unsigned q = 0; q < t->n_rxq && q < st->dev.n_rxq; q++)
			t->rxq[q].coal[f] = st->dev.rxq[q].coal[f];
		np_plan_note(plan, "queue-coalesce", "%s of each queue left as it is: the driver "
			     "answered with its own value when this policy was applied",
			     np_coal_field_name(f));
	}
	for (int f = 0; f < NP_RING__COUNT; f++) {
		snprintf(item, sizeof(item), "rings.%s", np_ring_field_name(f));
		if (!np_knob_listed(drop, item))
			continue;
		*rt[f] = *rd[f];
		np_plan_note(plan, "rings", "the %s ring left as it is: the driver refused it when "
			     "this policy was applied", np_ring_field_name(f));
	}
}

/* A context serves the rules that point at it and a rule spreads over its
 * context: refused either, the device's steering stays as it is, whole
 * (the classes keep their queues, IRQs and coalescing; their flows are not
 * steered, which the note says). */
static int keep_steer(struct np_dev *t, const struct np_dev *d)
{
	np_steer_clear(&t->steer);
	return np_steer_copy(&t->steer, &d->steer);
}

int np_plan_keep(struct np_plan *plan, const struct np_state *st, const char *drop)
{
	struct np_state *t = plan->target;
	bool steer_kept = false;

	keep_fields(plan, st, drop);

	for (size_t k = 0; np_knobs[k]; k++) {
		const char *name = np_knobs[k]->name;

		if (!np_knob_listed(drop, name))
			continue;
		/* rss has two entries (shrink early, spread late): one note */
		if (k && !strcmp(np_knobs[k - 1]->name, name))
			continue;
		if (!strcmp(name, "features"))
			keep_features(&t->dev, &st->dev);
		else if (!strcmp(name, "rss"))
			keep_rss(&t->dev, &st->dev);
		else if (!strcmp(name, "rings"))
			t->dev.rings = st->dev.rings;
		else if (!strcmp(name, "coalesce"))
			t->dev.coalesce = st->dev.coalesce;
		else if (!strcmp(name, "queue-coalesce"))
			for (unsigned q = 0; q < t->dev.n_rxq && q < st->dev.n_rxq; q++)
				memcpy(t->dev.rxq[q].coal, st->dev.rxq[q].coal,
				       sizeof(t->dev.rxq[q].coal));
		else if (!strcmp(name, "napi"))
			t->dev.napi = st->dev.napi;
		else if (!strcmp(name, "irq-affinity"))
			keep_irqs(&t->dev, &st->dev);
		else if (!strcmp(name, "napi-config"))
			for (unsigned i = 0; i < t->dev.napis.n && i < st->dev.napis.n; i++) {
				t->dev.napis.v[i].defer_hard_irqs = st->dev.napis.v[i].defer_hard_irqs;
				t->dev.napis.v[i].gro_flush_timeout = st->dev.napis.v[i].gro_flush_timeout;
			}
		else if (!strcmp(name, "napi-threads"))
			for (unsigned i = 0; i < t->dev.n_napi_thread && i < st->dev.n_napi_thread; i++)
				t->dev.napi_thread[i].affinity = st->dev.napi_thread[i].affinity;
		else if (!strcmp(name, "xps") || !strcmp(name, "rps") || !strcmp(name, "rfs"))
			keep_queues(&t->dev, &st->dev, name);
		else if (!strcmp(name, "sysctl"))
			t->sys = st->sys;
		else if (!strcmp(name, "pm-qos"))
			np_plan_pm_keep(plan, st);
		else if ((!strcmp(name, "ntuple") || !strcmp(name, "rss-context")) && !steer_kept) {
			if (keep_steer(&t->dev, &st->dev) < 0)
				return -ENOMEM;
			steer_kept = true;
		}
		if (!strcmp(name, "rfs"))
			t->sys.rps_sock_flow_entries = st->sys.rps_sock_flow_entries;
		if (strcmp(name, "channels"))
			np_plan_note(plan, name, "left as it is: the driver refused it when this policy "
				     "was applied");
	}
	return 0;
}
