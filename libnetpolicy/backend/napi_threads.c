/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Threaded NAPI (Documentation/networking/napi.rst, "Threaded NAPI"): with
 * /sys/class/net/IF/threaded on, each NAPI instance polls in a kthread named
 * "napi/<ifname>-<napi id>", so the softirq work runs where that thread is
 * scheduled, not where the IRQ fires.  The kthreads come from napi-get's pid
 * where the kernel has it (6.8), else from /proc/PID/comm; their CPUs are
 * read from /proc/PID/status and set with sched_setaffinity(2).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "np_kernel.h"

/* TASK_COMM_LEN 16: a comm holds at most 15 characters. */
#define COMM_MAX 15

/* "napi/<ifname>-<id>" -> id; false when comm is not one of dev's threads,
 * or when truncation cut the id off (its NAPI cannot be told). */
static bool comm_napi_id(const char *comm, const char *ifname, uint32_t *id)
{
	size_t n = strlen(ifname);
	char *end;
	unsigned long v;

	if (strncmp(comm, "napi/", 5) || strncmp(comm + 5, ifname, n) || comm[5 + n] != '-' ||
	    !isdigit((unsigned char)comm[6 + n]) || strlen(comm) >= COMM_MAX)
		return false;
	errno = 0;
	v = strtoul(comm + 6 + n, &end, 10);
	if (errno || *end || !v || v > UINT32_MAX)
		return false;
	*id = (uint32_t)v;
	return true;
}

static int affinity_line(char *line, void *arg)
{
	struct np_napi_thread *t = arg;
	const char *key = "Cpus_allowed_list:";
	char *v, *nl;

	if (strncmp(line, key, strlen(key)))
		return 0;
	v = line + strlen(key);
	while (*v == ' ' || *v == '\t')
		v++;
	nl = strchr(v, '\n');
	if (nl)
		*nl = '\0';
	t->err = np_cpumask_parse_list(v, &t->affinity);
	return 1;	/* found: stop reading */
}

static void read_affinity(int rootfd, struct np_napi_thread *t)
{
	char path[48];
	int r;

	snprintf(path, sizeof(path), "proc/%u/status", t->pid);
	t->err = -ENOENT;
	r = np_for_each_line_at(rootfd, path, affinity_line, t);
	if (r < 0)
		t->err = r;
}

static int add_thread(struct np_dev *dev, unsigned *cap, uint32_t pid, uint32_t napi_id)
{
	struct np_napi_thread *v;

	if (dev->n_napi_thread == *cap) {
		unsigned c = *cap ? *cap * 2 : 8;

		if (c > 65536)
			return -E2BIG;
		v = realloc(dev->napi_thread, c * sizeof(*v));
		if (!v)
			return -ENOMEM;
		dev->napi_thread = v;
		*cap = c;
	}
	v = &dev->napi_thread[dev->n_napi_thread++];
	memset(v, 0, sizeof(*v));
	v->pid = pid;
	v->napi_id = napi_id;
	return 0;
}

/* A kernel without napi-get: the device's kthreads by name. */
static int scan_proc(int rootfd, struct np_dev *dev, unsigned *cap)
{
	int fd = np_open_dir_at(rootfd, "proc");
	struct dirent *e;
	DIR *d;
	int r = 0;

	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	while (!r && (e = readdir(d))) {
		char path[48], comm[32];
		uint32_t id;
		unsigned long pid;
		char *end;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = strtoul(e->d_name, &end, 10);
		if (*end || !pid || pid > INT32_MAX)
			continue;
		snprintf(path, sizeof(path), "proc/%lu/comm", pid);
		if (np_read_file_at(rootfd, path, comm, sizeof(comm)) < 0)
			continue;	/* gone meanwhile */
		if (comm_napi_id(comm, dev->ifname, &id))
			r = add_thread(dev, cap, (uint32_t)pid, id);
	}
	closedir(d);
	return r;
}

static int by_napi_id(const void *a, const void *b)
{
	const struct np_napi_thread *x = a, *y = b;

	return (x->napi_id > y->napi_id) - (x->napi_id < y->napi_id);
}

int np_napi_threads_read(int rootfd, struct np_dev *dev, struct np_error *err)
{
	unsigned cap = 0;
	int r = 0;

	free(dev->napi_thread);
	dev->napi_thread = NULL;
	dev->n_napi_thread = 0;
	if (!dev->napis.err) {
		for (unsigned i = 0; !r && i < dev->napis.n; i++)
			if (dev->napis.v[i].has & NP_NAPI_HAS_PID)
				r = add_thread(dev, &cap, dev->napis.v[i].pid, dev->napis.v[i].id);
	} else if (!dev->napi.threaded_err && dev->napi.threaded) {
		r = scan_proc(rootfd, dev, &cap);
	}
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, "napi-threads", "NAPI threads: %s",
			      strerror(-r));
	for (unsigned i = 0; i < dev->n_napi_thread; i++)
		read_affinity(rootfd, &dev->napi_thread[i]);
	if (dev->n_napi_thread > 1)
		qsort(dev->napi_thread, dev->n_napi_thread, sizeof(*dev->napi_thread), by_napi_id);
	return 0;
}

int np_napi_thread_set_affinity(int rootfd, const struct np_dev *dev, unsigned pid,
				const char *cpulist, struct np_error *err)
{
	struct np_cpumask m;
	cpu_set_t *set;
	char path[48], comm[32];
	size_t size;
	uint32_t id;
	int r;

	/* the pid still names one of this device's threads (a thread that
	 * ended may have left its pid to another task) */
	snprintf(path, sizeof(path), "proc/%u/comm", pid);
	r = np_read_file_at(rootfd, path, comm, sizeof(comm));
	if (r < 0 || !comm_napi_id(comm, dev->ifname, &id))
		return np_err(err, -ESRCH, NP_PHASE_APPLY, "napi-threads",
			      "NAPI thread %u of %s is gone", pid, dev->ifname);
	r = np_cpumask_parse_list(cpulist, &m);
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, "napi-threads", "CPU list '%s'", cpulist);
	set = CPU_ALLOC(NP_CPUS_MAX);
	if (!set)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, "napi-threads", "out of memory");
	size = CPU_ALLOC_SIZE(NP_CPUS_MAX);
	CPU_ZERO_S(size, set);
	np_cpumask_for_each(cpu, &m)
		CPU_SET_S((unsigned)cpu, size, set);
	r = sched_setaffinity((pid_t)pid, size, set) < 0 ? -errno : 0;
	CPU_FREE(set);
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, "napi-threads", "NAPI thread %s (pid %u): %s",
			      comm, pid, strerror(-r));
	return 0;
}
