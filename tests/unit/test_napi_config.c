/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NAPI deferral per NAPI (netdev napi-set) where the kernel reports per-NAPI
 * config (6.13), the device-wide sysfs files otherwise: for each policy that
 * sets NAPI deferral, every NAPI gets its values and the sysfs files stay;
 * a kernel whose napi-get has no defer-hard-irqs (6.8-6.12), or no napi-get
 * (6.1), keeps the sysfs path with a note; a policy that does not own NAPI
 * deferral puts every NAPI back to its pristine values.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_check.h"

/* n NAPIs (ids 100..) with `has`, deferral at the given values */
static int add_napis(struct np_state *st, unsigned n, uint32_t has, uint32_t defer, uint64_t gro)
{
	struct np_dev *d = &st->dev;

	d->napis.v = calloc(n, sizeof(*d->napis.v));
	if (!d->napis.v)
		return -ENOMEM;
	d->napis.n = n;
	for (unsigned i = 0; i < n; i++) {
		d->napis.v[i] = (struct np_napi_inst){ .id = 100 + i, .has = has, .rxq = (int)i,
						       .txq = (int)i, .defer_hard_irqs = defer,
						       .gro_flush_timeout = gro };
	}
	return 0;
}

static void test_per_napi(void)
{
	const struct shape s = { .cpus = 8, .speed = 10000, .max_queues = 4, .queues = 4 };
	struct np_state *st = NULL;
	struct np_plan *plan, *back;
	struct np_plan_base base = { 0 };
	struct np_error err;
	bool all = true;

	if (shape_build(&s, &st) < 0 ||
	    add_napis(st, 4, NP_NAPI_HAS_IRQ | NP_NAPI_HAS_DEFER | NP_NAPI_HAS_GRO_FLUSH, 0, 0) < 0 ||
	    !(plan = plan_for("cpu", NULL, st, NULL, &err))) {
		ok(0, "per-NAPI: plans");
		np_state_free(st);
		return;
	}
	for (unsigned i = 0; i < plan->target->dev.napis.n; i++)
		all = all && plan->target->dev.napis.v[i].defer_hard_irqs == 2 &&
		      plan->target->dev.napis.v[i].gro_flush_timeout == 200000;
	ok(all, "per-NAPI: cpu's deferral on every NAPI");
	is_int(steps_of(plan, "napi-config"), 4, "per-NAPI: one napi-set per NAPI");
	is_int(steps_of(plan, "napi"), 0, "per-NAPI: the device-wide sysfs files are not written");
	ok(noted(plan, "(napi-set, netdev.yaml)"), "per-NAPI: the plan says so");
	/* throughput does not own deferral: every NAPI back to pristine */
	base.pristine = st;
	back = plan_for("throughput", NULL, plan->target, &base, &err);
	ok(back && steps_of(back, "napi-config") == 4 && back->target->dev.napis.v[0].defer_hard_irqs == 0,
	   "per-NAPI: throughput after cpu puts every NAPI back to pristine");
	np_plan_free(back);
	np_plan_free(plan);
	np_state_free(st);
}

static void test_sysfs_path(void)
{
	const struct shape s = { .cpus = 8, .speed = 10000, .max_queues = 4, .queues = 4 };
	struct np_state *st = NULL;
	struct np_plan *plan;
	struct np_error err;

	/* 6.8-6.12: napi-get without per-NAPI config */
	if (shape_build(&s, &st) < 0 || add_napis(st, 4, NP_NAPI_HAS_IRQ, 0, 0) < 0 ||
	    !(plan = plan_for("cpu", NULL, st, NULL, &err))) {
		ok(0, "6.8: plans");
		np_state_free(st);
		return;
	}
	ok(steps_of(plan, "napi") == 2 && steps_of(plan, "napi-config") == 0,
	   "6.8: the device-wide sysfs files, no napi-set");
	ok(noted(plan, "per-NAPI config not supported by kernel"), "6.8: the plan says why");
	np_plan_free(plan);
	np_state_free(st);

	/* 6.1: no napi-get */
	if (shape_build(&s, &st) < 0) {
		ok(0, "6.1: shape");
		return;
	}
	st->dev.napis.err = -EOPNOTSUPP;
	plan = plan_for("cpu", NULL, st, NULL, &err);
	ok(plan && steps_of(plan, "napi") == 2 && steps_of(plan, "napi-config") == 0,
	   "6.1: the device-wide sysfs files");
	ok(plan && noted(plan, "not supported by kernel (no napi-get)"), "6.1: the plan says why");
	np_plan_free(plan);
	np_state_free(st);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_per_napi();
	test_sysfs_path();
	return tap_done();
}
