/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel backend: rtnetlink, ethtool netlink (ioctl fallback), sysfs
 * and procfs, put together.  Each source lives in its own file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/np_drivers.h"
#include "ethnl/ethnl.h"
#include "np_kernel.h"

/* One socket of each kind for the context's life, and the machine's
 * topology read once: re-read only when CPUs went on- or offline or a
 * cpuset partition changed the isolated CPUs (np_topology_key), or when the
 * root moved (tests). */
struct kernel_backend {
	struct np_backend be;
	struct np_ethnl *nl;
	struct nl_sock *rtnl;		/* opened on first use */
	struct np_topology topo;
	char *topo_key;			/* NULL: no topology read yet */
	unsigned topo_root_gen;
	struct np_pm pm;		/* the CPUs' idle states, read with topo */
	bool pm_read;			/* pm is topo's (else read it again) */
	int sysfs_ours;			/* np_sysfs_netns_at() ... */
	unsigned sysfs_root_gen;	/* ... for this root_gen + 1 (0: not asked) */
};

static struct kernel_backend *kb(struct np_backend *be)
{
	return (struct kernel_backend *)be;
}

int np_kernel_read_files(int rootfd, struct np_state *st, struct np_error *err)
{
	struct np_dev *dev = &st->dev;
	int r;

	r = np_sysfs_read_dev(rootfd, dev, &st->topo, err);
	if (r < 0)
		return r;
	np_quirks_apply(rootfd, dev);
	r = np_irq_read(rootfd, dev, err);
	if (r < 0)
		return r;
	r = np_napi_threads_read(rootfd, dev, err);
	if (r < 0)
		return r;
	return np_sysfs_read_sysctl(rootfd, &st->sys);
}

static int rtnl_sock(struct kernel_backend *k, struct np_error *err)
{
	return k->rtnl ? 0 : np_rtnl_open(&k->rtnl, err);
}

/*
 * After a failed rtnetlink request its reply may still be queued, and
 * libnl's sequence numbers are off by one after a failed send: the next
 * request would read the old answer (a sequence mismatch, or an ack taken
 * for an empty reply) and so would every one after it.  A fresh socket is
 * opened for the next request instead.
 */
static int rtnl_done(struct kernel_backend *k, int r)
{
	if (r < 0) {
		np_rtnl_close(k->rtnl);
		k->rtnl = NULL;
	}
	return r;
}

/* The ethtool netlink socket for one backend operation: a socket error
 * met by an earlier one does not fail this one. */
static struct np_ethnl *nl_op(struct np_backend *be)
{
	np_ethnl_op_start(kb(be)->nl);
	return kb(be)->nl;
}

static int topology(struct kernel_backend *k, struct np_topology *ret, struct np_error *err)
{
	int rootfd = k->be.ctx->rootfd;
	char *key = NULL;
	int r;

	/* Without a key (unreadable files) the topology is read every time,
	 * and the read says what is wrong. */
	(void)np_topology_key(rootfd, &key);
	if (!key || !k->topo_key || strcmp(key, k->topo_key) ||
	    k->topo_root_gen != k->be.ctx->root_gen) {
		np_topology_clear(&k->topo);
		free(k->topo_key);
		k->topo_key = NULL;
		k->pm_read = false;
		r = np_topology_read_key(rootfd, key, &k->topo, err);
		if (r < 0) {
			free(key);
			return r;
		}
		k->topo_key = key;
		k->topo_root_gen = k->be.ctx->root_gen;
		key = NULL;
	}
	free(key);
	r = np_topology_copy(ret, &k->topo);
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, NULL, "out of memory");
	return 0;
}

/* The machine's, like the topology: each CPU's idle states are read with the
 * topology (again when it changes), a file per CPU and state; at each
 * discovery (a command's every device, each read of an apply) only the
 * resume-latency files, which netpolicy and others write. */
static int cpu_pm(struct kernel_backend *k, const struct np_topology *topo, struct np_pm *ret)
{
	int rootfd = k->be.ctx->rootfd;
	int r;

	if (!k->pm_read) {
		r = np_pm_read(rootfd, topo, &k->pm);
		if (r < 0)
			return r;
		k->pm_read = true;
	} else {
		np_pm_reread_limits(rootfd, topo, &k->pm);
	}
	np_pm_clear(ret);
	return np_pm_copy(ret, &k->pm);
}

/*
 * Per-queue coalescing, read only where the driver table says the driver
 * has it (np_drivers.h perqueue_coalesce: ice_get_per_q_coalesce(),
 * i40e_get_per_queue_coalesce()): the kernel answers EOPNOTSUPP for the
 * others, and the read costs a driver call per queue.  The fields are the
 * device-wide ones the driver reports: the kernel checks a per-queue set
 * against the same supported_coalesce_params (ethtool_set_per_queue_coalesce()
 * -> ethtool_set_coalesce_supported(), net/ethtool/ioctl.c).  A failed
 * read leaves the device without per-queue values: nothing is planned.
 */
static void queue_coal_read(struct np_dev *dev)
{
	const struct np_driver *drv = np_driver_lookup(dev->driver);

	dev->coalesce.per_queue = 0;
	if (!drv || !drv->perqueue_coalesce || dev->coalesce.err || !dev->n_rxq)
		return;
	dev->coalesce.per_queue = dev->coalesce.supported & ~dev->coalesce.fixed &
				  ((1u << NP_COAL_IOCTL_FIELDS) - 1);
	if (dev->coalesce.per_queue && np_queue_coal_read(dev->ifname, dev) < 0)
		dev->coalesce.per_queue = 0;
}

/* Reads and writes below /sys only when it shows this namespace's devices:
 * a /sys kept from another namespace (`unshare -n`, `nsenter --net`)
 * would have netpolicy read and change another namespace's device of the
 * same name (sysfs_ns.c). */
static int sysfs_ours(struct kernel_backend *k, const struct np_dev *dev, struct np_error *err)
{
	struct np_ctx *ctx = k->be.ctx;

	if (k->sysfs_root_gen != ctx->root_gen + 1) {
		k->sysfs_ours = np_sysfs_netns_at(ctx->rootfd);
		k->sysfs_root_gen = ctx->root_gen + 1;
	}
	if (k->sysfs_ours == 1)
		return 0;
	if (k->sysfs_ours == 0)
		return np_err(err, -ESTALE, NP_PHASE_DISCOVER, NULL, "/sys shows another network "
			      "namespace's devices (a namespace made by `unshare -n` or entered "
			      "with `nsenter --net` keeps the old /sys): " NP_SYSFS_STALE_HINT);
	return np_sysfs_dev_ours(ctx->rootfd, dev, err);
}

static int kernel_discover(struct np_backend *be, const char *ifname, struct np_state *st,
			   struct np_error *err)
{
	int rootfd = be->ctx->rootfd;
	struct np_dev *dev = &st->dev;
	int r;

	snprintf(dev->ifname, sizeof(dev->ifname), "%s", ifname);
	r = rtnl_sock(kb(be), err);
	if (r < 0)
		return r;
	/* rtnetlink first: it is what says whether the device exists at all. */
	r = rtnl_done(kb(be), np_rtnl_read(kb(be)->rtnl, ifname, dev, err));
	if (r < 0)
		return r;
	r = sysfs_ours(kb(be), dev, err);
	if (r < 0)
		return r;
	r = topology(kb(be), &st->topo, err);
	if (r < 0)
		return r;
	r = cpu_pm(kb(be), &st->topo, &st->pm);
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, NULL, "out of memory");
	r = np_ethnl_read(nl_op(be), dev, err);
	if (r < 0)
		return r;
	r = np_netdev_read(kb(be)->nl, dev);
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, "napi", "netdev netlink: %s",
			      strerror(-r));
	if (np_kernel_steer_read(kb(be)->nl, dev) < 0)
		return np_err(err, -ENOMEM, NP_PHASE_DISCOVER, NULL, "out of memory");
	r = np_kernel_read_files(rootfd, st, err);
	if (r < 0)
		return r;
	queue_coal_read(dev);
	return 0;
}

/* A vanished device answers ENODEV to ethtool; a device that is gone
 * from sysfs (renamed, moved) is found by the verify read's identity
 * check, which every run ends with. */
static int kernel_refresh(struct np_backend *be, struct np_state *st, unsigned parts,
			  struct np_error *err)
{
	int rootfd = be->ctx->rootfd;
	int r;

	r = np_ethnl_reread(nl_op(be), &st->dev, parts, err);
	if (r < 0)
		return r;
	if (!(parts & NP_READ_QUEUES)) {
		if (parts & NP_READ_COALESCE)
			queue_coal_read(&st->dev);
		return 0;
	}
	/* new queues, new NAPI instances (ids, IRQs, kthreads) */
	r = np_netdev_read(kb(be)->nl, &st->dev);
	if (r < 0)
		return np_err(err, r, NP_PHASE_DISCOVER, "napi", "netdev netlink: %s",
			      strerror(-r));
	r = np_sysfs_read_queues(rootfd, &st->dev, err);
	if (r < 0)
		return r;
	r = np_irq_read(rootfd, &st->dev, err);
	if (r < 0)
		return r;
	r = np_napi_threads_read(rootfd, &st->dev, err);
	if (r >= 0)
		queue_coal_read(&st->dev);
	return r;
}

static int kernel_list(struct np_backend *be, char ***ret, size_t *ret_n, struct np_error *err)
{
	int r = rtnl_sock(kb(be), err);

	return r < 0 ? r : rtnl_done(kb(be), np_rtnl_list(kb(be)->rtnl, ret, ret_n, err));
}

static int kernel_set_channels(struct np_backend *be, const struct np_dev *dev,
			       const struct np_channels *want, struct np_error *err)
{
	return np_ethnl_set_channels(nl_op(be), dev, want, err);
}

static int kernel_set_rings(struct np_backend *be, const struct np_dev *dev,
			    const struct np_rings *want, struct np_error *err)
{
	return np_ethnl_set_rings(nl_op(be), dev, want, err);
}

static int kernel_set_coalesce(struct np_backend *be, const struct np_dev *dev,
			       const struct np_coalesce *want, uint32_t fields,
			       struct np_error *err)
{
	return np_ethnl_set_coalesce(nl_op(be), dev, want, fields, err);
}

static int kernel_set_feature(struct np_backend *be, const struct np_dev *dev, const char *name,
			      bool on, struct np_error *err)
{
	return np_ethnl_set_feature(nl_op(be), dev, name, on, err);
}

static int kernel_set_napi(struct np_backend *be, const struct np_dev *dev,
			   const struct np_napi_inst *want, uint32_t fields, struct np_error *err)
{
	return np_netdev_napi_set(nl_op(be), dev, want, fields, err);
}

static int kernel_set_rss_indir(struct np_backend *be, const struct np_dev *dev,
				const uint32_t *indir, uint32_t n, struct np_error *err)
{
	return np_ethnl_set_rss_indir(nl_op(be), dev, indir, n, err);
}

static int kernel_write_attr(struct np_backend *be, const struct np_dev *dev, enum np_attr attr,
			     unsigned index, const char *value, struct np_error *err)
{
	if (attr == NP_ATTR_NAPI_THREAD_AFFINITY)
		return np_napi_thread_set_affinity(be->ctx->rootfd, dev, index, value, err);
	return np_sysfs_write_attr(be->ctx->rootfd, dev, attr, index, value, err);
}

static int kernel_rule_insert(struct np_backend *be, const struct np_dev *dev,
			      const struct np_rule *rule, uint32_t *ret_loc, struct np_error *err)
{
	return np_kernel_rule_insert(nl_op(be), dev, rule, ret_loc, err);
}

static int kernel_rule_delete(struct np_backend *be, const struct np_dev *dev, uint32_t loc,
			      struct np_error *err)
{
	return np_kernel_rule_delete(nl_op(be), dev, loc, err);
}

static int kernel_ctx_create(struct np_backend *be, const struct np_dev *dev,
			     const struct np_rss_ctx *ctx, uint32_t *ret_id, struct np_error *err)
{
	return np_kernel_ctx_create(nl_op(be), dev, ctx, ret_id, err);
}

static int kernel_ctx_set(struct np_backend *be, const struct np_dev *dev,
			  const struct np_rss_ctx *ctx, struct np_error *err)
{
	return np_kernel_ctx_set(nl_op(be), dev, ctx, err);
}

static int kernel_ctx_delete(struct np_backend *be, const struct np_dev *dev, uint32_t id,
			     struct np_error *err)
{
	return np_kernel_ctx_delete(nl_op(be), dev, id, err);
}

static void kernel_free(struct np_backend *be)
{
	if (!be)
		return;
	np_ethnl_close(kb(be)->nl);
	np_rtnl_close(kb(be)->rtnl);
	np_topology_clear(&kb(be)->topo);
	free(kb(be)->topo_key);
	np_pm_clear(&kb(be)->pm);
	free(be);
}

static int kernel_set_queue_coalesce(struct np_backend *be, const struct np_dev *dev,
				     unsigned queue, const uint32_t *val, uint32_t fields,
				     struct np_error *err)
{
	int r = np_queue_coal_set(dev->ifname, queue, val, fields);

	(void)be;
	if (r < 0)
		return np_err(err, r, NP_PHASE_APPLY, "queue-coalesce", "rx-%u: %s", queue,
			      strerror(-r));
	return 0;
}

static int kernel_link_stats(struct np_backend *be, const char *ifname,
			     struct np_link_stats *ret, struct np_error *err)
{
	int r = rtnl_sock(kb(be), err);

	return r < 0 ? r : rtnl_done(kb(be), np_rtnl_stats(kb(be)->rtnl, ifname, ret, err));
}

static const struct np_backend_ops kernel_ops = {
	.name = "kernel",
	.process_caps = true,
	.discover = kernel_discover,
	.refresh = kernel_refresh,
	.list_devices = kernel_list,
	.set_channels = kernel_set_channels,
	.set_rings = kernel_set_rings,
	.set_coalesce = kernel_set_coalesce,
	.set_queue_coalesce = kernel_set_queue_coalesce,
	.set_feature = kernel_set_feature,
	.set_rss_indir = kernel_set_rss_indir,
	.set_napi = kernel_set_napi,
	.write_attr = kernel_write_attr,
	.rule_insert = kernel_rule_insert,
	.rule_delete = kernel_rule_delete,
	.ctx_create = kernel_ctx_create,
	.ctx_set = kernel_ctx_set,
	.ctx_delete = kernel_ctx_delete,
	.link_stats = kernel_link_stats,
	.free = kernel_free,
};

int np_backend_kernel_new(struct np_ctx *ctx, struct np_backend **ret, struct np_error *err)
{
	struct kernel_backend *k;
	int r;

	k = calloc(1, sizeof(*k));
	if (!k)
		return np_err(err, -ENOMEM, NP_PHASE_NONE, NULL, "out of memory");
	k->be.ops = &kernel_ops;
	k->be.ctx = ctx;
	r = np_ethnl_open(&k->nl, err);
	if (r < 0) {
		free(k);
		return r;
	}
	*ret = &k->be;
	return 0;
}
