/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mixed part of the policy record (np_mixed.h): the options as applied
 * and what each class got, the rule locations and RSS contexts netpolicy
 * made among them.  Read as strictly as the rest of the store: every flow
 * parses again, every count is in range, no member is missing or extra.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "plan/np_mixed.h"
#include "apply/np_store.h"

/* A bound for sanity, not a kernel limit: a damaged record must not name
 * queue numbers that overflow the planner's arithmetic. */
#define QUEUES_MAX 65536

static struct json_object *class_json(const struct np_class_record *cr)
{
	struct json_object *o = json_object_new_object(), *q = json_object_new_object();
	struct json_object *rules = json_object_new_array();
	char cpus[NP_CPULIST_MAX];

	if (np_fmt_mask(cpus, sizeof(cpus), &cr->cpus) < 0)
		cpus[0] = '\0';	/* cannot be: NP_CPULIST_MAX holds every CPU */
	for (unsigned i = 0; i < cr->n_rules; i++)
		if (!np_doc_push(&rules, json_object_new_int64(cr->rules[i])))
			break;
	if (!np_doc_add(&q, "first", json_object_new_int64(cr->q_first)) ||
	    !np_doc_add(&q, "count", json_object_new_int64(cr->n_q)) ||
	    !np_doc_add(&o, "weight", json_object_new_int64(cr->weight)) || !np_doc_add(&o, "queues", q) ||
	    !np_doc_add(&o, "cpus", json_object_new_string(cpus)) ||
	    !np_doc_add(&o, "rss_context", json_object_new_int64(cr->rss_context)) ||
	    !np_doc_add(&o, "rules", rules)) {
		json_object_put(q);
		json_object_put(rules);
		return NULL;
	}
	return o;
}

int np_mixed_record_to_json(const struct np_mixed_record *r, struct json_object **ret)
{
	struct json_object *o = json_object_new_object(), *flows = json_object_new_array();
	struct json_object *cls = json_object_new_object();

	for (unsigned i = 0; i < r->n_flows; i++)
		if (!np_doc_push(&flows, json_object_new_string(r->flows[i])))
			break;
	for (int c = 0; c < NP_CLASS__COUNT && cls; c++)
		if (r->cls[c].used)
			np_doc_add(&cls, np_class_name((enum np_class)c), class_json(&r->cls[c]));
	if (!np_doc_add(&o, "flows", flows) ||
	    !np_doc_add(&o, "default", json_object_new_string(np_class_name(r->deflt))) ||
	    !np_doc_add(&o, "classes", cls)) {
		json_object_put(flows);
		json_object_put(cls);
		return -ENOMEM;
	}
	*ret = o;
	return 0;
}

static int bad(struct np_error *err, const char *what, const char *member, const char *why)
{
	return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: mixed: %s: %s", what, member, why);
}

/* An object with exactly `n` members. */
static struct json_object *object(struct json_object *o, const char *key, int n)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_object) ||
	    (n >= 0 && json_object_object_length(v) != n))
		return NULL;
	return v;
}

static int uint_of(struct json_object *o, const char *key, uint64_t max, uint64_t *ret)
{
	struct json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -EINVAL;
	x = json_object_get_int64(v);
	if (x < 0 || (uint64_t)x > max)
		return -EINVAL;
	*ret = (uint64_t)x;
	return 0;
}

static int class_from_json(struct json_object *o, const char *name, const char *what,
			   struct np_class_record *cr, struct np_error *err)
{
	struct json_object *q = object(o, "queues", 2), *cpus, *rules;
	uint64_t w, first, count, ctx;

	if (!json_object_is_type(o, json_type_object) || json_object_object_length(o) != 5 || !q)
		return bad(err, what, name, "expected weight, queues, cpus, rss_context and rules");
	if (uint_of(o, "weight", NP_MIXED_WEIGHT_MAX, &w) < 0 || !w)
		return bad(err, what, name, "weight: expected 1 to 64");
	if (uint_of(q, "first", QUEUES_MAX, &first) < 0 ||
	    uint_of(q, "count", QUEUES_MAX, &count) < 0 || !count ||
	    first + count > QUEUES_MAX)
		return bad(err, what, name, "queues: expected first and count (at least 1)");
	if (uint_of(o, "rss_context", UINT32_MAX, &ctx) < 0)
		return bad(err, what, name, "rss_context: expected a context id or 0");
	if (!json_object_object_get_ex(o, "cpus", &cpus) ||
	    !json_object_is_type(cpus, json_type_string) ||
	    np_cpumask_parse_list(json_object_get_string(cpus), &cr->cpus) < 0)
		return bad(err, what, name, "cpus: expected a CPU list");
	if (!json_object_object_get_ex(o, "rules", &rules) ||
	    !json_object_is_type(rules, json_type_array) ||
	    json_object_array_length(rules) > NP_MIXED_OWNED_MAX)
		return bad(err, what, name, "rules: expected at most 64 rule locations");
	for (size_t i = 0; i < json_object_array_length(rules); i++) {
		struct json_object *v = json_object_array_get_idx(rules, i);
		int64_t x = json_object_get_int64(v);

		if (!json_object_is_type(v, json_type_int) || x < 0 || x > UINT32_MAX)
			return bad(err, what, name, "rules: expected rule locations");
		cr->rules[cr->n_rules++] = (uint32_t)x;
	}
	cr->used = true;
	cr->weight = (unsigned)w;
	cr->q_first = (unsigned)first;
	cr->n_q = (unsigned)count;
	cr->rss_context = (uint32_t)ctx;
	return 0;
}

int np_mixed_record_from_json(struct json_object *obj, const char *what,
			      struct np_mixed_record *ret, struct np_error *err)
{
	struct json_object *flows, *deflt, *cls = object(obj, "classes", -1);
	struct np_mixed_record r;
	struct np_error why;
	int n_used = 0, rc;

	memset(&r, 0, sizeof(r));
	if (!json_object_is_type(obj, json_type_object) || json_object_object_length(obj) != 3 || !cls)
		return bad(err, what, "", "expected flows, default and classes");
	if (!json_object_object_get_ex(obj, "flows", &flows) ||
	    !json_object_is_type(flows, json_type_array) ||
	    json_object_array_length(flows) > NP_MIXED_FLOWS_MAX)
		return bad(err, what, "flows", "expected at most 32 flows");
	for (size_t i = 0; i < json_object_array_length(flows); i++) {
		struct json_object *v = json_object_array_get_idx(flows, i);
		struct np_flow f;

		np_error_clear(&why);
		if (!json_object_is_type(v, json_type_string) ||
		    strlen(json_object_get_string(v)) >= NP_FLOW_TEXT_MAX ||
		    np_flow_parse(json_object_get_string(v), &f, NULL, &why) < 0)
			return bad(err, what, "flows", why.msg[0] ? why.msg : "expected flow texts");
		snprintf(r.flows[r.n_flows++], NP_FLOW_TEXT_MAX, "%s", json_object_get_string(v));
	}
	np_error_clear(&why);
	if (!json_object_object_get_ex(obj, "default", &deflt) ||
	    !json_object_is_type(deflt, json_type_string) ||
	    np_class_from_name(json_object_get_string(deflt), &r.deflt, &why) < 0)
		return bad(err, what, "default", "expected a class");
	json_object_object_foreach(cls, name, val) {
		enum np_class c;

		np_error_clear(&why);
		if (np_class_from_name(name, &c, &why) < 0)
			return bad(err, what, "classes", "unknown class");
		rc = class_from_json(val, name, what, &r.cls[c], err);
		if (rc < 0)
			return rc;
		n_used++;
	}
	if (!r.cls[r.deflt].used)
		return bad(err, what, "classes", "the default class is missing");
	/* the weights of classes without flows: the defaults */
	for (int c = 0; c < NP_CLASS__COUNT; c++)
		if (!r.cls[c].used) {
			struct np_mixed_opts none = { .deflt = r.deflt };

			r.cls[c].weight = np_mixed_weight(&none, (enum np_class)c);
		}
	(void)n_used;
	*ret = r;
	return 0;
}

/* --- what np_active_policy() says of it ------------------------------------------- */

size_t np_active_n_flows(const struct np_active *active)
{
	return active && active->mixed ? active->mixed->n_flows : 0;
}

const char *np_active_flow(const struct np_active *active, size_t i)
{
	return i < np_active_n_flows(active) ? active->mixed->flows[i] : NULL;
}

const char *np_active_default_class(const struct np_active *active)
{
	return active && active->mixed ? np_class_name(active->mixed->deflt) : NULL;
}

const char *np_active_weights(const struct np_active *active)
{
	return active && active->mixed ? active->weights : NULL;
}

int np_active_classes_json(const struct np_active *active, struct json_object **ret)
{
	struct json_object *doc = NULL, *cls;

	*ret = NULL;
	if (!active || !active->mixed)
		return 0;
	if (np_mixed_record_to_json(active->mixed, &doc) < 0)
		return -ENOMEM;
	if (json_object_object_get_ex(doc, "classes", &cls))
		*ret = json_object_get(cls);
	json_object_put(doc);
	return *ret ? 0 : -ENOMEM;
}
