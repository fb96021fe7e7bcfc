/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Wake-up latency where the latency traffic lands.  The latency policies
 * limit the idle-state exit latency of the CPUs that serve their queues
 * (those the plan gives the queues' IRQs; for a device without per-queue
 * IRQs, the CPUs of its queues' XPS masks; for mixed, the latency class's
 * queues only) through each CPU's PM QoS resume-latency file, and nowhere
 * else.
 *
 * The limit (pm-qos auto): the exit latency of the CPU's shallowest enabled
 * idle state that is not the polling loop ("POLL"), at least 1 us.  The
 * cpuidle governors take a state only when its exit latency is at most the
 * limit (menu_select() skips deeper ones; a limit of 0 has menu and
 * haltpoll poll and never halt), so that state stays usable and every
 * deeper one (C1E, C6) is forbidden.  1 us, not 0, for a shallowest state
 * of exit latency 0: a limit of 0 would forbid that state too.
 *
 * Shared across devices like the machine-wide sysctls (plan_machine.c): a
 * CPU's target is the strictest of its pristine value, this device's need
 * and every other device's need; the pristine value is the one recorded
 * before any device limited the CPU.
 */
#include <errno.h>
#include <string.h>

#include "plan/np_mixed.h"
#include "plan/np_policy.h"

static bool is_poll(const struct np_idle_state *s)
{
	return !strcmp(s->name, "POLL");
}

/* The limit for a CPU (NP_PM_NONE: none); *ret_state the state kept. */
static uint32_t auto_limit(const struct np_cpu_pm *c, const struct np_idle_state **ret_state)
{
	for (unsigned k = 0; k < c->n_idle; k++) {
		const struct np_idle_state *s = &c->idle[k];

		if (s->disable || is_poll(s))
			continue;
		*ret_state = s;
		return s->latency ? (s->latency > NP_PM_MAX ? NP_PM_MAX : s->latency) : 1;
	}
	return NP_PM_NONE;
}

static void add_queue_cpus(const struct np_dev *t, unsigned lo, unsigned hi,
			   struct np_cpumask *ret)
{
	bool irq = false;

	for (unsigned i = 0; i < t->n_irq; i++) {
		const struct np_irq *q = &t->irq[i];

		if (q->queue < 0 || (unsigned)q->queue < lo || (unsigned)q->queue >= hi || q->err)
			continue;
		np_cpumask_or(ret, ret, &q->affinity);
		irq = true;
	}
	if (irq)
		return;
	for (unsigned i = lo; i < hi && i < t->n_txq; i++)
		if (!t->txq[i].xps_err)
			np_cpumask_or(ret, ret, &t->txq[i].xps_cpus);
}

/* The queues the target leaves open: its channels, else every queue (the
 * IRQs of queues a channel change closes serve nothing). */
static unsigned open_queues(const struct np_dev *t)
{
	unsigned nq = t->n_rxq > t->n_txq ? t->n_rxq : t->n_txq;
	unsigned rx = t->channels.combined + t->channels.rx;
	unsigned tx = t->channels.combined + t->channels.tx;
	unsigned ch = rx > tx ? rx : tx;

	return !t->channels.err && ch && ch < nq ? ch : nq;
}

/* The CPUs serving the policy's queues in the target. */
static void policy_cpus(const struct np_plan *plan, struct np_cpumask *ret)
{
	const struct np_dev *t = &plan->target->dev;

	np_cpumask_zero(ret);
	if (plan->mixed) {
		const struct np_mixed_class *c = &plan->mixed->m.cls[NP_CLASS_LATENCY];

		if (c->used && c->n_q)
			add_queue_cpus(t, c->q_first, c->q_first + c->n_q, ret);
		return;
	}
	add_queue_cpus(t, 0, open_queues(t), ret);
}

static uint32_t min2(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* One note per kind of CPU the policy uses but cannot limit. */
static void note_cpus(struct np_plan *plan, const struct np_cpumask *m, const char *why)
{
	char list[64];

	if (np_cpumask_empty(m))
		return;
	if (np_fmt_mask(list, sizeof(list), m) < 0)
		np_fmt_copy(list, sizeof(list), "many");
	np_plan_note(plan, "pm-qos", "CPUs %s: %s: no wake-up latency limit", list, why);
}

/* This device's need on CPU c into plan->pm_need; the limit, or NONE. */
static uint32_t need_of(const struct np_policy *p, const struct np_cpu_pm *c,
			struct np_cpumask *no_idle, struct np_cpumask *only_poll, unsigned cpu)
{
	const struct np_idle_state *kept = NULL;
	uint32_t lim;

	if (c->idle_err || !c->n_idle) {
		np_cpumask_set(no_idle, cpu);
		return NP_PM_NONE;
	}
	if (p->pm_qos == NP_PMQ_US)
		return p->pm_qos_us > NP_PM_MAX ? NP_PM_MAX : p->pm_qos_us;
	lim = auto_limit(c, &kept);
	if (lim == NP_PM_NONE)
		np_cpumask_set(only_poll, cpu);
	return lim;
}

static void note_limits(struct np_plan *plan, const struct np_state *st)
{
	const struct np_pm_share *n = &plan->pm_need;
	struct np_cpumask done;

	np_cpumask_zero(&done);
	for (unsigned c = 0; c < st->pm.n; c++) {
		struct np_cpumask same;
		char list[64], deeper[48] = "";
		const struct np_cpu_pm *pc = &st->pm.cpu[c];

		if (!np_cpumask_test(&n->need_cpus, c) || np_cpumask_test(&done, c))
			continue;
		np_cpumask_zero(&same);
		for (unsigned d = c; d < st->pm.n; d++)
			if (np_cpumask_test(&n->need_cpus, d) && n->need[d] == n->need[c])
				np_cpumask_set(&same, d);
		np_cpumask_or(&done, &done, &same);
		for (unsigned k = 0; k < pc->n_idle; k++)
			if (!pc->idle[k].disable && pc->idle[k].latency > n->need[c]) {
				np_fmt_copy(deeper, sizeof(deeper), pc->idle[k].name);
				break;
			}
		if (np_fmt_mask(list, sizeof(list), &same) < 0)
			np_fmt_copy(list, sizeof(list), "many");
		if (deeper[0])
			np_plan_note(plan, "pm-qos", "CPUs %s: resume latency limit %u us: no idle "
				     "state deeper than it (from %s on)", list, n->need[c], deeper);
		else
			np_plan_note(plan, "pm-qos", "CPUs %s: resume latency limit %u us (no "
				     "deeper idle state is enabled now)", list, n->need[c]);
	}
}

void np_plan_pm_qos(const struct np_policy *p, const struct np_state *st,
		    const struct np_plan_base *base, struct np_plan *plan)
{
	const struct np_pm_share *sh = base ? &base->pm : NULL;
	struct np_pm_share *mine = &plan->pm_need;
	struct np_cpumask cpus, no_file, no_idle, only_poll;

	memset(mine, 0, sizeof(*mine));
	if (st->pm.err || plan->target->pm.n != st->pm.n)
		return;		/* not known (a model without it): nothing planned */
	if (np_knob_listed(plan->drop, "pm-qos"))
		return;		/* refused: left as it is (keep.c says so) */
	np_cpumask_zero(&cpus);
	np_cpumask_zero(&no_file);
	np_cpumask_zero(&no_idle);
	np_cpumask_zero(&only_poll);
	if (p->pm_qos != NP_PMQ_OFF)
		policy_cpus(plan, &cpus);
	for (unsigned c = 0; c < st->pm.n; c++) {
		const struct np_cpu_pm *pc = &st->pm.cpu[c];
		uint32_t pr, want, need = NP_PM_NONE;

		if (pc->err) {
			if (np_cpumask_test(&cpus, c))
				np_cpumask_set(&no_file, c);
			continue;
		}
		pr = sh && np_cpumask_test(&sh->known, c) ? sh->pristine[c] : pc->resume;
		if (np_cpumask_test(&cpus, c))
			need = need_of(p, pc, &no_idle, &only_poll, c);
		if (need != NP_PM_NONE) {
			np_cpumask_set(&mine->need_cpus, c);
			np_cpumask_set(&mine->known, c);
			mine->need[c] = need;
			mine->pristine[c] = pr;
		}
		want = min2(pr, need);
		if (sh && np_cpumask_test(&sh->need_cpus, c))
			want = min2(want, sh->need[c]);
		plan->target->pm.cpu[c].resume = want;
	}
	note_cpus(plan, &no_file, "no pm_qos_resume_latency_us file");
	note_cpus(plan, &no_idle, "no cpuidle (the kernel has no idle driver there)");
	note_cpus(plan, &only_poll, "no enabled idle state but polling");
	note_limits(plan, st);
}

void np_plan_pm_keep(struct np_plan *plan, const struct np_state *st)
{
	struct np_pm *t = &plan->target->pm;

	for (unsigned c = 0; c < t->n && c < st->pm.n; c++)
		t->cpu[c].resume = st->pm.cpu[c].resume;
	memset(&plan->pm_need, 0, sizeof(plan->pm_need));
}
