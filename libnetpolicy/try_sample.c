/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The counters of one run of a try's workload: read before and after, the
 * sample is the difference.  Wall time (CLOCK_MONOTONIC), the waited-for
 * children's CPU time (getrusage RUSAGE_CHILDREN: the workload the caller
 * ran and reaped in between), the machine's CPU time by kind (/proc/stat,
 * whose first line sums every CPU in USER_HZ ticks, proc(5)), and the
 * device's stats64 counters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "np_try.h"

struct np_try_sample {
	struct timespec wall;
	struct rusage ru;
	struct np_cpu_ticks cpu;
	struct np_link_stats ls;
	bool stopped;
	double v[NP_TRY_MEASURE__COUNT];
};

static const char *const names[NP_TRY_MEASURE__COUNT] = {
	[NP_TRY_WALL] = "wall_s",
	[NP_TRY_CHILD_CPU] = "child_cpu_s",
	[NP_TRY_CPU_USER] = "cpu_user_s",
	[NP_TRY_CPU_SYSTEM] = "cpu_system_s",
	[NP_TRY_CPU_SOFTIRQ] = "cpu_softirq_s",
	[NP_TRY_RX_BYTES] = "rx_bytes",
	[NP_TRY_TX_BYTES] = "tx_bytes",
	[NP_TRY_RX_PACKETS] = "rx_packets",
	[NP_TRY_TX_PACKETS] = "tx_packets",
	[NP_TRY_DROPS] = "drops",
	[NP_TRY_ERRORS] = "errors",
	[NP_TRY_CPU_PER_GB] = "cpu_s_per_gb",
};

const char *np_try_measure_name(enum np_try_measure m)
{
	return (unsigned)m < NP_TRY_MEASURE__COUNT ? names[m] : NULL;
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice" */
int np_cpu_ticks_parse(const char *line, struct np_cpu_ticks *ret)
{
	unsigned long long user, nice, system, idle, iowait, irq, softirq;

	if (strncmp(line, "cpu ", 4) ||
	    sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle,
		   &iowait, &irq, &softirq) != 7)
		return -EINVAL;
	ret->user = user + nice;
	ret->system = system;
	ret->softirq = softirq;
	return 0;
}

static int first_line(char *line, void *arg)
{
	return np_cpu_ticks_parse(line, arg) < 0 ? -EINVAL : 1;
}

static int read_counters(struct np_try *t, struct np_try_sample *s, struct np_error *err)
{
	int r;

	clock_gettime(CLOCK_MONOTONIC, &s->wall);
	if (getrusage(RUSAGE_CHILDREN, &s->ru) < 0)
		return np_err(err, -errno, NP_PHASE_DISCOVER, NULL, "getrusage: %s",
			      strerror(errno));
	r = np_for_each_line_at(t->ctx->rootfd, "proc/stat", first_line, &s->cpu);
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, NULL, "/proc/stat: %s", strerror(-r));
	return np_try_link(t, &s->ls, err);
}

int np_try_sample_start(struct np_try *t, struct np_try_sample **ret, struct np_error *err)
{
	struct np_try_sample *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	r = read_counters(t, s, err);
	if (r < 0) {
		free(s);
		return r;
	}
	*ret = s;
	return 0;
}

static double seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Counters only grow; one that went back (the device was re-created under
 * its name) counts as 0, not as 2^64. */
static double delta(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0;
}

int np_try_sample_stop(struct np_try *t, struct np_try_sample *s, struct np_error *err)
{
	struct np_try_sample end = { 0 };
	double hz = (double)sysconf(_SC_CLK_TCK), cpu, bytes;
	double *v = end.v;
	int r;

	r = read_counters(t, &end, err);
	if (r < 0)
		return r;
	if (hz <= 0)
		hz = 100;
	v[NP_TRY_WALL] = (double)(end.wall.tv_sec - s->wall.tv_sec) +
			 (double)(end.wall.tv_nsec - s->wall.tv_nsec) / 1e9;
	v[NP_TRY_CHILD_CPU] = seconds(&end.ru.ru_utime) + seconds(&end.ru.ru_stime) -
			      seconds(&s->ru.ru_utime) - seconds(&s->ru.ru_stime);
	v[NP_TRY_CPU_USER] = delta(s->cpu.user, end.cpu.user) / hz;
	v[NP_TRY_CPU_SYSTEM] = delta(s->cpu.system, end.cpu.system) / hz;
	v[NP_TRY_CPU_SOFTIRQ] = delta(s->cpu.softirq, end.cpu.softirq) / hz;
	v[NP_TRY_RX_BYTES] = delta(s->ls.rx_bytes, end.ls.rx_bytes);
	v[NP_TRY_TX_BYTES] = delta(s->ls.tx_bytes, end.ls.tx_bytes);
	v[NP_TRY_RX_PACKETS] = delta(s->ls.rx_packets, end.ls.rx_packets);
	v[NP_TRY_TX_PACKETS] = delta(s->ls.tx_packets, end.ls.tx_packets);
	v[NP_TRY_DROPS] = delta(s->ls.rx_dropped, end.ls.rx_dropped) +
			  delta(s->ls.tx_dropped, end.ls.tx_dropped);
	v[NP_TRY_ERRORS] = delta(s->ls.rx_errors, end.ls.rx_errors) +
			   delta(s->ls.tx_errors, end.ls.tx_errors);
	cpu = v[NP_TRY_CPU_USER] + v[NP_TRY_CPU_SYSTEM] + v[NP_TRY_CPU_SOFTIRQ];
	bytes = v[NP_TRY_RX_BYTES] + v[NP_TRY_TX_BYTES];
	v[NP_TRY_CPU_PER_GB] = bytes > 0 ? cpu / (bytes / 1e9) : -1;
	memcpy(s->v, v, sizeof(s->v));
	s->stopped = true;
	return 0;
}

double np_try_sample_get(const struct np_try_sample *s, enum np_try_measure m)
{
	if (!s || !s->stopped || (unsigned)m >= NP_TRY_MEASURE__COUNT)
		return -1;
	return s->v[m];
}

void np_try_sample_free(struct np_try_sample *s)
{
	free(s);
}
