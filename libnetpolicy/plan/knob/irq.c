/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* IRQ affinity, one write per IRQ, matched between states by IRQ number
 * (array positions can differ after a driver re-requests its vectors). */
#include "np_plan.h"

static const struct np_irq *find_irq(const struct np_dev *d, unsigned irq)
{
	for (unsigned i = 0; i < d->n_irq; i++)
		if (d->irq[i].irq == irq)
			return &d->irq[i];
	return NULL;
}

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	char what[48];

	for (unsigned i = 0; i < to->dev.n_irq; i++) {
		const struct np_irq *b = &to->dev.irq[i], *a = find_irq(&from->dev, b->irq);

		if (!a || a->err || b->err || np_cpumask_equal(&a->affinity, &b->affinity))
			continue;
		snprintf(what, sizeof(what), "%u %.40s", b->irq, b->name);
		if (np_plan_add_step(plan, &np_knob_irq, (int)i, 0) < 0 ||
		    np_plan_add_cpus(plan, what, &a->affinity, &b->affinity) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	const struct np_irq *irq = &to->dev.irq[step->index];
	char v[1024];

	if (np_cpumask_format_list(&irq->affinity, v, sizeof(v)) < 0)
		return np_err(err, -ENOSPC, NP_PHASE_APPLY, "irq-affinity", "CPU list too long");
	return be->ops->write_attr(be, &cur->dev, NP_ATTR_IRQ_AFFINITY, irq->irq, v, err);
}

const struct np_knob np_knob_irq = {
	.name = "irq-affinity",
	.diff = diff,
	.apply = apply,
	.per_queue = true,
};
