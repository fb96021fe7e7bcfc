/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Channels (ethtool -l/-L): CHANNELS_GET/SET, or ETHTOOL_[GS]CHANNELS. */
#include <errno.h>

#include "ethnl.h"

int np_ethnl_parse_channels(const void *msg, size_t len, struct np_channels *c)
{
	const struct nlattr *tb[ETHTOOL_A_CHANNELS_MAX + 1];

	if (np_ethnl_attrs(msg, len, tb, ETHTOOL_A_CHANNELS_MAX) < 0)
		return -EPROTO;
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_RX_MAX], &c->max_rx);
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_TX_MAX], &c->max_tx);
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_OTHER_MAX], &c->max_other);
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_COMBINED_MAX], &c->max_combined);
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_RX_COUNT], &c->rx);
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_TX_COUNT], &c->tx);
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_OTHER_COUNT], &c->other);
	np_ethnl_u32(tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT], &c->combined);
	return 0;
}

static int channels_cb(const void *msg, size_t len, void *arg)
{
	return np_ethnl_parse_channels(msg, len, arg);
}

static int ioctl_read(const char *ifname, struct np_channels *ret)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int r;

	r = np_ethtool_ioctl(ifname, &ch);
	if (r < 0)
		return r;
	*ret = (struct np_channels){
		.rx = ch.rx_count, .tx = ch.tx_count,
		.other = ch.other_count, .combined = ch.combined_count,
		.max_rx = ch.max_rx, .max_tx = ch.max_tx,
		.max_other = ch.max_other, .max_combined = ch.max_combined,
	};
	return 0;
}

static int ioctl_set(const char *ifname, const struct np_channels *want)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	int r;

	/* Start from the device's own answer so the maxima and any count the
	 * driver cannot change go back exactly as it gave them. */
	r = np_ethtool_ioctl(ifname, &ch);
	if (r < 0)
		return r;
	if (ch.max_rx)
		ch.rx_count = want->rx;
	if (ch.max_tx)
		ch.tx_count = want->tx;
	if (ch.max_other)
		ch.other_count = want->other;
	if (ch.max_combined)
		ch.combined_count = want->combined;
	ch.cmd = ETHTOOL_SCHANNELS;
	return np_ethtool_ioctl(ifname, &ch);
}

int np_ethnl_read_channels(struct np_ethnl *nl, const char *ifname, struct np_channels *c)
{
	*c = (struct np_channels){ 0 };
	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_CHANNELS_GET))
		return ioctl_read(ifname, c);
	return np_ethnl_get(nl, np_ethnl_req(nl, ETHTOOL_MSG_CHANNELS_GET, ifname, 0),
			    channels_cb, c);
}

int np_ethnl_set_channels(struct np_ethnl *nl, const struct np_dev *dev,
			  const struct np_channels *want, struct np_error *err)
{
	const struct np_channels *lim = dev->channels.err ? want : &dev->channels;
	char extack[sizeof(err->extack)] = "";
	struct nlmsghdr *nlh;
	int r;

	if (!np_ethnl_has_op(nl, ETHTOOL_MSG_CHANNELS_SET)) {
		r = ioctl_set(dev->ifname, want);
	} else {
		nlh = np_ethnl_req(nl, ETHTOOL_MSG_CHANNELS_SET, dev->ifname, 0);
		/* A kind the device does not have (max 0) is left out: the
		 * kernel would refuse even a zero for some drivers. */
		if (lim->max_rx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_RX_COUNT, want->rx);
		if (lim->max_tx)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_TX_COUNT, want->tx);
		if (lim->max_other)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_OTHER_COUNT, want->other);
		if (lim->max_combined)
			mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, want->combined);
		r = np_ethnl_request(nl, nlh, NULL, NULL, extack, sizeof(extack));
	}
	return r < 0 ? np_ethnl_set_failed(err, r, "channels", NULL, extack) : 0;
}
