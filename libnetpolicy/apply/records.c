/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The store's documents: the pristine snapshot, the policy record and the
 * tentative marker.  Each is {"format": NAME, "version": N, ...}; readers
 * are strict (one JSON value, nothing after it, the format and version they
 * know, every field of the right type) and refuse anything else.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/np_serialize.h"
#include "apply/np_store.h"

#define PRISTINE_FORMAT "netpolicy-pristine"
#define POLICY_FORMAT "netpolicy-policy"
#define TENTATIVE_FORMAT "netpolicy-tentative"
#define SYSCTL_FORMAT "netpolicy-sysctl"

void np_ident_of(struct np_ctx *ctx, const struct np_state *st, struct np_ident *ret)
{
	struct stat sb;

	memset(ret, 0, sizeof(*ret));
	ret->ifindex = st->dev.ifindex;
	snprintf(ret->bus_info, sizeof(ret->bus_info), "%s", st->dev.bus_info);
	/* The simulated backend has no namespaces; fixture roots have no /proc. */
	if (!ctx->model && fstatat(ctx->rootfd, "proc/self/ns/net", &sb, 0) == 0)
		ret->netns = (unsigned long long)sb.st_ino;
}

bool np_ident_same(const struct np_ident *a, const struct np_ident *b)
{
	return a->ifindex == b->ifindex && !strcmp(a->bus_info, b->bus_info) &&
	       (!a->netns || !b->netns || a->netns == b->netns);
}

/* The model's strict parser (model/json_parse.c: no key twice, no NUL,
 * nothing after the document), its words prefixed with the file's name:
 * a state file is no user input, so its damage is no usage error. */
int np_json_parse_strict(const char *text, size_t len, const char *what,
			 struct json_object **ret, struct np_error *err)
{
	struct json_object *obj = NULL;
	struct np_error perr;
	int r;

	np_error_clear(&perr);
	r = np_json_parse(text, len, &obj, &perr);
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, NULL, "%s: %s", what, perr.msg);
	if (!json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: not a JSON object", what);
	}
	*ret = obj;
	return 0;
}

int np_json_check_format(struct json_object *obj, const char *format, int version,
			 const char *what, struct np_error *err)
{
	struct json_object *f, *v;

	if (!json_object_object_get_ex(obj, "format", &f) || !json_object_is_type(f, json_type_string) ||
	    strcmp(json_object_get_string(f), format))
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s is not a %s file", what, format);
	if (!json_object_object_get_ex(obj, "version", &v) || !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != version)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL,
			      "%s: version %s of %s is not known to this netpolicy (it reads %d)",
			      what, v ? json_object_get_string(v) : "(none)", format, version);
	return 0;
}

/* A JSON null under key (no record to return to); false (o freed) as np_doc_add(). */
static bool add_null(struct json_object **o, const char *key)
{
	if (*o && json_object_object_add(*o, key, NULL) == 0)
		return true;
	json_object_put(*o);
	*o = NULL;
	return false;
}

static struct json_object *doc_new(const char *format, int version)
{
	struct json_object *o = json_object_new_object();

	if (!np_doc_add(&o, "format", json_object_new_string(format)) ||
	    !np_doc_add(&o, "version", json_object_new_int(version)))
		return NULL;
	return o;
}

static int load_doc(struct np_store *s, enum np_file f, const char *format, int version,
		    struct json_object **ret, struct np_error *err)
{
	char what[PATH_MAX + NP_STORE_STEM_MAX + 16], *text;
	size_t len;
	int r;

	r = np_store_read(s, f, &text, &len, err);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "%s/%s.%s", s->ctx->state_dir, s->stem, np_store_file_name(f));
	r = np_json_parse_strict(text, len, what, ret, err);
	free(text);
	if (r >= 0) {
		r = np_json_check_format(*ret, format, version, what, err);
		if (r < 0) {
			json_object_put(*ret);
			*ret = NULL;
		}
	}
	return r;
}

static int get_string(struct json_object *o, const char *key, char *buf, size_t len,
		      const char *what, struct np_error *err)
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: %s: expected a string", what, key);
	s = json_object_get_string(v);
	if (strlen(s) >= len || strchr(s, '\n'))
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: %s: too long or not one line",
			      what, key);
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static int get_int(struct json_object *o, const char *key, long long min, long long max,
		   long long *ret, const char *what, struct np_error *err)
{
	struct json_object *v;
	long long x;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: %s: expected an integer",
			      what, key);
	x = json_object_get_int64(v);
	if (x < min || x > max)
		return np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: %s: %lld out of range",
			      what, key, x);
	*ret = x;
	return 0;
}

/* A state kept in a record: what it cannot hold (a count beyond the
 * device's queues) is a damaged record, named, not a mistake in the
 * command line (np_state_from_json_full calls it an input error, right
 * for a --model file). */
int np_state_from_record(struct json_object *obj, const char *what, struct np_state **ret,
			 struct np_error *err)
{
	int r = np_state_from_json_full(obj, ret, err);

	if (r < 0 && r != -ENOMEM && err && err->phase == NP_PHASE_INPUT) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		err->code = 0;	/* np_err keeps a first error: this one replaces it */
		np_err(err, r, NP_PHASE_APPLY, err->knob, "%s: %s", what, msg);
	}
	return r;
}

/* --- pristine snapshot --------------------------------------------------------- */

int np_store_pristine_load(struct np_store *s, struct np_state **ret, struct np_ident *ret_id,
			   struct np_error *err)
{
	struct json_object *doc = NULL, *st;
	long long v;
	int r;

	r = load_doc(s, NP_FILE_PRISTINE, PRISTINE_FORMAT, 1, &doc, err);
	if (r < 0)
		return r;
	memset(ret_id, 0, sizeof(*ret_id));
	if (!json_object_object_get_ex(doc, "state", &st) || !json_object_is_type(st, json_type_object))
		r = np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s.pristine: no state", s->stem);
	if (r >= 0)
		r = get_int(doc, "netns", 0, INT64_MAX, &v, "pristine", err);
	if (r >= 0) {
		ret_id->netns = (unsigned long long)v;
		char what[PATH_MAX + NP_STORE_STEM_MAX + 16];

		snprintf(what, sizeof(what), "%s/%s.pristine", s->ctx->state_dir, s->stem);
		r = np_state_from_record(st, what, ret, err);
	}
	if (r >= 0) {
		ret_id->ifindex = (*ret)->dev.ifindex;
		snprintf(ret_id->bus_info, sizeof(ret_id->bus_info), "%s", (*ret)->dev.bus_info);
	}
	json_object_put(doc);
	return r;
}

/* The state as JSON, NULL when memory ran out (np_doc_add() takes NULL as that). */
static struct json_object *state_json(const struct np_state *st)
{
	struct json_object *obj = NULL;

	return np_state_to_json(st, &obj) < 0 ? NULL : obj;
}

int np_store_pristine_save(struct np_store *s, const struct np_state *st,
			   const struct np_ident *id, struct np_error *err)
{
	struct json_object *doc;
	int r;

	/* each value made only when the one before it was added: np_doc_add()
	 * consumes it either way, and nothing is left over when one fails */
	doc = doc_new(PRISTINE_FORMAT, 1);
	if (!np_doc_add(&doc, "netns", json_object_new_int64((int64_t)id->netns)) ||
	    !np_doc_add(&doc, "state", state_json(st)))
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	r = np_store_write_json(s, NP_FILE_PRISTINE, doc, err);
	json_object_put(doc);
	return r;
}

/* --- policy record -------------------------------------------------------------- */

/* Version 2 added "mixed" (null for the other policies), version 3
 * "link_speed"; versions 1 and 2 are still read, as records without them. */
#define POLICY_VERSION 3

int np_policy_record_to_json(const struct np_policy_record *rec, struct json_object **ret)
{
	struct json_object *doc = doc_new(POLICY_FORMAT, POLICY_VERSION), *mixed = NULL;

	if (rec->has_mixed && np_mixed_record_to_json(&rec->mixed, &mixed) < 0) {
		json_object_put(doc);
		return -ENOMEM;
	}
	if (!np_doc_add(&doc, "policy", json_object_new_string(rec->policy)) ||
	    !np_doc_add(&doc, "cpus", json_object_new_string(rec->cpus)) ||
	    !np_doc_add(&doc, "drop", json_object_new_string(rec->drop)) ||
	    !np_doc_add(&doc, "link_speed", json_object_new_int64(rec->link_speed))) {
		json_object_put(mixed);
		return -ENOMEM;
	}
	if (json_object_object_add(doc, "mixed", mixed) < 0) {
		json_object_put(mixed);
		json_object_put(doc);
		return -ENOMEM;
	}
	*ret = doc;
	return 0;
}

int np_policy_record_from_json(struct json_object *obj, const char *what,
			       struct np_policy_record *ret, struct np_error *err)
{
	struct np_policy_record rec;
	struct json_object *mixed = NULL, *v;
	int r, version = POLICY_VERSION;
	long long speed;

	memset(&rec, 0, sizeof(rec));
	if (json_object_object_get_ex(obj, "version", &v) && json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 1 && json_object_get_int64(v) < POLICY_VERSION)
		version = (int)json_object_get_int64(v);
	r = np_json_check_format(obj, POLICY_FORMAT, version, what, err);
	if (r >= 0)
		r = get_string(obj, "policy", rec.policy, sizeof(rec.policy), what, err);
	if (r >= 0)
		r = get_string(obj, "cpus", rec.cpus, sizeof(rec.cpus), what, err);
	if (r >= 0)
		r = get_string(obj, "drop", rec.drop, sizeof(rec.drop), what, err);
	if (r >= 0 && !rec.policy[0])
		r = np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: empty policy name", what);
	if (r >= 0 && version >= 3 &&	/* Mb/s, 0 for unknown */
	    (r = get_int(obj, "link_speed", 0, UINT32_MAX - 1, &speed, what, err)) >= 0)
		rec.link_speed = (uint32_t)speed;
	if (r >= 0 && version >= 2 && !json_object_object_get_ex(obj, "mixed", &mixed))
		r = np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: mixed: missing", what);
	if (r >= 0 && mixed) {
		rec.has_mixed = true;
		r = np_mixed_record_from_json(mixed, what, &rec.mixed, err);
	}
	if (r >= 0)
		*ret = rec;
	return r;
}

/* load_doc for either version of the policy record. */
static int load_policy_doc(struct np_store *s, struct json_object **ret, struct np_error *err)
{
	char what[PATH_MAX + NP_STORE_STEM_MAX + 16], *text;
	size_t len;
	int r;

	r = np_store_read(s, NP_FILE_POLICY, &text, &len, err);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "%s/%s.%s", s->ctx->state_dir, s->stem,
		 np_store_file_name(NP_FILE_POLICY));
	r = np_json_parse_strict(text, len, what, ret, err);
	free(text);
	return r;
}

int np_store_policy_load(struct np_store *s, struct np_policy_record *ret, struct np_error *err)
{
	struct json_object *doc = NULL;
	char what[NP_STORE_STEM_MAX + 16];
	int r;

	r = load_policy_doc(s, &doc, err);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "%s.policy", s->stem);
	r = np_policy_record_from_json(doc, what, ret, err);
	json_object_put(doc);
	return r;
}

/* --- tentative marker ------------------------------------------------------------- */

static struct json_object *sysctl_json(const struct np_sysctl_record *rec)
{
	struct json_object *obj = NULL;

	return np_sysctl_record_to_json(rec, &obj) < 0 ? NULL : obj;
}

static struct json_object *policy_json(const struct np_policy_record *rec)
{
	struct json_object *obj = NULL;

	return np_policy_record_to_json(rec, &obj) < 0 ? NULL : obj;
}

int np_tentative_to_json(const struct np_tentative *t, struct json_object **ret)
{
	struct json_object *doc = doc_new(TENTATIVE_FORMAT, 1);

	/* as in np_store_pristine_save: no value made before its turn */
	if (!np_doc_add(&doc, "token", json_object_new_int64((int64_t)t->token)) ||
	    !np_doc_add(&doc, "deadline", json_object_new_int64(t->deadline)) ||
	    !(t->has_policy ? np_doc_add(&doc, "policy", policy_json(&t->policy)) : add_null(&doc, "policy")) ||
	    !np_doc_add(&doc, "before", state_json(t->before)) ||
	    !(t->has_sysctl ? np_doc_add(&doc, "sysctl", sysctl_json(&t->sysctl)) : add_null(&doc, "sysctl")))
		return -ENOMEM;
	*ret = doc;
	return 0;
}

int np_tentative_from_json(struct json_object *obj, const char *what, struct np_tentative *ret,
			   struct np_error *err)
{
	struct np_tentative t = { 0 };
	struct json_object *v;
	long long x;
	int r;

	r = np_json_check_format(obj, TENTATIVE_FORMAT, 1, what, err);
	if (r >= 0)
		r = get_int(obj, "token", 0, (1LL << 53) - 1, &x, what, err);
	if (r >= 0) {
		t.token = (unsigned long long)x;
		r = get_int(obj, "deadline", 0, INT64_MAX, &t.deadline, what, err);
	}
	if (r >= 0 && !json_object_object_get_ex(obj, "policy", &v))
		r = np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: policy: missing", what);
	if (r >= 0 && v) {
		t.has_policy = true;
		r = np_policy_record_from_json(v, what, &t.policy, err);
	}
	if (r >= 0 && (!json_object_object_get_ex(obj, "before", &v) ||
		       !json_object_is_type(v, json_type_object)))
		r = np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: before: missing", what);
	if (r >= 0)
		r = np_state_from_record(v, what, &t.before, err);
	/* absent in the markers of netpolicy before it kept the record */
	if (r >= 0 && json_object_object_get_ex(obj, "sysctl", &v)) {
		t.sysctl_known = true;
		t.has_sysctl = v != NULL;
		if (v)
			r = np_sysctl_record_from_json(v, what, &t.sysctl, err);
	}
	if (r >= 0)
		*ret = t;
	else
		np_state_free(t.before);
	return r;
}

int np_store_tentative_load(struct np_store *s, struct np_tentative *ret, struct np_error *err)
{
	struct json_object *doc = NULL;
	char what[NP_STORE_STEM_MAX + 16];
	int r;

	r = load_doc(s, NP_FILE_TENTATIVE, TENTATIVE_FORMAT, 1, &doc, err);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "%s.tentative", s->stem);
	r = np_tentative_from_json(doc, what, ret, err);
	json_object_put(doc);
	return r;
}

void np_tentative_release(struct np_tentative *t)
{
	np_state_free(t->before);
	t->before = NULL;
}

/* --- machine-wide sysctl needs ------------------------------------------------------ */

static const struct {
	const char *name;
	size_t off;	/* of the value in struct np_sysctl */
} shared_sysctls[] = {
	{ "net.core.rps_sock_flow_entries", offsetof(struct np_sysctl, rps_sock_flow_entries) },
	{ "net.core.busy_poll", offsetof(struct np_sysctl, busy_poll) },
	{ "net.core.busy_read", offsetof(struct np_sysctl, busy_read) },
	{ "net.core.rmem_max", offsetof(struct np_sysctl, rmem_max) },
	{ "net.core.wmem_max", offsetof(struct np_sysctl, wmem_max) },
	{ "net.ipv4.tcp_rmem max", offsetof(struct np_sysctl, tcp_rmem[2]) },
	{ "net.ipv4.tcp_wmem max", offsetof(struct np_sysctl, tcp_wmem[2]) },
	{ "net.core.netdev_max_backlog", offsetof(struct np_sysctl, netdev_max_backlog) },
};
#define FIRST_OPT 3	/* the rest may be missing in a record */

static uint32_t *sysctl_field(struct np_sysctl *s, size_t i)
{
	return (uint32_t *)((char *)s + shared_sysctls[i].off);
}

/* {"format":"netpolicy-sysctl","version":1,
 *  "sysctls":{"net.core.busy_poll":{"need":N,"pristine":M},...}} */
int np_sysctl_record_to_json(const struct np_sysctl_record *rec, struct json_object **ret)
{
	struct np_sysctl_record copy = *rec;
	struct json_object *doc = doc_new(SYSCTL_FORMAT, 1), *all = json_object_new_object();

	for (size_t i = 0; all && i < NP_ARRAY_SIZE(shared_sysctls); i++) {
		struct json_object *one = json_object_new_object();

		/* all of it or nothing: a record short of one is damaged */
		if (!np_doc_add(&one, "need", json_object_new_int64(*sysctl_field(&copy.need, i))) ||
		    !np_doc_add(&one, "pristine", json_object_new_int64(*sysctl_field(&copy.pristine, i))) ||
		    !np_doc_add(&all, shared_sysctls[i].name, one)) {
			json_object_put(all);
			all = NULL;
		}
	}
	if (!np_doc_add(&doc, "sysctls", all) || np_pm_record_add(doc, &copy.pm) < 0) {
		json_object_put(doc);
		return -ENOMEM;
	}
	*ret = doc;
	return 0;
}

int np_store_sysctl_save(struct np_store *s, const struct np_sysctl_record *rec,
			 struct np_error *err)
{
	struct json_object *doc = NULL;
	int r;

	if (np_sysctl_record_to_json(rec, &doc) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, NULL, "out of memory");
	r = np_store_write_json(s, NP_FILE_SYSCTL, doc, err);
	json_object_put(doc);
	return r;
}

int np_sysctl_record_from_json(struct json_object *doc, const char *what,
			       struct np_sysctl_record *ret, struct np_error *err)
{
	struct np_sysctl_record rec;
	struct json_object *all;
	int r;

	r = np_json_check_format(doc, SYSCTL_FORMAT, 1, what, err);
	if (r < 0)
		return r;
	memset(&rec, 0, sizeof(rec));
	if (!json_object_object_get_ex(doc, "sysctls", &all) ||
	    !json_object_is_type(all, json_type_object) ||
	    json_object_object_length(all) < FIRST_OPT ||
	    json_object_object_length(all) > (int)NP_ARRAY_SIZE(shared_sysctls))
		r = np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: sysctls: expected the %zu "
			   "machine-wide sysctls", what, NP_ARRAY_SIZE(shared_sysctls));
	for (size_t i = 0; r >= 0 && i < NP_ARRAY_SIZE(shared_sysctls); i++) {
		struct json_object *one;
		long long need, pristine;

		/* older records lack the ceilings: no need, live pristine (base.c) */
		if (i >= FIRST_OPT && !json_object_object_get_ex(all, shared_sysctls[i].name, NULL)) {
			*sysctl_field(&rec.pristine, i) = NP_SYSCTL_UNKNOWN;
			continue;
		}
		if (!json_object_object_get_ex(all, shared_sysctls[i].name, &one) ||
		    !json_object_is_type(one, json_type_object) ||
		    json_object_object_length(one) != 2) {
			r = np_err(err, -EINVAL, NP_PHASE_APPLY, NULL, "%s: %s: expected need and "
				   "pristine", what, shared_sysctls[i].name);
			break;
		}
		r = get_int(one, "need", 0, UINT32_MAX, &need, what, err);
		if (r >= 0)
			r = get_int(one, "pristine", 0, UINT32_MAX, &pristine, what, err);
		if (r >= 0) {
			*sysctl_field(&rec.need, i) = (uint32_t)need;
			*sysctl_field(&rec.pristine, i) = (uint32_t)pristine;
		}
	}
	if (r >= 0)
		r = np_pm_record_read(doc, what, &rec.pm, err);
	if (r >= 0)
		*ret = rec;
	return r;
}

int np_store_sysctl_load(struct np_store *s, struct np_sysctl_record *ret, struct np_error *err)
{
	struct json_object *doc = NULL;
	char what[NP_STORE_STEM_MAX + 16];
	int r;

	r = load_doc(s, NP_FILE_SYSCTL, SYSCTL_FORMAT, 1, &doc, err);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "%s.sysctl", s->stem);
	r = np_sysctl_record_from_json(doc, what, ret, err);
	json_object_put(doc);
	return r;
}
