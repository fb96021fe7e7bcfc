/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* CPUs, SMT siblings, packages, NUMA nodes, last-level caches and clusters
 * from sysfs below rootfd. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "np_kernel.h"

#define CPU_DIR "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"
/* Node ids are small; a bigger one is a broken tree, not a reason to
 * allocate megabytes. */
#define NODES_MAX 1024

/* A cpulist of every CPU, spelled out, is about 10 KiB at NP_CPUS_MAX. */
#define LIST_LEN 16384

/* A cpulist as the kernel prints it.  nohz_full on a kernel built with
 * NO_HZ_FULL but booted without nohz_full= prints its NULL mask as
 * "(null)", right-aligned in a field as wide as the number of possible
 * CPUs ("%*pbl"): "  (null)" with 8 of them (doc/kernel.md).  That is the
 * empty set. */
static int parse_list(const char *path, const char *text, struct np_cpumask *ret,
		      struct np_error *err)
{
	int r;

	while (*text == ' ' || *text == '\t')
		text++;
	if (!strcmp(text, "(null)")) {
		np_cpumask_zero(ret);
		return 0;
	}
	r = np_cpumask_parse_list(text, ret);
	if (r == -ERANGE)
		return np_err(err, -E2BIG, NP_PHASE_DISCOVER, NULL,
			      "/%s: CPU numbers above %d are not supported", path, NP_CPUS_MAX - 1);
	if (r < 0)
		np_err(err, r, NP_PHASE_DISCOVER, NULL, "/%s: cannot parse '%.32s'", path, text);
	return r;
}

/* Absent or empty: the empty set (isolated, nohz_full). */
static int read_list(int rootfd, const char *path, bool optional, struct np_cpumask *ret,
		     struct np_error *err)
{
	char *buf;
	int r;

	buf = malloc(LIST_LEN);
	if (!buf)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	r = np_read_file_at(rootfd, path, buf, LIST_LEN);
	if (r < 0) {
		if (optional && r == -ENOENT) {
			np_cpumask_zero(ret);
			r = 0;
		} else {
			np_err(err, r, NP_PHASE_DISCOVER, NULL, "/%s: %s", path, strerror(-r));
		}
	} else {
		r = parse_list(path, buf, ret, err);
	}
	free(buf);
	return r;
}

static int last_cpu(const struct np_cpumask *m)
{
	int last = -1;

	np_cpumask_for_each(c, m)
		last = c;
	return last;
}

/* Some VMs have no topology directory: such a CPU is its own core. */
static void read_cpu(int rootfd, unsigned cpu, struct np_cpu *c, bool *alone)
{
	char path[128];

	c->online = true;
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/topology/core_id", cpu);
	if (np_read_int_at(rootfd, path, &c->core_id) < 0) {
		c->core_id = (int)cpu;
		c->package_id = 0;
		*alone = true;
		return;
	}
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/topology/physical_package_id", cpu);
	if (np_read_int_at(rootfd, path, &c->package_id) < 0)
		c->package_id = 0;
	*alone = false;
}

static int count_node(const char *name, void *arg)
{
	unsigned *nr = arg, id;
	char tail;

	if (sscanf(name, "node%u%c", &id, &tail) == 1 && id < NODES_MAX && id + 1 > *nr)
		*nr = id + 1;
	return 0;
}

/* node_cpus[] and cpus[].node; a tree without the node directory (no
 * CONFIG_NUMA) is one node holding every CPU. */
static int read_nodes(int rootfd, struct np_topology *t, struct np_error *err)
{
	struct np_cpumask m;
	unsigned nr = 0;
	int fd, r = 0;

	fd = np_open_dir_at(rootfd, NODE_DIR);
	if (fd >= 0) {
		/* a failing read ends the listing with what it found, as
		 * readdir(3) would */
		(void)np_dir_names(fd, count_node, &nr);
		close(fd);
	}
	t->nr_nodes = nr ? nr : 1;
	t->node_cpus = calloc(t->nr_nodes, sizeof(*t->node_cpus));
	if (!t->node_cpus)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	if (!nr) {
		t->node_cpus[0] = t->online;
		return 0;
	}
	for (unsigned n = 0; n < nr; n++) {
		char path[128];

		snprintf(path, sizeof(path), NODE_DIR "/node%u/cpulist", n);
		/* holes in node numbering and memory-only nodes have no CPUs */
		r = read_list(rootfd, path, true, &m, err);
		if (r < 0)
			return r;
		np_cpumask_and(&t->node_cpus[n], &m, &t->online);
		np_cpumask_for_each(c, &t->node_cpus[n])
			if ((unsigned)c < t->nr_cpus)
				t->cpus[c].node = (int)n;
	}
	return 0;
}

/* Dense machine-wide core numbers in the order of each core's first CPU,
 * and SMT thread numbers in CPU order within a core. */
static void number_cores(struct np_topology *t, const bool *alone, int *pkgs)
{
	unsigned npkg = 0;

	t->nr_cores = 0;
	t->smt = false;
	for (unsigned i = 0; i < t->nr_cpus; i++) {
		struct np_cpu *c = &t->cpus[i];
		bool seen = false;

		if (!c->online)
			continue;
		c->core = -1;
		c->thread = 0;
		for (unsigned j = 0; j < i && !alone[i]; j++) {
			const struct np_cpu *s = &t->cpus[j];

			if (!s->online || alone[j] || s->package_id != c->package_id ||
			    s->core_id != c->core_id)
				continue;
			if (c->core < 0)
				c->core = s->core;
			c->thread++;
		}
		if (c->core < 0)
			c->core = (int)t->nr_cores++;
		if (c->thread)
			t->smt = true;
		for (unsigned k = 0; k < npkg; k++)
			if (pkgs[k] == c->package_id)
				seen = true;
		if (!seen)
			pkgs[npkg++] = c->package_id;
	}
	t->nr_packages = npkg;
}

/* Cache index directories per CPU: L1d, L1i, L2, L3 and maybe an L4 or a
 * few more; a bigger number is a broken tree. */
#define CACHE_INDEX_MAX 16

/* The cache of cpuN below cache/ that is its last level: the unified one of
 * the highest level (index3 with level 3 on most x86 and some Arm machines,
 * index2 where the L2 is the last level the kernel reports).  -1 none. */
static int llc_index(int rootfd, unsigned cpu)
{
	int best = -1, best_level = 0;

	for (int i = 0; i < CACHE_INDEX_MAX; i++) {
		char path[128], type[32];
		int level;

		snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cache/index%d/level", cpu, i);
		/* the kernel numbers the index directories from 0 without holes */
		if (np_read_int_at(rootfd, path, &level) < 0)
			break;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cache/index%d/type", cpu, i);
		if (np_read_file_at(rootfd, path, type, sizeof(type)) < 0 || strcmp(type, "Unified"))
			continue;
		if (level > best_level) {
			best = i;
			best_level = level;
		}
	}
	return best;
}

static int *domain_of(struct np_cpu *c, bool llc)
{
	return llc ? &c->llc : &c->cluster;
}

/* Dense ids of the CPU sets a per-CPU file names (the CPUs sharing its LLC,
 * its cluster), in the order of each set's first online CPU.  A CPU the
 * list of an earlier one named is not read again: one read per set, not per
 * CPU.  Any online CPU without the file (VMs, old kernels, arches without
 * cacheinfo) or with one that does not parse makes the whole level unknown,
 * every id -1 and the count 0: a partial map would group CPUs the planner
 * knows nothing about with ones it does. */
static int read_domains(int rootfd, struct np_topology *t, bool llc, unsigned *ret_n)
{
	char *buf = malloc(LIST_LEN);
	unsigned n = 0;

	if (!buf)
		return -ENOMEM;
	for (unsigned c = 0; c < t->nr_cpus; c++)
		*domain_of(&t->cpus[c], llc) = -1;
	np_cpumask_for_each(cpu, &t->online) {
		struct np_cpumask m;
		char path[128];
		int idx = 0;

		if ((unsigned)cpu >= t->nr_cpus)
			break;
		if (*domain_of(&t->cpus[cpu], llc) >= 0)
			continue;
		if (llc)
			idx = llc_index(rootfd, (unsigned)cpu);
		if (idx < 0)
			goto unknown;
		if (llc)
			snprintf(path, sizeof(path), CPU_DIR "/cpu%d/cache/index%d/shared_cpu_list",
				 cpu, idx);
		else
			snprintf(path, sizeof(path), CPU_DIR "/cpu%d/topology/cluster_cpus_list", cpu);
		if (np_read_file_at(rootfd, path, buf, LIST_LEN) < 0 ||
		    np_cpumask_parse_list(buf, &m) < 0)
			goto unknown;
		np_cpumask_and(&m, &m, &t->online);
		np_cpumask_set(&m, (unsigned)cpu);
		/* a CPU an earlier (inconsistent) list claimed keeps its id */
		np_cpumask_for_each(x, &m)
			if ((unsigned)x < t->nr_cpus && *domain_of(&t->cpus[x], llc) < 0)
				*domain_of(&t->cpus[x], llc) = (int)n;
		n++;
	}
	free(buf);
	*ret_n = n;
	return 0;
unknown:
	for (unsigned c = 0; c < t->nr_cpus; c++)
		*domain_of(&t->cpus[c], llc) = -1;
	free(buf);
	*ret_n = 0;
	return 0;
}

/* online and isolated from the key np_topology_key() just read ("online|isolated"),
 * instead of reading the two files again. */
static int read_keyed(int rootfd, const char *key, struct np_cpumask *online,
		      struct np_cpumask *isolated, struct np_error *err)
{
	const char *bar = key ? strchr(key, '|') : NULL;
	char *text;
	int r;

	if (!bar) {
		r = read_list(rootfd, CPU_DIR "/online", false, online, err);
		return r < 0 ? r : read_list(rootfd, CPU_DIR "/isolated", true, isolated, err);
	}
	text = strndup(key, (size_t)(bar - key));
	if (!text)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	r = parse_list(CPU_DIR "/online", text, online, err);
	free(text);
	return r < 0 ? r : parse_list(CPU_DIR "/isolated", bar + 1, isolated, err);
}

int np_topology_read(int rootfd, struct np_topology *ret, struct np_error *err)
{
	return np_topology_read_key(rootfd, NULL, ret, err);
}

int np_topology_read_key(int rootfd, const char *key, struct np_topology *ret,
			 struct np_error *err)
{
	struct np_topology t = { 0 };
	struct np_cpumask online;
	bool *alone = NULL;
	int *pkgs = NULL;
	int r, last;

	r = read_list(rootfd, CPU_DIR "/possible", false, &t.possible, err);
	if (r < 0)
		return r;
	last = last_cpu(&t.possible);
	if (last < 0)
		return np_err(err, -EINVAL, NP_PHASE_DISCOVER, NULL,
			      "/" CPU_DIR "/possible: no CPUs");
	t.nr_cpus = (unsigned)last + 1;
	r = read_keyed(rootfd, key, &online, &t.isolated, err);
	if (r < 0)
		return r;
	np_cpumask_and(&t.online, &online, &t.possible);
	if (np_cpumask_empty(&t.online))
		return np_err(err, -EINVAL, NP_PHASE_DISCOVER, NULL,
			      "/" CPU_DIR "/online: no CPUs");
	r = read_list(rootfd, CPU_DIR "/nohz_full", true, &t.nohz_full, err);
	if (r < 0)
		return r;

	t.cpus = calloc(t.nr_cpus, sizeof(*t.cpus));
	alone = calloc(t.nr_cpus, sizeof(*alone));
	pkgs = calloc(t.nr_cpus, sizeof(*pkgs));
	if (!t.cpus || !alone || !pkgs) {
		r = np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
		goto fail;
	}
	np_cpumask_for_each(c, &t.online)
		read_cpu(rootfd, (unsigned)c, &t.cpus[c], &alone[c]);
	r = read_nodes(rootfd, &t, err);
	if (r < 0)
		goto fail;
	number_cores(&t, alone, pkgs);
	if (read_domains(rootfd, &t, true, &t.nr_llcs) < 0 ||
	    read_domains(rootfd, &t, false, &t.nr_clusters) < 0) {
		r = np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
		goto fail;
	}
	free(alone);
	free(pkgs);
	*ret = t;
	return 0;
fail:
	free(alone);
	free(pkgs);
	np_topology_clear(&t);
	return r;
}

int np_topology_key(int rootfd, char **ret)
{
	char *buf;
	int n, r;

	buf = malloc(2 * LIST_LEN);
	if (!buf)
		return -ENOMEM;
	n = np_read_file_at(rootfd, CPU_DIR "/online", buf, LIST_LEN);
	if (n < 0) {
		free(buf);
		return n;
	}
	buf[n++] = '|';
	r = np_read_file_at(rootfd, CPU_DIR "/isolated", buf + n, LIST_LEN);
	if (r < 0 && r != -ENOENT) {
		free(buf);
		return r;
	}
	if (r < 0)
		buf[n] = '\0';
	*ret = buf;
	return 0;
}
