/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-CPU wake-up latency: cpuN/power/pm_qos_resume_latency_us, one step
 * per CPU (index = CPU), written in the file's encoding (model/np_pm.h). */
#include "plan/np_plan.h"

/* The file's number for a change: "0" for no limit (NP_PM_NONE), the
 * microseconds otherwise ("n/a", 0 us, shows as 0 too). */
static uint64_t shown(uint32_t us)
{
	return us == NP_PM_NONE ? 0 : us;
}

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	char what[24];

	if (from->pm.err || to->pm.err)
		return 0;
	for (unsigned c = 0; c < from->pm.n && c < to->pm.n; c++) {
		const struct np_cpu_pm *a = &from->pm.cpu[c], *b = &to->pm.cpu[c];

		if (a->err || b->err || a->resume == b->resume)
			continue;
		np_fmt_what(what, sizeof(what), "cpu-", c, "");
		if (np_plan_add_step(plan, &np_knob_pm_qos, (int)c, 0) < 0 ||
		    np_plan_add_uint(plan, what, shown(a->resume), shown(b->resume)) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	char v[16];

	np_pm_format(to->pm.cpu[step->index].resume, v, sizeof(v));
	return be->ops->write_attr(be, &cur->dev, NP_ATTR_PM_QOS, (unsigned)step->index, v, err);
}

const struct np_knob np_knob_pm_qos = {
	.name = "pm-qos",
	.diff = diff,
	.apply = apply,
};
