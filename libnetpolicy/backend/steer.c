/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ntuple rules and extra RSS contexts on a real device, for discovery and
 * the apply engine (the requests themselves: ethnl/ntuple.c,
 * ethnl/rss_ctx.c, ethnl/rss_ctx_ioctl.c).
 *
 * The kernel lists rules (ETHTOOL_GRXCLSRLALL) but, before RSS_GET's dump
 * of every context (6.12), has no list of contexts: discovery reads the
 * contexts the rules use.  Whether a driver has contexts at all and how
 * many comes from the driver table (np_drivers.h); an unknown driver is
 * taken to have none, so that a plan never relies on what it cannot see.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl/ethnl.h"
#include "drivers/np_drivers.h"
#include "np_kernel.h"
#include "np_steer.h"

static int add_ctx(struct np_ethnl *nl, struct np_dev *dev, uint32_t id)
{
	struct np_steer *s = &dev->steer;
	struct np_rss_ctx_info *info;
	struct np_rss_ctx *v;
	struct np_error ignored;
	int r;

	if (!id || np_steer_ctx(s, id))
		return 0;
	info = calloc(1, sizeof(*info));
	if (!info)
		return -ENOMEM;
	memset(&ignored, 0, sizeof(ignored));
	r = np_rss_ctx_get(nl, dev->ifname, id, info, &ignored);
	if (r >= 0) {
		v = realloc(s->ctx, sizeof(*s->ctx) * (s->n_ctx + 1));
		r = v ? 0 : -ENOMEM;
		if (v) {
			s->ctx = v;
			v = &s->ctx[s->n_ctx];
			memset(v, 0, sizeof(*v));
			v->id = id;
			if (info->n_indir && !(v->indir = malloc(sizeof(uint32_t) * info->n_indir))) {
				r = -ENOMEM;
			} else {
				memcpy(v->indir, info->indir, sizeof(uint32_t) * info->n_indir);
				v->n_indir = info->n_indir;
				s->n_ctx++;
			}
		}
	}
	free(info);
	return r == -ENOMEM ? r : 0;
}

int np_kernel_steer_read(struct np_ethnl *nl, struct np_dev *dev)
{
	const struct np_driver *drv = np_driver_lookup(dev->driver);
	struct np_steer *s = &dev->steer;
	struct np_ntuple_rule *rules = NULL;
	struct np_ntuple_table t;
	struct np_error ignored;
	size_t n = 0;
	int r;

	np_steer_clear(s);
	memset(s, 0, sizeof(*s));
	memset(&ignored, 0, sizeof(ignored));
	s->ctx_err = -EOPNOTSUPP;
	if (drv && drv->rss_ctx_max && !drv->no_rss_ctx) {
		s->ctx_err = 0;
		s->ctx_max = drv->rss_ctx_max;
	}
	r = np_ntuple_count(dev->ifname, &t, &ignored);
	if (r < 0) {
		s->err = r == -ENOMEM ? -EOPNOTSUPP : r;
		return 0;
	}
	s->size = t.size;
	s->special = t.special;
	r = np_ntuple_list(dev->ifname, &rules, &n, &ignored);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	if (n && !(s->rules = calloc(n, sizeof(*s->rules)))) {
		free(rules);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		s->rules[i].fs = rules[i].fs;
		s->rules[i].rss_context = rules[i].rss_context;
	}
	s->n_rules = (unsigned)n;
	free(rules);
	for (unsigned i = 0; i < s->n_rules && !s->ctx_err; i++)
		if ((s->rules[i].fs.flow_type & FLOW_RSS) &&
		    (r = add_ctx(nl, dev, s->rules[i].rss_context)) < 0)
			return r;
	return 0;
}

int np_kernel_rule_insert(struct np_ethnl *nl, const struct np_dev *dev, const struct np_rule *rule,
			  uint32_t *ret_loc, struct np_error *err)
{
	struct np_ntuple_rule r = { .fs = rule->fs, .rss_context = rule->rss_context };

	(void)nl;
	return np_ntuple_insert(dev->ifname, &r, ret_loc, err);
}

int np_kernel_rule_delete(struct np_ethnl *nl, const struct np_dev *dev, uint32_t loc,
			  struct np_error *err)
{
	(void)nl;
	return np_ntuple_delete(dev->ifname, loc, err);
}

/* With netlink (6.17) the context is made at the id asked for; the ioctl
 * lets the kernel choose, so a different id than planned is undone and
 * refused (the plan's rules name the planned one). */
int np_kernel_ctx_create(struct np_ethnl *nl, const struct np_dev *dev,
			 const struct np_rss_ctx *ctx, uint32_t *ret_id, struct np_error *err)
{
	struct np_rss_ctx_req req = { .context = ctx->id, .indir = ctx->indir,
				      .n_indir = ctx->n_indir };
	uint32_t id = 0;
	int r;

	if (!nl || !np_ethnl_has_op(nl, NP_ETHTOOL_MSG_RSS_CREATE_ACT))
		req.context = 0;	/* the ioctl cannot name the id: it allocates */
	r = np_rss_ctx_create(nl, dev->ifname, &req, &id, err);
	if (r < 0)
		return r;
	if (ctx->id && id != ctx->id) {
		struct np_error ignored;

		memset(&ignored, 0, sizeof(ignored));
		np_rss_ctx_delete(nl, dev->ifname, id, &ignored);
		return np_err(err, -EBUSY, NP_PHASE_APPLY, "rss-context",
			      "%s: the kernel made RSS context %u, not the planned %u", dev->ifname,
			      id, ctx->id);
	}
	if (ret_id)
		*ret_id = id;
	return 0;
}

int np_kernel_ctx_set(struct np_ethnl *nl, const struct np_dev *dev, const struct np_rss_ctx *ctx,
		      struct np_error *err)
{
	struct np_rss_ctx_req req = { .context = ctx->id, .indir = ctx->indir,
				      .n_indir = ctx->n_indir };

	uint32_t id;

	(void)nl;
	/* SRSSH on an existing context changes its table */
	return np_rss_ctx_ioctl_create(dev->ifname, &req, &id, err);
}

int np_kernel_ctx_delete(struct np_ethnl *nl, const struct np_dev *dev, uint32_t id,
			 struct np_error *err)
{
	return np_rss_ctx_delete(nl, dev->ifname, id, err);
}
