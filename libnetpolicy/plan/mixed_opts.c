/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mixed policy's options: from np_plan_opts (the CLI's --flow,
 * --default, --weight and netpolicy.conf's keys) into the parsed form the
 * planner takes, and from a plan's classes into the policy record, which
 * says what netpolicy made: the only rules and contexts a later plan, a
 * reset or a switch to another policy may remove (np_owned); and the
 * class weights (--weight and their defaults).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/np_mixed.h"

bool np_mixed_opts_given(const struct np_plan_opts *o)
{
	return o && (o->flags & NP_PLAN_OPTS_MIXED) &&
	       (o->n_flows || o->default_class || o->weights);
}

/* "latency=1,throughput=3": each CLASS=N in turn.  An empty item
 * ("latency=1,,cpu=1", a trailing ',') is a mistake, not nothing, and so is
 * a class given twice: which of the two was meant? */
static int parse_weights(const char *text, struct np_mixed_opts *opts, struct np_error *err)
{
	bool seen[NP_CLASS__COUNT] = { false };
	char buf[128], *tok, *next;
	unsigned item = 0;
	int r;

	if (strlen(text) >= sizeof(buf))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "weight: longer than %zu characters",
			      sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", text);
	if (!buf[0])
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "weight: empty; expected CLASS=N[,CLASS=N] (latency=1)");
	for (tok = buf; tok; tok = next) {
		struct np_mixed_opts one = { 0 };

		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		item++;
		if (!*tok)
			return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
				      "weight '%s': item %u is empty; expected CLASS=N[,CLASS=N]",
				      text, item);
		r = np_mixed_weight_parse(tok, &one, err);
		if (r < 0)
			return r;
		for (int c = 0; c < NP_CLASS__COUNT; c++) {
			if (!one.weight[c])
				continue;
			if (seen[c])
				return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
					      "weight '%s': %s given twice", text,
					      np_class_name((enum np_class)c));
			seen[c] = true;
			opts->weight[c] = one.weight[c];
		}
	}
	return 0;
}

/* Two flows with a rule of the same match would be two ntuple rules for the
 * same packets (a driver that refuses the second fails the apply half-way;
 * one that takes it sends the packets by location): refused, naming both. */
static int same_match_err(const struct np_plan_opts *o, const struct np_mixed_opts *m, size_t i,
			  struct np_error *err)
{
	for (size_t k = 0; k < i; k++)
		for (unsigned a = 0; a < m->flows[k].n_rules; a++)
			for (unsigned b = 0; b < m->flows[i].n_rules; b++) {
				char rule[NP_FLOW_TEXT_MAX];

				if (!np_flow_same_match(&m->flows[k].rule[a], &m->flows[i].rule[b]))
					continue;
				if (!strcmp(o->flows[k], o->flows[i]))
					return np_err(err, -EINVAL, NP_PHASE_INPUT, "flow",
						      "flow '%s' given twice", o->flows[i]);
				if (np_flow_rule_format(&m->flows[i].rule[b], rule, sizeof(rule)) < 0)
					snprintf(rule, sizeof(rule), "one rule");
				return np_err(err, -EINVAL, NP_PHASE_INPUT, "flow",
					      "flows '%s' and '%s' have the same match (%s)",
					      o->flows[k], o->flows[i], rule);
			}
	return 0;
}

int np_mixed_opts_parse(const struct np_plan_opts *o, struct np_mixed_plan *ret,
			struct np_error *err)
{
	struct np_mixed_opts *m = &ret->opts;
	bool mixed = o && (o->flags & NP_PLAN_OPTS_MIXED);
	int r;

	memset(ret, 0, sizeof(*ret));
	m->deflt = NP_CLASS_THROUGHPUT;
	if (!mixed)
		return 0;
	if (o->n_flows > NP_MIXED_FLOWS_MAX)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, "flow", "%zu flows: at most %d",
			      o->n_flows, NP_MIXED_FLOWS_MAX);
	for (size_t i = 0; i < o->n_flows; i++) {
		if (!o->flows[i] || strlen(o->flows[i]) >= NP_FLOW_TEXT_MAX)
			return np_err(err, -EINVAL, NP_PHASE_INPUT, "flow",
				      "flow %zu: empty or longer than %d characters", i + 1,
				      NP_FLOW_TEXT_MAX - 1);
		r = np_flow_parse(o->flows[i], &m->flows[i], NULL, err);
		if (r < 0)
			return r;
		r = same_match_err(o, m, i, err);
		if (r < 0)
			return r;
		snprintf(ret->flow_text[i], sizeof(ret->flow_text[i]), "%s", o->flows[i]);
		m->n_flows++;
	}
	if (o->default_class && (r = np_class_from_name(o->default_class, &m->deflt, err)) < 0)
		return r;
	if (o->weights && (r = parse_weights(o->weights, m, err)) < 0)
		return r;
	return 0;
}

void np_mixed_record_from_plan(const struct np_mixed_plan *mp, struct np_mixed_record *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->n_flows = mp->opts.n_flows;
	for (unsigned i = 0; i < mp->opts.n_flows; i++)
		memcpy(ret->flows[i], mp->flow_text[i], sizeof(ret->flows[i]));
	ret->deflt = mp->m.deflt;
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		const struct np_mixed_class *k = &mp->m.cls[c];
		struct np_class_record *cr = &ret->cls[c];

		static const struct np_mixed_opts defaults;

		/* a class without flows has no queues: its weight is moot, the
		 * record keeps the default (what reading it back gives) */
		cr->weight = np_mixed_weight(k->used ? &mp->opts : &defaults, (enum np_class)c);
		if (!k->used)
			continue;
		cr->used = true;
		cr->q_first = k->q_first;
		cr->n_q = k->n_q;
		cr->cpus = k->cpus;
		cr->rss_context = k->ctx;
		cr->n_rules = k->n_rules;
		memcpy(cr->rules, k->rule, sizeof(cr->rules[0]) * k->n_rules);
	}
}

void np_mixed_record_owned(const struct np_mixed_record *r, struct np_owned *ret)
{
	memset(ret, 0, sizeof(*ret));
	for (int c = 0; c < NP_CLASS__COUNT; c++) {
		const struct np_class_record *cr = &r->cls[c];

		if (!cr->used)
			continue;
		if (cr->rss_context && ret->n_ctx < NP_OWNED_MAX)
			ret->ctx[ret->n_ctx++] = cr->rss_context;
		for (unsigned i = 0; i < cr->n_rules && ret->n_rules < NP_OWNED_MAX; i++)
			ret->rules[ret->n_rules++] = cr->rules[i];
	}
}

void np_mixed_record_weights(const struct np_mixed_record *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < NP_CLASS__COUNT && n < len; c++) {
		int k = snprintf(buf + n, len - n, "%s%s=%u", c ? "," : "",
				 np_class_name((enum np_class)c), r->cls[c].weight);

		if (k < 0)
			break;
		n += (size_t)k;
	}
}

static bool listed(const uint32_t *v, unsigned n, uint32_t x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

void np_steer_drop_owned(struct np_steer *s, const struct np_owned *o)
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->n_rules; i++)
		if (!listed(o->rules, o->n_rules, s->rules[i].fs.location))
			s->rules[n++] = s->rules[i];
	s->n_rules = n;
	n = 0;
	for (unsigned i = 0; i < s->n_ctx; i++) {
		if (listed(o->ctx, o->n_ctx, s->ctx[i].id))
			free(s->ctx[i].indir);
		else
			s->ctx[n++] = s->ctx[i];
	}
	s->n_ctx = n;
}

static const unsigned default_weight[NP_CLASS__COUNT] = {
	[NP_CLASS_LATENCY] = NP_MIXED_WEIGHT_LATENCY,
	[NP_CLASS_THROUGHPUT] = NP_MIXED_WEIGHT_THROUGHPUT,
	[NP_CLASS_CPU] = NP_MIXED_WEIGHT_CPU,
};

unsigned np_mixed_weight(const struct np_mixed_opts *opts, enum np_class cls)
{
	return opts->weight[cls] ? opts->weight[cls] : default_weight[cls];
}

int np_mixed_weight_parse(const char *text, struct np_mixed_opts *opts, struct np_error *err)
{
	const char *eq = strchr(text, '=');
	char name[16], *end;
	enum np_class cls;
	unsigned long w;
	int r;

	if (!eq || (size_t)(eq - text) >= sizeof(name))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "weight '%s': expected CLASS=N (latency=1)", text);
	memcpy(name, text, (size_t)(eq - text));
	name[eq - text] = '\0';
	r = np_class_from_name(name, &cls, err);
	if (r < 0)
		return r;
	errno = 0;
	w = strtoul(eq + 1, &end, 10);
	if (errno || end == eq + 1 || *end || w < 1 || w > NP_MIXED_WEIGHT_MAX)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL,
			      "weight '%s': expected a number from 1 to %d", text,
			      NP_MIXED_WEIGHT_MAX);
	opts->weight[cls] = (unsigned)w;
	return 0;
}
