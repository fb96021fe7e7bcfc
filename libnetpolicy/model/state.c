/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ownership of np_state: deep copy and release. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "np_private.h"

void np_topology_clear(struct np_topology *t)
{
	free(t->cpus);
	free(t->node_cpus);
	memset(t, 0, sizeof(*t));
}

void np_dev_clear(struct np_dev *d)
{
	free(d->features.v);
	free(d->rss.indir);
	free(d->rss.key);
	free(d->rxq);
	free(d->txq);
	free(d->irq);
	free(d->napis.v);
	free(d->napi_thread);
	np_steer_clear(&d->steer);
	memset(d, 0, sizeof(*d));
}

void np_state_clear(struct np_state *st)
{
	np_topology_clear(&st->topo);
	np_dev_clear(&st->dev);
	memset(&st->sys, 0, sizeof(st->sys));
	np_pm_clear(&st->pm);
}

void np_state_free(struct np_state *st)
{
	if (!st)
		return;
	np_state_clear(st);
	free(st);
}

const char *np_state_ifname(const struct np_state *st)
{
	return st->dev.ifname;
}

/* malloc+memcpy that treats n == 0 as "nothing", so copies of empty arrays
 * stay NULL and never fail. */
static int dup_array(void **dst, const void *src, size_t n, size_t size)
{
	*dst = NULL;
	if (!n || !src)
		return 0;
	*dst = malloc(n * size);
	if (!*dst)
		return -ENOMEM;
	memcpy(*dst, src, n * size);
	return 0;
}

int np_topology_copy(struct np_topology *dst, const struct np_topology *src)
{
	*dst = *src;
	dst->cpus = NULL;
	dst->node_cpus = NULL;
	if (dup_array((void **)&dst->cpus, src->cpus, src->nr_cpus, sizeof(*src->cpus)) < 0 ||
	    dup_array((void **)&dst->node_cpus, src->node_cpus, src->nr_nodes,
		      sizeof(*src->node_cpus)) < 0) {
		np_topology_clear(dst);
		return -ENOMEM;
	}
	return 0;
}

int np_dev_copy(struct np_dev *dst, const struct np_dev *src)
{
	*dst = *src;
	dst->features.v = NULL;
	dst->rss.indir = NULL;
	dst->rss.key = NULL;
	dst->rxq = NULL;
	dst->txq = NULL;
	dst->irq = NULL;
	dst->napis.v = NULL;
	dst->napi_thread = NULL;
	memset(&dst->steer, 0, sizeof(dst->steer));
	if (np_steer_copy(&dst->steer, &src->steer) < 0 ||
	    dup_array((void **)&dst->features.v, src->features.v, src->features.n,
		      sizeof(*src->features.v)) < 0 ||
	    dup_array((void **)&dst->rss.indir, src->rss.indir, src->rss.indir_size,
		      sizeof(*src->rss.indir)) < 0 ||
	    dup_array((void **)&dst->rss.key, src->rss.key, src->rss.key_size, 1) < 0 ||
	    dup_array((void **)&dst->rxq, src->rxq, src->n_rxq, sizeof(*src->rxq)) < 0 ||
	    dup_array((void **)&dst->txq, src->txq, src->n_txq, sizeof(*src->txq)) < 0 ||
	    dup_array((void **)&dst->irq, src->irq, src->n_irq, sizeof(*src->irq)) < 0 ||
	    dup_array((void **)&dst->napis.v, src->napis.v, src->napis.n,
		      sizeof(*src->napis.v)) < 0 ||
	    dup_array((void **)&dst->napi_thread, src->napi_thread, src->n_napi_thread,
		      sizeof(*src->napi_thread)) < 0) {
		np_dev_clear(dst);
		return -ENOMEM;
	}
	return 0;
}

int np_state_dup(const struct np_state *src, struct np_state **ret)
{
	struct np_state *st;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	if (np_topology_copy(&st->topo, &src->topo) < 0 || np_dev_copy(&st->dev, &src->dev) < 0 ||
	    np_pm_copy(&st->pm, &src->pm) < 0) {
		np_state_free(st);
		return -ENOMEM;
	}
	st->sys = src->sys;
	*ret = st;
	return 0;
}

const struct np_feature *np_features_find(const struct np_features *f, const char *name)
{
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

const struct np_napi_inst *np_napi_find(const struct np_dev *d, uint32_t id)
{
	for (unsigned i = 0; !d->napis.err && i < d->napis.n; i++)
		if (d->napis.v[i].id == id)
			return &d->napis.v[i];
	return NULL;
}
