/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPUs of threaded NAPI's kthreads, one sched_setaffinity each, matched
 * between states by NAPI id (a thread's pid changes when threaded mode is
 * turned off and on; its NAPI keeps its id while the queues stay). */
#include "plan/np_plan.h"

static const struct np_napi_thread *find(const struct np_dev *d, uint32_t napi_id)
{
	for (unsigned i = 0; i < d->n_napi_thread; i++)
		if (d->napi_thread[i].napi_id == napi_id)
			return &d->napi_thread[i];
	return NULL;
}

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	char what[48];

	for (unsigned i = 0; i < to->dev.n_napi_thread; i++) {
		const struct np_napi_thread *b = &to->dev.napi_thread[i];
		const struct np_napi_thread *a = find(&from->dev, b->napi_id);

		if (!a || a->err || b->err || np_cpumask_equal(&a->affinity, &b->affinity))
			continue;
		snprintf(what, sizeof(what), "napi/%.15s-%u", to->dev.ifname, b->napi_id);
		if (np_plan_add_step(plan, &np_knob_napi_threads, (int)i, 0) < 0 ||
		    np_plan_add_cpus(plan, what, &a->affinity, &b->affinity) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	const struct np_napi_thread *t = &to->dev.napi_thread[step->index];
	const struct np_napi_thread *now = find(&cur->dev, t->napi_id);
	char v[1024];

	/* the live thread of that NAPI: its pid as discovered now */
	if (!now)
		return np_err(err, -ESRCH, NP_PHASE_APPLY, "napi-threads",
			      "the thread of NAPI %u is gone", t->napi_id);
	if (np_cpumask_format_list(&t->affinity, v, sizeof(v)) < 0)
		return np_err(err, -ENOSPC, NP_PHASE_APPLY, "napi-threads", "CPU list too long");
	return be->ops->write_attr(be, &cur->dev, NP_ATTR_NAPI_THREAD_AFFINITY, now->pid, v, err);
}

const struct np_knob np_knob_napi_threads = {
	.name = "napi-threads",
	.diff = diff,
	.apply = apply,
	.per_queue = true,
};
