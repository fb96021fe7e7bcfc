/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Interrupt coalescing (ethtool -c/-C): COALESCE_GET/SET, or
 * ETHTOOL_[GS]COALESCE.  np_coal_field follows the ETHTOOL_A_COALESCE_*
 * order, so one loop covers every field. */
#include <errno.h>
#include <stddef.h>

#include "ethnl.h"

_Static_assert(ETHTOOL_A_COALESCE_RX_USECS + NP_COAL_CQE_MODE_RX ==
		       ETHTOOL_A_COALESCE_USE_CQE_MODE_RX,
	       "np_coal_field must follow the ETHTOOL_A_COALESCE_* order");
_Static_assert(NP_COAL__COUNT <= 32, "np_coalesce.supported is 32 bits");
_Static_assert(ETHTOOL_A_COALESCE_USE_CQE_MODE_RX <= ETHTOOL_A_COALESCE_MAX,
	       "the attribute table holds every field we parse");

static bool is_u8(unsigned f)
{
	return f == NP_COAL_ADAPTIVE_RX || f == NP_COAL_ADAPTIVE_TX ||
	       f == NP_COAL_CQE_MODE_TX || f == NP_COAL_CQE_MODE_RX;
}

int np_ethnl_parse_coalesce(const void *msg, size_t len, struct np_coalesce *c)
{
	const struct nlattr *tb[ETHTOOL_A_COALESCE_MAX + 1];

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_COALESCE_MAX) < 0)
		return -EPROTO;
	/* The kernel includes exactly the fields the driver supports. */
	for (unsigned f = 0; f < NP_COAL__COUNT; f++) {
		const struct nlattr *a = tb[ETHTOOL_A_COALESCE_RX_USECS + f];
		uint8_t v8;
		bool ok;

		if (is_u8(f)) {
			ok = np_ethnl_u8(a, &v8);
			if (ok)
				c->val[f] = v8;
		} else {
			ok = np_ethnl_u32(a, &c->val[f]);
		}
		if (ok)
			c->supported |= 1u << f;
	}
	return 0;
}

static int coalesce_cb(const void *msg, size_t len, void *arg)
{
	return np_ethnl_parse_coalesce(msg, len, arg);
}

/* struct ethtool_coalesce holds the 22 classic fields in np_coal_field order;
 * the CQE modes exist only in netlink. */
static const size_t coal_off[] = {
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames),
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs_irq),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames_irq),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs_irq),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames_irq),
	offsetof(struct ethtool_coalesce, stats_block_coalesce_usecs),
	offsetof(struct ethtool_coalesce, use_adaptive_rx_coalesce),
	offsetof(struct ethtool_coalesce, use_adaptive_tx_coalesce),
	offsetof(struct ethtool_coalesce, pkt_rate_low),
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs_low),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames_low),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs_low),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames_low),
	offsetof(struct ethtool_coalesce, pkt_rate_high),
	offsetof(struct ethtool_coalesce, rx_coalesce_usecs_high),
	offsetof(struct ethtool_coalesce, rx_max_coalesced_frames_high),
	offsetof(struct ethtool_coalesce, tx_coalesce_usecs_high),
	offsetof(struct ethtool_coalesce, tx_max_coalesced_frames_high),
	offsetof(struct ethtool_coalesce, rate_sample_interval),
};

uint32_t *np_coal_ioctl_field(struct ethtool_coalesce *c, unsigned f)
{
	return (uint32_t *)((char *)c + coal_off[f]);
}

static int ioctl_read(const char *ifname, struct np_coalesce *ret)
{
	struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
	struct np_coalesce out = { 0 };
	int r;

	r = np_ethtool_ioctl(ifname, &c);
	if (r < 0)
		return r;
	/* The ioctl does not say which fields the driver supports: it reports
	 * zero for the others, and the kernel refuses a nonzero value for
	 * them.  Claim only the fields the driver filled in, so the planner
	 * never plans a write the driver would refuse; a field left at zero
	 * is merely not tuned. */
	for (unsigned f = 0; f < NP_ARRAY_SIZE(coal_off); f++) {
		out.val[f] = *np_coal_ioctl_field(&c, f);
		if (out.val[f])
			out.supported |= 1u << f;
	}
	*ret = out;
	return 0;
}

static int ioctl_set(const char *ifname, const struct np_coalesce *want, uint32_t fields)
{
	struct ethtool_coalesce c = { .cmd = ETHTOOL_GCOALESCE };
	int r;

	if (fields & ~((1u << NP_ARRAY_SIZE(coal_off)) - 1))
		return -EOPNOTSUPP;
	r = np_ethtool_ioctl(ifname, &c);
	if (r < 0)
		return r;
	for (unsigned f = 0; f < NP_ARRAY_SIZE(coal_off); f++)
		if (fields & (1u << f))
			*np_coal_ioctl_field(&c, f) = want->val[f];
	c.cmd = ETHTOOL_SCOALESCE;
	return np_ethtool_ioctl(ifname, &c);
}

int np_ethnl_read_coalesce(struct np_ethnl *nl, const char *ifname, struct np_coalesce *c)
{
	*c = (struct np_coalesce){ 0 };
	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_COALESCE_GET))
		return ioctl_read(ifname, c);
	return np_ethnl_get(nl, np_ethnl_req(nl, ETHTOOL_MSG_COALESCE_GET, ifname, 0),
			    coalesce_cb, c);
}

int np_ethnl_set_coalesce(struct np_ethnl *nl, const struct np_dev *dev,
			  const struct np_coalesce *want, uint32_t fields, struct np_error *err)
{
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	fields &= (UINT64_C(1) << NP_COAL__COUNT) - 1;
	if (!fields)
		return 0;
	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_COALESCE_SET)) {
		r = ioctl_set(dev->ifname, want, fields);
	} else {
		nlh = np_ethnl_req(nl, ETHTOOL_MSG_COALESCE_SET, dev->ifname, 0);
		for (unsigned f = 0; f < NP_COAL__COUNT; f++) {
			if (!(fields & (1u << f)))
				continue;
			if (is_u8(f))
				mnl_attr_put_u8(nlh, ETHTOOL_A_COALESCE_RX_USECS + f, !!want->val[f]);
			else
				mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_USECS + f, want->val[f]);
		}
		r = np_ethnl_request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	}
	return r < 0 ? np_ethnl_set_failed(err, r, "coalesce", NULL, extack) : 0;
}
