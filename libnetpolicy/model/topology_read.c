/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The topology and sysctl parts of a state or model, and whole states, from JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_util.h"

/* Optional in a model (older models lack them): absent is -ENOENT, as in
 * a namespace or kernel without the file. */
static int opt_u32(struct json_object *o, const char *path, const char *key, uint32_t *v,
		   int *e, struct np_error *err)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_error", key);
	if (!json_object_object_get_ex(o, key, NULL) && !json_object_object_get_ex(o, k, NULL)) {
		*e = -ENOENT;
		return 0;
	}
	return np_j_get_u32_file(o, path, key, v, e, err);
}

/* tcp_rmem, tcp_wmem: [MIN, DEFAULT, MAX], each an int */
static int opt_triple(struct json_object *o, const char *path, const char *key, uint32_t v[3],
		      int *e, struct np_error *err)
{
	struct json_object *a;
	char k[64];
	int64_t x;
	int r;

	snprintf(k, sizeof(k), "%s_error", key);
	if (!json_object_object_get_ex(o, key, &a) && !json_object_object_get_ex(o, k, NULL)) {
		*e = -ENOENT;
		return 0;
	}
	if (!a) {
		uint32_t ignored;

		return np_j_get_u32_file(o, path, key, &ignored, e, err);
	}
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != 3)
		return np_j_bad(err, path, key, "expected [MIN, DEFAULT, MAX]");
	for (size_t i = 0; i < 3; i++) {
		r = np_j_int_value(json_object_array_get_idx(a, i), path, key, 0, INT32_MAX, &x,
				   err);
		if (r < 0)
			return r;
		v[i] = (uint32_t)x;
	}
	*e = 0;
	return 0;
}

static int sysctl_ceilings(struct json_object *obj, const char *path, struct np_sysctl *s,
			   struct np_error *err)
{
	int r, e2 = 0;

	if ((r = opt_u32(obj, path, "rmem_max", &s->rmem_max, &s->core_mem_err, err)) < 0 ||
	    (r = opt_u32(obj, path, "wmem_max", &s->wmem_max, &e2, err)) < 0)
		return r;
	if (!s->core_mem_err)
		s->core_mem_err = e2;
	e2 = 0;
	if ((r = opt_triple(obj, path, "tcp_rmem", s->tcp_rmem, &s->tcp_mem_err, err)) < 0 ||
	    (r = opt_triple(obj, path, "tcp_wmem", s->tcp_wmem, &e2, err)) < 0)
		return r;
	if (!s->tcp_mem_err)
		s->tcp_mem_err = e2;
	return opt_u32(obj, path, "netdev_max_backlog", &s->netdev_max_backlog,
		       &s->backlog_err, err);
}

int np_sysctl_from_json(struct json_object *obj, const char *path, struct np_sysctl *ret,
			struct np_error *err)
{
	struct np_sysctl s;
	int r, e2 = 0;

	memset(&s, 0, sizeof(s));
	if (!path)
		path = "";
	if (!json_object_is_type(obj, json_type_object))
		return np_j_bad(err, path, NULL, "expected an object");
	if ((r = np_j_get_u32_file(obj, path, "rps_sock_flow_entries", &s.rps_sock_flow_entries,
			      &s.flow_entries_err, err)) < 0 ||
	    (r = np_j_get_u32_file(obj, path, "busy_poll", &s.busy_poll, &s.busy_err, err)) < 0 ||
	    (r = np_j_get_u32_file(obj, path, "busy_read", &s.busy_read, &e2, err)) < 0)
		return r;
	/* np_sysctl has one error for both busy-polling files */
	if (!s.busy_err)
		s.busy_err = e2;
	r = sysctl_ceilings(obj, path, &s, err);
	if (r < 0)
		return r;
	*ret = s;
	return 0;
}


static int read_cpu(struct json_object *e, const char *p, unsigned c, struct np_cpu *cpu,
		    bool *given, struct np_error *err)
{
	struct json_object *v;
	int64_t x;
	int r;

	if ((r = np_j_check_index(e, p, "cpu", c, err)) < 0 ||
	    (r = np_j_get_int(e, p, "core_id", 0, INT32_MAX, &x, err)) < 0)
		return r;
	cpu->core_id = (int)x;
	if ((r = np_j_get_int(e, p, "package", 0, INT32_MAX, &x, err)) < 0)
		return r;
	cpu->package_id = (int)x;
	if ((r = np_j_get_int(e, p, "node", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
		return r;
	cpu->node = (int)x;
	if ((r = np_j_get_bool(e, p, "online", &cpu->online, err)) < 0)
		return r;
	/* "llc" and "cluster" are optional: -1, unknown, when absent */
	cpu->llc = cpu->cluster = -1;
	if (json_object_object_get_ex(e, "llc", &v)) {
		if ((r = np_j_get_int(e, p, "llc", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
			return r;
		cpu->llc = (int)x;
	}
	if (json_object_object_get_ex(e, "cluster", &v)) {
		if ((r = np_j_get_int(e, p, "cluster", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
			return r;
		cpu->cluster = (int)x;
	}
	/* "core" and "thread" are derived when a hand-written model omits them */
	*given = json_object_object_get_ex(e, "core", &v);
	if (!*given)
		return 0;
	if ((r = np_j_get_int(e, p, "core", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
		return r;
	cpu->core = (int)x;
	if ((r = np_j_get_int(e, p, "thread", 0, NP_CPUS_MAX - 1, &x, err)) < 0)
		return r;
	cpu->thread = (int)x;
	return 0;
}

/* nr_llcs (nr_clusters): the highest id + 1 when every online CPU has one,
 * 0 when none has; some but not all is a model error, as discovery never
 * writes that (it treats a partial map as none). */
static int count_domains(struct np_topology *t, const char *path, bool llc,
			 struct np_error *err)
{
	const char *name = llc ? "llc" : "cluster";
	unsigned n = 0;
	int with = -1, without = -1;

	for (unsigned c = 0; c < t->nr_cpus; c++) {
		int id = llc ? t->cpus[c].llc : t->cpus[c].cluster;

		if (!t->cpus[c].online)
			continue;
		if (id < 0) {
			without = without < 0 ? (int)c : without;
			continue;
		}
		with = with < 0 ? (int)c : with;
		if ((unsigned)id + 1 > n)
			n = (unsigned)id + 1;
	}
	if (with >= 0 && without >= 0) {
		char p[JPATH];

		np_j_path_idx(p, path, "cpus", (size_t)without);
		return np_j_bad(err, p, name, "missing, but cpus[%d] has one (give it for every "
				"online CPU or for none)", with);
	}
	if (llc)
		t->nr_llcs = n;
	else
		t->nr_clusters = n;
	return 0;
}

/* nr_cpus, the masks, the counts: the scalar members of the topology. */
static int read_counts(struct json_object *o, const char *path, struct np_topology *t,
		       struct np_error *err)
{
	struct json_object *v;
	int64_t x;
	int r;

	/* a machine has a CPU; its cores and packages are no more than its
	 * CPUs (the planner sizes tables by them) */
	if ((r = np_j_get_int(o, path, "nr_cpus", 1, NP_CPUS_MAX, &x, err)) < 0)
		return r;
	t->nr_cpus = (unsigned)x;
	if ((r = np_j_get_mask(o, path, "online", t->nr_cpus, &t->online, err)) < 0 ||
	    (r = np_j_get_mask(o, path, "isolated", t->nr_cpus, &t->isolated, err)) < 0 ||
	    (r = np_j_get_mask(o, path, "nohz_full", t->nr_cpus, &t->nohz_full, err)) < 0 ||
	    (r = np_j_get_u32(o, path, "cores", &t->nr_cores, err)) < 0 ||
	    (r = np_j_get_u32(o, path, "packages", &t->nr_packages, err)) < 0 ||
	    (r = np_j_get_bool(o, path, "smt", &t->smt, err)) < 0)
		return r;
	if (np_cpumask_empty(&t->online))
		return np_j_bad(err, path, "online", "no CPU is online");
	if (!t->nr_cores || t->nr_cores > t->nr_cpus)
		return np_j_bad(err, path, "cores", "%u is out of range (1..nr_cpus %u)", t->nr_cores,
				t->nr_cpus);
	if (!t->nr_packages || t->nr_packages > t->nr_cpus)
		return np_j_bad(err, path, "packages", "%u is out of range (1..nr_cpus %u)",
				t->nr_packages, t->nr_cpus);
	/* "possible" is optional: every CPU below nr_cpus when absent */
	if (json_object_object_get_ex(o, "possible", &v))
		return np_j_get_mask(o, path, "possible", t->nr_cpus, &t->possible, err);
	for (unsigned c = 0; c < t->nr_cpus; c++)
		np_cpumask_set(&t->possible, c);
	return 0;
}

/* "nodes": each node once, with its CPUs. */
static int read_nodes(struct json_object *o, const char *path, struct np_topology *t,
		      struct np_error *err)
{
	struct json_object *nodes;
	char p[JPATH];
	size_t n;
	int64_t x;
	int r;

	if ((r = np_j_get_objects(o, path, "nodes", &nodes, &n, err)) < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		np_j_path_idx(p, path, "nodes", i);
		r = np_j_get_int(json_object_array_get_idx(nodes, i), p, "node", 0, NP_CPUS_MAX - 1, &x,
			    err);
		if (r < 0)
			return r;
		if ((unsigned)x + 1 > t->nr_nodes)
			t->nr_nodes = (unsigned)x + 1;
	}
	if (t->nr_nodes && !(t->node_cpus = calloc(t->nr_nodes, sizeof(*t->node_cpus))))
		return np_j_oom(err);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(nodes, i), *id;

		np_j_path_idx(p, path, "nodes", i);
		json_object_object_get_ex(e, "node", &id);
		x = json_object_get_int64(id);
		for (size_t j = 0; j < i; j++) {
			json_object_object_get_ex(json_object_array_get_idx(nodes, j), "node", &id);
			if (json_object_get_int64(id) == x)
				return np_j_bad(err, p, "node", "node %" PRId64 " is listed twice", x);
		}
		r = np_j_get_mask(e, p, "cpus", t->nr_cpus, &t->node_cpus[x], err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* "cpus": one entry per CPU below nr_cpus, agreeing with "online"; then
 * the cache domains and the cores they make. */
static int read_cpus(struct json_object *o, const char *path, struct np_topology *t,
		     struct np_error *err)
{
	struct json_object *cpus;
	bool *given = NULL;
	char p[JPATH];
	size_t n;
	int r;

	if ((r = np_j_get_objects(o, path, "cpus", &cpus, &n, err)) < 0)
		return r;
	if (n != t->nr_cpus)
		return np_j_bad(err, path, "cpus", "%zu entries, but nr_cpus is %u", n, t->nr_cpus);
	if (n && (!(t->cpus = calloc(n, sizeof(*t->cpus))) || !(given = calloc(n, sizeof(*given)))))
		return np_j_oom(err);
	for (unsigned c = 0; c < n; c++) {
		np_j_path_idx(p, path, "cpus", c);
		r = read_cpu(json_object_array_get_idx(cpus, c), p, c, &t->cpus[c], &given[c], err);
		if (r < 0)
			goto out;
		if (t->cpus[c].online != np_cpumask_test(&t->online, c)) {
			r = np_j_bad(err, p, "online", "does not match %s%sonline", path, *path ? "." : "");
			goto out;
		}
	}
	if ((r = count_domains(t, path, true, err)) < 0 ||
	    (r = count_domains(t, path, false, err)) < 0)
		goto out;
	if (np_topology_derive_cores(t, given) < 0) {
		r = np_j_oom(err);
		goto out;
	}
	for (unsigned c = 0; c < n; c++) {
		if (t->cpus[c].online && (unsigned)t->cpus[c].core >= t->nr_cores) {
			np_j_path_idx(p, path, "cpus", c);
			r = np_j_bad(err, p, "core", "core %d, but there are %u cores",
				     t->cpus[c].core, t->nr_cores);
			goto out;
		}
	}
out:
	free(given);
	return r;
}

static int read_topology(struct json_object *o, const char *path, struct np_topology *t,
			 struct np_error *err)
{
	int r;

	if (!json_object_is_type(o, json_type_object))
		return np_j_bad(err, path, NULL, "expected an object");
	r = read_counts(o, path, t, err);
	if (r >= 0)
		r = read_nodes(o, path, t, err);
	if (r >= 0)
		r = read_cpus(o, path, t, err);
	return r;
}

int np_topology_from_json(struct json_object *obj, const char *path, struct np_topology *ret,
			  struct np_error *err)
{
	struct np_topology t;
	int r;

	memset(&t, 0, sizeof(t));
	r = read_topology(obj, path ? path : "", &t, err);
	if (r < 0) {
		np_topology_clear(&t);
		return r;
	}
	*ret = t;
	return 0;
}

int np_state_from_json(struct json_object *dev, struct json_object *topology,
		       struct json_object *sysctl, struct np_state *ret, struct np_error *err)
{
	struct np_state st;
	int r = 0;

	memset(&st, 0, sizeof(st));
	if (topology)
		r = np_topology_from_json(topology, "topology", &st.topo, err);
	if (r >= 0 && sysctl)
		r = np_sysctl_from_json(sysctl, "sysctl", &st.sys, err);
	if (r >= 0)
		r = np_dev_from_json(dev, "", &st.topo, &st.dev, err);
	if (r < 0) {
		np_state_clear(&st);
		return r;
	}
	*ret = st;
	return 0;
}

int np_state_from_json_full(struct json_object *obj, struct np_state **ret, struct np_error *err)
{
	struct json_object *topo, *sys, *pm = NULL;
	struct np_state *st;
	int r;

	if (!json_object_is_type(obj, json_type_object))
		return np_j_bad(err, "", NULL, "expected an object");
	if ((r = np_j_member(obj, "", "topology", json_type_object, &topo, err)) < 0 ||
	    (r = np_j_member(obj, "", "sysctl", json_type_object, &sys, err)) < 0)
		return r;
	st = calloc(1, sizeof(*st));
	if (!st)
		return np_j_oom(err);
	r = np_state_from_json(obj, topo, sys, st, err);
	if (r < 0) {
		free(st);
		return r;
	}
	/* optional: states from before it was read have none */
	st->pm.err = -ENODATA;
	if (json_object_object_get_ex(obj, "pm_qos", &pm) &&
	    (r = np_pm_from_json(pm, "pm_qos", st->topo.nr_cpus, &st->pm, err)) < 0) {
		np_state_free(st);
		return r;
	}
	*ret = st;
	return 0;
}
