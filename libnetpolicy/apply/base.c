/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a plan starts from besides the live device, kept by the state store
 * (np_store.h):
 *   IFNAME.pristine   the device before netpolicy's first change
 *   IFNAME.sysctl     what the device's active policy needs of the machine-wide
 *                     net.core sysctls, and their values before any device
 *                     needed them
 * Each device writes only its own sysctl record, under its own lock; a plan
 * reads all of them (np_plan_base_load, called by np_plan_compute in
 * compose.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply/np_journal.h"
#include "plan/np_policy.h"

/* The machine-wide values a device's record holds (np_store.h). */
#define SYS(f) offsetof(struct np_sysctl, f)
static const size_t shared_off[] = {
	SYS(rps_sock_flow_entries), SYS(busy_poll), SYS(busy_read), SYS(rmem_max), SYS(wmem_max),
	SYS(tcp_rmem[2]), SYS(tcp_wmem[2]), SYS(netdev_max_backlog),
};

static uint32_t *at(struct np_sysctl *s, size_t i)
{
	return (uint32_t *)((char *)s + shared_off[i]);
}

/* tcp_rmem's and tcp_wmem's max are each network namespace's own
 * (doc/kernel.md); the rest is the machine's. */
static bool per_netns(size_t i)
{
	return shared_off[i] == SYS(tcp_rmem[2]) || shared_off[i] == SYS(tcp_wmem[2]);
}

/* Another device's needs: of its namespace's values only where it is of
 * ours (a device in another namespace needs nothing of this one's). */
static void max_into(struct np_sysctl *dst, const struct np_sysctl *src, bool same_netns)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(shared_off); i++)
		if ((same_netns || !per_netns(i)) && *at((struct np_sysctl *)src, i) > *at(dst, i))
			*at(dst, i) = *at((struct np_sysctl *)src, i);
}

/* The values before any device raised them, each from the first record
 * that knows it (the device's own first); a namespace's own value only from
 * a record of that namespace: another namespace's may differ. */
static void pristine_into(struct np_sysctl *dst, const struct np_sysctl *src, bool same_netns)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(shared_off); i++)
		if (*at(dst, i) == NP_SYSCTL_UNKNOWN && (same_netns || !per_netns(i)))
			*at(dst, i) = *at((struct np_sysctl *)src, i);
}

/* Per-CPU wake-up needs: the strictest wins; a pristine value only where
 * none is known yet (the device's own record is read first). */
static void pm_into(struct np_pm_share *dst, const struct np_pm_share *src)
{
	for (unsigned c = 0; c < NP_CPUS_MAX; c++) {
		if (!np_cpumask_test(&src->need_cpus, c))
			continue;
		if (!np_cpumask_test(&dst->need_cpus, c) || src->need[c] < dst->need[c])
			dst->need[c] = src->need[c];
		np_cpumask_set(&dst->need_cpus, c);
		if (!np_cpumask_test(&dst->known, c))
			dst->pristine[c] = src->pristine[c];
		np_cpumask_set(&dst->known, c);
	}
}

/* A record older than some value: its pristine value is the live one. */
static void fill_unknown(struct np_sysctl *pristine, const struct np_sysctl *live)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(shared_off); i++)
		if (*at(pristine, i) == NP_SYSCTL_UNKNOWN)
			*at(pristine, i) = *at((struct np_sysctl *)live, i);
}

struct base_load {
	const struct np_state *cur;
	struct np_plan_base *base;
};

/* Another device's record: its needs combined into the others', its
 * pristine values used when this device has no record of its own. */
static int other_record(const char *ifname, const struct np_sysctl_record *rec, bool same_netns,
			void *ud)
{
	struct base_load *b = ud;
	struct np_plan_base *base = b->base;

	(void)ifname;
	max_into(&base->others, &rec->need, same_netns);
	pm_into(&base->pm, &rec->pm);
	pristine_into(&base->shared_pristine, &rec->pristine, same_netns);
	base->shared = true;
	return 0;
}

void np_plan_base_clear(struct np_plan_base *base)
{
	np_state_free((struct np_state *)base->pristine);
	memset(base, 0, sizeof(*base));
}


/* What cannot be read is not there: planning goes on from the device. */
static int load_base(struct np_store *s, void *ud, struct np_error *err)
{
	struct base_load *b = ud;
	struct np_state *pristine = NULL;
	struct np_sysctl_record own;
	struct np_policy_record rec;
	struct np_ident pid, id;

	/* A snapshot of an earlier device of this name is not this one's. */
	if (np_store_pristine_load(s, &pristine, &pid, err) >= 0) {
		np_ident_of(s->ctx, b->cur, &id);
		if (np_ident_same(&pid, &id))
			b->base->pristine = pristine;
		else
			np_state_free(pristine);
	}
	/* What netpolicy made on this device (the mixed policy's rules and
	 * contexts): a plan replaces or removes those, never others. */
	if (b->base->pristine && err->code != -ENOMEM && np_store_policy_load(s, &rec, err) >= 0 &&
	    rec.has_mixed)
		np_mixed_record_owned(&rec.mixed, &b->base->owned);
	/* The device's own record first: it saw the pristine values before it
	 * raised anything. */
	if (err->code != -ENOMEM && np_store_sysctl_load(s, &own, err) >= 0) {
		b->base->shared = true;
		pristine_into(&b->base->shared_pristine, &own.pristine, true);
		/* its pristine values, not its needs: those are planned anew */
		b->base->pm.known = own.pm.known;
		memcpy(b->base->pm.pristine, own.pm.pristine, sizeof(own.pm.pristine));
	}
	if (err->code != -ENOMEM && np_store_sysctl_others(s, other_record, b) == -ENOMEM)
		err->code = -ENOMEM;
	/* what no record knows: the live value, nobody having raised it */
	fill_unknown(&b->base->shared_pristine, &b->cur->sys);
	return 0;
}

int np_plan_base_load(struct np_ctx *ctx, const struct np_state *cur, struct np_plan_base *ret)
{
	struct base_load b = { .cur = cur, .base = ret };
	struct np_error ignored;

	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < NP_ARRAY_SIZE(shared_off); i++)
		*at(&ret->shared_pristine, i) = NP_SYSCTL_UNKNOWN;
	memset(&ignored, 0, sizeof(ignored));
	/* Planning must not create the directory: a dry run is read-only. */
	(void)np_store_peek(ctx, cur->dev.ifname, load_base, &b, &ignored);
	/* A damaged or missing record is as good as none; one that could not
	 * be read for want of memory is not: planning without it would undo
	 * what other devices need. */
	if (ignored.code == -ENOMEM) {
		np_plan_base_clear(ret);
		return -ENOMEM;
	}
	return 0;
}

static bool any_need(const struct np_sysctl *s)
{
	for (size_t i = 0; i < NP_ARRAY_SIZE(shared_off); i++)
		if (*at((struct np_sysctl *)s, i))
			return true;
	return false;
}

void np_plan_base_commit(struct np_store *s, const struct np_plan *plan, enum np_rec_op *ret_op,
			 struct np_sysctl_record *ret_rec)
{
	struct np_sysctl_record rec, old;
	struct np_error ignored;

	memset(&rec, 0, sizeof(rec));
	/* the per-CPU wake-up needs live in the same record */
	if (!any_need(&plan->needs) && np_cpumask_empty(&plan->pm_need.need_cpus)) {
		*ret_op = np_store_has(s, NP_FILE_SYSCTL) ? NP_REC_REMOVE : NP_REC_KEEP;
		return;
	}
	for (size_t i = 0; i < NP_ARRAY_SIZE(shared_off); i++) {
		*at(&rec.need, i) = *at((struct np_sysctl *)&plan->needs, i);
		*at(&rec.pristine, i) = *at((struct np_sysctl *)&plan->shared_pristine, i);
	}
	rec.pm = plan->pm_need;
	*ret_rec = rec;
	/* a no-op set writes nothing anywhere */
	memset(&ignored, 0, sizeof(ignored));
	if (np_store_sysctl_load(s, &old, &ignored) >= 0 && !memcmp(&old, &rec, sizeof(rec)))
		*ret_op = NP_REC_KEEP;
	else
		*ret_op = NP_REC_SET;
}

int np_plan_base_forget(struct np_store *s, struct np_error *err)
{
	if (!np_store_has(s, NP_FILE_SYSCTL))
		return 0;
	return np_store_remove(s, NP_FILE_SYSCTL, err);
}

int np_plan_base_reset_sys(struct np_ctx *ctx, const struct np_state *cur,
			   struct np_sysctl *goal)
{
	struct np_plan_base base;
	struct np_sysctl errs = *goal;

	if (np_plan_base_load(ctx, cur, &base) < 0)
		return -ENOMEM;
	/* Without a record netpolicy raised nothing: leave them as they are. */
	*goal = cur->sys;
	if (base.shared) {
		/* base.others holds this namespace's needs already */
		*goal = base.shared_pristine;
		max_into(goal, &base.others, true);
	}
	goal->flow_entries_err = errs.flow_entries_err ? errs.flow_entries_err :
			cur->sys.flow_entries_err;
	goal->busy_err = errs.busy_err ? errs.busy_err : cur->sys.busy_err;
	goal->core_mem_err = errs.core_mem_err ? errs.core_mem_err : cur->sys.core_mem_err;
	goal->tcp_mem_err = errs.tcp_mem_err ? errs.tcp_mem_err : cur->sys.tcp_mem_err;
	goal->backlog_err = errs.backlog_err ? errs.backlog_err : cur->sys.backlog_err;
	/* only the max of a triple is netpolicy's: min and default as they are */
	memcpy(goal->tcp_rmem, cur->sys.tcp_rmem, 2 * sizeof(uint32_t));
	memcpy(goal->tcp_wmem, cur->sys.tcp_wmem, 2 * sizeof(uint32_t));
	np_plan_base_clear(&base);
	return 0;
}

int np_plan_base_reset_pm(struct np_ctx *ctx, const struct np_state *cur, struct np_pm *goal)
{
	struct np_plan_base *base = malloc(sizeof(*base));
	struct np_pm pm;

	/* every CPU as it is, but those this device limited: back to their
	 * value before any device did, or what the others still need */
	if (!base || np_pm_copy(&pm, &cur->pm) < 0) {
		free(base);
		return -ENOMEM;
	}
	if (np_plan_base_load(ctx, cur, base) < 0) {
		np_pm_clear(&pm);
		free(base);
		return -ENOMEM;
	}
	for (unsigned c = 0; !pm.err && c < pm.n; c++) {
		uint32_t *v = &pm.cpu[c].resume;

		if (pm.cpu[c].err || !np_cpumask_test(&base->pm.known, c))
			continue;
		*v = base->pm.pristine[c];
		if (np_cpumask_test(&base->pm.need_cpus, c) && base->pm.need[c] < *v)
			*v = base->pm.need[c];
	}
	np_plan_base_clear(base);
	free(base);
	np_pm_clear(goal);
	*goal = pm;
	return 0;
}
