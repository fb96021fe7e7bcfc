/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Simulated ntuple rules and extra RSS contexts, refused the way the kernel
 * and the drivers refuse them:
 * - no ntuple filters (the model's "ntuple" unsupported, or the driver
 *   table's no_ntuple): -EOPNOTSUPP; rx-ntuple-filter off: -EOPNOTSUPP
 *   (ice_add_fdir_ethtool() checks ICE_FLAG_FD_ENA, set with the feature);
 * - a flow type, VLAN match or FLOW_RSS the driver does not take: -EINVAL
 *   (np_driver_rule_check(), from the driver source the table cites);
 * - RX_CLS_LOC_ANY: only where the driver places rules itself
 *   (RX_CLS_LOC_SPECIAL), else -EINVAL; such a driver in the table that
 *   takes nothing else (sfc, efx_ethtool_set_class_rule()) refuses a
 *   location with -EINVAL, and puts the rule where the hash of its match
 *   says, probing on (efx_mcdi_filter_insert()), so its choice is neither
 *   the lowest nor the highest free location; a location beyond the table:
 *   -EINVAL; a full table: -ENOSPC.  A location in use is replaced, as
 *   mlx5 (mlx5e_ethtool_flow_replace()) and ice (ice_update_ethtool_fdir_entry())
 *   do: netpolicy must never ask for one, the planner checks;
 * - a queue beyond the rx queues, or a context whose table plus the rule's
 *   offset reaches beyond them: -EINVAL; a context that does not exist:
 *   -ENOENT (net/ethtool/ioctl.c, ethtool_set_rxnfc(): the xarray lookup);
 * - contexts: none free: -EBUSY (xa_alloc() in ethtool_set_rxfh() /
 *   ethnl_rss_create_doit()); an id asked for that is taken: -EBUSY, beyond
 *   the driver's maximum: -EINVAL; deleting one a rule uses: -EBUSY
 *   (ethtool_rxfh_ctx_in_use()); one that does not exist: -ENOENT;
 * - channels below a queue a rule or context uses: -EINVAL "requested
 *   channel count is too low for existing ntuple filter settings"
 *   (net/ethtool/common.c, ethtool_check_max_channel()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "np_sim.h"

#define FAIL(code, ...) (snprintf(why, len, __VA_ARGS__), (code))

/*
 * One driver operation on device d: drv is its driver-table entry (NULL:
 * the model's data alone decides), ignore an "ignore" fault that fired (the
 * driver answers success and changes nothing).  Returns 1 when it changed
 * the model, 0 when not, or the driver's -errno with its extack in why.
 */
typedef int (*steer_fn)(struct np_dev *d, const struct np_driver *drv, bool ignore, void *arg,
			char *why, size_t len);

/* What every simulated call does around the operation (np_sim_begin:
 * the current model, the call counted, faults; np_sim_finish: saving). */
static int call(struct np_backend *be, enum np_sim_op op, const char *knob, const char *ifname,
		steer_fn fn, void *arg, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = op, .phase = NP_PHASE_APPLY, .knob = knob };
	char why[200] = "";
	int r = np_sim_begin(s, &c, ifname, true, err);

	if (r >= 0) {
		r = fn(c.dev, s->m.no_driver_rules ? NULL : np_driver_lookup(c.dev->driver),
		       np_sim_fault_is(&c, NP_SIM_MODE_IGNORE), arg, why, sizeof(why));
		if (r < 0)
			r = np_sim_fail(err, c.phase, knob, r, why[0] ? why : NULL);
		else if (r > 0)
			s->dirty = true;
	}
	return np_sim_finish(s, r < 0 ? r : 0, err);
}

static bool ntuple_on(const struct np_dev *d)
{
	const struct np_feature *f = np_features_find(&d->features, "rx-ntuple-filter");

	return !f || f->active;
}

struct rule_arg {
	const struct np_rule *rule;
	uint32_t loc;
};

static int lowest_free(const struct np_steer *s, uint32_t *ret)
{
	for (uint32_t loc = 0; loc < s->size; loc++)
		if (!np_steer_rule(s, loc)) {
			*ret = loc;
			return 0;
		}
	return -ENOSPC;
}

/* A free slot from the hash of the rule's match (FNV-1a), probing on. */
static int hashed_free(const struct np_steer *s, const struct ethtool_rx_flow_spec *fs,
		       uint32_t *ret)
{
	const unsigned char *p = (const void *)&fs->h_u;
	uint32_t h = 2166136261u ^ fs->flow_type;

	if (!s->size)
		return -ENOSPC;
	for (size_t i = 0; i < sizeof(fs->h_u); i++)
		h = (h ^ p[i]) * 16777619u;
	for (uint32_t k = 0; k < s->size; k++) {
		uint32_t loc = (h + k) % s->size;

		if (!np_steer_rule(s, loc)) {
			*ret = loc;
			return 0;
		}
	}
	return -ENOSPC;
}

static int rule_insert(struct np_dev *d, const struct np_driver *drv, bool ignore, void *arg,
		       char *why, size_t len)
{
	struct rule_arg *a = arg;
	struct np_steer *s = &d->steer;
	struct np_rule r = *a->rule;
	struct np_rule *slot;
	int e;

	if (s->err)
		return FAIL(s->err, "%s", strerror(-s->err));
	if (!ntuple_on(d))
		return FAIL(-EOPNOTSUPP, "rx-ntuple-filter is off");
	e = np_driver_rule_check(drv, &r.fs, why, len);
	for (unsigned i = 0; e == 0 && i < s->n_rules; i++)
		e = np_driver_rules_together(drv, &s->rules[i].fs, &r.fs, why, len);
	if (e < 0)
		return e;
	if ((r.fs.flow_type & FLOW_RSS) && s->ctx_err)
		return FAIL(-EINVAL, "no RSS contexts: a rule cannot use one");
	if (r.fs.location == RX_CLS_LOC_ANY) {
		if (!s->special)
			return FAIL(-EINVAL, "driver takes rules at locations only");
		if ((drv && drv->ntuple_loc_any ? hashed_free(s, &r.fs, &r.fs.location) :
		     lowest_free(s, &r.fs.location)) < 0)
			return FAIL(-ENOSPC, "rule table full");
	} else if (drv && drv->ntuple_loc_any) {
		return FAIL(-EINVAL, "driver %s chooses rule locations itself", drv->name);
	} else if (r.fs.location >= s->size) {
		return FAIL(-EINVAL, "location %u beyond the %u-rule table", r.fs.location, s->size);
	}
	e = np_sim_rule_queues_ok(s, &r, d->n_rxq, why, len);
	if (e < 0)
		return e;
	a->loc = r.fs.location;
	if (ignore)
		return 0;
	slot = (struct np_rule *)np_steer_rule(s, r.fs.location);
	if (!slot) {
		unsigned i = 0;

		if (s->n_rules >= s->size)
			return FAIL(-ENOSPC, "rule table full");
		slot = realloc(s->rules, sizeof(*s->rules) * (s->n_rules + 1));
		if (!slot)
			return FAIL(-ENOMEM, "out of memory");
		s->rules = slot;
		while (i < s->n_rules && s->rules[i].fs.location < r.fs.location)
			i++;
		memmove(&s->rules[i + 1], &s->rules[i], sizeof(*s->rules) * (s->n_rules - i));
		s->n_rules++;
		slot = &s->rules[i];
	}
	*slot = r;
	if (!(slot->fs.flow_type & FLOW_RSS))
		slot->rss_context = 0;
	return 1;
}

int np_sim_rule_insert(struct np_backend *be, const struct np_dev *dev, const struct np_rule *rule,
		       uint32_t *ret_loc, struct np_error *err)
{
	struct rule_arg a = { .rule = rule };
	int r = call(be, NP_SIM_OP_RULE_INSERT, "ntuple", dev->ifname, rule_insert, &a, err);

	if (r >= 0 && ret_loc)
		*ret_loc = a.loc;
	return r;
}

static int rule_delete(struct np_dev *d, const struct np_driver *drv, bool ignore, void *arg,
		       char *why, size_t len)
{
	struct np_steer *s = &d->steer;
	uint32_t loc = *(uint32_t *)arg;
	const struct np_rule *r;

	(void)drv;
	if (s->err)
		return FAIL(s->err, "%s", strerror(-s->err));
	r = np_steer_rule(s, loc);
	if (!r)
		return FAIL(-ENOENT, "no rule at location %u", loc);
	if (ignore)
		return 0;
	memmove((struct np_rule *)r, r + 1, sizeof(*r) * (size_t)(s->rules + s->n_rules - r - 1));
	s->n_rules--;
	return 1;
}

int np_sim_rule_delete(struct np_backend *be, const struct np_dev *dev, uint32_t loc,
		       struct np_error *err)
{
	return call(be, NP_SIM_OP_RULE_DELETE, "ntuple", dev->ifname, rule_delete, &loc, err);
}

/* --- contexts -------------------------------------------------------------------------- */

struct ctx_arg {
	const struct np_rss_ctx *ctx;
	uint32_t id;
	uint32_t delete_id;
};

/* The table a request gives, checked: n_indir 0 is the driver's default
 * spread over every rx queue, of the main table's size. */
static int ctx_table(const struct np_dev *d, const struct np_rss_ctx *c, uint32_t **ret,
		     uint32_t *ret_n, char *why, size_t len)
{
	uint32_t n = c->n_indir ? c->n_indir : d->rss.indir_size, *t;

	if (!n || !d->n_rxq)
		return FAIL(-EINVAL, "no RSS table to copy the size of");
	if (c->n_indir && !d->rss.err && d->rss.indir_size && c->n_indir != d->rss.indir_size)
		return FAIL(-EINVAL, "indirection table size does not match the device's");
	for (uint32_t i = 0; i < c->n_indir; i++)
		if (c->indir[i] >= d->n_rxq)
			return FAIL(-EINVAL, "indirection table entry is beyond the number of rx rings");
	t = malloc(sizeof(*t) * n);
	if (!t)
		return FAIL(-ENOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++)
		t[i] = c->n_indir ? c->indir[i] : i % d->n_rxq;
	*ret = t;
	*ret_n = n;
	return 0;
}

static int ctx_create(struct np_dev *d, const struct np_driver *drv, bool ignore, void *arg,
		      char *why, size_t len)
{
	struct ctx_arg *a = arg;
	struct np_steer *s = &d->steer;
	struct np_rss_ctx *v;
	uint32_t id = a->ctx->id, *t, n;
	int e;

	(void)drv;
	if (s->ctx_err)
		return FAIL(s->ctx_err, "%s", strerror(-s->ctx_err));
	if (id && id >= s->ctx_max)
		return FAIL(-EINVAL, "context %u beyond the driver's %u", id, s->ctx_max);
	if (id && np_steer_ctx(s, id))
		return FAIL(-EBUSY, "context %u exists", id);
	for (uint32_t i = 1; !id && i < s->ctx_max; i++)
		if (!np_steer_ctx(s, i))
			id = i;
	if (!id)
		return FAIL(-EBUSY, "no free RSS context");
	e = ctx_table(d, a->ctx, &t, &n, why, len);
	if (e < 0)
		return e;
	a->id = id;
	if (ignore) {
		free(t);
		return 0;
	}
	v = realloc(s->ctx, sizeof(*s->ctx) * (s->n_ctx + 1));
	if (!v) {
		free(t);
		return FAIL(-ENOMEM, "out of memory");
	}
	s->ctx = v;
	{
		unsigned i = 0;

		while (i < s->n_ctx && s->ctx[i].id < id)
			i++;
		memmove(&s->ctx[i + 1], &s->ctx[i], sizeof(*s->ctx) * (s->n_ctx - i));
		s->ctx[i] = (struct np_rss_ctx){ .id = id, .n_indir = n, .indir = t };
	}
	s->n_ctx++;
	return 1;
}

int np_sim_ctx_create(struct np_backend *be, const struct np_dev *dev,
		      const struct np_rss_ctx *ctx, uint32_t *ret_id, struct np_error *err)
{
	struct ctx_arg a = { .ctx = ctx };
	int r = call(be, NP_SIM_OP_CTX_CREATE, "rss-context", dev->ifname, ctx_create, &a, err);

	if (r >= 0 && ret_id)
		*ret_id = a.id;
	return r;
}

static int ctx_set(struct np_dev *d, const struct np_driver *drv, bool ignore, void *arg,
		   char *why, size_t len)
{
	struct ctx_arg *a = arg;
	struct np_rss_ctx *c;
	uint32_t *t, n;
	int e;

	(void)drv;
	if (d->steer.ctx_err)
		return FAIL(d->steer.ctx_err, "%s", strerror(-d->steer.ctx_err));
	c = (struct np_rss_ctx *)np_steer_ctx(&d->steer, a->ctx->id);
	if (!c)
		return FAIL(-ENOENT, "no RSS context %u", a->ctx->id);
	e = ctx_table(d, a->ctx, &t, &n, why, len);
	if (e < 0)
		return e;
	/* a rule using it must still find its queues */
	for (unsigned i = 0; i < d->steer.n_rules; i++) {
		const struct np_rule *r = &d->steer.rules[i];
		uint32_t top = 0;

		if (!(r->fs.flow_type & FLOW_RSS) || r->rss_context != c->id)
			continue;
		for (uint32_t j = 0; j < n; j++)
			top = t[j] > top ? t[j] : top;
		if ((uint64_t)top + r->fs.ring_cookie >= d->n_rxq) {
			free(t);
			return FAIL(-EINVAL, "rule %u would reach beyond the rx queues",
				    r->fs.location);
		}
	}
	if (ignore || (n == c->n_indir && !memcmp(t, c->indir, sizeof(*t) * n))) {
		free(t);
		return 0;
	}
	free(c->indir);
	c->indir = t;
	c->n_indir = n;
	return 1;
}

int np_sim_ctx_set(struct np_backend *be, const struct np_dev *dev, const struct np_rss_ctx *ctx,
		   struct np_error *err)
{
	struct ctx_arg a = { .ctx = ctx };

	return call(be, NP_SIM_OP_CTX_SET, "rss-context", dev->ifname, ctx_set, &a, err);
}

static int ctx_delete(struct np_dev *d, const struct np_driver *drv, bool ignore, void *arg,
		      char *why, size_t len)
{
	struct np_steer *s = &d->steer;
	uint32_t id = *(uint32_t *)arg;
	const struct np_rss_ctx *c;

	(void)drv;
	if (s->ctx_err)
		return FAIL(s->ctx_err, "%s", strerror(-s->ctx_err));
	c = np_steer_ctx(s, id);
	if (!c)
		return FAIL(-ENOENT, "no RSS context %u", id);
	for (unsigned i = 0; i < s->n_rules; i++)
		if ((s->rules[i].fs.flow_type & FLOW_RSS) && s->rules[i].rss_context == id)
			return FAIL(-EBUSY, "RSS context %u is in use by rule %u", id,
				    s->rules[i].fs.location);
	if (ignore)
		return 0;
	free(c->indir);
	memmove((struct np_rss_ctx *)c, c + 1, sizeof(*c) * (size_t)(s->ctx + s->n_ctx - c - 1));
	s->n_ctx--;
	return 1;
}

int np_sim_ctx_delete(struct np_backend *be, const struct np_dev *dev, uint32_t id,
		      struct np_error *err)
{
	return call(be, NP_SIM_OP_CTX_DELETE, "rss-context", dev->ifname, ctx_delete, &id, err);
}
