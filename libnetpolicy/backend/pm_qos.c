/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-CPU wake-up latency from sysfs: each online CPU's idle states
 * (devices/system/cpu/cpuN/cpuidle/stateK/{name,latency,disable}) and its
 * PM QoS resume-latency limit (cpuN/power/pm_qos_resume_latency_us, whose
 * encoding model/np_pm.h describes).  A CPU without cpuidle (no idle driver,
 * a VM without one) has no cpuidle/ directory: idle_err -ENOENT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np_kernel.h"

static int read_state(int rootfd, unsigned cpu, unsigned k, struct np_idle_state *st)
{
	char path[96], v[8];
	int r;

	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u/cpuidle/state%u/name", cpu, k);
	r = np_read_file_at(rootfd, path, st->name, sizeof(st->name));
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u/cpuidle/state%u/latency", cpu, k);
	r = np_read_u32_at(rootfd, path, &st->latency);
	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u/cpuidle/state%u/disable", cpu, k);
	r = np_read_file_at(rootfd, path, v, sizeof(v));
	if (r < 0)
		return r;
	st->disable = strcmp(v, "0") != 0;
	return 0;
}

static void read_resume(int rootfd, unsigned cpu, struct np_cpu_pm *c)
{
	char path[96], v[24];
	int r;

	snprintf(path, sizeof(path), "sys/devices/system/cpu/cpu%u/power/pm_qos_resume_latency_us",
		 cpu);
	r = np_read_file_at(rootfd, path, v, sizeof(v));
	c->err = r < 0 ? r : np_pm_parse(v, &c->resume);
}

static void read_cpu(int rootfd, unsigned cpu, struct np_cpu_pm *c)
{
	int r = 0;

	read_resume(rootfd, cpu, c);
	c->n_idle = 0;
	for (unsigned k = 0; k < NP_IDLE_MAX; k++) {
		r = read_state(rootfd, cpu, k, &c->idle[k]);
		if (r < 0)
			break;
		c->n_idle = k + 1;
	}
	/* no state0: no cpuidle on this CPU; a state that fails half-way
	 * read is as good as none: the planner limits nothing there */
	c->idle_err = c->n_idle ? 0 : (r < 0 ? r : -ENOENT);
}

int np_pm_read(int rootfd, const struct np_topology *topo, struct np_pm *ret)
{
	struct np_pm pm = { .n = topo->nr_cpus };

	pm.cpu = calloc(pm.n ? pm.n : 1, sizeof(*pm.cpu));
	if (!pm.cpu)
		return -ENOMEM;
	for (unsigned i = 0; i < pm.n; i++) {
		if (np_cpumask_test(&topo->online, i))
			read_cpu(rootfd, i, &pm.cpu[i]);
		else
			pm.cpu[i].err = pm.cpu[i].idle_err = -ENOENT;
	}
	np_pm_clear(ret);
	*ret = pm;
	return 0;
}

void np_pm_reread_limits(int rootfd, const struct np_topology *topo, struct np_pm *pm)
{
	for (unsigned i = 0; i < pm->n; i++)
		if (np_cpumask_test(&topo->online, i))
			read_resume(rootfd, i, &pm->cpu[i]);
}
