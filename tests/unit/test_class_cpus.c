/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * np_class_cpus: the CPUs of a class of a device in mixed mode, for
 * sched_setaffinity.  On a simulated mlx5 NIC (mlx5-mixed): refused before
 * netpolicy set anything, under another policy and after reset; after
 * `set mixed` each class's set is the CPUs its transmit queues' XPS maps
 * cover, with its queues' IRQs among them (the device's own state, not
 * only the record), the classes are disjoint, a
 * class without flows and a set too small are refused.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture.h"
#include "tap.h"

#define DEV "ens1f0np0"

static char tmpdir[] = "/tmp/np-test-class-cpus.XXXXXX";

static int apply(struct np_ctx *ctx, const char *policy, const char *const *flows, size_t n)
{
	struct np_apply_result *res = np_apply_result_new();
	struct np_error *err = np_error_new();
	NP_PLAN_OPTS(opts, .flows = flows, .n_flows = n);
	const struct np_policy *p = NULL;
	int r;

	if (n)
		opts.flags |= NP_PLAN_OPTS_MIXED;
	r = np_policy_lookup(policy, &p, err);
	if (r == 0)
		r = np_apply_policy(ctx, DEV, p, &opts, 0, NULL, res, err);
	if (r < 0)
		printf("# %s: %s\n", policy, np_error_message(err));
	np_apply_result_free(res);
	np_error_free(err);
	return r;
}

static int class_cpus(struct np_ctx *ctx, enum np_class cls, cpu_set_t *set, size_t size)
{
	struct np_error *err = np_error_new();
	int r = np_class_cpus(ctx, DEV, cls, set, size, err);

	if (r < 0)
		printf("# %s: %s\n", np_class_name(cls) ? np_class_name(cls) : "?",
		       np_error_message(err));
	np_error_free(err);
	return r;
}

static void to_mask(const cpu_set_t *set, struct np_cpumask *m)
{
	np_cpumask_zero(m);
	for (unsigned c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			np_cpumask_set(m, c);
}

/* What the device reports now for queues first..first+count-1: the union
 * of their transmit queues' XPS CPUs (where a task must run to send on
 * them) and of their IRQs' affinity. */
static void queue_cpus(struct np_ctx *ctx, unsigned first, unsigned count, struct np_cpumask *xps,
		       struct np_cpumask *irq_cpus)
{
	struct json_object *j = NULL, *arr, *e, *q, *v;
	struct np_error *err = np_error_new();
	struct np_state *st = NULL;
	struct np_cpumask m;

	np_cpumask_zero(xps);
	np_cpumask_zero(irq_cpus);
	if (np_discover(ctx, DEV, &st, err) < 0 || np_state_to_json(st, &j) < 0) {
		printf("Bail out! discover: %s\n", np_error_message(err));
		exit(1);
	}
	if (json_object_object_get_ex(j, "queues", &q) && json_object_object_get_ex(q, "tx", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			e = json_object_array_get_idx(arr, i);
			if (json_object_object_get_ex(e, "queue", &v) &&
			    (unsigned)json_object_get_int(v) - first < count &&
			    json_object_object_get_ex(e, "xps_cpus", &v) &&
			    np_cpumask_parse_list(json_object_get_string(v), &m) == 0)
				np_cpumask_or(xps, xps, &m);
		}
	if (json_object_object_get_ex(j, "irqs", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			e = json_object_array_get_idx(arr, i);
			if (json_object_object_get_ex(e, "queue", &v) && v &&
			    (unsigned)json_object_get_int(v) - first < count &&
			    json_object_object_get_ex(e, "affinity", &v) &&
			    np_cpumask_parse_list(json_object_get_string(v), &m) == 0)
				np_cpumask_or(irq_cpus, irq_cpus, &m);
		}
	json_object_put(j);
	np_state_free(st);
	np_error_free(err);
}

/* The class's queues from the record, as show prints them. */
static bool class_queues(struct np_ctx *ctx, const char *cls, unsigned *first, unsigned *count)
{
	struct json_object *classes = NULL, *c, *q, *v;
	struct np_error *err = np_error_new();
	struct np_active *a = NULL;
	bool found = false;

	if (np_active_policy(ctx, DEV, &a, err) == 0 && np_active_classes_json(a, &classes) == 0 &&
	    classes && json_object_object_get_ex(classes, cls, &c) &&
	    json_object_object_get_ex(c, "queues", &q)) {
		found = json_object_object_get_ex(q, "first", &v);
		*first = (unsigned)json_object_get_int(v);
		found = found && json_object_object_get_ex(q, "count", &v);
		*count = (unsigned)json_object_get_int(v);
	}
	json_object_put(classes);
	np_active_free(a);
	np_error_free(err);
	return found;
}

int main(void)
{
	static const char *const flows[] = { "latency:tcp:6379", "cpu:udp:53" };
	static const char *const latency_only[] = { "latency:tcp:6379" };
	struct np_cpumask lat, bulk, cpu, want, irqs, both;
	cpu_set_t set;
	unsigned first = 0, count = 0;
	struct np_ctx *ctx;

	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	ctx = sim_ctx(tmpdir, "mlx5-mixed", "m");

	is_int(class_cpus(ctx, NP_CLASS_LATENCY, &set, sizeof(set)), -ENOTCONN,
	       "nothing set: not in mixed mode");
	is_int(apply(ctx, "throughput", NULL, 0), 0, "set throughput");
	is_int(class_cpus(ctx, NP_CLASS_LATENCY, &set, sizeof(set)), -ENOTCONN,
	       "throughput: not in mixed mode");

	is_int(apply(ctx, "mixed", flows, 2), 0, "set mixed: latency and cpu flows");
	is_int(class_cpus(ctx, NP_CLASS_LATENCY, &set, sizeof(set)), 0, "latency's CPUs");
	to_mask(&set, &lat);
	ok(class_queues(ctx, "latency", &first, &count) && count > 0,
	   "the record gives latency queues %u..%u", first, first + count - 1);
	queue_cpus(ctx, first, count, &want, &irqs);
	ok(!np_cpumask_empty(&lat) && np_cpumask_equal(&lat, &want),
	   "latency's CPUs %s are its queues' XPS CPUs %s", list(&lat), list(&want));
	np_cpumask_andnot(&both, &irqs, &lat);
	ok(!np_cpumask_empty(&irqs) && np_cpumask_empty(&both),
	   "its queues' IRQs (%s) are on them", list(&irqs));

	is_int(class_cpus(ctx, NP_CLASS_THROUGHPUT, &set, sizeof(set)), 0, "throughput's CPUs");
	to_mask(&set, &bulk);
	ok(class_queues(ctx, "throughput", &first, &count), "throughput has queues");
	queue_cpus(ctx, first, count, &want, &irqs);
	ok(np_cpumask_equal(&bulk, &want), "throughput's CPUs %s are its queues' XPS CPUs %s",
	   list(&bulk), list(&want));
	np_cpumask_andnot(&both, &irqs, &bulk);
	ok(!np_cpumask_empty(&irqs) && np_cpumask_empty(&both),
	   "its queues' IRQs (%s) are on them", list(&irqs));
	is_int(class_cpus(ctx, NP_CLASS_CPU, &set, sizeof(set)), 0, "cpu's CPUs");
	to_mask(&set, &cpu);
	np_cpumask_and(&both, &lat, &bulk);
	ok(np_cpumask_empty(&both), "latency and throughput share no CPU");
	np_cpumask_and(&both, &lat, &cpu);
	ok(np_cpumask_empty(&both), "latency and cpu share no CPU");

	/* latency has CPUs above 7: one byte cannot hold them */
	ok(np_cpumask_next(&lat, 8) >= 0, "latency has a CPU above 7 (%s)", list(&lat));
	is_int(class_cpus(ctx, NP_CLASS_LATENCY, &set, 1), -ERANGE, "a set too small");
	is_int(class_cpus(ctx, NP_CLASS__COUNT, &set, sizeof(set)), -EINVAL, "no such class");
	is_int(class_cpus(ctx, NP_CLASS_LATENCY, NULL, sizeof(set)), -EINVAL, "no set");

	is_int(apply(ctx, "mixed", latency_only, 1), 0, "set mixed: latency flows only");
	is_int(class_cpus(ctx, NP_CLASS_CPU, &set, sizeof(set)), -ENOENT, "cpu has no flows");
	is_int(class_cpus(ctx, NP_CLASS_THROUGHPUT, &set, sizeof(set)), 0,
	       "throughput, the default class, has CPUs");

	{
		struct np_apply_result *res = np_apply_result_new();
		struct np_error *err = np_error_new();

		is_int(np_reset(ctx, DEV, 0, NULL, res, err), 0, "reset");
		np_apply_result_free(res);
		np_error_free(err);
	}
	is_int(class_cpus(ctx, NP_CLASS_LATENCY, &set, sizeof(set)), -ENOTCONN,
	       "after reset: not in mixed mode");

	np_ctx_free(ctx);
	remove_tree(tmpdir);
	return tap_done();
}
