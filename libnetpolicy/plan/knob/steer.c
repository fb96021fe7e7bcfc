/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ntuple rules and extra RSS contexts as knobs, in doc/kernel.md's order: rules
 * that go or change are deleted first (ntuple-delete), then contexts that
 * go (rss-context-delete), before channels shrink below their queues; new
 * and changed contexts after the channel change (rss-context), and rules
 * last (ntuple), when the contexts they name exist.  A step's index is the
 * rule's location or the context's id.  What is in both states unchanged is
 * never touched, so foreign rules and contexts (kept in every target by
 * the planner and in every snapshot) are never written; rollback and reset
 * are the same diff towards the saved state.
 *
 * A rule planned at RX_CLS_LOC_ANY (a driver that places rules itself,
 * RX_CLS_LOC_SPECIAL: sfc's efx_ethtool_set_class_rule() refuses any other
 * location and returns the filter id it chose) has no location to compare
 * by: it is there when the device has a rule of the same content (match,
 * action, context) at a location the goal does not name, one such rule per
 * planned one.  Its step's index is its position in the goal's rule array
 * (fields ANY_BY_INDEX), since every such rule has the same location.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "plan/np_plan.h"

static bool same_rule(const struct np_rule *a, const struct np_rule *b)
{
	return a && b && !memcmp(&a->fs, &b->fs, sizeof(a->fs)) &&
	       (!(a->fs.flow_type & FLOW_RSS) || a->rss_context == b->rss_context);
}

/* Equal but for the location: what a driver that chose it gives back. */
bool np_rule_same_content(const struct np_rule *a, const struct np_rule *b)
{
	struct ethtool_rx_flow_spec x = a->fs, y = b->fs;

	x.location = y.location = 0;
	return !memcmp(&x, &y, sizeof(x)) &&
	       (!(x.flow_type & FLOW_RSS) || a->rss_context == b->rss_context);
}

#define ANY_BY_INDEX 1u

/* How many of set's rules at RX_CLS_LOC_ANY (any: true) or at a location
 * other's rules do not name (any: false) have r's content, among the first
 * `upto` of them. */
static unsigned count_like(const struct np_steer *set, const struct np_steer *other,
			   const struct np_rule *r, bool any, unsigned upto)
{
	unsigned n = 0;

	for (unsigned i = 0; i < upto && i < set->n_rules; i++) {
		const struct np_rule *x = &set->rules[i];

		if (any ? x->fs.location != RX_CLS_LOC_ANY :
			  x->fs.location == RX_CLS_LOC_ANY || np_steer_rule(other, x->fs.location))
			continue;
		n += np_rule_same_content(x, r);
	}
	return n;
}

/* a's rule i, at a location b does not name: one of b's LOC_ANY rules? */
static bool placed_any(const struct np_steer *a, unsigned i, const struct np_steer *b)
{
	return count_like(a, b, &a->rules[i], false, i) <
	       count_like(b, a, &a->rules[i], true, b->n_rules);
}

/* b's LOC_ANY rule i: does a have it, at a location b does not name? */
static bool have_any(const struct np_steer *a, const struct np_steer *b, unsigned i)
{
	return count_like(b, a, &b->rules[i], true, i) <
	       count_like(a, b, &b->rules[i], false, a->n_rules);
}

static bool same_ctx(const struct np_rss_ctx *a, const struct np_rss_ctx *b)
{
	return a && b && a->n_indir == b->n_indir &&
	       !memcmp(a->indir, b->indir, sizeof(uint32_t) * a->n_indir);
}

static struct np_value rule_target(const struct np_rule *r)
{
	struct np_value v = { .kind = NP_VAL_NONE };

	if (r) {
		v.kind = NP_VAL_UINT;
		v.u = r->fs.flow_type & FLOW_RSS ? r->rss_context : r->fs.ring_cookie;
	}
	return v;
}

static struct np_value ctx_value(const struct np_rss_ctx *c)
{
	struct np_value v = { .kind = NP_VAL_NONE };

	if (c) {
		/* the queues it holds: a class's context is 12-15, not 0-15 */
		v.kind = NP_VAL_INDIR;
		v.lo = c->n_indir ? UINT64_MAX : 0;
		for (uint32_t i = 0; i < c->n_indir; i++) {
			v.u = c->indir[i] > v.u ? c->indir[i] : v.u;
			v.lo = c->indir[i] < v.lo ? c->indir[i] : v.lo;
		}
	}
	return v;
}

static void rule_what(char *buf, size_t len, const struct np_rule *r)
{
	if (r->fs.location == RX_CLS_LOC_ANY)
		snprintf(buf, len, "rule any %s", r->fs.flow_type & FLOW_RSS ? "context" : "queue");
	else
		snprintf(buf, len, "rule %u %s", r->fs.location,
			 r->fs.flow_type & FLOW_RSS ? "context" : "queue");
}

static bool usable(const struct np_steer *a, const struct np_steer *b)
{
	return !a->err && !b->err;
}

/* A driver that refuses any channel change while rules exist (ice): every
 * rule goes before the change and what the target has comes back after it,
 * in the same transaction (the planner keeps the channel count when a
 * rule is not netpolicy's). */
static bool rules_in_the_way(const struct np_state *from, const struct np_state *to)
{
	const struct np_driver *drv = np_driver_lookup(to->dev.driver);
	const struct np_channels *a = &from->dev.channels, *b = &to->dev.channels;

	return drv && drv->rules_block_channels && !a->err && !b->err &&
	       (a->rx != b->rx || a->tx != b->tx || a->combined != b->combined);
}

static int diff_rules_delete(struct np_plan *plan, const struct np_state *from,
			     const struct np_state *to)
{
	const struct np_steer *a = &from->dev.steer, *b = &to->dev.steer;
	bool all = rules_in_the_way(from, to);
	char what[48];

	if (!usable(a, b))
		return 0;
	for (unsigned i = 0; i < a->n_rules; i++) {
		const struct np_rule *r = &a->rules[i], *n = np_steer_rule(b, r->fs.location);
		struct np_value x = rule_target(r), none = { .kind = NP_VAL_NONE };

		if (!all && (same_rule(r, n) || (!n && placed_any(a, i, b))))
			continue;
		rule_what(what, sizeof(what), r);
		if (np_plan_add_step(plan, &np_knob_ntuple_delete, (int)r->fs.location, 0) < 0 ||
		    np_plan_add_change(plan, what, &x, &none) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int diff_rules_insert(struct np_plan *plan, const struct np_state *from,
			     const struct np_state *to)
{
	const struct np_steer *a = &from->dev.steer, *b = &to->dev.steer;
	bool all = rules_in_the_way(from, to);
	char what[48];

	if (!usable(a, b))
		return 0;
	for (unsigned i = 0; i < b->n_rules; i++) {
		const struct np_rule *r = &b->rules[i], *o = np_steer_rule(a, r->fs.location);
		struct np_value x = { .kind = NP_VAL_NONE }, y = rule_target(r);

		bool any = r->fs.location == RX_CLS_LOC_ANY;

		if (!all && (any ? have_any(a, b, i) : same_rule(r, o)))
			continue;
		rule_what(what, sizeof(what), r);
		if (np_plan_add_step(plan, &np_knob_ntuple, any ? (int)i : (int)r->fs.location,
				     any ? ANY_BY_INDEX : 0) < 0 ||
		    np_plan_add_change(plan, what, &x, &y) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int diff_ctx_delete(struct np_plan *plan, const struct np_state *from,
			   const struct np_state *to)
{
	const struct np_steer *a = &from->dev.steer, *b = &to->dev.steer;
	char what[48];

	if (a->ctx_err || b->ctx_err)
		return 0;
	for (unsigned i = 0; i < a->n_ctx; i++) {
		struct np_value x = ctx_value(&a->ctx[i]), none = { .kind = NP_VAL_NONE };

		if (np_steer_ctx(b, a->ctx[i].id))
			continue;
		snprintf(what, sizeof(what), "context %u", a->ctx[i].id);
		if (np_plan_add_step(plan, &np_knob_rss_ctx_delete, (int)a->ctx[i].id, 0) < 0 ||
		    np_plan_add_change(plan, what, &x, &none) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int diff_ctx(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_steer *a = &from->dev.steer, *b = &to->dev.steer;
	char what[48];

	if (a->ctx_err || b->ctx_err)
		return 0;
	for (unsigned i = 0; i < b->n_ctx; i++) {
		const struct np_rss_ctx *o = np_steer_ctx(a, b->ctx[i].id);
		struct np_value x = ctx_value(o), y = ctx_value(&b->ctx[i]);

		if (same_ctx(o, &b->ctx[i]))
			continue;
		snprintf(what, sizeof(what), "context %u", b->ctx[i].id);
		if (np_plan_add_step(plan, &np_knob_rss_ctx, (int)b->ctx[i].id, 0) < 0 ||
		    np_plan_add_change(plan, what, &x, &y) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int apply_rule_delete(struct np_backend *be, const struct np_state *cur,
			     const struct np_state *to, const struct np_step *step,
			     struct np_error *err)
{
	(void)to;
	if (!np_steer_rule(&cur->dev.steer, (uint32_t)step->index))
		return 0;	/* gone already (a rollback after a partial step) */
	return be->ops->rule_delete(be, &cur->dev, (uint32_t)step->index, err);
}

static int apply_rule_insert(struct np_backend *be, const struct np_state *cur,
			     const struct np_state *to, const struct np_step *step,
			     struct np_error *err)
{
	const struct np_steer *s = &to->dev.steer;
	const struct np_rule *r;
	uint32_t loc;

	if (step->fields & ANY_BY_INDEX)
		r = step->index >= 0 && (unsigned)step->index < s->n_rules ?
		    &s->rules[step->index] : NULL;
	else
		r = np_steer_rule(s, (uint32_t)step->index);
	if (!r)
		return 0;
	return be->ops->rule_insert(be, &cur->dev, r, &loc, err);
}

static int apply_ctx_delete(struct np_backend *be, const struct np_state *cur,
			    const struct np_state *to, const struct np_step *step,
			    struct np_error *err)
{
	(void)to;
	if (!np_steer_ctx(&cur->dev.steer, (uint32_t)step->index))
		return 0;
	return be->ops->ctx_delete(be, &cur->dev, (uint32_t)step->index, err);
}

static int apply_ctx(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		     const struct np_step *step, struct np_error *err)
{
	const struct np_rss_ctx *c = np_steer_ctx(&to->dev.steer, (uint32_t)step->index);
	uint32_t id;

	if (!c)
		return 0;
	if (np_steer_ctx(&cur->dev.steer, c->id))
		return be->ops->ctx_set(be, &cur->dev, c, err);
	return be->ops->ctx_create(be, &cur->dev, c, &id, err);
}

const struct np_knob np_knob_ntuple_delete = {
	.name = "ntuple",
	.diff = diff_rules_delete,
	.apply = apply_rule_delete,
};

const struct np_knob np_knob_rss_ctx_delete = {
	.name = "rss-context",
	.diff = diff_ctx_delete,
	.apply = apply_ctx_delete,
};

const struct np_knob np_knob_rss_ctx = {
	.name = "rss-context",
	.diff = diff_ctx,
	.apply = apply_ctx,
};

const struct np_knob np_knob_ntuple = {
	.name = "ntuple",
	.diff = diff_rules_insert,
	.apply = apply_rule_insert,
};
