/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-CPU wake-up latency limit: the resume-latency file's encoding
 * (drivers/base/power/sysfs.c: "0" no limit, "n/a" 0 us, negative and
 * S32_MAX refused) and the planner's rule on machine shapes: the CPUs of
 * the queues' IRQs get their shallowest non-POLL enabled state's exit
 * latency (at least 1), other CPUs nothing, other devices' needs shared
 * (the strictest wins), no cpuidle no limit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan_check.h"

static const struct np_idle_state skx[] = {
	{ "POLL", 0, false }, { "C1", 2, false }, { "C1E", 10, false }, { "C6", 133, false },
};

static void encoding(void)
{
	static const struct {
		const char *text;
		int r;
		uint32_t us;
	} cases[] = {
		{ "0", 0, NP_PM_NONE }, { "0\n", 0, NP_PM_NONE }, { "n/a", 0, 0 }, { "n/a\n", 0, 0 },
		{ "2", 0, 2 }, { "0x10", 0, 16 }, { "2147483646", 0, 2147483646u },
		{ "-1", -EINVAL, 0 }, { "2147483647", -EINVAL, 0 }, { "2147483648", -EINVAL, 0 },
		{ "", -EINVAL, 0 }, { " 5", -EINVAL, 0 }, { "5us", -EINVAL, 0 }, { "N/A", -EINVAL, 0 },
	};
	char buf[16];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t us = 12345;
		int r = np_pm_parse(cases[i].text, &us);

		is_int(r, cases[i].r, "parse \"%s\"", cases[i].text);
		if (!r)
			ok(us == cases[i].us, "parse \"%s\": %u", cases[i].text, us);
	}
	np_pm_format(NP_PM_NONE, buf, sizeof(buf));
	is_str(buf, "0", "no limit is written 0");
	np_pm_format(0, buf, sizeof(buf));
	is_str(buf, "n/a", "0 us is written n/a");
	np_pm_format(133, buf, sizeof(buf));
	is_str(buf, "133", "a number as itself");
}

/* st's CPUs with the states (n 0: no cpuidle) and no limit */
static int add_pm(struct np_state *st, const struct np_idle_state *states, unsigned n)
{
	st->pm.n = st->topo.nr_cpus;
	st->pm.cpu = calloc(st->pm.n, sizeof(*st->pm.cpu));
	if (!st->pm.cpu)
		return -ENOMEM;
	for (unsigned c = 0; c < st->pm.n; c++) {
		st->pm.cpu[c].resume = NP_PM_NONE;
		st->pm.cpu[c].idle_err = n ? 0 : -ENOENT;
		st->pm.cpu[c].n_idle = n;
		memcpy(st->pm.cpu[c].idle, states, n * sizeof(*states));
	}
	return 0;
}

/* the CPUs the plan's IRQs of its open queues land on */
static void irq_cpus(const struct np_plan *plan, struct np_cpumask *m)
{
	const struct np_dev *t = &plan->target->dev;

	np_cpumask_zero(m);
	for (unsigned i = 0; i < t->n_irq; i++)
		if (t->irq[i].queue >= 0 && (unsigned)t->irq[i].queue < t->channels.combined)
			np_cpumask_or(m, m, &t->irq[i].affinity);
}

static void rule(void)
{
	struct shape s = { .cpus = 16, .smt = true, .queues = 16, .max_queues = 64 };
	struct np_state *st = NULL;
	struct np_plan *plan = NULL;
	struct np_error err;
	struct np_cpumask m;
	unsigned bad = 0, limited = 0;

	if (shape_build(&s, &st) < 0 || add_pm(st, skx, 4) < 0 ||
	    !(plan = plan_for("latency", NULL, st, NULL, &err))) {
		ok(0, "latency plans on 16 CPUs with Skylake-SP states");
		goto out;
	}
	irq_cpus(plan, &m);
	for (unsigned c = 0; c < 16; c++) {
		uint32_t v = plan->target->pm.cpu[c].resume;

		limited += v != NP_PM_NONE;
		bad += np_cpumask_test(&m, c) ? v != 2 : v != NP_PM_NONE;
	}
	ok(limited && !bad, "latency: C1's 2 us on the %u IRQ CPUs, nothing elsewhere (%u wrong)",
	   limited, bad);
	ok(np_cpumask_equal(&plan->pm_need.need_cpus, &m), "the need recorded is those CPUs'");
	np_plan_free(plan);
	plan = plan_for("throughput", NULL, st, NULL, &err);
	ok(plan && np_cpumask_empty(&plan->pm_need.need_cpus), "throughput limits nothing");
	np_plan_free(plan);
	/* C1 exits in 0 us: 1, never 0 ("0" lifts the limit, "n/a" forbids C1) */
	for (unsigned c = 0; c < 16; c++)
		st->pm.cpu[c].idle[1].latency = 0;
	plan = plan_for("latency", NULL, st, NULL, &err);
	ok(plan && np_cpumask_next(&m, 0) >= 0 &&
	   plan->target->pm.cpu[np_cpumask_next(&m, 0)].resume == 1,
	   "a C1 of 0 us gives a limit of 1 us");
	np_plan_free(plan);
	/* no cpuidle on any CPU: no limit anywhere, a note */
	for (unsigned c = 0; c < 16; c++)
		st->pm.cpu[c].idle_err = -ENOENT, st->pm.cpu[c].n_idle = 0;
	plan = plan_for("latency", NULL, st, NULL, &err);
	ok(plan && np_cpumask_empty(&plan->pm_need.need_cpus) && plan->n_notes,
	   "no cpuidle: no limit");
	np_plan_free(plan);
	plan = NULL;
out:
	np_plan_free(plan);
	np_state_free(st);
}

static void shared(void)
{
	struct shape s = { .cpus = 8, .queues = 8, .max_queues = 8 };
	struct np_plan_base *base = calloc(1, sizeof(*base));
	struct np_state *st = NULL;
	struct np_plan *plan = NULL;
	struct np_error err;

	if (!base || shape_build(&s, &st) < 0 || add_pm(st, skx, 4) < 0) {
		ok(0, "builds");
		goto out;
	}
	/* another device needs 1 us on CPU 0 and recorded CPU 7 was at 50
	 * before any device limited it (now 1 from that device) */
	np_cpumask_set(&base->pm.need_cpus, 0);
	np_cpumask_set(&base->pm.known, 0);
	base->pm.need[0] = 1;
	base->pm.pristine[0] = NP_PM_NONE;
	np_cpumask_set(&base->pm.need_cpus, 7);
	np_cpumask_set(&base->pm.known, 7);
	base->pm.need[7] = 1;
	base->pm.pristine[7] = 50;
	st->pm.cpu[0].resume = 1;
	st->pm.cpu[7].resume = 1;
	plan = plan_for("latency", NULL, st, base, &err);
	ok(plan && plan->target->pm.cpu[0].resume == 1, "the other device's 1 us wins over 2");
	ok(plan && plan->pm_need.need[0] == 2 && plan->pm_need.pristine[0] == NP_PM_NONE,
	   "this device records its own need, and the pristine value");
	np_plan_free(plan);
	plan = plan_for("throughput", NULL, st, base, &err);
	ok(plan && plan->target->pm.cpu[0].resume == 1 && plan->target->pm.cpu[7].resume == 1,
	   "throughput keeps what the other device needs");
	memset(base, 0, sizeof(*base));
	np_cpumask_set(&base->pm.known, 7);
	base->pm.pristine[7] = 50;
	np_plan_free(plan);
	plan = plan_for("throughput", NULL, st, base, &err);
	ok(plan && plan->target->pm.cpu[7].resume == 50 && plan->target->pm.cpu[0].resume == 1,
	   "no device needs CPU 7 any more: back to its recorded 50; CPU 0, unrecorded, as it is");
out:
	np_plan_free(plan);
	np_state_free(st);
	free(base);
}

int main(void)
{
	encoding();
	rule();
	shared();
	return tap_done();
}
