/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The RSS indirection table.  It appears twice in the apply order: before a
 * channel shrink (the kernel refuses to drop a queue a user-set table still
 * points at) and after a grow (the new queues must exist first).  A table
 * equal to the kernel's default spread is written as "default", which also
 * clears the user-configured flag so the driver re-spreads on later channel
 * changes, as it did before netpolicy touched it.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/np_plan.h"

static bool is_default(const struct np_rss *r)
{
	if (!r->rx_rings)
		return false;
	for (uint32_t i = 0; i < r->indir_size; i++)
		if (r->indir[i] != i % r->rx_rings)
			return false;
	return true;
}

/* Every queue from 0 to the highest named has as many entries as the next
 * (one more where the size does not divide): i % n, or igb's blocks (entry j
 * on queue j * n / size).  Shown as "even over n queues": to the user the
 * two spread traffic alike, though only i % n is the kernel's default. */
static bool even_by_count(const struct np_rss *r, uint32_t max)
{
	uint32_t n = max + 1, *count;
	bool even = true;

	if (!r->indir_size || n > r->indir_size)
		return false;
	count = calloc(n, sizeof(*count));
	if (!count)
		return is_default(r);
	for (uint32_t i = 0; i < r->indir_size; i++)
		count[r->indir[i]]++;
	for (uint32_t q = 0; q < n && even; q++)
		even = count[q] == r->indir_size / n || count[q] == r->indir_size / n + 1;
	free(count);
	return even;
}

static void describe(struct np_value *v, const struct np_rss *r)
{
	uint32_t max = 0, min = UINT32_MAX;

	v->kind = NP_VAL_INDIR;
	for (uint32_t i = 0; i < r->indir_size; i++) {
		if (r->indir[i] > max)
			max = r->indir[i];
		if (r->indir[i] < min)
			min = r->indir[i];
	}
	v->even = is_default(r) || even_by_count(r, max);
	if (v->even) {
		v->u = is_default(r) ? r->rx_rings : max + 1;
		return;
	}
	v->u = max;
	v->lo = r->indir_size ? min : 0;
}

static int diff_when(struct np_plan *plan, const struct np_state *from, const struct np_state *to,
		     bool early, const struct np_knob *knob)
{
	const struct np_rss *a = &from->dev.rss, *b = &to->dev.rss;
	bool shrink = to->dev.n_rxq < from->dev.n_rxq;
	struct np_value x = {}, y = {};

	if (a->err || b->err || !b->indir_size || a->indir_size != b->indir_size)
		return 0;
	if (shrink != early)
		return 0;
	if (!memcmp(a->indir, b->indir, sizeof(*a->indir) * a->indir_size))
		return 0;
	describe(&x, a);
	describe(&y, b);
	if (np_plan_add_step(plan, knob, -1, 0) < 0 || np_plan_add_change(plan, "indir", &x, &y) < 0)
		return -ENOMEM;
	return 0;
}

static int diff_early(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	return diff_when(plan, from, to, true, &np_knob_rss_early);
}

static int diff_late(struct np_plan *plan, const struct np_state *from, const struct np_state *to)
{
	return diff_when(plan, from, to, false, &np_knob_rss);
}

static int apply(struct np_backend *be, const struct np_state *cur, const struct np_state *to,
		 const struct np_step *step, struct np_error *err)
{
	const struct np_rss *r = &to->dev.rss;

	if (is_default(r) && r->rx_rings <= cur->dev.n_rxq)
		return be->ops->set_rss_indir(be, &cur->dev, NULL, 0, err);
	return be->ops->set_rss_indir(be, &cur->dev, r->indir, r->indir_size, err);
}

const struct np_knob np_knob_rss_early = {
	.name = "rss",
	.diff = diff_early,
	.apply = apply,
};

const struct np_knob np_knob_rss = {
	.name = "rss",
	.diff = diff_late,
	.apply = apply,
};
