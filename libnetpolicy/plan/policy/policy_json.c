/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policies as JSON (netpolicy-json(7), `policies --json`): every value a
 * file can set under "values", where each came from under "origin"; the
 * same JSON turns back into the same policy (np_policy_from_json).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "plan/policy/np_policy_file.h"

/* short for this file and policy_file.c */
#define custom np_custom_policy

/* The base's reason, then what the file changed for this knob: the reason
 * was written for the base's values, not for these. */
static void adjusted_note(const struct np_policy *p, struct json_object *vals, const char *knob,
			  char *text, size_t len)
{
	size_t used = strlen(text);
	bool first = true;

	if (!p->key_line || !p->file)
		return;
	json_object_object_foreach(vals, key, v) {
		const struct np_policy_key *k = np_policy_key_find(key);
		unsigned line;
		int f;

		if (k) {
			line = p->key_line[k - np_policy_keys];
			if (strcmp(k->knob, knob))
				continue;
		} else {
			if (strncmp(key, "coalesce.", 9))
				continue;	/* "core": no reason of its own */
			f = np_coal_field_lookup(key + 9);
			if (f < 0 || strcmp(knob, "coalesce"))
				continue;
			line = p->coal_line[f];
		}
		if (!line || used >= len)
			continue;
		used += (size_t)snprintf(text + used, len - used, "%s %s = %s",
					 first ? "; adjusted by this policy's file:" : ",", key,
					 json_object_get_string(v));
		first = false;
	}
}

/* A value under "values" and where it came from under "origin": FILE:LINE,
 * or "built-in" for a line 0 or a policy without a file.  False when out of
 * memory (v is consumed either way). */
static bool add_value(const struct np_policy *p, struct json_object *vals,
		      struct json_object *origin, const char *key, struct json_object *v,
		      unsigned line)
{
	char where[PATH_MAX + 16];

	if (line && p->file)
		snprintf(where, sizeof(where), "%s:%u", p->file, line);
	else
		snprintf(where, sizeof(where), "built-in");
	if (json_object_object_add(vals, key, v) < 0) {
		json_object_put(v);
		return false;
	}
	return json_object_object_add(origin, key, json_object_new_string(where)) == 0;
}

/* The keys every policy has, core included. */
static bool common_values(const struct np_policy *p, struct json_object *vals,
			  struct json_object *origin)
{
	const struct custom *c = p->key_line ? (const struct custom *)p : NULL;
	bool ok = true;

	for (size_t i = 0; ok && i < np_policy_n_keys; i++) {
		struct json_object *v;

		ok = np_policy_key_value_json(p, &np_policy_keys[i], &v) == 0 &&
		     add_value(p, vals, origin, np_policy_keys[i].name, v,
			       p->key_line ? p->key_line[i] : 0);
	}
	return ok && add_value(p, vals, origin, "core",
			       json_object_new_string(p->core ? p->core : ""), c ? c->core_line : 0);
}

/* coalesce.FIELD for the fields the policy sets. */
static bool coal_values(const struct np_policy *p, struct json_object *vals,
			struct json_object *origin)
{
	bool ok = true;

	for (size_t i = 0; ok && i < p->n_coal; i++) {
		struct json_object *v;
		char key[48];
		int f = (int)p->coal[i].field;

		snprintf(key, sizeof(key), "coalesce.%s", np_coal_field_name(f));
		ok = np_policy_coal_json(f, p->coal[i].value, &v) == 0 &&
		     add_value(p, vals, origin, key, v, p->coal_line ? p->coal_line[f] : 0);
	}
	return ok;
}

/* features.NAME for the offloads a custom policy sets. */
static bool feature_values(const struct np_policy *p, struct json_object *vals,
			   struct json_object *origin)
{
	const struct custom *c = p->key_line ? (const struct custom *)p : NULL;
	bool ok = true;

	for (size_t i = 0; ok && c && i < p->n_features; i++) {
		char key[48];

		snprintf(key, sizeof(key), "features.%s", p->features[i].f->key);
		ok = add_value(p, vals, origin, key, json_object_new_boolean(p->features[i].on),
			       c->feat_line[i]);
	}
	return ok;
}

/* A mixed policy's flows, default class and weights, only where its file
 * sets them: keys no other base takes. */
static bool mixed_values(const struct np_policy *p, struct json_object *vals,
			 struct json_object *origin)
{
	const struct custom *c = p->key_line ? (const struct custom *)p : NULL;
	bool ok = true;

	if (!c)
		return true;
	if (p->n_flows) {
		struct json_object *flows = json_object_new_array();

		ok = flows != NULL;
		for (size_t i = 0; ok && i < p->n_flows; i++)
			ok = json_object_array_add(flows, json_object_new_string(p->flows[i])) == 0;
		ok = ok ? add_value(p, vals, origin, "flow", flows, c->flow_line)
			: (json_object_put(flows), false);
	}
	if (ok && p->default_class)
		ok = add_value(p, vals, origin, "default-class",
			       json_object_new_string(p->default_class), c->default_line);
	if (ok && p->weights)
		ok = add_value(p, vals, origin, "weight", json_object_new_string(p->weights),
			       c->weight_line);
	return ok;
}

/* "sets": each knob's reason, with what the file changed for it. */
static struct json_object *reasons_json(const struct np_policy *p, struct json_object *vals)
{
	const struct { const char *knob, *why; } reasons[] = {
		{ "channels", p->why_channels }, { "irq-affinity", p->why_irq },
		{ "coalesce", p->why_coalesce }, { "rings", p->why_rings },
		{ "rss", p->why_rss }, { "steering", p->why_steering },
		{ "napi", p->why_napi }, { "buffers", p->why_buffers },
	};
	struct json_object *why = json_object_new_object();

	for (size_t i = 0; why && i < NP_ARRAY_SIZE(reasons); i++) {
		char text[1024];

		snprintf(text, sizeof(text), "%s", reasons[i].why);
		adjusted_note(p, vals, reasons[i].knob, text, sizeof(text));
		json_object_object_add(why, reasons[i].knob, json_object_new_string(text));
	}
	return why;
}

/* One policy as `policies --json` prints it: name, summary, base and file
 * (null for a built-in), values (what a file can set), origin ("built-in"
 * or FILE:LINE per value) and the reasons. */
int np_policy_to_json(const struct np_policy *p, struct json_object **ret)
{
	struct json_object *o = json_object_new_object(), *vals = json_object_new_object();
	struct json_object *origin = json_object_new_object(), *why = NULL;
	bool ok = o && vals && origin;

	ok = ok && common_values(p, vals, origin) && mixed_values(p, vals, origin) &&
	     coal_values(p, vals, origin) && feature_values(p, vals, origin);
	if (ok)
		why = reasons_json(p, vals);
	if (!ok || !why) {
		json_object_put(o);
		json_object_put(vals);
		json_object_put(origin);
		return -ENOMEM;
	}
	json_object_object_add(o, "name", json_object_new_string(p->name));
	json_object_object_add(o, "summary", json_object_new_string(p->summary));
	json_object_object_add(o, "core", json_object_new_string(p->core ? p->core : ""));
	json_object_object_add(o, "base", p->base ? json_object_new_string(p->base->name) : NULL);
	json_object_object_add(o, "file", p->file ? json_object_new_string(p->file) : NULL);
	json_object_object_add(o, "values", vals);
	json_object_object_add(o, "origin", origin);
	json_object_object_add(o, "sets", why);
	*ret = o;
	return 0;
}

int np_policy_from_json(struct json_object *obj, struct np_policy **ret, struct np_error *err)
{
	struct json_object *name, *vals, *base = NULL, *summary = NULL;
	const struct np_policy *b;
	struct custom *c;
	char why[200], word[256];
	int r;

	if (!json_object_object_get_ex(obj, "name", &name) || !json_object_is_type(name, json_type_string) ||
	    !json_object_object_get_ex(obj, "values", &vals) || !json_object_is_type(vals, json_type_object))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "a policy needs \"name\" and \"values\"");
	json_object_object_get_ex(obj, "base", &base);
	b = np_policy_builtin(base && json_object_is_type(base, json_type_string) ? json_object_get_string(base) :
							       json_object_get_string(name));
	if (!b)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "policy '%s': no built-in base",
			      json_object_get_string(name));
	if (!np_policy_name_ok(json_object_get_string(name)))
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "'%s' is not a policy name",
			      json_object_get_string(name));
	r = np_policy_custom_new(json_object_get_string(name), NULL, &c);
	if (r < 0)
		return np_err(err, r, NP_PHASE_NONE, NULL, "out of memory");
	c->p.name = c->name;
	np_policy_custom_base(c, b);
	if (!base || !json_object_is_type(base, json_type_string))
		c->p.base = NULL;
	/* the base's coalescing list is replaced by the one given */
	c->p.n_coal = 0;
	if (json_object_object_get_ex(obj, "summary", &summary) && json_object_is_type(summary, json_type_string))
		snprintf(c->summary, sizeof(c->summary), "%s", json_object_get_string(summary));
	json_object_object_foreach(vals, key, v) {
		if (!strcmp(key, "flow") && json_object_is_type(v, json_type_array)) {
			/* one "flow = CLASS:SPEC" per element, as a file has them */
			for (size_t i = 0; i < json_object_array_length(v); i++) {
				struct json_object *f = json_object_array_get_idx(v, i);

				if (!json_object_is_type(f, json_type_string))
					snprintf(why, sizeof(why), "flow %zu: not a string", i + 1);
				else if (np_policy_custom_set(c, key, json_object_get_string(f), 0, why,
								sizeof(why)) == 0)
					continue;
				r = np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "policy '%s': flow: %s",
					   c->name, why);
				np_policy_free(&c->p);
				return r;
			}
			continue;
		}
		if (np_policy_json_word(v, word, sizeof(word)) < 0 ||
		    np_policy_custom_set(c, key, word, 0, why, sizeof(why)) < 0) {
			r = np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "policy '%s': %s: %s", c->name,
				   key, np_policy_json_word(v, word, sizeof(word)) < 0 ?
				   "not a number, boolean or word" : why);
			np_policy_free(&c->p);
			return r;
		}
	}
	*ret = &c->p;
	return 0;
}

int np_policies_list_json(struct np_ctx *ctx, struct json_object **ret, struct np_error *err)
{
	struct json_object *arr = json_object_new_array();
	char **names;
	size_t n;
	int r;

	if (!arr)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	r = np_policy_dir_names(ctx, &names, &n);
	if (r < 0) {
		json_object_put(arr);
		return np_err(err, r, NP_PHASE_INPUT, NULL, "%s: %s", np_ctx_policy_dir(ctx), strerror(-r));
	}
	/* the built-ins a file does not adjust, then the files' */
	for (size_t i = 0; r >= 0 && i < np_policy_count(); i++) {
		const struct np_policy *p = np_policy_at(i);
		struct json_object *o;
		bool adjusted = false;

		for (size_t k = 0; k < n; k++)
			adjusted |= !strcmp(names[k], p->name);
		if (adjusted)
			continue;
		r = np_policy_to_json(p, &o);
		if (r < 0)
			np_err(err, r, NP_PHASE_NONE, NULL, "out of memory");
		else
			json_object_array_add(arr, o);
	}
	for (size_t k = 0; r >= 0 && k < n; k++) {
		const struct np_policy *p;
		struct json_object *o;

		r = np_policy_find(ctx, names[k], &p, err);
		if (r >= 0 && (r = np_policy_to_json(p, &o)) < 0)
			np_err(err, r, NP_PHASE_NONE, NULL, "out of memory");
		if (r >= 0)
			json_object_array_add(arr, o);
	}
	np_list_free(names, n);
	if (r < 0) {
		json_object_put(arr);
		return r;
	}
	*ret = arr;
	return 0;
}
