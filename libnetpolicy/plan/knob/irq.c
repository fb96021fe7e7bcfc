/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* IRQ affinity, one write per IRQ, matched between states by IRQ number
 * (array positions can differ after a driver re-requests its vectors). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "np_plan.h"

/* An IRQ number's first position in `from`, found by binary search in
 * (number, position) order: matching each IRQ of `to` by a scan was
 * IRQs x IRQs (a fifth of planning 256 queues). */
struct irq_pos {
	unsigned irq, i;
};

static int cmp_pos(const void *a, const void *b)
{
	const struct irq_pos *x = a, *y = b;

	if (x->irq != y->irq)
		return x->irq < y->irq ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static const struct np_irq *find_irq(const struct np_dev *d, const struct irq_pos *pos,
				     unsigned irq)
{
	unsigned lo = 0, hi = d->n_irq;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (pos[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->n_irq && pos[lo].irq == irq ? &d->irq[pos[lo].i] : NULL;
}

/* "%u %.40s" of the IRQ's number and name, without stdio (one per IRQ). */
static void irq_what(char *buf, size_t len, const struct np_irq *irq)
{
	size_t n, m;

	np_fmt_what(buf, len, "", irq->irq, " ");
	n = strlen(buf);
	m = strnlen(irq->name, 40);
	if (m > len - 1 - n)
		m = len - 1 - n;
	memcpy(buf + n, irq->name, m);
	buf[n + m] = '\0';
}

static int diff(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	const struct np_dev *fd = &from->dev;
	struct irq_pos *pos;
	char what[48];
	int r = 0;

	if (!to->dev.n_irq || !fd->n_irq)
		return 0;
	pos = malloc(sizeof(*pos) * fd->n_irq);
	if (!pos)
		return -ENOMEM;
	for (unsigned i = 0; i < fd->n_irq; i++)
		pos[i] = (struct irq_pos){ fd->irq[i].irq, i };
	qsort(pos, fd->n_irq, sizeof(*pos), cmp_pos);
	for (unsigned i = 0; i < to->dev.n_irq && !r; i++) {
		const struct np_irq *b = &to->dev.irq[i], *a = find_irq(fd, pos, b->irq);

		if (!a || a->err || b->err || np_cpumask_equal(&a->affinity, &b->affinity))
			continue;
		irq_what(what, sizeof(what), b);
		if (np_plan_add_step(plan, &np_knob_irq, (int)i, 0) < 0 ||
		    np_plan_add_cpus(plan, what, &a->affinity, &b->affinity) < 0)
			r = -ENOMEM;
	}
	free(pos);
	return r;
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
