/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ring sizes (ethtool -g/-G): RINGS_GET/SET, or ETHTOOL_[GS]RINGPARAM. */
#include <errno.h>

#include "ethnl.h"

int np_ethnl_parse_rings(const void *msg, size_t len, struct np_rings *g)
{
	const struct nlattr *tb[ETHTOOL_A_RINGS_MAX + 1];

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_RINGS_MAX) < 0)
		return -EPROTO;
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_RX_MAX], &g->max_rx);
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_RX_MINI_MAX], &g->max_rx_mini);
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_RX_JUMBO_MAX], &g->max_rx_jumbo);
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_TX_MAX], &g->max_tx);
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_RX], &g->rx);
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_RX_MINI], &g->rx_mini);
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_RX_JUMBO], &g->rx_jumbo);
	np_ethnl_u32(tb[ETHTOOL_A_RINGS_TX], &g->tx);
	return 0;
}

static int rings_cb(const void *msg, size_t len, void *arg)
{
	return np_ethnl_parse_rings(msg, len, arg);
}

static int ioctl_read(const char *ifname, struct np_rings *ret)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	int r;

	r = np_ethtool_ioctl(ifname, &rp);
	if (r < 0)
		return r;
	*ret = (struct np_rings){
		.rx = rp.rx_pending, .rx_mini = rp.rx_mini_pending,
		.rx_jumbo = rp.rx_jumbo_pending, .tx = rp.tx_pending,
		.max_rx = rp.rx_max_pending, .max_rx_mini = rp.rx_mini_max_pending,
		.max_rx_jumbo = rp.rx_jumbo_max_pending, .max_tx = rp.tx_max_pending,
	};
	return 0;
}

static int ioctl_set(const char *ifname, const struct np_rings *want)
{
	struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
	int r;

	r = np_ethtool_ioctl(ifname, &rp);
	if (r < 0)
		return r;
	if (rp.rx_max_pending)
		rp.rx_pending = want->rx;
	if (rp.rx_mini_max_pending)
		rp.rx_mini_pending = want->rx_mini;
	if (rp.rx_jumbo_max_pending)
		rp.rx_jumbo_pending = want->rx_jumbo;
	if (rp.tx_max_pending)
		rp.tx_pending = want->tx;
	rp.cmd = ETHTOOL_SRINGPARAM;
	return np_ethtool_ioctl(ifname, &rp);
}

int np_ethnl_read_rings(struct np_ethnl *nl, const char *ifname, struct np_rings *g)
{
	*g = (struct np_rings){ 0 };
	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_RINGS_GET))
		return ioctl_read(ifname, g);
	return np_ethnl_get(nl, np_ethnl_req(nl, ETHTOOL_MSG_RINGS_GET, ifname, 0), rings_cb, g);
}

int np_ethnl_set_rings(struct np_ethnl *nl, const struct np_dev *dev, const struct np_rings *want,
		       struct np_error *err)
{
	const struct np_rings *lim = dev->rings.err ? want : &dev->rings;
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_RINGS_SET)) {
		r = ioctl_set(dev->ifname, want);
	} else {
		nlh = np_ethnl_req(nl, ETHTOOL_MSG_RINGS_SET, dev->ifname, 0);
		if (lim->max_rx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX, want->rx);
		if (lim->max_rx_mini)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_MINI, want->rx_mini);
		if (lim->max_rx_jumbo)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_JUMBO, want->rx_jumbo);
		if (lim->max_tx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX, want->tx);
		r = np_ethnl_request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	}
	return r < 0 ? np_ethnl_set_failed(err, r, "rings", NULL, extack) : 0;
}
