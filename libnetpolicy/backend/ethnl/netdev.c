/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The netdev generic netlink family (Documentation/netlink/specs/netdev.yaml)
 * on the ethtool socket: which NAPI instance serves each queue (queue-get),
 * each NAPI's IRQ, kthread and, where the kernel has them, its own
 * defer-hard-irqs / gro-flush-timeout (6.13), irq-suspend-timeout (6.14) and
 * threaded (6.17) (napi-get), and napi-set for those.  What the kernel has
 * is read from the family's op list and from which attributes its replies
 * carry, never from its version: a kernel without napi-get (6.1, the lab's)
 * leaves napis.err -EOPNOTSUPP, "not supported by kernel".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"

bool np_netdev_has_op(const struct np_ethnl *nl, unsigned cmd)
{
	return nl->nd_family && cmd < 64 && (nl->nd_ops >> cmd) & 1;
}

int np_netdev_parse_napi(const void *msg, size_t len, uint32_t *ifindex,
			 struct np_napi_inst *ret)
{
	const struct nlattr *tb[NP_NETDEV_A_NAPI_MAX + 1];
	struct np_napi_inst n = { .rxq = -1, .txq = -1 };

	if (np_ethnl_attrs(msg, len, tb, NP_NETDEV_A_NAPI_MAX) < 0)
		return -EPROTO;
	if (!np_ethnl_u32(tb[NP_NETDEV_A_NAPI_ID], &n.id) ||
	    !np_ethnl_u32(tb[NP_NETDEV_A_NAPI_IFINDEX], ifindex))
		return -EPROTO;
	/* each optional attribute: absent is "the kernel does not say",
	 * present but malformed is a broken reply */
	if (tb[NP_NETDEV_A_NAPI_IRQ]) {
		if (!np_ethnl_u32(tb[NP_NETDEV_A_NAPI_IRQ], &n.irq))
			return -EPROTO;
		n.has |= NP_NAPI_HAS_IRQ;
	}
	if (tb[NP_NETDEV_A_NAPI_PID]) {
		if (!np_ethnl_u32(tb[NP_NETDEV_A_NAPI_PID], &n.pid))
			return -EPROTO;
		n.has |= NP_NAPI_HAS_PID;
	}
	if (tb[NP_NETDEV_A_NAPI_DEFER_HARD_IRQS]) {
		if (!np_ethnl_u32(tb[NP_NETDEV_A_NAPI_DEFER_HARD_IRQS], &n.defer_hard_irqs))
			return -EPROTO;
		n.has |= NP_NAPI_HAS_DEFER;
	}
	if (tb[NP_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT]) {
		if (!np_ethnl_uint(tb[NP_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT], &n.gro_flush_timeout))
			return -EPROTO;
		n.has |= NP_NAPI_HAS_GRO_FLUSH;
	}
	if (tb[NP_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT]) {
		if (!np_ethnl_uint(tb[NP_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT], &n.irq_suspend_timeout))
			return -EPROTO;
		n.has |= NP_NAPI_HAS_SUSPEND;
	}
	if (tb[NP_NETDEV_A_NAPI_THREADED]) {
		if (!np_ethnl_u32(tb[NP_NETDEV_A_NAPI_THREADED], &n.threaded))
			return -EPROTO;
		n.has |= NP_NAPI_HAS_THREADED;
	}
	*ret = n;
	return 0;
}

int np_netdev_parse_queue(const void *msg, size_t len, uint32_t *ifindex, uint32_t *type,
			  uint32_t *id, uint32_t *napi_id)
{
	const struct nlattr *tb[NP_NETDEV_A_QUEUE_MAX + 1];

	if (np_ethnl_attrs(msg, len, tb, NP_NETDEV_A_QUEUE_MAX) < 0)
		return -EPROTO;
	if (!np_ethnl_u32(tb[NP_NETDEV_A_QUEUE_ID], id) ||
	    !np_ethnl_u32(tb[NP_NETDEV_A_QUEUE_IFINDEX], ifindex) ||
	    !np_ethnl_u32(tb[NP_NETDEV_A_QUEUE_TYPE], type))
		return -EPROTO;
	*napi_id = 0;
	if (tb[NP_NETDEV_A_QUEUE_NAPI_ID] && !np_ethnl_u32(tb[NP_NETDEV_A_QUEUE_NAPI_ID], napi_id))
		return -EPROTO;
	return 0;
}

/* --- reading a device's NAPIs ---------------------------------------------- */

struct collect {
	uint32_t ifindex;
	struct np_napis *napis;
	unsigned cap;
};

static int napi_cb(const void *msg, size_t len, void *arg)
{
	struct collect *c = arg;
	struct np_napi_inst n, *v;
	uint32_t ifindex;
	int r;

	r = np_netdev_parse_napi(msg, len, &ifindex, &n);
	if (r < 0)
		return r;
	if (ifindex != c->ifindex)
		return 0;	/* a kernel that ignored the filter */
	if (c->napis->n == c->cap) {
		unsigned cap = c->cap ? c->cap * 2 : 8;

		if (cap > 65536)
			return -E2BIG;
		v = realloc(c->napis->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->napis->v = v;
		c->cap = cap;
	}
	c->napis->v[c->napis->n++] = n;
	return 0;
}

void np_napis_add_queue(struct np_napis *napis, uint32_t type, uint32_t id, uint32_t napi_id)
{
	if (!napi_id || id > INT32_MAX)
		return;
	for (unsigned i = 0; i < napis->n; i++) {
		struct np_napi_inst *n = &napis->v[i];

		if (n->id != napi_id)
			continue;
		if (type == NP_NETDEV_QUEUE_TYPE_RX && (n->rxq < 0 || (int)id < n->rxq))
			n->rxq = (int)id;
		else if (type == NP_NETDEV_QUEUE_TYPE_TX && (n->txq < 0 || (int)id < n->txq))
			n->txq = (int)id;
	}
}

static int queue_cb(const void *msg, size_t len, void *arg)
{
	struct collect *c = arg;
	uint32_t ifindex, type, id, napi_id;
	int r;

	r = np_netdev_parse_queue(msg, len, &ifindex, &type, &id, &napi_id);
	if (r < 0)
		return r;
	if (ifindex == c->ifindex)
		np_napis_add_queue(c->napis, type, id, napi_id);
	return 0;
}

int np_netdev_read(struct np_ethnl *nl, struct np_dev *dev)
{
	struct collect c = { .ifindex = (uint32_t)dev->ifindex, .napis = &dev->napis };
	struct nlmsghdr *req;
	int r;

	free(dev->napis.v);
	memset(&dev->napis, 0, sizeof(dev->napis));
	if (!np_netdev_has_op(nl, NP_NETDEV_CMD_NAPI_GET)) {
		dev->napis.err = -EOPNOTSUPP;
		return 0;
	}
	req = np_genl_req(nl, nl->nd_family, NP_NETDEV_CMD_NAPI_GET, NP_NETDEV_FAMILY_VERSION);
	mnl_attr_put_u32(req, NP_NETDEV_A_NAPI_IFINDEX, c.ifindex);
	r = np_ethnl_dump(nl, req, napi_cb, &c);
	if (r >= 0 && dev->napis.n && np_netdev_has_op(nl, NP_NETDEV_CMD_QUEUE_GET)) {
		req = np_genl_req(nl, nl->nd_family, NP_NETDEV_CMD_QUEUE_GET,
				  NP_NETDEV_FAMILY_VERSION);
		mnl_attr_put_u32(req, NP_NETDEV_A_QUEUE_IFINDEX, c.ifindex);
		r = np_ethnl_dump(nl, req, queue_cb, &c);
	}
	if (r < 0) {
		free(dev->napis.v);
		memset(&dev->napis, 0, sizeof(dev->napis));
		dev->napis.err = r;
		/* only a broken socket fails the read; the rest is this knob's */
		return nl->sock_err ? r : 0;
	}
	return 0;
}

/* --- napi-set ---------------------------------------------------------------- */

int np_netdev_napi_set(struct np_ethnl *nl, const struct np_dev *dev,
		       const struct np_napi_inst *want, uint32_t fields, struct np_error *err)
{
	char extack[sizeof(((struct np_error *)0)->extack)] = "";
	char subject[32];
	struct nlmsghdr *req;
	int r;

	(void)dev;
	if (!np_netdev_has_op(nl, NP_NETDEV_CMD_NAPI_SET))
		return np_err(err, -EOPNOTSUPP, NP_PHASE_APPLY, "napi",
			      "napi-set: not supported by kernel");
	req = np_genl_req(nl, nl->nd_family, NP_NETDEV_CMD_NAPI_SET, NP_NETDEV_FAMILY_VERSION);
	mnl_attr_put_u32(req, NP_NETDEV_A_NAPI_ID, want->id);
	if (fields & NP_NAPI_HAS_DEFER)
		mnl_attr_put_u32(req, NP_NETDEV_A_NAPI_DEFER_HARD_IRQS, want->defer_hard_irqs);
	/* "uint" attributes: the kernel takes 4 or 8 bytes */
	if (fields & NP_NAPI_HAS_GRO_FLUSH)
		mnl_attr_put_u64(req, NP_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, want->gro_flush_timeout);
	if (fields & NP_NAPI_HAS_SUSPEND)
		mnl_attr_put_u64(req, NP_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT,
				 want->irq_suspend_timeout);
	if (fields & NP_NAPI_HAS_THREADED)
		mnl_attr_put_u32(req, NP_NETDEV_A_NAPI_THREADED, want->threaded);
	r = np_ethnl_request(nl, req, NULL, NULL, extack, sizeof(extack));
	if (r < 0) {
		snprintf(subject, sizeof(subject), "napi %u", want->id);
		return np_ethnl_set_failed(err, r, "napi", subject, extack);
	}
	return 0;
}
