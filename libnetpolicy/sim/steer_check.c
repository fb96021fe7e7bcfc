/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the simulated driver holds true of its rules and RSS contexts, as
 * checks: a rule's queues exist (np_sim_rule_queues_ok, at insert), a
 * channel change leaves every rule and context a queue to deliver to
 * (np_sim_steer_shrink_check, with the kernel's text), and a loaded model's
 * rules and contexts are ones a driver could hold (np_sim_steer_check).
 * Apart from the operations (sim_steer.c), which save the model through
 * fault.c and model_io.c, so that loading a model does not import them.
 */
#include <errno.h>
#include <stdio.h>

#include "np_sim.h"

#define FAIL(code, ...) (snprintf(why, len, __VA_ARGS__), (code))

static uint32_t ctx_top(const struct np_rss_ctx *c)
{
	uint32_t max = 0;

	for (uint32_t i = 0; i < c->n_indir; i++)
		if (c->indir[i] > max)
			max = c->indir[i];
	return max;
}

/* The queues a rule can deliver to end below nrx (0 when it drops). */
int np_sim_rule_queues_ok(const struct np_steer *s, const struct np_rule *r, uint32_t nrx,
			  char *why, size_t len)
{
	if (r->fs.ring_cookie == RX_CLS_FLOW_DISC)
		return 0;
	if (r->fs.flow_type & FLOW_RSS) {
		const struct np_rss_ctx *c = np_steer_ctx(s, r->rss_context);

		if (!c)
			return FAIL(-ENOENT, "RSS context %u does not exist", r->rss_context);
		if ((uint64_t)ctx_top(c) + r->fs.ring_cookie >= nrx)
			return FAIL(-EINVAL, "queue offset %llu beyond the rx queues of context %u",
				    (unsigned long long)r->fs.ring_cookie, r->rss_context);
		return 0;
	}
	if (r->fs.ring_cookie >= nrx)
		return FAIL(-EINVAL, "queue %llu does not exist",
			    (unsigned long long)r->fs.ring_cookie);
	return 0;
}

int np_sim_steer_shrink_check(const struct np_dev *d, uint32_t nrx, char *why, size_t len)
{
	const struct np_steer *s = &d->steer;

	for (unsigned i = 0; i < s->n_ctx; i++)
		if (s->ctx[i].n_indir && ctx_top(&s->ctx[i]) >= nrx)
			return FAIL(-EINVAL, "requested channel count is too low for existing RSS "
				    "context %u", s->ctx[i].id);
	for (unsigned i = 0; i < s->n_rules; i++) {
		char ignored[8];

		if (np_sim_rule_queues_ok(s, &s->rules[i], nrx, ignored, sizeof(ignored)) < 0)
			return FAIL(-EINVAL, "requested channel count is too low for existing "
				    "ntuple filter settings");
	}
	return 0;
}

int np_sim_steer_check(const struct np_dev *d, char *why, size_t len)
{
	const struct np_steer *s = &d->steer;
	int e;

	for (unsigned i = 0; i < s->n_ctx; i++)
		if (s->ctx[i].n_indir && ctx_top(&s->ctx[i]) >= d->n_rxq)
			return FAIL(-EINVAL, "context %u: entry beyond the %u rx queues",
				    s->ctx[i].id, d->n_rxq);
	for (unsigned i = 0; i < s->n_rules; i++) {
		char r[160];

		e = np_sim_rule_queues_ok(s, &s->rules[i], d->n_rxq, r, sizeof(r));
		if (e < 0)
			return FAIL(e, "rule %u: %s", s->rules[i].fs.location, r);
		if (s->err)
			return FAIL(-EINVAL, "rules on a device without ntuple filters");
	}
	return 0;
}
