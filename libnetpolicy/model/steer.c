/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ntuple rules and extra RSS contexts in np_state (np_steer): lookups,
 * copies, and their JSON (netpolicy-model(5)):
 *
 *   "ntuple": {"supported": true, "size": 1024, "special": false,
 *              "rules": [{"location": 1023, "flow": "tcp4:dst-port=6379",
 *                         "context": 1, "queue": 0}, ...]}
 *   "rss_contexts": {"supported": true, "max": 16,
 *                    "contexts": [{"context": 1, "indir": [4, 5, ...]}]}
 *
 * A rule is written as its flow text (netpolicy-flows(7)) when that text
 * parses back to the same match, else as "fs": the hex bytes of its struct
 * ethtool_rx_flow_spec, so that a foreign rule netpolicy cannot express
 * survives a snapshot exactly.  "context" is present for FLOW_RSS rules;
 * "queue" is then the offset added to the context's entries.  Both keys
 * absent (models and snapshots older than the mixed policy): the driver has
 * neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"
#include "model/np_flow.h"

const struct np_rule *np_steer_rule(const struct np_steer *s, uint32_t loc)
{
	for (unsigned i = 0; i < s->n_rules; i++)
		if (s->rules[i].fs.location == loc)
			return &s->rules[i];
	return NULL;
}

const struct np_rss_ctx *np_steer_ctx(const struct np_steer *s, uint32_t id)
{
	for (unsigned i = 0; i < s->n_ctx; i++)
		if (s->ctx[i].id == id)
			return &s->ctx[i];
	return NULL;
}

void np_steer_clear(struct np_steer *s)
{
	for (unsigned i = 0; i < s->n_ctx; i++)
		free(s->ctx[i].indir);
	free(s->ctx);
	free(s->rules);
	s->ctx = NULL;
	s->rules = NULL;
	s->n_ctx = s->n_rules = 0;
}

int np_steer_copy(struct np_steer *dst, const struct np_steer *src)
{
	*dst = *src;
	dst->rules = NULL;
	dst->ctx = NULL;
	dst->n_rules = dst->n_ctx = 0;
	if (src->n_rules) {
		dst->rules = malloc(sizeof(*dst->rules) * src->n_rules);
		if (!dst->rules)
			return -ENOMEM;
		memcpy(dst->rules, src->rules, sizeof(*dst->rules) * src->n_rules);
		dst->n_rules = src->n_rules;
	}
	if (src->n_ctx) {
		dst->ctx = calloc(src->n_ctx, sizeof(*dst->ctx));
		if (!dst->ctx)
			goto oom;
		for (unsigned i = 0; i < src->n_ctx; i++) {
			dst->ctx[i] = src->ctx[i];
			dst->ctx[i].indir = NULL;
			dst->n_ctx = i + 1;
			if (src->ctx[i].n_indir) {
				dst->ctx[i].indir = malloc(sizeof(uint32_t) * src->ctx[i].n_indir);
				if (!dst->ctx[i].indir)
					goto oom;
				memcpy(dst->ctx[i].indir, src->ctx[i].indir,
				       sizeof(uint32_t) * src->ctx[i].n_indir);
			}
		}
	}
	return 0;
oom:
	np_steer_clear(dst);
	return -ENOMEM;
}

/* --- JSON: writing ---------------------------------------------------------------- */

/* The rule's match as flow text, when that text is the whole match. */
static bool rule_text(const struct ethtool_rx_flow_spec *fs, char *buf, size_t len)
{
	struct ethtool_rx_flow_spec m = *fs;
	char text[NP_FLOW_TEXT_MAX + 8];
	struct np_flow f;

	m.flow_type &= ~FLOW_RSS;
	m.ring_cookie = 0;
	m.location = RX_CLS_LOC_ANY;
	if (np_flow_rule_format(&m, buf, len) < 0 || strlen(buf) >= len - 1)
		return false;
	snprintf(text, sizeof(text), "cpu:%s", buf);
	if (np_flow_parse(text, &f, NULL, NULL) < 0 || f.n_rules != 1)
		return false;
	return !memcmp(&f.rule[0], &m, sizeof(m));
}

static void hex(char *out, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static int add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v || json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *unsupported(int e)
{
	struct json_object *o = json_object_new_object();
	const char *name = np_errno_name(e);

	if (!o)
		return NULL;
	if (add(o, "supported", json_object_new_boolean(false)) < 0 ||
	    (name && add(o, "error", json_object_new_string(name)) < 0)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *rule_json(const struct np_rule *r)
{
	struct json_object *o = json_object_new_object();
	char text[NP_FLOW_TEXT_MAX], fs[2 * sizeof(r->fs) + 1];
	int e = 0;

	if (!o)
		return NULL;
	e |= add(o, "location", json_object_new_int64(r->fs.location));
	if (rule_text(&r->fs, text, sizeof(text))) {
		e |= add(o, "flow", json_object_new_string(text));
	} else {
		hex(fs, &r->fs, sizeof(r->fs));
		e |= add(o, "fs", json_object_new_string(fs));
	}
	if (r->fs.flow_type & FLOW_RSS)
		e |= add(o, "context", json_object_new_int64(r->rss_context));
	if (r->fs.ring_cookie == RX_CLS_FLOW_DISC)
		e |= add(o, "queue", json_object_new_string("drop"));
	else
		e |= add(o, "queue", json_object_new_int64((int64_t)r->fs.ring_cookie));
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int np_steer_to_json(const struct np_steer *s, struct json_object *dev)
{
	struct json_object *nt, *cx, *arr;
	int e = 0;

	if (s->err) {
		nt = unsupported(s->err);
	} else {
		nt = json_object_new_object();
		arr = json_object_new_array();
		if (nt && arr) {
			e |= add(nt, "supported", json_object_new_boolean(true));
			e |= add(nt, "size", json_object_new_int64(s->size));
			e |= add(nt, "special", json_object_new_boolean(s->special));
			for (unsigned i = 0; i < s->n_rules && !e; i++) {
				struct json_object *r = rule_json(&s->rules[i]);

				if (!r || json_object_array_add(arr, r) < 0) {
					json_object_put(r);
					e = -ENOMEM;
				}
			}
		}
		if (!nt || !arr) {
			json_object_put(nt);
			json_object_put(arr);
			return -ENOMEM;
		}
		e |= add(nt, "rules", arr);
	}
	if (e || add(dev, "ntuple", nt) < 0) {
		if (e)
			json_object_put(nt);
		return -ENOMEM;
	}

	if (s->ctx_err) {
		cx = unsupported(s->ctx_err);
	} else {
		cx = json_object_new_object();
		arr = json_object_new_array();
		if (cx && arr) {
			e |= add(cx, "supported", json_object_new_boolean(true));
			e |= add(cx, "max", json_object_new_int64(s->ctx_max));
			for (unsigned i = 0; i < s->n_ctx && !e; i++) {
				struct json_object *c = json_object_new_object();
				struct json_object *t = json_object_new_array();

				if (!c || !t) {
					json_object_put(c);
					json_object_put(t);
					e = -ENOMEM;
					break;
				}
				e |= add(c, "context", json_object_new_int64(s->ctx[i].id));
				for (uint32_t j = 0; j < s->ctx[i].n_indir && !e; j++)
					if (json_object_array_add(t, json_object_new_int64(
							s->ctx[i].indir[j])) < 0)
						e = -ENOMEM;
				e |= add(c, "indir", t);
				if (json_object_array_add(arr, c) < 0) {
					json_object_put(c);
					e = -ENOMEM;
				}
			}
		}
		if (!cx || !arr) {
			json_object_put(cx);
			json_object_put(arr);
			return -ENOMEM;
		}
		e |= add(cx, "contexts", arr);
	}
	if (e || add(dev, "rss_contexts", cx) < 0) {
		if (e)
			json_object_put(cx);
		return -ENOMEM;
	}
	return 0;
}

/* --- JSON: reading ---------------------------------------------------------------- */

static int unhex(const char *s, void *out, size_t n)
{
	unsigned char *b = out;

	if (strlen(s) != 2 * n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -EINVAL;
		b[i] = (unsigned char)v;
	}
	return 0;
}

static int read_rule(struct json_object *e, const char *p, struct np_rule *r, uint32_t size,
		     struct np_error *err)
{
	struct json_object *v;
	uint32_t loc, ctx = 0;
	int rr;

	if ((rr = np_j_get_u32(e, p, "location", &loc, err)) < 0)
		return rr;
	if (size && loc >= size)
		return np_j_bad(err, p, "location", "%u is beyond the table's %u locations", loc, size);
	if (json_object_object_get_ex(e, "fs", &v)) {
		const char *s = json_object_get_string(v);

		if (!json_object_is_type(v, json_type_string) || unhex(s, &r->fs, sizeof(r->fs)) < 0)
			return np_j_bad(err, p, "fs", "expected %zu hex bytes", sizeof(r->fs));
	} else {
		char text[NP_FLOW_TEXT_MAX + 8];
		const char *s;
		struct np_flow f;

		if ((rr = np_j_get_string(e, p, "flow", &s, err)) < 0)
			return rr;
		snprintf(text, sizeof(text), "cpu:%s", s);
		if (np_flow_parse(text, &f, NULL, NULL) < 0 || f.n_rules != 1)
			return np_j_bad(err, p, "flow", "'%s' is not one rule (netpolicy-flows(7); "
					"name the family: tcp4)", s);
		r->fs = f.rule[0];
	}
	r->fs.location = loc;
	r->fs.flow_type &= ~FLOW_RSS;
	if (json_object_object_get_ex(e, "context", &v)) {
		if ((rr = np_j_get_u32(e, p, "context", &ctx, err)) < 0)
			return rr;
		if (!ctx)
			return np_j_bad(err, p, "context", "0 is the main table, not a context");
		r->fs.flow_type |= FLOW_RSS;
	}
	r->rss_context = ctx;
	if (json_object_object_get_ex(e, "queue", &v) && json_object_is_type(v, json_type_string) &&
	    !strcmp(json_object_get_string(v), "drop")) {
		r->fs.ring_cookie = RX_CLS_FLOW_DISC;
		return 0;
	}
	if ((rr = np_j_get_u32(e, p, "queue", &loc, err)) < 0)
		return rr;
	r->fs.ring_cookie = loc;
	return 0;
}

static int read_ntuple(struct json_object *dev, const char *path, struct np_steer *s,
		       struct np_error *err)
{
	struct json_object *k, *rules;
	char p[JPATH], ep[JPATH];
	size_t n;
	int r;

	if (!json_object_object_get_ex(dev, "ntuple", NULL)) {
		s->err = -EOPNOTSUPP;
		return 0;
	}
	r = np_j_knob(dev, path, "ntuple", &k, p, &s->err, err);
	if (r <= 0)
		return r;
	if ((r = np_j_get_u32(k, p, "size", &s->size, err)) < 0 ||
	    (r = np_j_get_bool(k, p, "special", &s->special, err)) < 0 ||
	    (r = np_j_get_objects(k, p, "rules", &rules, &n, err)) < 0)
		return r;
	if (n > (s->size ? s->size : 65536))
		return np_j_bad(err, p, "rules", "%zu rules in %u locations", n, s->size);
	if (n && !(s->rules = calloc(n, sizeof(*s->rules))))
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		np_j_path_idx(ep, p, "rules", i);
		r = read_rule(json_object_array_get_idx(rules, i), ep, &s->rules[i], s->size, err);
		if (r < 0)
			return r;
		if (np_steer_rule(s, s->rules[i].fs.location))
			return np_j_bad(err, ep, "location", "%u twice", s->rules[i].fs.location);
		s->n_rules = (unsigned)i + 1;
	}
	return 0;
}

static int read_ctx(struct json_object *e, const char *p, struct np_rss_ctx *c, uint32_t max,
		    struct np_error *err)
{
	struct json_object *t;
	size_t n;
	int r;

	if ((r = np_j_get_u32(e, p, "context", &c->id, err)) < 0 ||
	    (r = np_j_member(e, p, "indir", json_type_array, &t, err)) < 0)
		return r;
	if (!c->id || c->id >= max)
		return np_j_bad(err, p, "context", "%u is not between 1 and %u", c->id, max - 1);
	n = json_object_array_length(t);
	if (n > 4096)
		return np_j_bad(err, p, "indir", "%zu entries", n);
	r = np_j_u32_array(t, p, "indir", &c->indir, err);
	if (c->indir)	/* a count only with its table, as the copy expects */
		c->n_indir = (uint32_t)n;
	return r;
}

static int read_contexts(struct json_object *dev, const char *path, struct np_steer *s,
			 struct np_error *err)
{
	struct json_object *k, *arr;
	char p[JPATH], ep[JPATH];
	size_t n;
	int r;

	if (!json_object_object_get_ex(dev, "rss_contexts", NULL)) {
		s->ctx_err = -EOPNOTSUPP;
		return 0;
	}
	r = np_j_knob(dev, path, "rss_contexts", &k, p, &s->ctx_err, err);
	if (r <= 0)
		return r;
	if ((r = np_j_get_u32(k, p, "max", &s->ctx_max, err)) < 0 ||
	    (r = np_j_get_objects(k, p, "contexts", &arr, &n, err)) < 0)
		return r;
	if (s->ctx_max > 65536 || n >= (s->ctx_max ? s->ctx_max : 1))
		return np_j_bad(err, p, "contexts", "%zu contexts, ids below %u", n, s->ctx_max);
	if (n && !(s->ctx = calloc(n, sizeof(*s->ctx))))
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		np_j_path_idx(ep, p, "contexts", i);
		s->n_ctx = (unsigned)i + 1;
		r = read_ctx(json_object_array_get_idx(arr, i), ep, &s->ctx[i], s->ctx_max, err);
		if (r < 0)
			return r;
		for (size_t j = 0; j < i; j++)
			if (s->ctx[j].id == s->ctx[i].id)
				return np_j_bad(err, ep, "context", "%u twice", s->ctx[i].id);
	}
	return 0;
}

int np_steer_from_json(struct json_object *dev, const char *path, struct np_steer *ret,
		       struct np_error *err)
{
	struct np_steer s;
	int r;

	memset(&s, 0, sizeof(s));
	r = read_ntuple(dev, path, &s, err);
	if (r >= 0)
		r = read_contexts(dev, path, &s, err);
	if (r < 0) {
		np_steer_clear(&s);
		return r;
	}
	*ret = s;
	return 0;
}
