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

#include "np_flow.h"
#include "np_journal.h"
#include "np_mixed.h"
#include "np_state.h"

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

int np_recovery_goal(const struct np_journal_info *info, const struct np_state *cur,
		     struct np_state **ret)
{
	const struct np_steer *d = &cur->dev.steer, *in = &info->intent;
	bool *used = NULL;
	struct np_steer *s;
	int r = np_state_dup(info->before, ret);

	if (r < 0 || !info->has_intent || d->err || (*ret)->dev.steer.err)
		return r;
	s = &(*ret)->dev.steer;
	used = calloc(in->n_rules + 1, sizeof(*used));
	if (!used)
		return -ENOMEM;
	for (unsigned i = 0; i < d->n_rules; i++) {
		const struct np_rule *x = &d->rules[i];
		struct np_rule *v;
		bool ours = false;

		if (np_steer_rule(s, x->fs.location))
			continue;	/* the journal's rule there comes back */
		for (unsigned k = 0; k < in->n_rules && !ours; k++)
			if (!used[k] && np_rule_same_content(&in->rules[k], x))
				ours = used[k] = true;
		if (ours)
			continue;
		v = realloc(s->rules, sizeof(*v) * (s->n_rules + 1));
		if (!v) {
			free(used);
			return -ENOMEM;
		}
		s->rules = v;
		s->rules[s->n_rules++] = *x;
	}
	free(used);
	return 0;
}
