/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A model's "faults" (what the N-th call of an operation does instead:
 * fail, be ignored, round, lose its device) and "calls" (the calls counted
 * across commands) members, read when the model is loaded and written when
 * it is saved (model_io.c).  Apart from the faults' effect on each call
 * (fault.c), which saves the model, so that loading it imports neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/np_plan.h"
#include "np_sim.h"

static const char *const op_names[NP_SIM_OP__COUNT] = {
	[NP_SIM_OP_DISCOVER] = "discover",
	[NP_SIM_OP_SET_CHANNELS] = "set_channels",
	[NP_SIM_OP_SET_RINGS] = "set_rings",
	[NP_SIM_OP_SET_COALESCE] = "set_coalesce",
	[NP_SIM_OP_SET_FEATURE] = "set_feature",
	[NP_SIM_OP_SET_RSS_INDIR] = "set_rss_indir",
	[NP_SIM_OP_WRITE_ATTR] = "write_attr",
	[NP_SIM_OP_RULE_INSERT] = "rule_insert",
	[NP_SIM_OP_RULE_DELETE] = "rule_delete",
	[NP_SIM_OP_CTX_CREATE] = "ctx_create",
	[NP_SIM_OP_CTX_SET] = "ctx_set",
	[NP_SIM_OP_CTX_DELETE] = "ctx_delete",
	[NP_SIM_OP_SET_NAPI] = "set_napi",
	[NP_SIM_OP_SET_QUEUE_COALESCE] = "set_queue_coalesce",
};

static const char *const mode_names[] = {
	[NP_SIM_MODE_FAIL] = "fail",
	[NP_SIM_MODE_IGNORE] = "ignore",
	[NP_SIM_MODE_ROUND] = "round",
	[NP_SIM_MODE_VANISH] = "vanish",
	[NP_SIM_MODE_KEEP] = "keep",
	[NP_SIM_MODE_COUPLE] = "couple",
	[NP_SIM_MODE_ADAPTIVE_USECS] = "adaptive_usecs",
};

/* "mode" and the operations each mode fits */
static int parse_mode(struct json_object *o, const char *p, struct np_sim_fault *f,
		      struct np_error *err)
{
	struct json_object *v;
	const char *s;
	size_t i;

	if (json_object_object_get_ex(o, "mode", &v)) {
		s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
		for (i = 0; i < NP_ARRAY_SIZE(mode_names) && strcmp(s, mode_names[i]); i++)
			;
		if (i == NP_ARRAY_SIZE(mode_names))
			return np_sim_bad(err, p, "mode: expected \"fail\", \"ignore\", \"round\", "
					  "\"vanish\", \"keep\", \"couple\" or \"adaptive_usecs\"");
		f->mode = (enum np_sim_mode)i;
	}
	if (f->mode >= NP_SIM_MODE_KEEP && f->op != NP_SIM_OP_SET_COALESCE)
		return np_sim_bad(err, p, "mode: \"%s\" is a set_coalesce behaviour", mode_names[f->mode]);
	if (f->mode == NP_SIM_MODE_ROUND && f->op != NP_SIM_OP_SET_CHANNELS && f->op != NP_SIM_OP_SET_RINGS &&
	    f->op != NP_SIM_OP_SET_COALESCE && f->op != NP_SIM_OP_SET_QUEUE_COALESCE &&
	    f->op != NP_SIM_OP_WRITE_ATTR)
		return np_sim_bad(err, p, "mode: \"round\" needs an operation with numeric values");
	if (f->mode == NP_SIM_MODE_IGNORE && f->op == NP_SIM_OP_DISCOVER)
		return np_sim_bad(err, p, "mode: discover cannot \"ignore\"");
	return 0;
}

/* "field": the one coalescing field (or ring) the fault concerns */
static int parse_field(struct json_object *o, const char *p, struct np_sim_fault *f,
		       struct np_error *err)
{
	struct json_object *v;

	if (json_object_object_get_ex(o, "field", &v)) {
		const char *name = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
		int fld = -1;

		if (f->op == NP_SIM_OP_SET_RINGS && f->mode == NP_SIM_MODE_FAIL) {
			for (int k = 0; k < NP_RING__COUNT; k++)
				if (!strcmp(name, np_ring_field_name(k)))
					fld = k;
		}
		if (fld < 0 && (f->op != NP_SIM_OP_SET_COALESCE ||
				(f->mode != NP_SIM_MODE_FAIL && f->mode != NP_SIM_MODE_KEEP)))
			return np_sim_bad(err, p, "field: only a failing set_coalesce names a field "
					  "(or a keeping one; a failing set_rings names a ring)");
		if (fld < 0 && (fld = np_coal_field_lookup(name)) < 0)
			return np_sim_bad(err, p, "field: expected a coalescing field like \"rx-frames\"");
		f->fields = 1u << fld;
	}
	return 0;
}

static int parse_fault(struct json_object *o, const char *p, struct np_sim_fault *f,
		       struct np_error *err)
{
	struct json_object *v;
	const char *s;
	size_t i;
	int r;

	memset(f, 0, sizeof(*f));
	f->code = -EIO;
	if (!json_object_is_type(o, json_type_object))
		return np_sim_bad(err, p, "expected an object");
	if (!json_object_object_get_ex(o, "op", &v) || !json_object_is_type(v, json_type_string))
		return np_sim_bad(err, p, "op: expected one of discover, set_channels, set_rings, "
			    "set_coalesce, set_feature, set_rss_indir, write_attr, rule_insert, "
			    "rule_delete, ctx_create, ctx_set, ctx_delete, set_napi, "
			    "set_queue_coalesce");
	s = json_object_get_string(v);
	for (i = 0; i < NP_SIM_OP__COUNT && strcmp(s, op_names[i]); i++)
		;
	if (i == NP_SIM_OP__COUNT)
		return np_sim_bad(err, p, "op: unknown operation '%.40s'", s);
	f->op = (enum np_sim_op)i;
	if (json_object_object_get_ex(o, "after", &v)) {
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return np_sim_bad(err, p, "after: expected an integer >= 0");
		f->after = (uint64_t)json_object_get_int64(v);
	}
	r = parse_mode(o, p, f, err);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(o, "errno", &v)) {
		int e = 0;

		if (json_object_is_type(v, json_type_int))
			e = json_object_get_int64(v) > 0 && json_object_get_int64(v) < 4096 ?
				    (int)json_object_get_int64(v) : 0;
		else if (json_object_is_type(v, json_type_string))
			e = np_errno_parse(json_object_get_string(v));
		if (!e)
			return np_sim_bad(err, p, "errno: expected a name like \"EBUSY\" or a number");
		f->code = -e;
	}
	if (json_object_object_get_ex(o, "extack", &v)) {
		if (!json_object_is_type(v, json_type_string) ||
		    json_object_get_string_len(v) >= (int)sizeof(f->extack))
			return np_sim_bad(err, p, "extack: expected a string of at most %zu characters",
				    sizeof(f->extack) - 1);
		snprintf(f->extack, sizeof(f->extack), "%s", json_object_get_string(v));
	}
	if (json_object_object_get_ex(o, "device", &v)) {
		if (!json_object_is_type(v, json_type_string) ||
		    np_ifname_validate(json_object_get_string(v), NULL) < 0)
			return np_sim_bad(err, p, "device: expected a device name");
		snprintf(f->device, sizeof(f->device), "%s", json_object_get_string(v));
	}
	r = parse_field(o, p, f, err);
	if (r < 0)
		return r;
	if (f->mode == NP_SIM_MODE_KEEP && !f->fields)
		return np_sim_bad(err, p, "mode: \"keep\" needs the field it keeps");
	if (json_object_object_get_ex(o, "every", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			return np_sim_bad(err, p, "every: expected true or false");
		f->every = json_object_get_boolean(v);
	}
	if (json_object_object_get_ex(o, "knob", &v)) {
		if (!json_object_is_type(v, json_type_string) ||
		    json_object_get_string_len(v) >= (int)sizeof(f->knob))
			return np_sim_bad(err, p, "knob: expected a knob name like \"irq-affinity\"");
		snprintf(f->knob, sizeof(f->knob), "%s", json_object_get_string(v));
	}
	return 0;
}

int np_sim_faults_parse(struct np_sim_model *m, struct np_error *err)
{
	struct json_object *arr, *calls;
	char p[48];
	size_t n;
	int r;

	if (json_object_object_get_ex(m->root, "faults", &arr)) {
		if (!json_object_is_type(arr, json_type_array))
			return np_sim_bad(err, "faults", "expected an array");
		n = json_object_array_length(arr);
		if (n && !(m->faults = calloc(n, sizeof(*m->faults))))
			return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
		for (size_t i = 0; i < n; i++) {
			snprintf(p, sizeof(p), "faults[%zu]", i);
			r = parse_fault(json_object_array_get_idx(arr, i), p, &m->faults[i], err);
			if (r < 0)
				return r;
			m->n_faults++;
		}
	}
	if (json_object_object_get_ex(m->root, "managed_irqs", &arr)) {
		if (!json_object_is_type(arr, json_type_array))
			return np_sim_bad(err, "managed_irqs", "expected an array of IRQ numbers");
		n = json_object_array_length(arr);
		if (n && !(m->managed = calloc(n, sizeof(*m->managed))))
			return np_err(err, -ENOMEM, NP_PHASE_INPUT, NULL, "out of memory");
		for (size_t i = 0; i < n; i++) {
			struct json_object *v = json_object_array_get_idx(arr, i);

			if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
			    json_object_get_int64(v) > UINT32_MAX)
				return np_sim_bad(err, "managed_irqs", "[%zu]: expected an IRQ number", i);
			m->managed[m->n_managed++] = (unsigned)json_object_get_int64(v);
		}
	}
	if (json_object_object_get_ex(m->root, "calls", &calls)) {
		if (!json_object_is_type(calls, json_type_object))
			return np_sim_bad(err, "calls", "expected an object");
		for (size_t i = 0; i < NP_SIM_OP__COUNT; i++) {
			struct json_object *v;

			if (!json_object_object_get_ex(calls, op_names[i], &v))
				continue;
			if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
				return np_sim_bad(err, "calls", "%s: expected an integer >= 0", op_names[i]);
			m->calls[i] = (uint64_t)json_object_get_int64(v);
		}
	}
	return 0;
}

int np_sim_calls_add(struct json_object *o, const struct np_sim_model *m)
{
	struct json_object *calls = json_object_new_object();
	int r = 0;

	for (size_t i = 0; calls && i < NP_SIM_OP__COUNT; i++)
		if (m->calls[i])
			r |= np_sim_json_add(calls, op_names[i], json_object_new_int64((int64_t)m->calls[i]));
	if (calls && json_object_object_length(calls))
		r |= np_sim_json_add(o, "calls", calls);
	else
		json_object_put(calls);
	return r;
}
