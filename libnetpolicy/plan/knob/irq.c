/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * IRQ affinity, one write per IRQ.  An IRQ is matched between states by
 * what it serves, (kind, queue), where its name says so: a driver that
 * re-requests its vectors on a channel change (igb, ixgbe, bnxt) may get
 * other numbers, and a record's number can then be another queue's vector
 * (reset would write rx-1's CPUs to what is now tx-0).  Others (the
 * device's misc vector, names no matcher reads) are matched by number.
 * The write goes to the number the IRQ has on the device at that moment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan/np_plan.h"

/* The key an IRQ is matched by: (1, kind, queue) for a queue's vector,
 * (0, number) for the others.  Sorted (key, position) pairs are searched
 * by bisection: a scan per IRQ was IRQs x IRQs (a fifth of planning 256
 * queues). */
struct irq_pos {
	uint64_t key;
	unsigned i;
};

static uint64_t irq_key(const struct np_irq *q)
{
	if (q->queue >= 0 && q->kind != NP_IRQ_OTHER)
		return 1ull << 63 | (uint64_t)q->kind << 32 | (uint32_t)q->queue;
	return q->irq;
}

static int cmp_pos(const void *a, const void *b)
{
	const struct irq_pos *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The position of key in pos (n entries), or -1; a queue key two vectors
 * claim (a name read wrongly) matches neither, and the number decides. */
static int find_key(const struct irq_pos *pos, unsigned n, uint64_t key)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (pos[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= n || pos[lo].key != key)
		return -1;
	if ((key >> 63) && lo + 1 < n && pos[lo + 1].key == key)
		return -1;
	return (int)pos[lo].i;
}

/* The sorted keys of d's IRQs, both kinds of key; NULL when out of memory. */
static struct irq_pos *index_irqs(const struct np_dev *d, unsigned *n)
{
	struct irq_pos *pos = malloc(sizeof(*pos) * 2 * (d->n_irq ? d->n_irq : 1));

	*n = 0;
	if (!pos)
		return NULL;
	for (unsigned i = 0; i < d->n_irq; i++) {
		pos[(*n)++] = (struct irq_pos){ d->irq[i].irq, i };
		if (irq_key(&d->irq[i]) >> 63)
			pos[(*n)++] = (struct irq_pos){ irq_key(&d->irq[i]), i };
	}
	qsort(pos, *n, sizeof(*pos), cmp_pos);
	return pos;
}

/* The IRQ of d (indexed in pos) that is b: by (kind, queue) when b is a
 * queue's vector and d has exactly one such, else by number. */
static const struct np_irq *find_irq(const struct np_dev *d, const struct irq_pos *pos,
				     unsigned n, const struct np_irq *b)
{
	int i = irq_key(b) >> 63 ? find_key(pos, n, irq_key(b)) : -1;

	if (i < 0)
		i = find_key(pos, n, b->irq);
	/* a number now another queue's vector is not this one */
	if (i >= 0 && (irq_key(b) >> 63) && (irq_key(&d->irq[i]) >> 63) &&
	    irq_key(&d->irq[i]) != irq_key(b))
		return NULL;
	return i >= 0 ? &d->irq[i] : NULL;
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
	unsigned n;
	int r = 0;

	if (!to->dev.n_irq || !fd->n_irq)
		return 0;
	pos = index_irqs(fd, &n);
	if (!pos)
		return -ENOMEM;
	for (unsigned i = 0; i < to->dev.n_irq && !r; i++) {
		const struct np_irq *b = &to->dev.irq[i], *a = find_irq(fd, pos, n, b);

		if (!a || a->err || b->err || np_cpumask_equal(&a->affinity, &b->affinity))
			continue;
		/* named as the device has it now: the number written */
		irq_what(what, sizeof(what), a);
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
	const struct np_irq *irq = &to->dev.irq[step->index], *now;
	struct irq_pos *pos;
	unsigned n, number;
	char v[1024];

	pos = index_irqs(&cur->dev, &n);
	if (!pos)
		return np_err(err, -ENOMEM, NP_PHASE_APPLY, "irq-affinity", "out of memory");
	now = find_irq(&cur->dev, pos, n, irq);
	number = now ? now->irq : irq->irq;
	free(pos);
	if (np_cpumask_format_list(&irq->affinity, v, sizeof(v)) < 0)
		return np_err(err, -ENOSPC, NP_PHASE_APPLY, "irq-affinity", "CPU list too long");
	return be->ops->write_attr(be, &cur->dev, NP_ATTR_IRQ_AFFINITY, number, v, err);
}

const struct np_knob np_knob_irq = {
	.name = "irq-affinity",
	.diff = diff,
	.apply = apply,
	.per_queue = true,
};
