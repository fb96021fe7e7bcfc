/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Channels: the queue count a policy wants, within what the driver takes
 * (its maxima, a setter at all, ntuple rules of another owner that block
 * any change on ice), and the target's queue arrays resized to what the
 * kernel will open after the change.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "plan/np_policy.h"

/* An array of n entries of size bytes as want entries, the new ones zeroed;
 * NULL when memory ran out (v is then still the caller's). */
static void *resize_array(void *v, unsigned n, unsigned want, size_t size)
{
	char *q;

	if (want == n && v)
		return v;
	q = realloc(v, size * (want ? want : 1));
	if (q && want > n)
		memset(q + size * n, 0, size * (want - n));
	return q;
}

static void resize_queues(struct np_dev *d, unsigned nrx, unsigned ntx, int *r)
{
	struct np_rxq *rx = resize_array(d->rxq, d->n_rxq, nrx, sizeof(*rx));
	struct np_txq *tx;

	if (!rx) {
		*r = -ENOMEM;
		return;
	}
	d->rxq = rx;
	d->n_rxq = nrx;
	tx = resize_array(d->txq, d->n_txq, ntx, sizeof(*tx));
	if (!tx) {
		*r = -ENOMEM;
		return;
	}
	d->txq = tx;
	d->n_txq = ntx;
}

/* The queues open after a channel change from `cur` to `want` channels,
 * between 1 and the device's `max` (when known). */
static unsigned queue_count(unsigned open, uint64_t want, uint64_t cur, unsigned max)
{
	int64_t n = (int64_t)open + (int64_t)want - (int64_t)cur;

	if (max && n > (int64_t)max)
		n = max;
	return n < 1 ? 1 : (unsigned)n;
}

static unsigned clamp_note(struct np_plan *plan, unsigned want, uint32_t max, const char *what)
{
	if (max && want > max) {
		np_plan_note(plan, "channels", "%u %s queues wanted, driver maximum is %u", want, what,
			     max);
		return max;
	}
	return want;
}

/* Would the channels change to `want` queues, the driver's maxima applied? */
static bool blocked_change(const struct np_channels *c, unsigned want)
{
	if (c->max_combined)
		return (c->max_combined < want ? c->max_combined : want) != c->combined;
	return (c->max_rx && (c->max_rx < want ? c->max_rx : want) != c->rx) ||
	       (c->max_tx && (c->max_tx < want ? c->max_tx : want) != c->tx);
}

int np_plan_channels(const struct np_plan_opts *opts, const struct np_state *st,
			 unsigned want, struct np_plan *plan, unsigned *ret_nq)
{
	struct np_dev *t = &plan->target->dev;
	const struct np_channels *c = &st->dev.channels;
	/* reported but not settable: vmxnet3 (np_drivers.h), or the probe */
	const struct np_driver *drv = np_driver_lookup(st->dev.driver);
	const char *why = NULL;
	bool blocked = true;	/* by foreign rules (the last reason below) */
	unsigned nrx, ntx;
	int r = 0;

	if (c->err)
		why = np_unsupported(c->err);
	else if (c->fixed || (drv && drv->no_set_channels))
		why = "no channel setter in driver";
	else if (opts && np_knob_listed(opts->drop, "channels"))
		why = "refused (when this policy was applied) by";
	else if (drv && drv->rules_block_channels && !t->steer.err && t->steer.n_rules)
		/* the rules left in the target are not netpolicy's: never
		 * deleted to make way (knob/steer.c deletes only ours) */
		why = "ntuple rules that are not netpolicy's block a channel change in driver";
	else
		blocked = false;
	if (why && blocked && opts && (opts->flags & NP_PLAN_STRICT) && blocked_change(c, want)) {
		*ret_nq = st->dev.n_rxq;
		return 1;
	}
	if (why) {
		np_plan_note(plan, "channels", "%s %s: keeping %u rx / %u tx queues",
			     why, st->dev.driver, st->dev.n_rxq, st->dev.n_txq);
		*ret_nq = st->dev.n_rxq;
		return 0;
	}
	if (c->max_combined) {
		t->channels.combined = clamp_note(plan, want, c->max_combined, "combined");
		*ret_nq = t->channels.combined;
	} else {
		if (c->max_rx)
			t->channels.rx = clamp_note(plan, want, c->max_rx, "rx");
		if (c->max_tx)
			t->channels.tx = clamp_note(plan, want, c->max_tx, "tx");
		*ret_nq = c->max_rx ? t->channels.rx : st->dev.n_rxq;
	}
	/* Queues beyond the channel counts (XDP tx queues, say) stay.  In 64
	 * bits and clamped: a state whose channels exceed its queues must not
	 * wrap into a huge count. */
	nrx = queue_count(st->dev.n_rxq, (uint64_t)t->channels.combined + t->channels.rx,
			  (uint64_t)c->combined + c->rx, st->dev.num_rx_queues);
	ntx = queue_count(st->dev.n_txq, (uint64_t)t->channels.combined + t->channels.tx,
			  (uint64_t)c->combined + c->tx, st->dev.num_tx_queues);
	resize_queues(t, nrx, ntx, &r);
	return r;
}

