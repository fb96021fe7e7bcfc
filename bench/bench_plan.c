/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How long np_plan_compute() takes, from a 1-CPU VM to 1024 CPUs on 16 NUMA
 * nodes with 1..256 queues, for every policy.  The plan runs on every `set`,
 * `check` and `plan` (once per device), so it should stay far below what a
 * user notices; the target is 1 ms for 1024 CPUs x 256 queues.
 *
 * Usage: np_bench_plan [--json] [--runs N] [--check]
 *   --json   one JSON document instead of the table
 *   --runs   timed runs per configuration (default: enough for ~20 ms, 11..1001)
 *   --check  exit 1 when the 1024 CPU x 256 queue target is missed
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "plan/np_plan.h"
#include "../tests/unit/shapes.h"

#define TARGET_NS 1000000.0	/* 1 ms */

struct result {
	unsigned cpus, nodes, queues;
	const char *policy;
	unsigned runs;
	double median_ns, min_ns, max_ns;
	size_t steps;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void shape_for(unsigned cpus, unsigned nodes, unsigned queues, struct shape *s)
{
	memset(s, 0, sizeof(*s));
	s->cpus = cpus;
	s->smt = cpus >= 4;
	s->nodes = nodes;
	s->packages = nodes >= 2 ? 2 : 1;
	s->driver = "mlx5_core";
	/* the last node: local-first ordering has remote CPUs to skip */
	s->nic_node = (int)nodes - 1;
	s->speed = 100000;
	s->max_queues = queues;
	s->queues = queues;
	s->other = true;
	s->adaptive_on = false;
	s->rss_size = queues > 128 ? 512 : 256;
	s->ring_max = 8192;
	s->ring = 1024;
}

static int run(struct np_ctx *ctx, const struct np_state *st, const struct np_policy *p,
	       unsigned runs, struct result *res)
{
	double *t = malloc(sizeof(*t) * runs);
	struct np_error err;

	if (!t)
		return -ENOMEM;
	for (unsigned i = 0; i < runs; i++) {
		struct np_plan *plan = NULL;
		double t0 = now_ns();
		int r = np_plan_compute(ctx, p, NULL, st, &plan, &err);

		t[i] = now_ns() - t0;
		if (r < 0) {
			fprintf(stderr, "np_bench_plan: %u cpus %u queues %s: %s\n", st->topo.nr_cpus,
				st->dev.n_rxq, np_policy_name(p), err.msg);
			free(t);
			return r;
		}
		res->steps = plan->n_steps;
		np_plan_free(plan);
	}
	qsort(t, runs, sizeof(*t), cmp_double);
	res->runs = runs;
	res->median_ns = t[runs / 2];
	res->min_ns = t[0];
	res->max_ns = t[runs - 1];
	free(t);
	return 0;
}

static unsigned auto_runs(struct np_ctx *ctx, const struct np_state *st, const struct np_policy *p)
{
	struct result warm;
	double per;

	/* two warm-up runs: page in the allocator's arenas and the caches */
	if (run(ctx, st, p, 2, &warm) < 0)
		return 0;
	per = warm.min_ns > 1 ? warm.min_ns : 1;
	if (20e6 / per > 1001)
		return 1001;
	if (20e6 / per < 11)
		return 11;
	return (unsigned)(20e6 / per) | 1;
}

static const unsigned cpu_counts[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 };
static const unsigned node_counts[] = { 1, 2, 4, 8, 16 };
static const unsigned queue_counts[] = { 1, 8, 64, 256 };

static bool wanted(unsigned cpus, unsigned nodes, unsigned queues)
{
	/* at least 4 cores per node; queues up to 2 per CPU (plus the small
	 * counts every machine can have) */
	if (nodes > 1 && cpus / nodes < 8)
		return false;
	return queues <= 8 || queues <= 2 * cpus;
}

static void print_row(const struct result *r, bool json, bool first)
{
	double per = r->median_ns / (r->cpus + r->queues);
	double per_step = r->steps ? r->median_ns / (double)r->steps : 0;

	if (json) {
		printf("%s\n    {\"cpus\": %u, \"nodes\": %u, \"queues\": %u, \"policy\": \"%s\", "
		       "\"runs\": %u, \"median_us\": %.2f, \"min_us\": %.2f, \"max_us\": %.2f, "
		       "\"steps\": %zu, \"ns_per_cpu_plus_queue\": %.1f, \"ns_per_step\": %.1f}",
		       first ? "" : ",", r->cpus, r->nodes, r->queues, r->policy, r->runs,
		       r->median_ns / 1e3, r->min_ns / 1e3, r->max_ns / 1e3, r->steps, per, per_step);
		return;
	}
	printf("%5u %5u %6u  %-10s %5u %10.1f %10.1f %6zu %10.1f %8.1f\n", r->cpus, r->nodes,
	       r->queues, r->policy, r->runs, r->median_ns / 1e3, r->min_ns / 1e3, r->steps, per,
	       per_step);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: np_bench_plan [--json] [--runs N] [--check]\n");
}

struct summary {
	struct result slowest[NP_ARRAY_SIZE(cpu_counts)];	/* per CPU count */
	double target_ns;	/* slowest policy at 1024 CPUs x 256 queues */
	double per_min, per_max;	/* ns per (cpus + queues), 64+ CPUs */
};

static int bench_shape(struct np_ctx *ctx, size_t ci, unsigned nodes, unsigned queues,
		       unsigned fixed_runs, bool json, bool *first, struct summary *sum)
{
	unsigned cpus = cpu_counts[ci];
	struct np_state *st = NULL;
	struct shape s;
	int r = 0;

	shape_for(cpus, nodes, queues, &s);
	if (shape_build(&s, &st) < 0) {
		fprintf(stderr, "np_bench_plan: cannot build %u cpus %u nodes %u queues\n", cpus,
			nodes, queues);
		return -EINVAL;
	}
	for (size_t pi = 0; pi < np_policy_count() && r >= 0; pi++) {
		const struct np_policy *p = np_policy_at(pi);
		struct result res = { .cpus = cpus, .nodes = nodes, .queues = queues,
				      .policy = np_policy_name(p) };
		unsigned runs = fixed_runs ? fixed_runs : auto_runs(ctx, st, p);
		double per;

		r = runs ? run(ctx, st, p, runs, &res) : -EINVAL;
		if (r < 0)
			break;
		print_row(&res, json, *first);
		*first = false;
		per = res.median_ns / (cpus + queues);
		if (cpus >= 64) {	/* below, fixed costs dominate */
			sum->per_min = per < sum->per_min ? per : sum->per_min;
			sum->per_max = per > sum->per_max ? per : sum->per_max;
		}
		if (res.median_ns > sum->slowest[ci].median_ns)
			sum->slowest[ci] = res;
		if (cpus == 1024 && queues == 256 && res.median_ns > sum->target_ns)
			sum->target_ns = res.median_ns;
	}
	np_state_free(st);
	return r;
}

static void print_summary(const struct summary *sum, bool json)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	if (json) {
		printf("\n  ],\n  \"slowest_by_cpus\": [");
		for (size_t i = 0; i < NP_ARRAY_SIZE(cpu_counts); i++)
			print_row(&sum->slowest[i], true, i == 0);
		printf("\n  ],\n  \"target_us\": %.0f,\n  \"worst_1024cpus_256queues_us\": %.2f,\n"
		       "  \"ns_per_cpu_plus_queue_min\": %.1f,\n  \"ns_per_cpu_plus_queue_max\": %.1f,\n"
		       "  \"peak_rss_kb\": %ld\n}\n", TARGET_NS / 1e3, sum->target_ns / 1e3,
		       sum->per_min, sum->per_max, ru.ru_maxrss);
		return;
	}
	printf("\ngrowth: the slowest shape and policy for each CPU count\n");
	for (size_t i = 0; i < NP_ARRAY_SIZE(cpu_counts); i++)
		print_row(&sum->slowest[i], false, false);
	printf("\n1024 cpus x 256 queues, slowest policy: %.1f us (target %.0f us): %s\n",
	       sum->target_ns / 1e3, TARGET_NS / 1e3, sum->target_ns <= TARGET_NS ? "met" : "MISSED");
	printf("%.1f .. %.1f ns per (cpus + queues) for shapes of 64+ cpus\n", sum->per_min,
	       sum->per_max);
	printf("peak RSS: %ld KiB\n", ru.ru_maxrss);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "runs", required_argument, NULL, 'r' },
		{ "check", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct summary sum = { .per_min = 1e30 };
	bool json = false, check = false, first = true;
	unsigned fixed_runs = 0;
	struct np_ctx *ctx = NULL;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "jr:ch", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'r':
			fixed_runs = (unsigned)strtoul(optarg, NULL, 10);
			if (!fixed_runs) {
				usage(stderr);
				return 2;
			}
			break;
		case 'c':
			check = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (np_ctx_new(&ctx, NULL) < 0) {
		fprintf(stderr, "np_bench_plan: cannot create a context\n");
		return 1;
	}
	if (json)
		printf("{\n  \"results\": [");
	else
		printf(" cpus nodes queues  policy      runs  median_us     min_us  steps ns/(cpu+q)  ns/step\n");
	for (size_t ci = 0; ci < NP_ARRAY_SIZE(cpu_counts) && !rc; ci++)
		for (size_t ni = 0; ni < NP_ARRAY_SIZE(node_counts) && !rc; ni++)
			for (size_t qi = 0; qi < NP_ARRAY_SIZE(queue_counts) && !rc; qi++)
				if (wanted(cpu_counts[ci], node_counts[ni], queue_counts[qi]) &&
				    bench_shape(ctx, ci, node_counts[ni], queue_counts[qi], fixed_runs,
						json, &first, &sum) < 0)
					rc = 1;
	if (!rc) {
		print_summary(&sum, json);
		if (check && sum.target_ns > TARGET_NS)
			rc = 1;
	}
	np_ctx_free(ctx);
	return rc;
}
