/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-queue coalescing: ETHTOOL_PERQUEUE with sub_command ETHTOOL_GCOALESCE
 * or ETHTOOL_SCOALESCE, a queue bitmap, then one struct ethtool_coalesce per
 * queue in the bitmap (include/uapi/linux/ethtool.h, struct
 * ethtool_per_queue_op; net/ethtool/ioctl.c ethtool_get_per_queue_coalesce()
 * and ethtool_set_per_queue_coalesce()).  Only the ioctl has it: ethtool
 * netlink's COALESCE_GET/SET are device-wide and no other message takes a
 * queue (Documentation/networking/ethtool-netlink.rst).
 *
 * A set sends every field of the queue: the kernel passes the whole struct
 * to the driver, so the fields not changed go back as read (a GCOALESCE of
 * the same queue first), which is what ethtool(8)'s --per-queue ...
 * --coalesce does too, byte for byte (tests/kernel/queue_coal.bats).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ethnl.h"

#define OP_SIZE(n) (sizeof(struct ethtool_per_queue_op) + (size_t)(n) * sizeof(struct ethtool_coalesce))

static struct ethtool_coalesce *queue_data(struct ethtool_per_queue_op *op, unsigned i)
{
	return (struct ethtool_coalesce *)(op->data + (size_t)i * sizeof(struct ethtool_coalesce));
}

int np_queue_coal_parse(const void *buf, size_t len, unsigned n, uint32_t fields,
			struct np_rxq *rxq)
{
	const struct ethtool_per_queue_op *op = buf;
	unsigned i = 0;

	if (len < OP_SIZE(0) || n > MAX_NUM_QUEUE)
		return -EINVAL;
	for (unsigned q = 0; q < MAX_NUM_QUEUE; q++) {
		struct ethtool_coalesce c;

		if (!(op->queue_mask[q / 32] & (1u << (q % 32))))
			continue;
		if (q >= n || len < OP_SIZE(i + 1))
			return -EINVAL;
		memcpy(&c, (const char *)buf + OP_SIZE(i), sizeof(c));
		for (unsigned f = 0; f < NP_COAL_IOCTL_FIELDS; f++)
			if (fields & (1u << f))
				rxq[q].coal[f] = *np_coal_ioctl_field(&c, f);
		i++;
	}
	return 0;
}

/* GCOALESCE of queues first .. first + n - 1 into a new op (*ret, the
 * caller frees). */
static int get(const char *ifname, unsigned first, unsigned n, struct ethtool_per_queue_op **ret)
{
	struct ethtool_per_queue_op *op;
	int r;

	if (!n || first + n > MAX_NUM_QUEUE)
		return -EINVAL;
	op = calloc(1, OP_SIZE(n));
	if (!op)
		return -ENOMEM;
	op->cmd = ETHTOOL_PERQUEUE;
	op->sub_command = ETHTOOL_GCOALESCE;
	for (unsigned q = first; q < first + n; q++)
		op->queue_mask[q / 32] |= 1u << (q % 32);
	r = np_ethtool_ioctl(ifname, op);
	if (r < 0) {
		free(op);
		return r;
	}
	*ret = op;
	return 0;
}

int np_queue_coal_read(const char *ifname, struct np_dev *dev)
{
	struct ethtool_per_queue_op *op;
	int r;

	if (!dev->n_rxq)
		return 0;
	r = get(ifname, 0, dev->n_rxq, &op);
	if (r < 0)
		return r;
	r = np_queue_coal_parse(op, OP_SIZE(dev->n_rxq), dev->n_rxq, dev->coalesce.per_queue,
				dev->rxq);
	free(op);
	return r;
}

int np_queue_coal_set(const char *ifname, unsigned queue, const uint32_t *val, uint32_t fields)
{
	struct ethtool_per_queue_op *op;
	int r;

	if (fields & ~((1u << NP_COAL_IOCTL_FIELDS) - 1))
		return -EOPNOTSUPP;
	r = get(ifname, queue, 1, &op);
	if (r < 0)
		return r;
	for (unsigned f = 0; f < NP_COAL_IOCTL_FIELDS; f++)
		if (fields & (1u << f))
			*np_coal_ioctl_field(queue_data(op, 0), f) = val[f];
	op->sub_command = ETHTOOL_SCOALESCE;
	r = np_ethtool_ioctl(ifname, op);
	free(op);
	return r;
}
