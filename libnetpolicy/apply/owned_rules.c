/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the driver put the rules netpolicy asked it to place.  A driver that
 * reports RX_CLS_LOC_SPECIAL in ETHTOOL_GRXCLSRLCNT takes RX_CLS_LOC_ANY and
 * writes the location it chose back into the ETHTOOL_SRXCLSRLINS request
 * (include/uapi/linux/ethtool.h: "On return, fs.location is the actual rule
 * location"; net/ethtool/ioctl.c ethtool_set_rxnfc() copies it back; sfc's
 * efx_ethtool_set_class_rule() sets rule->location to the filter id).  The
 * policy record must name that location, or reset and the next set could
 * not tell netpolicy's rule from a foreign one: it is read back from the
 * device by content once the run converged (and before a no-op set decides
 * whether the record changes), so it holds whatever way the location came
 * back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "model/np_flow.h"
#include "apply/np_journal.h"
#include "plan/np_mixed.h"
#include "model/np_state.h"

/* The class a planned rule belongs to: its context, or its queue. */
static struct np_class_record *class_of(struct np_mixed_record *r, const struct np_rule *g)
{
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		struct np_class_record *cr = &r->cls[c];

		if (!cr->used)
			continue;
		if (g->fs.flow_type & FLOW_RSS ? cr->rss_context && cr->rss_context == g->rss_context :
		    g->fs.ring_cookie >= cr->q_first && g->fs.ring_cookie < cr->q_first + cr->n_q)
			return cr;
	}
	return NULL;
}

static bool set_first_any(struct np_class_record *cr, uint32_t loc)
{
	for (unsigned i = 0; i < cr->n_rules; i++)
		if (cr->rules[i] == RX_CLS_LOC_ANY) {
			cr->rules[i] = loc;
			return true;
		}
	return false;
}

unsigned np_mixed_record_resolve(struct np_mixed_record *r, const struct np_state *cur,
				 const struct np_state *goal)
{
	const struct np_steer *g = &goal->dev.steer, *d = &cur->dev.steer;
	uint32_t claimed_loc[NP_CLASS__COUNT * NP_MIXED_OWNED_MAX];
	unsigned n_claimed = 0, n = 0;

	/* what an earlier pass resolved is taken: a second pass (after the
	 * run, having resolved the rules already there before it) must not
	 * give one device rule to two planned ones */
	for (int c = 0; c < NP_CLASS__COUNT; c++)
		for (unsigned i = 0; r->cls[c].used && i < r->cls[c].n_rules; i++)
			if (r->cls[c].rules[i] != RX_CLS_LOC_ANY)
				claimed_loc[n_claimed++] = r->cls[c].rules[i];
	for (unsigned i = 0; i < g->n_rules; i++) {
		const struct np_rule *want = &g->rules[i];
		struct np_class_record *cr;

		if (want->fs.location != RX_CLS_LOC_ANY || !(cr = class_of(r, want)))
			continue;
		for (unsigned k = 0; k < d->n_rules; k++) {
			const struct np_rule *have = &d->rules[k];
			bool taken = false;

			if (have->fs.location == RX_CLS_LOC_ANY || np_steer_rule(g, have->fs.location) ||
			    !np_rule_same_content(have, want))
				continue;
			for (unsigned j = 0; j < n_claimed; j++)
				taken |= claimed_loc[j] == have->fs.location;
			if (taken)
				continue;
			if (n_claimed < NP_CLASS__COUNT * NP_MIXED_OWNED_MAX)
				claimed_loc[n_claimed++] = have->fs.location;
			n += set_first_any(cr, have->fs.location);
			break;
		}
	}
	return n;
}

/* The rule netpolicy made for the n-th rule of class c, rebuilt from the
 * record as the planner made it (plan/plan_mixed.c plan_steering: the
 * flows in their order, each class's rules to its context, else round
 * robin over its queues).  false: the record does not say. */
static bool recorded_rule(const struct np_mixed_record *r, int c, unsigned n, struct np_rule *ret)
{
	const struct np_class_record *cr = &r->cls[c];
	unsigned seen = 0;

	for (unsigned f = 0; f < r->n_flows; f++) {
		struct np_error ignored;
		struct np_flow fl;

		np_error_clear(&ignored);
		if (np_flow_parse(r->flows[f], &fl, NULL, &ignored) < 0)
			return false;
		if ((int)fl.cls != c || fl.cls == r->deflt)
			continue;
		for (unsigned i = 0; i < fl.n_rules; i++, seen++) {
			if (seen != n)
				continue;
			memset(ret, 0, sizeof(*ret));
			ret->fs = fl.rule[i];
			if (cr->rss_context) {
				ret->fs.flow_type |= FLOW_RSS;
				ret->fs.ring_cookie = 0;
				ret->rss_context = cr->rss_context;
			} else {
				ret->fs.ring_cookie = cr->q_first + n % (cr->n_q ? cr->n_q : 1);
			}
			return true;
		}
	}
	return false;
}

/* The context netpolicy made for a class: its table over the class's
 * queues (plan_mixed.c steer_add_ctx). */
static bool recorded_ctx(const struct np_class_record *cr, const struct np_rss_ctx *x)
{
	for (uint32_t i = 0; i < x->n_indir; i++)
		if (!cr->n_q || x->indir[i] != cr->q_first + i % cr->n_q)
			return false;
	return x->n_indir > 0;
}

void np_mixed_record_owned_here(const struct np_mixed_record *r, const struct np_state *cur,
				struct np_owned *ret, struct np_owned *ret_foreign)
{
	const struct np_steer *d = &cur->dev.steer;

	memset(ret, 0, sizeof(*ret));
	memset(ret_foreign, 0, sizeof(*ret_foreign));
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		const struct np_class_record *cr = &r->cls[c];
		const struct np_rss_ctx *x;

		if (!cr->used)
			continue;
		x = cr->rss_context ? np_steer_ctx(d, cr->rss_context) : NULL;
		if (x && recorded_ctx(cr, x) && ret->n_ctx < NP_OWNED_MAX)
			ret->ctx[ret->n_ctx++] = cr->rss_context;
		else if (x && ret_foreign->n_ctx < NP_OWNED_MAX)
			ret_foreign->ctx[ret_foreign->n_ctx++] = cr->rss_context;
		for (unsigned i = 0; i < cr->n_rules; i++) {
			const struct np_rule *have = cr->rules[i] == RX_CLS_LOC_ANY ? NULL :
						     np_steer_rule(d, cr->rules[i]);
			struct np_rule want;

			if (!have)
				continue;	/* deleted since: nothing to remove */
			/* the comparison journal recovery makes (np_recovery_goal) */
			if (recorded_rule(r, c, i, &want) && np_rule_same_content(have, &want)) {
				if (ret->n_rules < NP_OWNED_MAX)
					ret->rules[ret->n_rules++] = cr->rules[i];
			} else if (ret_foreign->n_rules < NP_OWNED_MAX) {
				ret_foreign->rules[ret_foreign->n_rules++] = cr->rules[i];
			}
		}
	}
}

static bool in_before(const struct np_steer *before, const struct np_rule *r)
{
	const struct np_rule *o = r->fs.location == RX_CLS_LOC_ANY ? NULL :
				  np_steer_rule(before, r->fs.location);

	return o && o->fs.location == r->fs.location && np_rule_same_content(o, r);
}

int np_intent(const struct np_state *before, const struct np_state *goal, struct np_steer *ret)
{
	const struct np_steer *g = &goal->dev.steer;

	memset(ret, 0, sizeof(*ret));
	ret->ctx_err = -EOPNOTSUPP;
	if (g->err || !g->n_rules)
		return 0;
	ret->rules = calloc(g->n_rules, sizeof(*ret->rules));
	if (!ret->rules)
		return -ENOMEM;
	for (unsigned i = 0; i < g->n_rules; i++) {
		if (!before->dev.steer.err && in_before(&before->dev.steer, &g->rules[i]))
			continue;
		ret->rules[ret->n_rules] = g->rules[i];
		ret->rules[ret->n_rules].fs.location = ret->n_rules;
		ret->n_rules++;
	}
	ret->size = ret->n_rules;
	return 0;
}

/* A rule of `before` that is not on the device at its location and that a
 * rollback re-inserts wherever the driver says: one with x's content, not
 * yet taken (taken[] over before's rules). */
static bool reinserted(const struct np_steer *before, const struct np_steer *d,
		       const struct np_rule *x, bool *taken)
{
	for (unsigned k = 0; k < before->n_rules; k++) {
		const struct np_rule *b = &before->rules[k], *o = np_steer_rule(d, b->fs.location);

		if (taken[k] || (o && np_rule_same_content(o, b)) || !np_rule_same_content(b, x))
			continue;
		return taken[k] = true;
	}
	return false;
}

int np_recovery_goal(const struct np_journal_info *info, const struct np_state *cur,
		     struct np_state **ret)
{
	const struct np_steer *d = &cur->dev.steer, *in = &info->intent;
	const struct np_steer *bs = &info->before->dev.steer;
	bool *used = NULL, *taken = NULL;
	struct np_steer *s;
	int r = np_state_dup(info->before, ret);

	if (r < 0 || !info->has_intent || d->err || (*ret)->dev.steer.err)
		return r;
	s = &(*ret)->dev.steer;
	used = calloc(in->n_rules + 1, sizeof(*used));
	taken = calloc(bs->n_rules + 1, sizeof(*taken));
	if (!used || !taken) {
		free(used);
		free(taken);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < d->n_rules; i++) {
		const struct np_rule *x = &d->rules[i];
		struct np_rule *v, *at = (struct np_rule *)np_steer_rule(s, x->fs.location);
		bool ours = false;

		/* the journal's rule there comes back: where the driver takes
		 * locations, written over what is there now; where it places
		 * rules itself, wherever it says, so a rule someone else put
		 * at that location since stays (unless the run made it) */
		if (at && (!d->special || np_rule_same_content(at, x)))
			continue;
		for (unsigned k = 0; k < in->n_rules && !ours; k++)
			if (!used[k] && np_rule_same_content(&in->rules[k], x))
				ours = used[k] = true;
		/* a killed rollback's re-insert of the journal's own rule */
		if (ours || (d->special && !at && reinserted(bs, d, x, taken)))
			continue;
		if (at)
			at->fs.location = RX_CLS_LOC_ANY;
		v = realloc(s->rules, sizeof(*v) * (s->n_rules + 1));
		if (!v) {
			free(used);
			free(taken);
			return -ENOMEM;
		}
		s->rules = v;
		s->rules[s->n_rules++] = *x;
	}
	free(used);
	free(taken);
	return 0;
}

/*
 * Undoing a rule's deletion on a driver that places rules itself: the
 * goal (a snapshot, a journal's state) names the location the driver gave
 * the rule then, and the driver refuses any location but RX_CLS_LOC_ANY
 * (sfc's efx_ethtool_set_class_rule() returns -EINVAL).  So every rule the
 * goal names at a location where the device does not have it goes back in
 * at RX_CLS_LOC_ANY, and is there when the device has a rule of its
 * content anywhere the goal does not name (knob/steer.c), as a forward
 * insert is.
 */
int np_goal_placeable(const struct np_state *cur, const struct np_state *goal,
		      struct np_state **ret)
{
	const struct np_steer *d = &cur->dev.steer, *g = &goal->dev.steer;
	struct np_state *p = NULL;
	unsigned n = 0;
	int r;

	if (!d->special || d->err || g->err)
		return 0;
	for (unsigned i = 0; i < g->n_rules; i++) {
		const struct np_rule *o = np_steer_rule(d, g->rules[i].fs.location);

		n += g->rules[i].fs.location != RX_CLS_LOC_ANY &&
		     !(o && np_rule_same_content(o, &g->rules[i]));
	}
	if (!n)
		return 0;
	r = np_state_dup(goal, &p);
	if (r < 0)
		return r;
	for (unsigned i = 0; i < g->n_rules; i++) {
		const struct np_rule *o = np_steer_rule(d, g->rules[i].fs.location);

		if (!(o && np_rule_same_content(o, &g->rules[i])))
			p->dev.steer.rules[i].fs.location = RX_CLS_LOC_ANY;
	}
	*ret = p;
	return 1;
}

/* cur's rule with b's content that is not one of before's own (before has
 * no rule of that content there) and not taken yet. */
static const struct np_rule *moved_to(const struct np_state *before, const struct np_state *cur,
				      const struct np_rule *b, const uint32_t *taken,
				      unsigned n_taken)
{
	for (unsigned k = 0; k < cur->dev.steer.n_rules; k++) {
		const struct np_rule *x = &cur->dev.steer.rules[k];
		const struct np_rule *o = np_steer_rule(&before->dev.steer, x->fs.location);
		bool t = false;

		for (unsigned j = 0; j < n_taken; j++)
			t |= taken[j] == x->fs.location;
		if (!t && np_rule_same_content(x, b) && !(o && np_rule_same_content(o, x)))
			return x;
	}
	return NULL;
}

unsigned np_mixed_record_relocate(struct np_mixed_record *r, const struct np_state *before,
				  const struct np_state *cur)
{
	uint32_t taken[NP_CLASS__COUNT * NP_MIXED_OWNED_MAX];
	unsigned n_taken = 0, n = 0;

	if (before->dev.steer.err || cur->dev.steer.err)
		return 0;
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		struct np_class_record *cr = &r->cls[c];

		for (unsigned i = 0; cr->used && i < cr->n_rules; i++) {
			const struct np_rule *b = np_steer_rule(&before->dev.steer, cr->rules[i]);
			const struct np_rule *o = np_steer_rule(&cur->dev.steer, cr->rules[i]), *x;

			if (!b || (o && np_rule_same_content(o, b)))
				continue;
			x = moved_to(before, cur, b, taken, n_taken);
			if (!x || n_taken >= NP_ARRAY_SIZE(taken))
				continue;
			taken[n_taken++] = x->fs.location;
			cr->rules[i] = x->fs.location;
			n++;
		}
	}
	return n;
}

int np_store_policy_relocate(struct np_store *s, const struct np_state *before,
			     const struct np_state *cur, struct np_error *err)
{
	struct np_policy_record rec;
	struct np_error ignored;
	struct json_object *doc = NULL;
	int r;

	/* no record, or a damaged one: it names no rule to move */
	np_error_clear(&ignored);
	if (np_store_policy_load(s, &rec, &ignored) < 0 || !rec.has_mixed ||
	    !np_mixed_record_relocate(&rec.mixed, before, cur))
		return 0;
	r = np_policy_record_to_json(&rec, &doc);
	if (r < 0)
		return np_err(err, r, NP_PHASE_STATE, NULL, "out of memory");
	r = np_store_write_json(s, NP_FILE_POLICY, doc, err);
	json_object_put(doc);
	return r;
}
