/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulated backend: a machine model (JSON, netpolicy-model(5)) that
 * behaves like real drivers do -- limits enforced with the kernel's error
 * codes and extack texts, queues appearing and vanishing with channel
 * counts, IRQ affinity and XPS reset when queues are reopened, values
 * rounded the way the kernel rounds them -- plus injected faults for the
 * apply engine's tests.  Every change is saved back to the model file
 * (atomically), so a sequence of CLI commands sees its own changes; the
 * file is re-read whenever someone else replaced it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "np_sim.h"

static int sim_discover(struct np_backend *be, const char *ifname, struct np_state *st,
			struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_sim_call c = { .op = NP_SIM_OP_DISCOVER, .phase = NP_PHASE_DISCOVER };
	struct np_state tmp;
	int r;

	r = np_sim_begin(s, &c, ifname, true, err);
	if (r < 0)
		return np_sim_finish(s, r, err);
	memset(&tmp, 0, sizeof(tmp));
	if (np_topology_copy(&tmp.topo, &s->m.topo) < 0 || np_dev_copy(&tmp.dev, c.dev) < 0 ||
	    np_pm_copy(&tmp.pm, &s->m.pm) < 0) {
		np_state_clear(&tmp);
		return np_sim_finish(s, np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory"), err);
	}
	tmp.sys = s->m.sys;
	/* the model lists what the names say; the kernel's NAPI map wins, as
	 * on the kernel backend (drivers/irq_tie.c) */
	np_irq_tie_napis(&tmp.dev);
	/* what the kernel backend's settability probe finds on such a driver */
	if (np_sim_no_channel_setter(s, &tmp.dev))
		tmp.dev.channels.fixed = true;
	np_state_clear(st);
	*st = tmp;
	return np_sim_finish(s, 0, err);
}

#define SWAP(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)

/* Only `parts` of the device from the model again: the engine sees what a
 * queue change or a rounding driver left, like on a real machine.  Not a
 * "discover" call for fault injection (no fault can hit it). */
static int sim_refresh(struct np_backend *be, struct np_state *st, unsigned parts,
		       struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	struct np_dev *d, tmp;
	int r;

	r = np_sim_sync(s, err);
	if (r < 0)
		return r;
	d = np_sim_find_dev(&s->m, st->dev.ifname);
	if (!d)
		return np_err(err, -ENODEV, NP_PHASE_DISCOVER, NULL, "no such device");
	memset(&tmp, 0, sizeof(tmp));
	if (np_dev_copy(&tmp, d) < 0) {
		np_dev_clear(&tmp);
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	}
	/* the copies' old values go with tmp */
	if (parts & NP_READ_QUEUES) {
		np_irq_tie_napis(&tmp);
		tmp.channels.fixed = st->dev.channels.fixed;
		SWAP(st->dev.channels, tmp.channels);
		SWAP(st->dev.rss, tmp.rss);
		SWAP(st->dev.napi, tmp.napi);
		SWAP(st->dev.napis, tmp.napis);
		SWAP(st->dev.n_napi_thread, tmp.n_napi_thread);
		SWAP(st->dev.napi_thread, tmp.napi_thread);
		SWAP(st->dev.n_rxq, tmp.n_rxq);
		SWAP(st->dev.rxq, tmp.rxq);
		SWAP(st->dev.n_txq, tmp.n_txq);
		SWAP(st->dev.txq, tmp.txq);
		SWAP(st->dev.n_irq, tmp.n_irq);
		SWAP(st->dev.irq, tmp.irq);
	}
	if (parts & NP_READ_RINGS)
		SWAP(st->dev.rings, tmp.rings);
	if (parts & NP_READ_COALESCE) {
		SWAP(st->dev.coalesce, tmp.coalesce);
		/* a device-wide write reaches every queue's own values */
		for (unsigned q = 0; !(parts & NP_READ_QUEUES) && q < st->dev.n_rxq &&
				     q < tmp.n_rxq; q++)
			memcpy(st->dev.rxq[q].coal, tmp.rxq[q].coal, sizeof(tmp.rxq[q].coal));
	}
	np_dev_clear(&tmp);
	return 0;
}

static int sim_list(struct np_backend *be, char ***ret, size_t *ret_n, struct np_error *err)
{
	struct np_sim *s = np_sim_of(be);
	char **names;
	int r;

	r = np_sim_sync(s, err);
	if (r < 0)
		return r;
	names = calloc(s->m.n_devs + 1, sizeof(*names));
	if (!names)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	for (size_t i = 0; i < s->m.n_devs; i++) {
		names[i] = strdup(s->m.devs[i].ifname);
		if (!names[i]) {
			np_list_free(names, i);
			return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
		}
	}
	*ret = names;
	*ret_n = s->m.n_devs;
	return 0;
}

/* --- the backend ------------------------------------------------------------------ */

static void sim_free(struct np_backend *be)
{
	struct np_sim *s = np_sim_of(be);

	if (!s)
		return;
	np_sim_model_clear(&s->m);
	free(s->path);
	free(s);
}

static const struct np_backend_ops sim_ops = {
	.name = "sim",
	.discover = sim_discover,
	.refresh = sim_refresh,
	.list_devices = sim_list,
	.set_channels = np_sim_set_channels,
	.set_rings = np_sim_set_rings,
	.set_coalesce = np_sim_set_coalesce,
	.set_feature = np_sim_set_feature,
	.set_rss_indir = np_sim_set_rss_indir,
	.set_napi = np_sim_set_napi,
	.set_queue_coalesce = np_sim_set_queue_coalesce,
	.write_attr = np_sim_write_attr,
	.rule_insert = np_sim_rule_insert,
	.rule_delete = np_sim_rule_delete,
	.ctx_create = np_sim_ctx_create,
	.ctx_set = np_sim_ctx_set,
	.ctx_delete = np_sim_ctx_delete,
	.free = sim_free,
};

static int sim_new(struct np_ctx *ctx, const char *model, const char *text, size_t len,
		   struct np_backend **ret, struct np_error *err)
{
	struct np_sim *s;
	int r;

	if (!model || !*model)
		return np_err(err, -EINVAL, NP_PHASE_INPUT, NULL, "no model file given");
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(model))) {
		free(s);
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	}
	s->be.ops = &sim_ops;
	s->be.ctx = ctx;
	s->text = text;
	s->text_len = len;
	/* read it now: a broken model is an error of the first command */
	r = np_sim_load(s, err);
	if (r < 0) {
		sim_free(&s->be);
		return r;
	}
	*ret = &s->be;
	return 0;
}

int np_backend_sim_new(struct np_ctx *ctx, const char *model, struct np_backend **ret,
		       struct np_error *err)
{
	return sim_new(ctx, model, NULL, 0, ret, err);
}

int np_backend_sim_new_text(struct np_ctx *ctx, const char *name, const char *text, size_t len,
			    struct np_backend **ret, struct np_error *err)
{
	/* a non-NULL text even when empty: "" is a model that fails to parse */
	return sim_new(ctx, name, text ? text : "", len, ret, err);
}
